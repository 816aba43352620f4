#!/usr/bin/env python3
"""Generate the browser client's data assets from the games' data files.

Through Ice and Snow's board needs its static content too (the map with both sides
of every section, the action board, the tracks and every card with its name and a
one-line effect); :func:`erebus.games.iceandsnow.wire_content.content_document`
makes it from the engine's data and this tool writes it to
``iceandsnow-content.json`` (docs/iceandsnow-wire.md describes it).

The web client draws Northwest Passage's board and tiles itself, so it needs the
board layout, the tile set and every orientation of every tile (terrain turned,
symbol square moved) exactly as the engine sees them.  Rather than repeating
the engine's geometry in JavaScript, this tool writes them out once from the
engine's own data and :class:`~erebus.games.northwest.geometry.Geometry`, and
``tests/northwest/test_web_assets.py`` fails when a committed asset differs from what this
tool makes now (a data file changed and the asset was not regenerated).

Usage::

    PYTHONPATH=src .venv/bin/python tools/gen_web_assets.py            # rewrite the assets
    PYTHONPATH=src .venv/bin/python tools/gen_web_assets.py --check    # exit 1 if one is stale
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from erebus.games.iceandsnow.content import default_content as iceandsnow_content
from erebus.games.iceandsnow.wire_content import content_document
from erebus.games.northwest.content import TOKEN_KINDS, default_content
from erebus.games.northwest.geometry import Geometry, rotate_grid

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "src" / "erebus" / "web"

NORTHWEST_COMMENT = (
    "Generated from erebus.games.northwest data (tiles.json, board.json, geometry "
    "orientations) for the web client. orientations[i] = [tile_index, side, rotation, w, h, "
    "terrain rows, symbol, symbol square [dx,dy]]"
)


def _northwest_data(name: str) -> Any:
    """One of the packaged Northwest data files, parsed (JSON order kept)."""
    ref = resources.files("erebus.games.northwest").joinpath("data", name)
    return json.loads(ref.read_text(encoding="utf-8"))


def northwest_tiles() -> dict[str, Any]:
    """The document of ``northwest-tiles.json``.

    ``board`` is ``board.json`` without its comment; ``ids`` the engine's tile
    indices (tiles, then printed squares); ``tiles`` the tile set with every
    tile's ``pile`` given (``null`` for large tiles); ``orients_of[t]`` the
    orientation indices of tile ``t`` (side-major, 4 rotations each) and
    ``orientations`` those orientations, as the engine numbers them.
    """
    geo = Geometry(default_content())
    board = {k: v for k, v in _northwest_data("board.json").items() if k != "_comment"}
    tiles = [
        {"id": t["id"], "size": t["size"], "pile": t.get("pile"), "sides": t["sides"]}
        for t in _northwest_data("tiles.json")["tiles"]
    ]
    orientations: list[list[Any]] = []
    for o in geo.orientations:
        face = geo.tiles[o.tile].sides[o.side]
        orientations.append(
            [
                o.tile,
                o.side,
                o.rotation,
                o.w,
                o.h,
                list(rotate_grid(face.terrain, o.rotation)),
                TOKEN_KINDS[o.symbol - 1] if o.symbol else None,
                list(geo.xy(o.symbol_at)) if o.symbol_at >= 0 else None,
            ]
        )
    return {
        "_comment": NORTHWEST_COMMENT,
        "board": board,
        "ids": geo.all_ids,
        "tiles": tiles,
        "orients_of": [list(ids) for ids in geo.orients_of],
        "orientations": orientations,
    }


def compact(doc: dict[str, Any]) -> str:
    """The asset's exact text: compact JSON on one line (it is fetched, not read)."""
    return json.dumps(doc, separators=(",", ":"))


ASSETS: dict[str, Callable[[], str]] = {
    "northwest-tiles.json": lambda: compact(northwest_tiles()),
    "iceandsnow-content.json": lambda: compact(content_document(iceandsnow_content())),
}
"""Each generated asset, by its path under ``src/erebus/web/``, and what makes its text."""


def stale(web: Path = WEB) -> list[str]:
    """The assets under ``web`` whose committed text is not what the tool makes now."""
    out = []
    for name, make in ASSETS.items():
        path = web / name
        if not path.exists() or path.read_text(encoding="utf-8") != make():
            out.append(name)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="only report stale assets")
    args = parser.parse_args(argv)
    if args.check:
        bad = stale()
        for name in bad:
            print(f"{name} is stale: rerun tools/gen_web_assets.py")
        if not bad:
            print("web assets are up to date")
        return 1 if bad else 0
    for name, make in ASSETS.items():
        (WEB / name).write_text(make(), encoding="utf-8")
        print(f"wrote {WEB / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
