"""Classroom controls: open a share link, show the current one, and download the matrices."""

from __future__ import annotations

from functools import partial

import streamlit as st

from attnviz.errors import AttnvizInputError
from attnviz.export import FORMATS
from attnviz.playground import PlaygroundState
from attnviz.share import PARAM, decode, encode
from attnviz.ui.state import set_state

_LINK_CHECKED = "share_link_checked"  # session key: the link in the address is applied once, on the first run


def restore_from_link(page: str) -> None:
    """On a session's first run, loads the state from ``?s=…`` and goes to the page the link names.

    ``page`` is the name (see ``attnviz.share.PAGES``) of the page calling this. A bad link shows its message and
    leaves the defaults in place. Later reruns do nothing, so the user's changes are never overwritten.
    """
    if st.session_state.get(_LINK_CHECKED):
        return
    st.session_state[_LINK_CHECKED] = True
    link = st.query_params.get(PARAM)
    if link is None:
        return
    try:
        shared = decode(link)
    except AttnvizInputError as error:
        del st.query_params[PARAM]  # don't leave a broken link in the address bar to be copied on
        st.error(f"{error} The default settings are shown instead.")
        return
    set_state(shared.state)
    if shared.page != page:
        st.switch_page(f"pages/{shared.page}.py", query_params={PARAM: link})


def share_link_box(state: PlaygroundState, page: str) -> None:
    """A "Copy share link" control, and the browser's address kept equal to the link for ``state`` on ``page``."""
    try:
        link = encode(state, page)
    except AttnvizInputError as error:
        st.query_params.pop(PARAM, None)  # an older link in the address would no longer match the page
        st.caption(str(error))
        return
    if st.query_params.get(PARAM) != link:
        st.query_params[PARAM] = link
    base = st.context.url  # the app's address with the page path, without the query; None outside a browser
    with st.popover("Copy share link", icon=":material/link:"):
        if base:
            st.code(f"{base}?{PARAM}={link}", language=None, wrap_lines=True)
            st.caption(
                "Opening this link shows this page with the Playground's setup: its sentence, every setting and every "
                "edited value. (The sliders of the guided pages are not in it.)"
            )
        else:
            st.code(f"?{PARAM}={link}", language=None, wrap_lines=True)
            st.caption("Add this to the end of the app's address to open exactly this setup.")


def export_buttons(state: PlaygroundState) -> None:
    """Download buttons for the matrices as CSV tables, JSON and NumPy; each file is built only when clicked."""
    for column, export_format in zip(st.columns(len(FORMATS)), FORMATS, strict=True):
        column.download_button(
            f"Download {export_format.label}",
            data=partial(export_format.build, state),
            file_name=export_format.file_name(state),
            mime=export_format.mime,
            on_click="ignore",
            icon=":material/download:",
            key=f"export_{export_format.extension}",
        )
