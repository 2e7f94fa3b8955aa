"""MkDocs hook: the players' rules pages, which ship inside the package
(``python/cardcore/rules/<game>.md``), become the site's ``rules/<game>.md`` pages, and a page
the ``Rules`` section of ``nav`` does not list yet joins it under its own heading (a new game's
page needs no edit of ``mkdocs.yml``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

RULES = Path(__file__).resolve().parents[2] / "python" / "cardcore" / "rules"


def _pages() -> list[Path]:
    return sorted(RULES.glob("*.md"))


def on_config(config: Any) -> Any:
    for item in config["nav"] or []:
        if isinstance(item, dict) and isinstance(item.get("Rules"), list):
            section: list[Any] = item["Rules"]
            listed = {v for entry in section for v in entry.values()}
            for page in _pages():
                path = f"rules/{page.name}"
                if path not in listed:
                    title = page.read_text(encoding="utf-8").partition("\n")[0].lstrip("# ")
                    section.append({title: path})
    return config


def on_files(files: Files, config: Any) -> Files:
    for page in _pages():
        files.append(File.generated(config, f"rules/{page.name}", content=page.read_text()))
    return files
