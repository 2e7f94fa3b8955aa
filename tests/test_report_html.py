"""The HTML report: self-contained, and its plots render in headless Chromium."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardcore.cli import cli

pytest.importorskip("matplotlib")

FIXTURE = Path(__file__).parent / "data" / "report-three-thirteen.jsonl"


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("html") / "report.html"
    r = CliRunner().invoke(cli, ["report", str(FIXTURE), "--html", str(out)])
    assert r.exit_code == 0, r.output
    return out


def test_page_is_self_contained_and_deterministic(page: Path, tmp_path: Path) -> None:
    text = page.read_text()
    assert not re.search(r"(src|href)\s*=\s*['\"]?(https?:)?//", text)  # nothing to fetch
    assert "<script" not in text
    assert text.count("<svg") >= 6
    for title in ("Win rate per agent", "Score distribution", "Mean points per round", "ratings"):
        assert title in text
    again = tmp_path / "again.html"
    r = CliRunner().invoke(cli, ["report", str(FIXTURE), "--format", "html"])
    again.write_text(r.output)
    assert again.read_text().strip() == text.strip()


def test_plots_render_in_headless_chromium(page: Path, browser: Any, tmp_path: Path) -> None:
    from PIL import Image

    tab = browser.new_page(viewport={"width": 1280, "height": 1600})
    try:
        tab.goto(page.as_uri())
        figures = tab.evaluate(
            "() => [...document.querySelectorAll('figure svg')].map(s => {"
            " const r = s.getBoundingClientRect();"
            " return [r.width, r.height, s.querySelectorAll('path').length]; })"
        )
        tab.locator(".plots").scroll_into_view_if_needed()
        shot = tmp_path / "plots.png"
        tab.locator(".plots").screenshot(path=str(shot))
    finally:
        tab.close()
    assert len(figures) >= 6
    for width, height, paths in figures:
        assert width > 200
        assert height > 100
        assert paths > 5
    image = Image.open(shot).convert("RGB")
    colours = {c: n for n, c in image.getcolors(maxcolors=1 << 24)}  # type: ignore[union-attr]
    # matplotlib's first three line colours are drawn: the plots rendered
    for rgb in ((31, 119, 180), (255, 127, 14), (44, 160, 44)):
        near = sum(
            n  # type: ignore[misc]
            for c, n in colours.items()
            if max(abs(a - b) for a, b in zip(c, rgb, strict=True)) < 30  # type: ignore[arg-type]
        )
        assert near > 200, rgb
