"""The Playground's session, whatever hosts it (the Streamlit app, a notebook widget): the state shown, the state
before the last move (what the orange boxes compare against), the undo stack, predict mode's answers (the Playground's
and the guided pages', by question: attnviz.lessons.questions) and the mask question's picks, and the state the page
around the views was last drawn from. Immutable: every move returns a new session.

``apply(event)`` is the one way a control beside the views or a click on them becomes a move. An event is what the
views component sends (attnviz/component): ``{"control": field or action, "value": v}``, ``{"cell": {"view",
"row", "col"}}`` (a cell or a row label: its row becomes the focus), or ``{"guess": {...}}`` (a click on a covered
view), or ``{"edit": {...}}`` (a cell typed or a block pasted into the Q, K and V tables: attnviz.component.edits).
Anything else changes nothing; a value its control refuses changes nothing, and says why (``Said.refused``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from attnviz.component.edits import MAX_ID_CHARS, typed_block
from attnviz.core.errors import AttnvizInputError
from attnviz.core.limits import MAX_UNDO
from attnviz.core.playground_state import PlaygroundState, same_vectors
from attnviz.lessons import predictions
from attnviz.lessons.playground import OPENING, undone_line
from attnviz.lessons.questions import Answers
from attnviz.lessons.table_words import UNREADABLE
from attnviz.playground.controls import ACTIONS, CONTROLS, set_field
from attnviz.playground.tables import typed_into


@dataclass(frozen=True)
class Said:
    """What a move says: ``warnings`` (a refused value, what a move took away), a ``confirmation`` (what a move did
    that is not seen at a glance: Undo, Randomise), and why a value from the views was ``refused``: in a browser only a
    value from before a change (a focus row past a shortened sentence) or a crafted one, which a page need not say."""

    warnings: tuple[str, ...] = ()
    confirmation: str | None = None
    refused: str | None = None
    at_tables: str | None = None  # why a cell typed or a block pasted into the Q, K and V tables was not taken


@dataclass(frozen=True)
class Session:
    state: PlaygroundState = OPENING
    previous: PlaygroundState | None = None  # the state before the last move: what the views' boxes compare against
    undo_stack: tuple[PlaygroundState, ...] = ()  # the states before each move, latest last (at most MAX_UNDO)
    answers: Answers = field(default_factory=Answers)  # predictions: the Playground's and the guided pages'
    picks: tuple[PlaygroundState, tuple[int, ...]] = (OPENING, ())  # the mask question's keys clicked, and on which
    drawn_outside: PlaygroundState | None = None  # the state the page around the views was last drawn from
    words_outside: bool = False  # whether that page said what a move said (a warning, a confirmation)
    said: Said = field(default_factory=Said)  # what the last move said
    last_edit: str = ""  # the id of the last edit of the tables applied or refused (the browser waits for it)

    # ------------------------------------------------------------------------- moves

    def moved(self, state: PlaygroundState, *warnings: str | None, undoable: bool = True) -> Session:
        """``state`` made current; the one it replaces is what Undo goes back to (unless ``undoable`` is False)."""
        said = Said(tuple(w for w in warnings if w))
        if state == self.state:
            return replace(self, said=said)
        stack = (*self.undo_stack[-MAX_UNDO + 1 :], self.state) if undoable else self.undo_stack
        return replace(self, state=state, previous=self.state, undo_stack=stack, said=said)

    def set_up(self, state: PlaygroundState) -> Session:
        """A fresh start that is still a move (a challenge's starting state): Undo takes it back, but the views compare
        it with nothing, as it is no change to count or box."""
        return replace(self.moved(state), previous=None)

    def started_from(self, state: PlaygroundState, *warnings: str | None) -> Session:
        """A share link's state: current, with nothing before it to undo or to compare with."""
        return replace(self.moved(state, *warnings, undoable=False), previous=None, undo_stack=())

    def confirmed(self, state: PlaygroundState, confirmation: str) -> Session:
        """A move that says what it did (Randomise)."""
        return replace(self.moved(state), said=Said(confirmation=confirmation))

    def undone(self) -> Session:
        """Back to the state before the last move, saying what came back."""
        if not self.undo_stack:
            return replace(self, said=Said())
        earlier = self.undo_stack[-1]
        back = replace(self, undo_stack=self.undo_stack[:-1]).moved(earlier, undoable=False)
        return replace(back, said=Said(confirmation=undone_line(self.state, earlier)))

    def apply(self, event) -> Session:
        """The move an event from the views makes (see the module's docstring)."""
        if not isinstance(event, dict) or (len(event) != 1 and set(event) != {"control", "value"}):
            return replace(self, said=Said())
        if "control" in event:
            return self._controlled(event["control"], event.get("value"))
        if "edit" in event:
            return self._typed(event["edit"])
        if "cell" in event:
            cell = event["cell"]
            return self._controlled("focus", cell.get("row") if isinstance(cell, dict) else None)
        return self._guessed(event.get("guess"))

    def _controlled(self, name, value) -> Session:
        if name in ACTIONS:  # Undo: the only action
            return self.undone()
        if name not in CONTROLS:
            return replace(self, said=Said())
        try:
            return self.moved(*set_field(self.state, name, value))
        except AttnvizInputError as error:  # the state kept
            return replace(self.moved(self.state), said=Said(refused=str(error)))

    def _typed(self, sent) -> Session:
        """A cell typed or a block pasted into the Q, K and V tables: a move, or refused whole with a message at the
        tables. An edit sent again (its echo was late) is the same edit: nothing more happens."""
        block, sent_id = typed_block(sent), sent.get("id") if isinstance(sent, dict) else None
        if sent_id == self.last_edit:
            return self
        if block is None:  # crafted: refused, and echoed if it has an id, so the browser sends the next edit
            echoed = sent_id if isinstance(sent_id, str) and len(sent_id) <= MAX_ID_CHARS else self.last_edit
            return replace(self.moved(self.state), said=Said(at_tables=UNREADABLE), last_edit=echoed)
        try:
            new = typed_into(self.state, block)
        except AttnvizInputError as error:
            return replace(self.moved(self.state), said=Said(at_tables=str(error)), last_edit=block.id)
        return replace(self.moved(new), last_edit=block.id)

    def _guessed(self, sent) -> Session:
        """A click on a covered view: what it predicts is kept (the mask question's clicks pick keys until its Check),
        and the change the question asks about (if any) is made, so the reveal shows its effect."""
        question = self.question()
        if (keys := question.picked(sent)) is not None:
            return replace(self, picks=(self.state, keys), said=Said())
        guess = question.answer(sent)
        if not self.state.predict or guess is None:
            return replace(self, said=Said())
        return replace(
            self.moved(predictions.outcome(self.state)), answers=self.answers.with_answer(question.key, guess)
        )

    def answered(self, key: tuple, guess) -> Session:
        """A guided page's question (attnviz.lessons.questions.RowQuestion) answered: kept beside the Playground's."""
        return replace(self, answers=self.answers.with_answer(key, guess))

    def drawn(self) -> Session:
        """The page around the views has been drawn from the current state, with what the last move said."""
        return replace(self, drawn_outside=self.state, words_outside=bool(self.said.warnings or self.said.confirmation))

    # ------------------------------------------------------------------------- what it holds

    @property
    def can_undo(self) -> bool:
        return bool(self.undo_stack)

    def question(self) -> predictions.PlaygroundQuestion:
        """The question predict mode asks about the state shown now (the mask question's keys picked so far in it)."""
        return predictions.PlaygroundQuestion(self.state, self.current_picks())

    def asked(self) -> tuple[predictions.Guess, PlaygroundState] | None:
        """Once the student has clicked a prediction for the state shown now: (the prediction, the state it was asked
        on). None until then: the weights and outputs stay covered. Any change asks again."""
        made = self.last_prediction()
        return made if made is not None and predictions.outcome(made[1]) == self.state else None

    def last_prediction(self) -> tuple[predictions.Guess, PlaygroundState] | None:
        """The student's last prediction on the Playground, whatever is shown now: (the prediction, the state it was
        asked on)."""
        made = self.answers.newest(predictions.ASKER)
        return None if made is None else (made[1], made[0][1])

    def current_picks(self) -> tuple[int, ...]:
        """The keys clicked so far for the mask question asked now (any change starts the set again)."""
        return self.picks[1] if self.picks[0] == self.state else ()

    def needs_full_run(self, *, open_tab_follows_views: bool) -> bool:
        """True when a run of the views alone made the current state after a change something outside the views shows:
        any change when the open tab follows the views, else new table data or a sentence (Undo) or words said, now
        or by the move the page last showed (a message belongs to its move: gone at the next)."""
        drawn = self.drawn_outside
        if drawn is None or drawn == self.state:
            return False
        said = bool(self.said.warnings or self.said.confirmation) or self.words_outside
        return (
            open_tab_follows_views or tables_differ(drawn, self.state) or drawn.sentence != self.state.sentence or said
        )


def tables_differ(old: PlaygroundState, new: PlaygroundState) -> bool:
    """Whether the Q, K and V tables' data differ other than by the user's typing (which the tables already show)."""
    return not same_vectors(old, new) or not set(old.edits) <= set(new.edits)
