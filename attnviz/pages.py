"""The table of pages: the router, share links, settings persistence and the tests all read it from here.

Each page is the file ``pages/<name>.py``; ``name`` is also what a share link says to open.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Page:
    name: str
    title: str
    icon: str
    keeps_settings: bool = False  # a guided page whose sliders and inputs survive a visit to another page
    compact: bool = False  # tighter spacing: the page's controls and the charts they change fit one laptop screen
    shows_vectors: bool = False  # draws the Playground's own Q, K and V (a head imported from a real model's too)
    draws_views: bool = False  # draws matrices with the views component: the router sends its script once a run

    @property
    def file(self) -> str:
        return f"pages/{self.name}.py"


PAGES = (
    Page("playground", "Playground", ":material/tune:", compact=True, shows_vectors=True, draws_views=True),
    Page(
        "step_by_step",
        "Step by step",
        ":material/stairs:",
        keeps_settings=True,
        compact=True,
        shows_vectors=True,
        draws_views=True,
    ),
    Page("geometry", "Geometry of dot products", ":material/architecture:", keeps_settings=True),
    Page("why_scale", "Why we scale", ":material/balance:", keeps_settings=True, compact=True),
    Page("multi_head", "Multi-head and projections", ":material/hub:", keeps_settings=True, draws_views=True),
    Page("watch_it_learn", "Watch it learn", ":material/model_training:", keeps_settings=True, compact=True),
    Page(
        "real_model",
        "Real model",
        ":material/psychology:",
        keeps_settings=True,
        compact=True,
        shows_vectors=True,
        draws_views=True,
    ),
    Page("challenges", "Challenges", ":material/emoji_events:"),
    Page("lesson_plans", "Lesson plans", ":material/co_present:"),
)
PAGE_NAMES = tuple(page.name for page in PAGES)
DEFAULT_PAGE = PAGES[0].name


def page_named(name: str) -> Page:
    return next(page for page in PAGES if page.name == name)
