"""MkDocs hook: the players' rules pages, which ship inside the package
(``python/cardcore/rules/<game>.md``), become the site's ``rules/<game>.md`` pages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

RULES = Path(__file__).resolve().parents[2] / "python" / "cardcore" / "rules"


def on_files(files: Files, config: Any) -> Files:
    for page in sorted(RULES.glob("*.md")):
        files.append(File.generated(config, f"rules/{page.name}", content=page.read_text()))
    return files
