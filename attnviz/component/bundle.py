"""The attention-grid component's ES modules (attnviz/component) as the one script each host takes: Streamlit
v2 components (entries index.js, each views element's, and shared.js, the page's one instrument) and an anywidget
(entry widget.js, attnviz.notebook). Neither host can load sibling modules: a v2 component serves a folder of files
only from an installed package (attnviz runs as `streamlit run app.py` from a checkout), and an anywidget's module is
inline. Here, without Streamlit, so that both hosts join the same files: each module's body in a scope of its own, its
`import { a } from './m.js'` lines turned into `const { a } = <m's exports>`, its exports returned. The files stay
real ES modules: ESLint lints them and Node's test runner imports them (tests/js). Only this small form is read:
single-line named imports of sibling modules, and `export` before a function, class or const declaration (the entry's
`export default function` is kept as it is; a named one, in a module another entry imports, becomes a plain function).
"""

from __future__ import annotations

import re
from pathlib import Path

GRID = Path(__file__).parent  # the ES modules beside this file, read by path
ENTRY = "index.js"  # a views element's; the page's instrument's is "shared.js", the widget's "widget.js"
_IMPORT = re.compile(r"^import \{ ([\w, ]+) \} from '\./([\w-]+)\.js';$", re.MULTILINE)
_EXPORT = re.compile(r"^export (?:async )?(?:function\*? |class |const |let )(\w+)", re.MULTILINE)
_OTHER_ENTRY = re.compile(r"^export default function (?=\w)", re.MULTILINE)


def bundle(folder: Path = GRID, entry: str = ENTRY) -> str:
    """The script: every module reachable from ``entry``, each before the modules that import it."""
    sources = {path.stem: path.read_text(encoding="utf-8") for path in folder.glob("*.js")}
    order: list[str] = []

    def visit(name: str, path: tuple[str, ...] = ()) -> None:
        if name in path:
            raise ValueError(f"import cycle: {' → '.join((*path, name))}")
        if name in order:
            return
        if name not in sources:
            raise ValueError(f"{path[-1]}.js imports ./{name}.js, which is not in {folder}")
        for _, imported in _IMPORT.findall(sources[name]):
            visit(imported, (*path, name))
        order.append(name)

    visit(Path(entry).stem)
    parts = [_scoped(name, sources[name]) for name in order[:-1]]
    return "\n".join([*parts, _imports_resolved(sources[order[-1]])])


def _scoped(name: str, source: str) -> str:
    exported = _EXPORT.findall(source)
    body = _EXPORT.sub(lambda match: match[0].removeprefix("export "), _imports_resolved(source))
    body = _OTHER_ENTRY.sub("function ", body)  # an entry imported by another (index.js by shared.js): unused there
    if re.search(r"^export ", body, re.MULTILINE):
        raise ValueError(f"{name}.js: only `export` before a function, class or const declaration is bundled")
    return f"const {_exports_of(name)} = (() => {{\n{body}\nreturn {{ {', '.join(exported)} }};\n}})();\n"


def _imports_resolved(source: str) -> str:
    if re.search(r"^import ", _IMPORT.sub("", source), re.MULTILINE):
        raise ValueError("only single-line named imports of sibling modules are bundled")
    return _IMPORT.sub(lambda match: f"const {{ {match[1]} }} = {_exports_of(match[2])};", source)


def _exports_of(name: str) -> str:
    return "__module_" + re.sub(r"\W", "_", name)
