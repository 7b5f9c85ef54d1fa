"""Every sentence the app writes comes from a function of the state, in attnviz.lessons, never assembled in a page
(pages/*.py) or in the app's Streamlit parts (attnviz/ui/*.py). The rule, read from the code's syntax tree: a call of a
Streamlit text element (st.markdown, st.caption, … below) or of the app's message functions (say, confirm, …) must
not be handed words it builds itself: an f-string, words joined with + or %, or str.format, any of them with a letter
in its own text once HTML tags are taken out (a wrapper of markup around words made elsewhere is not a sentence). A
name handed over is followed to its assignment in the same function. The ones that still assemble words are listed,
each by its file and its first words, and the list only shrinks."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).parents[2]
WHERE = ("pages/*.py", "attnviz/ui/*.py")
SAID_BY = {
    "markdown",
    "caption",
    "warning",
    "info",
    "success",
    "error",
    "header",
    "subheader",
    "title",
    "write",
    "toast",
    "text",
    # the app's own: what a move, a share or a table says on the page (attnviz/ui/state.py, attnviz/playground)
    "say",
    "confirm",
    "confirmed",
    "say_at_share",
    "keep_table_messages",
}
_TAG = re.compile(r"<[^<>]*>")
_LETTER = re.compile(r"[^\W\d_]")  # a letter of any script

# Sentences still assembled: none now; one that must stay is listed here with its reason.
ASSEMBLED_STILL: set[tuple[str, str]] = set()


def _own_text(node: ast.expr) -> str:
    """The words a built text writes itself: its string constants (what it inserts counted as a gap)."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else " "
    if isinstance(node, ast.JoinedStr):
        return "".join(_own_text(part) if isinstance(part, ast.Constant) else "\x00" for part in node.values)
    if isinstance(node, ast.BinOp):
        return _own_text(node.left) + _own_text(node.right)
    return "\x00"


def builds_words(node: ast.expr) -> bool:
    """Whether ``node`` assembles a sentence: an f-string, a + or % of text, or a str.format, with a letter of its own
    outside HTML tags."""
    for part in ast.walk(node):
        if isinstance(part, ast.Call) and isinstance(part.func, ast.Attribute) and part.func.attr == "format":
            built = part.func.value
        elif isinstance(part, ast.JoinedStr) or (
            isinstance(part, ast.BinOp) and isinstance(part.op, (ast.Add, ast.Mod))
        ):
            built = part
        else:
            continue
        if _LETTER.search(_TAG.sub("", _own_text(built))):
            return True
    return False


def _said_by(call: ast.Call) -> str | None:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    return name if name in SAID_BY else None


def assembled_in(source: str) -> set[str]:
    """The first words of every text ``source`` builds itself and hands to a text element or a message function."""
    found = set()
    tree = ast.parse(source)
    for scope in [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))]:
        named = {
            n.targets[0].id: n.value
            for n in ast.walk(scope)
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
        }
        for call in (n for n in ast.walk(scope) if isinstance(n, ast.Call) and _said_by(n)):
            for handed in [*call.args, *(k.value for k in call.keywords if k.arg == "body")]:
                built = named.get(handed.id) if isinstance(handed, ast.Name) else handed
                if built is not None and builds_words(built):
                    found.add(ast.unparse(built)[:40])
    return found


def assembled() -> set[tuple[str, str]]:
    return {
        (str(path.relative_to(REPO)), words)
        for pattern in WHERE
        for path in sorted(REPO.glob(pattern))
        for words in assembled_in(path.read_text(encoding="utf-8"))
    }


def test_no_page_or_ui_module_assembles_a_new_sentence():
    assert assembled() - ASSEMBLED_STILL == set(), "words built outside attnviz.lessons: write them there"


def test_the_list_of_places_still_assembling_words_only_shrinks():
    assert ASSEMBLED_STILL - assembled() == set(), "moved to attnviz.lessons: take it off ASSEMBLED_STILL"


def test_the_rule_finds_what_it_is_meant_to_and_nothing_else():
    """The rule itself, on small sources: each of these was, or would be, a sentence assembled in a page."""
    built = [
        'st.caption(f"Not yet. Hint: {hint}")',
        'st.caption("Show me: " + "; then ".join(played))',
        'st.warning("%d tokens" % n)',
        'st.info("{} is new".format(word))',
        'st.markdown(f"**Challenge:** {goal}")',
        'st.error(literal(f"{problem} The default settings are shown."))',
        'def f(seed):\n    said = f"New random vectors from seed {seed}."\n    confirm(said)',
        'state.say_at_share(f"Added as step {n} of your lesson.")',
        'st.markdown(f"<p>Sinks: {share}</p>")',
    ]
    kept = [
        "st.caption(words.not_yet_line(hint))",
        'st.markdown(f"<style>{css}</style>{skip}")',
        "st.markdown(f'<h1 class=\"attnviz-unseen\">{html.escape(text)}</h1>')",
        'st.caption(words.a(x) + " " + words.b(y))',
        'st.markdown(f"**{title}** · {count}")',
        'log.warning("refused %s", what)',  # a log line: not a text element's first words
        'st.caption("Scan it, or open:")',
    ]
    assert all(assembled_in(source) for source in built), [s for s in built if not assembled_in(s)]
    assert not any(assembled_in(source) for source in kept), [s for s in kept if assembled_in(s)]
