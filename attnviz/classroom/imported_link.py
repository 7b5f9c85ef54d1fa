"""A head imported from a real model in a share link: its Q, K and V (every number in the shortest text that reads
back to the same float32), its title, and the model's tokens. Only a short sentence's head fits in a link."""

from __future__ import annotations

import numpy as np

from attnviz.core.errors import AttnvizInputError
from attnviz.core.imported_head import ImportedHead
from attnviz.core.limits import MAX_DIM, MAX_LINK_CHARS, MAX_TITLE_CHARS, MAX_TOKEN_CHARS, MAX_TOKENS
from attnviz.core.playground_state import MATRICES, PlaygroundState
from attnviz.playground import fields as check

# Measured: a float32 in its shortest text, compressed and base64-encoded, takes about 7 characters of a link.
CHARS_PER_NUMBER = 7


def check_size(state: PlaygroundState) -> None:
    """A head whose numbers outnumber the link's characters can't fit: said before any packing is tried."""
    if state.imported is not None and _numbers_in(state.imported) > MAX_LINK_CHARS:
        raise AttnvizInputError(too_large(state.imported, _numbers_in(state.imported) * CHARS_PER_NUMBER))


def _numbers_in(head: ImportedHead) -> int:
    return head.Q.size + head.K.size + head.V.size


def too_large(head: ImportedHead, characters: int) -> str:
    """Why the head is not in a link, and how many tokens' worth would fit (the head's own characters a token)."""
    fits = max(1, head.Q.shape[0] * MAX_LINK_CHARS // characters)
    return (
        f"This imported head is too large to share as a link: the link would carry all {_numbers_in(head):,} "
        f"numbers of its Q, K and V, about {characters:,} characters, and a link holds {MAX_LINK_CHARS:,}. "
        f"A head of a sentence of up to about {fits} tokens fits; the export buttons save every number."
    )


def head_to_wire(head: ImportedHead) -> dict:
    """The head's numbers in the shortest text that reads back to the same float32 (about 8 digits, not 17)."""
    shortest = {name: [[float(str(np.float32(x))) for x in row] for row in getattr(head, name)] for name in MATRICES}
    return {"t": head.title, "q": shortest["Q"], "k": shortest["K"], "v": shortest["V"]}


def tokens_from_wire(tokens) -> tuple[str, ...] | None:
    if tokens is None:
        return None
    if not (isinstance(tokens, list) and 1 <= len(tokens) <= MAX_TOKENS):
        raise AttnvizInputError(f"the imported tokens are not a list of 1 to {MAX_TOKENS} tokens.")
    texts = tuple(check.text(token, "an imported token") for token in tokens)
    if any(len(token) > MAX_TOKEN_CHARS for token in texts):
        raise AttnvizInputError(f"an imported token is longer than {MAX_TOKEN_CHARS} characters.")
    return texts


def head_from_wire(head) -> ImportedHead | None:
    """``{"t": title, "q": rows, "k": rows, "v": rows}`` as an ImportedHead, every number checked."""
    if head is None:
        return None
    if not (isinstance(head, dict) and set(head) == {"t", "q", "k", "v"}):
        raise AttnvizInputError("the imported head is not a title with Q, K and V.")
    title = check.text(head["t"], "the imported head's title")
    if len(title) > MAX_TITLE_CHARS:
        raise AttnvizInputError(f"the imported head's title is longer than {MAX_TITLE_CHARS} characters.")
    matrices = [_rows(head[name.lower()], name) for name in MATRICES]
    try:
        return ImportedHead(title, *matrices)
    except AttnvizInputError:
        raise AttnvizInputError("the imported head's Q, K and V don't fit together.") from None


def _rows(rows, name: str) -> list[list[float]]:
    if not (isinstance(rows, list) and 1 <= len(rows) <= MAX_TOKENS and all(isinstance(r, list) for r in rows)):
        raise AttnvizInputError(f"the imported {name} is not a list of 1 to {MAX_TOKENS} rows.")
    if len({len(row) for row in rows}) != 1 or not 1 <= len(rows[0]) <= MAX_DIM:
        raise AttnvizInputError(f"the imported {name}'s rows are not all 1 to {MAX_DIM} numbers long.")
    return [[check.cell_value(value, f"a number of the imported {name}") for value in row] for row in rows]
