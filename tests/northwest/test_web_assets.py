"""The browser's generated data assets are what ``tools/gen_web_assets.py`` makes now.

A changed data file (a tile redrawn, the board moved) must show up in the client;
regenerating each asset in memory and comparing it with the committed file makes a
forgotten ``tools/gen_web_assets.py`` run fail here rather than in a browser.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from erebus.games.northwest.content import default_content
from erebus.games.northwest.geometry import Geometry
from support.tools import load_tool


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    return load_tool("gen_web_assets")


def test_committed_assets_are_up_to_date(tool: ModuleType) -> None:
    for name, make in tool.ASSETS.items():
        committed = (tool.WEB / name).read_text(encoding="utf-8")
        assert committed == make(), f"{name} is stale: rerun tools/gen_web_assets.py"
    assert tool.stale() == []
    assert tool.main(["--check"]) == 0


def test_a_stale_or_missing_asset_is_reported(tool: ModuleType, tmp_path: Path) -> None:
    for name in tool.ASSETS:  # the other assets up to date, so only this one is stale
        (tmp_path / name).write_text((tool.WEB / name).read_text(encoding="utf-8"), "utf-8")
    doc = json.loads((tool.WEB / "northwest-tiles.json").read_text(encoding="utf-8"))
    doc["tiles"][0]["sides"]["a"]["terrain"] = ["lll", "lll"]
    (tmp_path / "northwest-tiles.json").write_text(tool.compact(doc), encoding="utf-8")
    assert tool.stale(tmp_path) == ["northwest-tiles.json"]
    (tmp_path / "northwest-tiles.json").unlink()
    assert tool.stale(tmp_path) == ["northwest-tiles.json"]


def test_northwest_tiles_follow_the_engine_geometry(tool: ModuleType) -> None:
    doc = tool.northwest_tiles()
    geo = Geometry(default_content())
    assert doc["ids"] == geo.all_ids
    assert len(doc["orientations"]) == len(geo.orientations)
    assert doc["orients_of"] == [list(ids) for ids in geo.orients_of]
    for row, o in zip(doc["orientations"], geo.orientations, strict=True):
        tile, side, rotation, w, h, terrain, _symbol, square = row
        assert (tile, side, rotation, w, h) == (o.tile, o.side, o.rotation, o.w, o.h)
        assert len(terrain) == h + 1 and all(len(r) == w + 1 for r in terrain)
        assert (square is None) == (o.symbol_at < 0)
    assert doc["board"]["width"] == geo.W and doc["board"]["height"] == geo.H
