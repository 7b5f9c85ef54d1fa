"""The Playground as a notebook widget: the app's controls and four views, on the same immutable state and the same
moves (attnviz.core.playground_state, attnviz.playground.controls), so a notebook and the app give the same numbers.

Every field of the state a user sets is a trait under its own name. Setting one from Python makes the move and
redraws; a control or a click in the widget makes the same move and updates the traits. A value the move refuses
raises AttnvizInputError (from Python) and is said in the widget; the last good state is kept."""

from __future__ import annotations

import traitlets

from attnviz.core.errors import AttnvizInputError
from attnviz.core.playground_state import PlaygroundState
from attnviz.lessons.playground import OPENING
from attnviz.notebook.host import FONT_SIZE, HEIGHT, GridWidget
from attnviz.playground.controls import CONTROLS, SETTINGS, set_field
from attnviz.playground.session import Session
from attnviz.playground.views import playground_data

# The state's fields a user sets, from the one table (attnviz.playground.controls), in the order settings are
# applied: the settings above the views first (a seed, then an example, which sets the sentence, sizes and toggles its
# own way, then the sentence and sizes), then the controls beside the views the example's may be changed by.
FIELDS = (*SETTINGS, *CONTROLS)
# One trait a field, under its own name. Any: every value reaches the app's own check for its field, and is refused in
# its words, not traitlets'.
_Fields = type("_Fields", (traitlets.HasTraits,), {field: traitlets.Any().tag(sync=True) for field in FIELDS})


def moved(state: PlaygroundState, field: str, value) -> tuple[PlaygroundState, str | None]:
    """``state`` with ``field`` set to ``value`` by the app's own check and move for it, and what to say (or None).
    AttnvizInputError, in words for a student, if the check or the move refuses the value."""
    return set_field(state, field, list(value) if isinstance(value, tuple) else value)  # said: the first 128 tokens


def field_value(state: PlaygroundState, field: str):
    """A field as its trait holds it: blocked keys as a list, the example by its key."""
    value = getattr(state, field)
    return list(value) if isinstance(value, tuple) else value


class Playground(_Fields, GridWidget):  # the fields first: a trait "focus", not the widget's method
    """The Playground in a notebook cell. ``Playground(causal=True, sentence="The cat sat.")``: any of ``FIELDS``
    as a keyword; it opens on the app's first screen otherwise. ``.state`` is the PlaygroundState, ``.result`` its
    AttentionResult (attnviz.attention's, every intermediate)."""

    def __init__(self, **settings) -> None:
        unknown = sorted(set(settings) - set(FIELDS))
        if unknown:
            raise TypeError(f"Playground() takes the state's fields {', '.join(FIELDS)}; not {', '.join(unknown)}.")
        state, said = OPENING, None
        for field in sorted(settings, key=FIELDS.index):
            state, now_said = moved(state, field, settings[field])  # a bad setting raises: no widget half made
            said = now_said or said
        self._syncing = True  # traitlets' own set-up sets each trait: taken as it is
        super().__init__()
        self._session = Session(state=state)
        self._commit(self._session, said)

    @property
    def _state(self) -> PlaygroundState:
        return self._session.state

    @traitlets.validate(*FIELDS)
    def _move(self, proposal):
        field = proposal["trait"].name
        if self._syncing:  # the traits shown the state's values
            return proposal["value"]
        try:
            new, said = moved(self._state, field, proposal["value"])
        except AttnvizInputError as error:
            self._commit(self._session, str(error))  # said in the widget, the last good state kept
            raise
        self._commit(self._session.moved(new), said, skip=field)
        return field_value(new, field)

    def _handle(self, event: dict) -> None:
        """A control's change or a click in the widget, made a move as the app's session makes it (attnviz.playground.
        session): a field, Undo, a row, or a prediction on a covered view."""
        after = self._session.apply(event)
        said = after.said
        self._commit(after, said.refused or said.confirmation or next(iter(said.warnings), None))

    def _commit(self, session: Session, said: str | None = None, *, skip=None) -> None:
        """Makes ``session`` current, shows its state in every trait but ``skip`` (being set now) and redraws,
        saying ``said`` above the views."""
        self._session = session
        self._syncing = True
        try:
            with self.hold_trait_notifications():
                for field in FIELDS:
                    if field != skip:
                        setattr(self, field, field_value(session.state, field))
        finally:
            self._syncing = False
        data = playground_data(
            session.state, session.previous, session.asked(), font_size=FONT_SIZE, height=HEIGHT,
            can_undo=session.can_undo, warning=said, picks=session.current_picks(),
        )  # fmt: skip
        self._draw(data)
