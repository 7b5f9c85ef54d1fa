"""The short address a class joins a question by, and its QR code: the app's own address (as the teacher's browser
reached it, so it holds behind a proxy or under a sub-path) plus ``?join=<code>``. The code alone opens the asked
setup (the tally keeps it with the question: attnviz.classroom.tally)."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

import segno

from attnviz.lessons import predictions
from attnviz.pages import PAGE_NAMES

PARAM = "join"  # the query parameter: ?join=K7P2QX
QR_BORDER = 4  # the quiet zone the QR standard asks for, in modules: a phone finds the code on a busy slide


def app_root(page_url: str | None) -> str | None:
    """The app's address from a page's (``https://host/sub/geometry`` → ``https://host/sub``), or None if unknown."""
    if not page_url:
        return None
    root = page_url.split("?", 1)[0].split("#", 1)[0].removesuffix("/")
    last = root.rsplit("/", 1)[-1]
    return root.removesuffix("/" + last) if last in PAGE_NAMES else root


def join_address(root: str | None, code: str) -> str:
    """What a student types, or what the QR code opens: the full address if the app's is known, else the part to
    add to it."""
    return f"{root or ''}/?{PARAM}={code}" if root else f"?{PARAM}={code}"


def qr_image(address: str, side_px: int) -> str:
    """An ``<img>`` of the QR code of ``address``, drawn as SVG (segno) at most ``side_px`` square, whose alt text is
    the address: a reader hears what a phone would open."""
    qr = segno.make(address, error="m")  # medium error correction: a glare or a pointer on the projection is forgiven
    uri = qr.svg_data_uri(border=QR_BORDER, dark="#000", light="#fff", omitsize=True)
    alt = f"QR code of the join address {address}"
    # At most side_px, and never taller than 62 % of the screen (the address fits under it); centred in its place.
    size = f"display:block;margin:auto;width:min(100%,{side_px}px,62vh);aspect-ratio:1;image-rendering:pixelated"
    return f'<img class="attnviz-qr" src="{escape(uri)}" alt="{escape(alt)}" style="{size}">'


@dataclass(frozen=True)
class AnswerLine:
    """Where a student's class answer stands, said under the view they answer on: ``tone`` is "ok" (counted), "warn"
    (not counted, or kept until it can be) or "info" (nothing to count yet, or on its way)."""

    text: str
    tone: str


def answer_line(
    *, code: str | None, refused: bool, kept, answers_asked: bool, on_asked: bool, heard: bool, sent
) -> AnswerLine | None:
    """The line for a student who joined ``code`` (None: no code accepted), whose typed code was ``refused`` or not,
    whose last prediction is ``kept`` ((state asked on, option) or None) and ``answers_asked`` or another setup, who is
    on the asked setup or not (``on_asked``), whose browser has or has not sent its id yet (``heard``), and whose last
    answer sent is ``sent`` ((code, kept, why it was refused or None) or None). None where there is nothing to say: no class, or a code refused with no answer kept
    (the box says why)."""
    if refused or code is None:
        return AnswerLine("Your answer is kept: it is sent once the right code is typed.", "warn") if kept else None
    if not on_asked:
        return AnswerLine(f"Not counted: this is not the setup the class question {code} asks about.", "warn")
    if kept is None or not answers_asked:
        return AnswerLine(f"Your predictions count for the class question {code}.", "info")
    if not heard or sent is None or sent[:2] != (code, kept):
        return AnswerLine(f"Sending your answer to the class question {code}…", "info")
    if sent[2]:
        return AnswerLine(sent[2], "warn")
    option = predictions.options(kept[0])[kept[1]]
    return AnswerLine(f"Counted for the class question {code}: {option}. A new answer here replaces it.", "ok")
