"""User text on a page: shown exactly as typed, never as formatting. Every page shows user text through here."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import streamlit as st

from attnviz.core.text import plain

# Everything Streamlit's markdown gives a meaning to: emphasis, code, links, headings, lists, tables, LaTeX ($),
# colour and icon directives (:red[…]), HTML.
_MARKDOWN_SPECIALS = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>$:&=])")
# GFM makes links of www.…, http(s)://… and name@host.tld after markdown's escapes are read, so a backslash can't stop
# it: a word joiner (U+2060: no width, not spoken by screen readers) after "www", "http(s):" and "@" does.
_AUTOLINK_STARTS = re.compile(r"(?i)(?<=www)(?=\.)|(?<=https:)|(?<=http:)|(?<=@)")
WORD_JOINER = "\u2060"


def literal(text: str) -> str:
    """``plain(text)`` escaped for st.markdown, st.warning and friends, so "**bold** $x$ [a](b) www.a.org" shows just
    like that, with no link (a share link can carry "foo\\n===" or an indented line, which markdown would turn into a
    heading or a code block)."""
    return _MARKDOWN_SPECIALS.sub(r"\\\1", _AUTOLINK_STARTS.sub(WORD_JOINER, plain(text)))


# A compact page's spacing (attnviz.pages.Page.compact): its controls and the charts they change on one laptop screen.
_COMPACT_CSS = """
[data-testid="stMainBlockContainer"] { padding-top: 3.6rem; padding-bottom: 1rem; }
[data-testid="stVerticalBlock"] { gap: 0.45rem; }
[data-testid="stMain"] h1 { font-size: 1.45rem !important; line-height: 1.3 !important; padding: 0 !important; }
[data-testid="stMain"] h2 { font-size: 1.5rem !important; line-height: 1.3 !important; padding: 0.25rem 0 0 !important; }
.attnviz-chips { display: flex; flex-wrap: wrap; gap: 0.3rem; margin: 0.2rem 0 0.4rem; }
.attnviz-chip { border: 1px solid rgba(128,128,128,0.45); border-radius: 1rem; padding: 0.05rem 0.55rem;
  font-size: 0.95rem; unicode-bidi: isolate; }
.attnviz-chip small { opacity: 0.6; }
/* A phone stacks columns: Step by step's pictures (its last column) come first, its Back, Next and stage list right
   under them, instead of the list ~800 px above what it changes. The Real model's check, whose switch sits right
   above its own map, stays after the head's map it checks. */
@media (max-width: 640px) {
  [data-testid="stHorizontalBlock"]:has([data-testid="stRadio"]):not(:has(.st-key-rm_explain))
    > [data-testid="stColumn"]:last-child { order: -1; }
}
"""


# Streamlit's switches, tick boxes and radio buttons show no keyboard focus of their own (a radio's is a pale fill, about
# 1.2 : 1): a ring in the text's own colour, which contrasts with both themes' backgrounds (WCAG 2.1, 2.4.7 and 1.4.11).
_FOCUS_CSS = """
/* scripts and styles, nothing to see: they take no room */
.st-key-keyboard, .st-key-browser_voter, .st-key-class-resend, .st-key-instrument { display: none; }
/* The lesson's and the challenge's bars: one compact row above the page, which keeps the screen. */
.attnviz-unseen { position: absolute !important; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%);
  padding: 0 !important; margin: 0 !important; white-space: nowrap; }
.attnviz-status { font-size: 0.875rem; margin: 0; }
.st-key-lesson_bar, .st-key-challenge_bar { padding: 0.3rem 0.75rem !important; gap: 0.2rem !important; }
.st-key-lesson_bar p, .st-key-challenge_bar p { margin-bottom: 0; }
/* Streamlit pulls a text up by the 1rem under its last paragraph, which the bars take away: two lines overflowed. */
:is(.st-key-lesson_bar, .st-key-challenge_bar) :is([data-testid="stMarkdownContainer"], [data-testid="stCaptionContainer"]) {
  margin-bottom: 0 !important; }
/* The goal stays in sight on a long page (on a phone the Playground's controls hold the top instead). */
@media (min-width: 641px) {
  /* (Sticky on the container's wrapper, which is as tall as the container: a narrow :has(), as a broad one would
     restyle the whole page on every change.) */
  [data-testid="stLayoutWrapper"]:is(:has(> .st-key-challenge_bar), :has(> .st-key-page_controls)) {
    position: sticky; top: 3.75rem; z-index: 30; }
  .st-key-challenge_bar { background: var(--attnviz-page-bg, Canvas); }
  /* A guided page's sizes stay in sight of the charts they change, 900–1,500 px further down (sticky_controls). */
  .st-key-page_controls { background: var(--attnviz-page-bg, Canvas); padding-bottom: 0.3rem;
    border-bottom: 1px solid rgba(128, 128, 128, 0.35); }
  /* What the keyboard, a link or a lesson's step scrolls to lands below the header and such a bar, not under them
     (WCAG 2.2, 2.4.11): the header, a bar of one row of widgets and a view's title, in either mode (in presenter mode
     rem is larger, and so are they). */
  [data-testid="stMain"] { scroll-padding-top: 9.75rem; }
}
/* The Playground's introduction, or what the last move said in its place: one height, so nothing below moves. */
.st-key-playground_said { min-height: 2.9rem; justify-content: center; }
.st-key-playground_said [data-testid="stAlertContainer"] { padding: 0.3rem 0.8rem; }
/* On a phone the last move's confirmation (Randomise's, Undo's) stands at the foot of the screen, wherever the student
   has scrolled to (the views, the Q, K and V tab): at the top of the page it was out of sight. */
@media (max-width: 640px) { .st-key-playground_confirmed { position: fixed; left: 0.5rem; right: 0.5rem; bottom: 0.5rem;
  z-index: 40; width: auto !important; border-radius: 0.5rem; background: var(--attnviz-page-bg, Canvas);
  box-shadow: 0 2px 10px rgba(0, 0, 0, 0.3); } }
/* The navigation shows its focus as a pill, the one the current page already has (1.1 : 1): a ring in the text's colour
   (WCAG 2.4.7, 1.4.11). */
[data-testid="stTopNavLink"]:focus-visible { outline: 2px solid currentColor !important; outline-offset: -2px; }
/* "Skip to the views": seen only while it has the keyboard's focus (a page without views: to its content). No rule
   hides it by asking the page whether it has views: such a :has() restyled all of Multi-head on every change. */
.attnviz-skip { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.attnviz-skip:focus { position: fixed; top: 0.6rem; left: 0.6rem; z-index: 1000200; width: auto; height: auto;
  clip-path: none; padding: 0.4rem 0.8rem; border-radius: 0.4rem; background: var(--attnviz-page-bg, Canvas);
  outline: 2px solid currentColor; }
/* A phone's formulas a little smaller: a worked line of two products fits its 358 px. A chart's toolbar (eight
   buttons, 224 px) sits in a strip of its own above the chart, not over its title and labels. */
@media (max-width: 640px) { [data-testid="stMain"] .katex-display { font-size: 0.8em; }
  [data-testid="stPlotlyChart"] { padding-top: 1.9rem; }
  [data-testid="stPlotlyChart"] .modebar-container { top: -1.9rem !important; } }
[data-testid="stCheckbox"] label:has(input:focus-visible),
[data-testid="stRadio"] label:has(input:focus-visible) { outline: 2px solid currentColor; outline-offset: 2px;
  border-radius: 0.3rem; }
"""


# Keys pressed while a rerun is in flight, and the focus a rerun would drop (attnviz/ui/keyboard.js).
_KEYBOARD_JS = (Path(__file__).parent / "keyboard.js").read_text(encoding="utf-8")
_KEYBOARD = st.components.v2.component("attnviz_keyboard", js=_KEYBOARD_JS)


def page_style(*, compact: bool, more_css: str = "") -> None:
    """Drawn by app.py on every page: the focus rings, a compact page's spacing and ``more_css``, and the link that skips
    to the views, in one element (each element is a message to the browser, and a class's load counts them),
    then the keyboard's helpers (_KEYBOARD_JS)."""
    css = _FOCUS_CSS + (_COMPACT_CSS if compact else "") + more_css
    skip = '<a class="attnviz-skip" href="#stMain">Skip to the views</a>'  # keyboard.js moves the focus to them
    st.markdown(f"<style>{css}</style>{skip}", unsafe_allow_html=True)
    _KEYBOARD(key="keyboard")


def unseen_heading(text: str) -> None:
    """The page's h1 for screen readers only, where something else takes its room on screen."""
    st.markdown(f'<h1 class="attnviz-unseen">{html.escape(text)}</h1>', unsafe_allow_html=True)


def token_chips(tokens) -> None:
    """Tokens as chips with their positions. HTML typed in the sentence shows as text."""
    chips = "".join(
        f'<span class="attnviz-chip"><small>{i}</small>&nbsp;{html.escape(token)}</span>'
        for i, token in enumerate(tokens)
    )
    st.markdown(f'<div class="attnviz-chips" dir="auto">{chips}</div>', unsafe_allow_html=True)


@contextmanager
def named_table(name: str, key: str) -> Iterator[None]:
    """Holds one table (st.dataframe) and names it ``name`` for screen readers: Streamlit draws its
    grid on a canvas with no name, so keyboard.js gives the canvas this hidden line's text (aria-label)."""
    with st.container(key=f"named-table-{key}", gap=None):
        st.markdown(f'<span class="attnviz-table-name" hidden>{html.escape(name)}</span>', unsafe_allow_html=True)
        yield
