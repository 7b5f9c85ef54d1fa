"""The Playground as a notebook widget: the app's controls and four views, and under them Q, K and V to type into, on
the same immutable state and the same moves (attnviz.core.playground_state, attnviz.playground.controls,
attnviz.playground.tables), so a notebook and the app give the same numbers.

Every field of the state a user sets is a trait under its own name. Setting one from Python makes the move and
redraws; a control or a click in the widget makes the same move and updates the traits. A value the move refuses
raises AttnvizInputError (from Python) and is said in the widget; the last good state is kept.

Q, K and V are drawn by the same component as three more views of the one instrument (one data, one queue of edits,
one handler): a cell typed or a block pasted into one is a move of the session (Undo takes it back), or is refused
whole with its reason under that table. The traits ``Q``, ``K`` and ``V`` hold the matrices (lists of rows of floats)
after every move; they are read-only from Python (a value is typed into the widget)."""

from __future__ import annotations

import traitlets

from attnviz.component.data import plain_labels
from attnviz.core.errors import AttnvizInputError
from attnviz.core.playground_state import MATRICES, PlaygroundState
from attnviz.core.text import plain
from attnviz.lessons.playground import OPENING, TYPING_HELP
from attnviz.notebook.host import FONT_SIZE, HEIGHT, GridWidget
from attnviz.playground.controls import CONTROLS, SETTINGS, set_field
from attnviz.playground.session import Session
from attnviz.playground.tables import table_views
from attnviz.playground.views import playground_data

# The state's fields a user sets, from the one table (attnviz.playground.controls), in the order settings are
# applied: the settings above the views first (a seed, then an example, which sets the sentence, sizes and toggles its
# own way, then the sentence and sizes), then the controls beside the views the example's may be changed by.
FIELDS = (*SETTINGS, *CONTROLS)
# One trait a field, under its own name. Any: every value reaches the app's own check for its field, and is refused in
# its words, not traitlets'.
_Fields = type("_Fields", (traitlets.HasTraits,), {field: traitlets.Any().tag(sync=True) for field in FIELDS})
# Q, K and V as they are now, one trait a matrix: shown, not set (read_only: the widget sets them by set_trait).
_Matrices = type(
    "_Matrices", (traitlets.HasTraits,), {name: traitlets.List(read_only=True).tag(sync=True) for name in MATRICES}
)


def moved(state: PlaygroundState, field: str, value) -> tuple[PlaygroundState, str | None]:
    """``state`` with ``field`` set to ``value`` by the app's own check and move for it, and what to say (or None).
    AttnvizInputError, in words for a student, if the check or the move refuses the value."""
    return set_field(state, field, list(value) if isinstance(value, tuple) else value)  # said: the first 128 tokens


def field_value(state: PlaygroundState, field: str):
    """A field as its trait holds it: blocked keys as a list, the example by its key."""
    value = getattr(state, field)
    return list(value) if isinstance(value, tuple) else value


def with_tables(data: dict, session: Session, aimed: str) -> dict:
    """The Playground's data (``playground_data``) with Q, K and V after its four views, as views a student types
    into (attnviz.playground.tables), and ``edited``, the id of the last edit the session applied or refused. Under
    the table ``aimed`` at, why that edit was refused; under V, what a cell takes."""
    said = session.said.at_tables
    lines = {"V": {"text": plain(TYPING_HELP), "tone": "info"}}
    if said:
        lines[aimed] = {"text": plain(said), "tone": "warn"}
    tables = [plain_labels(view) | ({"line": lines[view["name"]]} if view["name"] in lines else {})
              for view in table_views(session.state, FONT_SIZE)]  # fmt: skip
    return data | {"views": [*data["views"], *tables], "edited": session.last_edit}


def aimed_at(event: dict, fallback: str) -> str:
    """The table an edit event names (a refusal is said under it); ``fallback`` for any other event."""
    edit = event.get("edit") if isinstance(event, dict) else None
    view = edit.get("view") if isinstance(edit, dict) else None
    return view if view in MATRICES else fallback


class Playground(_Fields, _Matrices, GridWidget):  # the fields first: a trait "focus", not the widget's method
    """The Playground in a notebook cell. ``Playground(causal=True, sentence="The cat sat.")``: any of ``FIELDS``
    as a keyword; it opens on the app's first screen otherwise. ``.state`` is the PlaygroundState, ``.result`` its
    AttentionResult (attnviz.attention's, every intermediate). ``.Q``, ``.K`` and ``.V`` are the matrices typed into
    under the views (read-only here: setting one raises traitlets.TraitError)."""

    def __init__(self, **settings) -> None:
        unknown = sorted(set(settings) - set(FIELDS))
        if unknown:
            raise TypeError(f"Playground() takes the state's fields {', '.join(FIELDS)}; not {', '.join(unknown)}.")
        state, said = OPENING, None
        for field in sorted(settings, key=FIELDS.index):
            state, now_said = moved(state, field, settings[field])  # a bad setting raises: no widget half made
            said = now_said or said
        self._syncing = True  # traitlets' own set-up sets each trait: taken as it is
        self._aimed = MATRICES[0]  # the table the last edit was typed into: its refusal is said under it
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
        self._aimed = aimed_at(event, self._aimed)
        after = self._session.apply(event)
        said = after.said
        self._commit(after, said.refused or said.confirmation or next(iter(said.warnings), None))

    def _commit(self, session: Session, said: str | None = None, *, skip=None) -> None:
        """Makes ``session`` current, shows its state in every trait but ``skip`` (being set now) and in ``Q``, ``K``
        and ``V``, and redraws, saying ``said`` above the views (and a refused edit under its table)."""
        self._session = session
        self._syncing = True
        try:
            with self.hold_trait_notifications():
                for field in FIELDS:
                    if field != skip:
                        setattr(self, field, field_value(session.state, field))
                for name, values in zip(MATRICES, session.state.matrices(), strict=True):
                    self.set_trait(name, values.tolist())
        finally:
            self._syncing = False
        data = playground_data(
            session.state, session.previous, session.asked(), font_size=FONT_SIZE, height=HEIGHT,
            can_undo=session.can_undo, warning=said, picks=session.current_picks(),
        )  # fmt: skip
        self._draw(with_tables(data, session, self._aimed))
