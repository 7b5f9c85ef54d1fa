"""Classroom controls: open a share link, show the current one, and download the matrices."""

from __future__ import annotations

from functools import partial

import streamlit as st

from attnviz.classroom.export import FORMATS
from attnviz.classroom.share import PARAM, decode, encode
from attnviz.core.errors import AttnvizInputError
from attnviz.core.playground_state import RANDOM, load_example, set_sentence
from attnviz.lessons import app_words
from attnviz.pages import page_named
from attnviz.ui import playground_host, state
from attnviz.ui.lesson_plan import add_this_setup
from attnviz.ui.presenter import presenting, set_presenting
from attnviz.ui.text import literal

# What a link (and so a reload, which reopens the address) does not bring back, on purpose: the link carries the
# shared setup, and a guided page's sliders are one student's exploration of it, kept for as long as the tab is open.
PER_TAB = (
    "The page's own settings (Geometry's arrows among them) and presenter mode are in it too; Multi-head's edited X "
    "and Watch it learn's trained runs are not: they last while this tab is open, and a reload starts them afresh."
)


def restore_from_link(page: str) -> None:
    """On a session's first run, loads the state from ``?s=…`` and goes to the page the link names.

    ``page`` is the name (see ``attnviz.pages``) of the page calling this. With several ``s=`` values the first
    one that opens wins: a damaged copy never hides a good link, and of two different good links the first is kept
    (and the Playground says so). When none opens, the first one's problem is shown and the defaults stay. Later
    reruns do nothing, so the user's changes are never overwritten.
    """
    if not state.first_run():
        return
    opened, problems = [], []
    for link in st.query_params.get_all(PARAM):
        try:
            opened.append((decode(link), link))
        except AttnvizInputError as error:
            problems.append(str(error))
    if not opened:
        if problems:
            del st.query_params[PARAM]  # don't leave a broken link in the address bar to be copied on
            st.error(app_words.link_refused(literal(problems[0])))
        return
    (shared, link), views = opened[0], len({view for view, _ in opened})
    typed = shared.state.model_tokens is None  # a head's link shows its model's tokens, not the sentence's
    too_long = set_sentence(shared.state, shared.state.sentence)[1] if typed else None  # what typing it would say
    two_links = f"The address holds {views} different share links; the first one is shown." if views > 1 else None
    playground_host.start_from(shared.state, too_long, two_links)  # said on the Playground, like any move's message
    for name, value in shared.settings:  # the page's own setup: a stage, a d_k, a model
        state.set_setting(shared.page, name, value)
    set_presenting(shared.presenter)
    if shared.page != page:
        st.switch_page(page_named(shared.page).file, query_params={PARAM: link})
    st.query_params[PARAM] = link  # the one link that opened, alone in the address


# The address bar holds the share link at every moment (keep_address), so the box shows the address itself, read when
# the box opens: one element that never changes, instead of the link drawn anew on every toggle.
_ADDRESS_JS = """
export default function ({ parentElement }) {
  const code = parentElement.querySelector('code'), button = parentElement.querySelector('button');
  const show = () => { code.textContent = location.href; };
  show();
  if (parentElement.watching) return;
  parentElement.watching = new IntersectionObserver((seen) => seen.some((e) => e.isIntersecting) && show());
  parentElement.watching.observe(code);
  button.addEventListener('click', async () => {
    show();
    try {
      await navigator.clipboard.writeText(location.href);
      button.textContent = 'Copied';
    } catch { // no clipboard outside https and localhost: select the link for Ctrl+C instead
      getSelection().selectAllChildren(code);
      button.textContent = 'Selected: press Ctrl+C';
    }
    setTimeout(() => { button.textContent = 'Copy'; }, 2500);
  });
}
"""
_ADDRESS_CSS = """
.attnviz-address { display: block; padding: 0.4rem 0.5rem; border-radius: 0.4rem; word-break: break-all;
  font-size: 0.8rem; background: rgba(128, 128, 128, 0.15); }
.attnviz-copy { margin-top: 0.4rem; font: inherit; font-size: 0.85rem; padding: 0.15rem 0.6rem; cursor: pointer;
  border-radius: 0.4rem; border: 1px solid rgba(128, 128, 128, 0.5); background: transparent; color: inherit; }
"""
_ADDRESS = st.components.v2.component(
    "attnviz_address",
    html='<code class="attnviz-address"></code><button type="button" class="attnviz-copy">Copy</button>',
    js=_ADDRESS_JS,
    css=_ADDRESS_CSS,
    isolate_styles=False,
)


def keep_address(page: str) -> str | None:
    """Puts the link for the Playground state on ``page`` in the browser's address; returns why it can't, or None."""
    try:
        link = _link(page)
    except AttnvizInputError as error:
        st.query_params.pop(PARAM, None)  # an older link in the address would no longer match the page
        return str(error)
    # Sent on every run, even when the address the browser reported already holds it: with fast clicking, a run
    # that was cut short may still have put its own link in the address after the browser's report was sent.
    st.query_params[PARAM] = link
    return None


def _link(page: str) -> str:
    """The link for the Playground state on ``page``. A page that does not draw the Playground's vectors is shared
    whatever they are: a head imported from a real model too large for a link goes without its numbers (the link
    keeps its tokens, with random vectors)."""
    playground, settings, presenter = playground_host.playground(), state.shared_settings(page), presenting()
    try:
        return encode(playground, page, settings, presenter=presenter)
    except AttnvizInputError:
        if playground.imported is None or page_named(page).shows_vectors:
            raise
    return encode(load_example(playground, RANDOM), page, settings, presenter=presenter)


def share_link_box(page: str) -> None:
    """Keeps the browser's address equal to the link for the Playground state on ``page``, and shows it in a "Share"
    box; or says why this setup can't be shared."""
    if problem := keep_address(page):
        st.caption(problem)
    else:
        share_box(page)


def share_box(page: str) -> None:
    """The "Share" box: the browser's address (which keep_address keeps equal to the share link), read when the box
    opens, so the box itself never needs drawing again; and the button that adds this setup to a lesson plan, whose
    result pops up on the page it was pressed on (a toast: the page below does not move)."""
    if said := state.take_share_said():
        st.toast(literal(said), icon=":material/playlist_add:")
    with st.popover("Share", icon=":material/link:", width="stretch"):
        _ADDRESS(key="share.address")
        st.caption(f"{app_words.SHARE_CAPTION} {PER_TAB}")
        st.button(
            "Add to my lesson",
            icon=":material/playlist_add:",
            key="share.add_to_lesson",
            on_click=add_this_setup,
            args=(page,),
        )


def export_buttons() -> None:
    """Download buttons for the matrices as CSV tables, JSON and NumPy; each file is built only when clicked."""
    playground = playground_host.playground()
    for column, export_format in zip(st.columns(len(FORMATS)), FORMATS, strict=True):
        column.download_button(
            f"Download {export_format.label}",
            data=partial(export_format.build, playground),
            file_name=export_format.file_name(playground),
            mime=export_format.mime,
            on_click="ignore",
            icon=":material/download:",
            key=f"export_{export_format.extension}",
        )
