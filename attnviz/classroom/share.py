"""Share links: a ``PlaygroundState`` and the page shown, packed into one URL-safe query-parameter value.

Format version 1 is ``1.<payload>``: the version in clear text (so a newer link is recognised before anything is
unpacked), then base64url without padding of zlib-compressed UTF-8 JSON. The JSON is an object with one-letter keys
that holds only the fields differing from ``WIRE_DEFAULTS``; floats are written with ``repr``, which reads back to
the identical float, so the link reproduces the matrices to the last digit. The matrices themselves are not in the
link: they are derived from the example (or the seed) plus the edited cells. The one exception is a head imported
from a real model (example "imported"): its Q, K and V are in the link, every number in the shortest text that reads
back to the same float32, and its tokens with them; only a short sentence's head fits in a link.

Decoding executes nothing from the link (no pickle, no eval): it bounds the text, then the unpacked size, parses
JSON, and checks every field's type and range. Any problem raises ``AttnvizInputError`` with a message for the user.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from typing import NamedTuple

from attnviz.classroom import imported_link, page_settings
from attnviz.core.class_cache import cached_for_a_class
from attnviz.core.errors import AttnvizInputError
from attnviz.core.limits import MAX_JSON_BYTES, MAX_LINK_CHARS
from attnviz.core.playground_state import IMPORTED, MATRICES, RANDOM, PlaygroundState, sentence_with_words
from attnviz.pages import DEFAULT_PAGE, PAGE_NAMES
from attnviz.playground import fields as check
from attnviz.playground.controls import CONTROLS, SETTINGS

PARAM = "s"  # the query parameter: ?s=1.<payload>
VERSION = 1

# Part of format version 1, deliberately not read from PlaygroundState: if the app's defaults change, links
# already pasted into slides must keep their meaning.
WIRE_DEFAULTS = {
    "sentence": "The movie was not good, but the soundtrack was amazing.",
    "example": RANDOM,
    "seed": 42,
    "d_k": 4,
    "d_v": 4,
    "causal": False,
    "scale": True,
    "temperature": 1.0,
    "blocked_keys": [],
    "focus": 4,
    "edits": {},
    "page": DEFAULT_PAGE,
    "imported": None,  # added to format 1 later: links without it decode as before
    "imported_tokens": None,
    "predict": False,  # added to format 1 later, as "imported" was
    "settings": {},  # the page's own settings (attnviz.classroom.page_settings); added later too
    "presenter": False,
    "solved": [],  # older links' solved challenges: read past, never applied (progress stays with the student)
}
_WIRE_KEYS = {
    "sentence": "s",
    "example": "x",
    "seed": "r",
    "d_k": "k",
    "d_v": "v",
    "causal": "c",
    "scale": "a",
    "temperature": "t",
    "blocked_keys": "b",
    "focus": "f",
    "edits": "e",  # {"Q": [[row, column, value], ...], "K": ..., "V": ...}
    "page": "p",
    "imported": "m",  # {"t": title, "q": [[...], ...], "k": ..., "v": ...}
    "imported_tokens": "o",  # [token, ...]
    "predict": "w",  # predict mode ("what will it be?")
    "settings": "g",  # {name: value}, the shown page's
    "presenter": "P",
    "solved": "C",
}
_FIELDS = {wire_key: field for field, wire_key in _WIRE_KEYS.items()}
_VERSION_AND_PAYLOAD = re.compile(r"([0-9]{1,6})\.([A-Za-z0-9_-]+)")

DAMAGED = (
    "This share link is damaged or incomplete, perhaps cut off when it was copied. "
    "Copy the whole link again, or ask for a new one."
)


class SharedView(NamedTuple):
    state: PlaygroundState
    page: str
    settings: tuple = ()  # the page's own settings, checked (attnviz.classroom.page_settings): (name, value) pairs
    presenter: bool = False


def encode(state: PlaygroundState, page: str = DEFAULT_PAGE, settings: dict | None = None, *, presenter=False) -> str:
    """The share-link value for ``state`` shown on ``page`` with the page's own ``settings``, in presenter mode or
    not. Raises AttnvizInputError if it can't be shared. The address bar asks on every run: a link is made, and
    decoded again to check it, once a state (with its page and settings), not once a run."""
    settings = tuple(sorted((settings or {}).items()))
    try:
        hash(settings)
    except TypeError:  # a setting that is a list: made afresh
        return _encode(state, page, settings, bool(presenter))
    return _encoded(state, page, settings, bool(presenter))


def _encode(state: PlaygroundState, page: str, settings: tuple, presenter: bool) -> str:
    if state.imported is not None:  # a real model's head: one too large is said before any packing
        imported_link.check_size(state)
    extras = (("settings", dict(settings)), ("presenter", presenter))
    wire = _to_wire(state, page) | {
        _WIRE_KEYS[field]: value for field, value in extras if value != WIRE_DEFAULTS[field]
    }
    try:
        _from_wire(wire)  # a link we hand out must decode: check it with the decoder's own rules
    except AttnvizInputError as error:
        raise AttnvizInputError(f"This setup can't be shared as a link: {error}") from None
    link = f"{VERSION}.{pack(wire)}"
    if len(link) > MAX_LINK_CHARS:
        if state.imported is not None:
            raise AttnvizInputError(imported_link.too_large(state.imported, len(link)))
        raise AttnvizInputError(
            f"This setup is too large to share as a link ({len(link):,} characters; the limit is "
            f"{MAX_LINK_CHARS:,}). A shorter sentence or fewer edited cells will fit; the export buttons save "
            "every number."
        )
    return link


_encoded = cached_for_a_class(_encode)


def decode(link: str) -> SharedView:
    """The state and page in a share-link value. Raises AttnvizInputError, and nothing else, for any bad link."""
    if not isinstance(link, str):
        raise AttnvizInputError(DAMAGED)
    link = link.strip()
    if len(link) > MAX_LINK_CHARS:
        raise AttnvizInputError(
            f"This share link is too long ({len(link):,} characters; the limit is {MAX_LINK_CHARS:,}), "
            "so it was not opened."
        )
    parts = _VERSION_AND_PAYLOAD.fullmatch(link)
    if parts is None:
        raise AttnvizInputError(DAMAGED)
    version, payload = int(parts[1]), parts[2]
    if version > VERSION:
        raise AttnvizInputError(
            f"This share link was made by a newer version of attnviz (link format {version}; this app reads "
            f"format {VERSION}). Open it in the newer app, or ask for a link made with this one."
        )
    if version != VERSION:
        raise AttnvizInputError(DAMAGED)
    text = unpack(payload)
    try:
        wire = json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError):  # not JSON, or absurdly deeply nested
        raise AttnvizInputError(DAMAGED) from None
    try:
        return _from_wire(wire)
    except AttnvizInputError as error:
        raise AttnvizInputError(f"This share link has a setting attnviz can't use: {error}") from None


def pack(wire) -> str:
    """JSON (compact, no NaN), zlib, base64url without padding: the payload of a link (or of a lesson's link)."""
    text = json.dumps(wire, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return base64.urlsafe_b64encode(zlib.compress(text.encode("utf-8"), 9)).rstrip(b"=").decode("ascii")


def unpack(payload: str) -> str:
    """Base64url, then zlib with the output bounded, so a small link can't unpack to gigabytes."""
    try:
        packed = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_JSON_BYTES + 1)
    except (binascii.Error, zlib.error):
        raise AttnvizInputError(DAMAGED) from None
    if len(raw) > MAX_JSON_BYTES or inflater.unconsumed_tail:
        raise AttnvizInputError(
            f"This share link unpacks to more than {MAX_JSON_BYTES:,} bytes, far more than any real setup, "
            "so it was not opened."
        )
    if not inflater.eof or inflater.unused_data:  # cut short, or with something stuck on the end
        raise AttnvizInputError(DAMAGED)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise AttnvizInputError(DAMAGED) from None


def _reject_constant(name: str):
    raise ValueError(f"{name} is not allowed")  # JSON has no NaN or Infinity; Python's parser would accept them


# ----------------------------------------------------------------------------- the JSON object and its checks


def _to_wire(state: PlaygroundState, page: str) -> dict:
    grouped = {matrix: [] for matrix in MATRICES}
    for (matrix, row, col), value in state.edits:
        grouped[matrix].append([int(row), int(col), float(value)])
    values = {
        "sentence": state.sentence,
        "example": state.example,
        "seed": int(state.seed),
        "d_k": int(state.d_k),
        "d_v": int(state.d_v),
        "causal": bool(state.causal),
        "scale": bool(state.scale),
        "temperature": float(state.temperature),
        "blocked_keys": [int(key) for key in state.blocked_keys],
        "focus": int(state.focus),
        "edits": {matrix: cells for matrix, cells in grouped.items() if cells},
        "page": page,
        "imported": None if state.imported is None else imported_link.head_to_wire(state.imported),
        "imported_tokens": None if state.model_tokens is None else list(state.model_tokens),
        "predict": state.predict or False,  # a kind; off is the default (links from before kinds said true/false)
    }
    return {_WIRE_KEYS[field]: value for field, value in values.items() if value != WIRE_DEFAULTS[field]}


def _from_wire(wire) -> SharedView:
    """Type-checks each field, then checks the state as a whole against its own shape."""
    if not isinstance(wire, dict):
        raise AttnvizInputError("it is not a list of settings.")
    unknown = sorted(set(wire) - set(_FIELDS))
    if unknown:
        raise AttnvizInputError(f"it has a setting this version doesn't know ({unknown[0][:20]!r}).")
    fields = {field: WIRE_DEFAULTS[field] for field in _WIRE_KEYS}
    fields.update({_FIELDS[key]: value for key, value in wire.items()})

    sentence = SETTINGS["sentence"].check(fields["sentence"], None)
    imported_tokens = imported_link.tokens_from_wire(fields["imported_tokens"])
    if imported_tokens is None:  # the sentence's own tokens are attended over: refused as typing it is
        sentence_with_words(sentence)
    n = PlaygroundState(sentence=sentence, model_tokens=imported_tokens).n
    imported = imported_link.head_from_wire(fields["imported"])
    if (fields["example"] == IMPORTED) != (imported is not None):
        raise AttnvizInputError("the imported head and the example don't match.")
    example = SETTINGS["example"].check(fields["example"], PlaygroundState(source=imported or RANDOM))
    page = check.text(fields["page"], "the page")
    if page not in PAGE_NAMES:
        raise AttnvizInputError(f"there is no page called {page[:40]!r}.")
    d_k, d_v, seed = (SETTINGS[field].check(fields[field], None) for field in ("d_k", "d_v", "seed"))
    state = PlaygroundState(
        sentence=sentence,
        source=example if imported is None else imported,
        seed=seed,
        d_k=d_k,
        d_v=d_v,
        **{field: control.check(fields[field], n) for field, control in CONTROLS.items()},  # as a control's value
        edits=_edits(fields["edits"], n, {"Q": d_k, "K": d_k, "V": d_v}),
        model_tokens=imported_tokens,
    )
    presenter = check.boolean(fields["presenter"], "presenter mode")
    settings = tuple(sorted(page_settings.checked(page, fields["settings"]).items()))
    return SharedView(state, page, settings, presenter)  # a teacher's progress, or a crafted "15 of 15", stays out


def _edits(grouped, n: int, widths: dict[str, int]) -> tuple:
    """``{"Q": [[row, column, value], ...], ...}`` as the state's sorted ``((matrix, row, column), value)`` pairs."""
    if not isinstance(grouped, dict):
        raise AttnvizInputError("the edited cells are not grouped by matrix.")
    edits = {}
    for matrix, cells in grouped.items():
        if matrix not in widths:
            raise AttnvizInputError(f"there is no matrix called {str(matrix)[:10]!r}; only Q, K and V are edited.")
        if not isinstance(cells, list):
            raise AttnvizInputError(f"the edited cells of {matrix} are not a list.")
        for cell in cells:
            if not (isinstance(cell, list) and len(cell) == 3):
                raise AttnvizInputError(f"an edited cell of {matrix} is not [row, column, value].")
            row = check.whole(cell[0], f"a row of {matrix}", 0, n - 1)
            col = check.whole(cell[1], f"a column of {matrix}", 0, widths[matrix] - 1)
            if (matrix, row, col) in edits:
                raise AttnvizInputError(f"the cell {matrix}[{row}, {col}] is edited twice.")
            edits[(matrix, row, col)] = check.cell_value(cell[2], f"{matrix}[{row}, {col}]")
    return tuple(sorted(edits.items()))
