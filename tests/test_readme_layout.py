"""The README's Layout names every file of the product, each under its own folder, so a newcomer finds any behaviour
from it in one hop. A new module without a line there fails here."""

from __future__ import annotations

import fnmatch
import re
import subprocess

from tests.support.live import REPO

LISTED_FOLDERS = ("attnviz", "pages", "bench")  # and app.py at the top
LISTED_KINDS = (".py", ".js", ".css")
_NAME = re.compile(r"[\w*.-]+\.(?:py|js|css|sh)\b")


def layout_lines() -> list[str]:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Layout", 1)[1].split("```", 2)[1]
    return block.splitlines()[1:]


def indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def section(lines: list[str], folders: list[str]) -> list[str]:
    """The lines under ``folders`` (a path of folder entries, each found below the one before it)."""
    start, depth = 0, -1
    for folder in folders:
        for i in range(start, len(lines)):
            if indent(lines[i]) == depth + 1 + (depth >= 0) and lines[i].strip().startswith(f"{folder}/"):
                start, depth = i, indent(lines[i])
                break
        else:
            return []
    end = next((i for i in range(start + 1, len(lines)) if lines[i].strip() and indent(lines[i]) <= depth), len(lines))
    return lines[start:end]


def listed(lines: list[str], name: str) -> bool:
    return any(fnmatch.fnmatch(name, pattern) for line in lines for pattern in _NAME.findall(line))


def product_files() -> list[str]:
    tracked = subprocess.run(["git", "ls-files", *LISTED_FOLDERS], cwd=REPO, capture_output=True, text=True, check=True)
    return [path for path in tracked.stdout.split() if path.endswith(LISTED_KINDS)]


def test_every_product_file_is_named_under_its_folder():
    lines = layout_lines()
    missing = []
    for path in product_files():
        *folders, name = path.split("/")
        if name != "__init__.py" and not listed(section(lines, folders), name):  # a package's is its folder's line
            missing.append(path)
    assert missing == [], f"add a line for each to the README's Layout: {missing}"
    assert listed(lines, "app.py")
