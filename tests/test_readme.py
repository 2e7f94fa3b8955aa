"""The README is the package's long description (PyPI, pip show): nothing in it may point at a
file of the source tree, since an installed package has none."""

from __future__ import annotations

import re
from pathlib import Path

README = (Path(__file__).parent.parent / "README.md").read_text()


def test_no_pictures_or_relative_links() -> None:
    assert not re.findall(r"!\[[^\]]*\]\(", README)
    links = re.findall(r"\]\(([^)]+)\)", README)
    assert [u for u in links if not u.startswith(("http://", "https://"))] == []


def test_no_paths_into_docs() -> None:
    assert re.findall(r"`docs/[\w.-]+`", README) == []
