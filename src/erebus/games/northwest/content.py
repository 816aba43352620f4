"""Game content of Expedition: Northwest Passage, loaded from JSON data files.

The board, the tile set and every scoring number live in ``data/*.json`` so that
a different printing of the game (or one of our [design] choices revised) is a
data change, never a code change.  This module parses those files into frozen
dataclasses and hands them to :mod:`erebus.games.northwest.validate`, which
checks every constraint of rules section 9 before the engine sees the data.

Terrain strings use ``"l"`` for land and ``"s"`` for sea.  A tile's terrain is
given unrotated as rows of vertices from north to south, each row west to east:
a large (two-square) tile lies horizontally, 3 vertices × 2 rows; a small tile
has 2 × 2 vertices.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

TOKEN_KINDS = ("inuit", "cairn", "franklin", "strait")
"""Kinds of token that a printed symbol calls for, in the order used everywhere."""

ALL_TOKEN_KINDS = (*TOKEN_KINDS, "cartography")
"""Every kind a player can collect (Cartography comes from completing islands)."""


class ContentError(ValueError):
    """The data files break a constraint; the message lists every problem found."""


@dataclass(frozen=True, slots=True)
class TileSide:
    """One face of a tile: its vertex terrain and at most one symbol."""

    terrain: tuple[str, ...]
    symbol: str | None = None
    symbol_square: int | None = None


@dataclass(frozen=True, slots=True)
class TileDef:
    """A large (two-square, two-sided) or small (one-square) Exploration tile."""

    id: str
    size: int
    sides: dict[str, TileSide]
    pile: int | None = None

    @property
    def large(self) -> bool:
        return self.size == 2


@dataclass(frozen=True, slots=True)
class PrintedSquare:
    """A square printed on the board: fixed terrain, counts as a tile."""

    id: str
    x: int
    y: int
    corners: str  # north-west, north-east, south-east, south-west
    symbol: str | None


@dataclass(frozen=True, slots=True)
class BoardDef:
    width: int
    height: int
    rounds: int
    zones: tuple[int, ...]
    border: dict[str, str]
    printed: tuple[PrintedSquare, ...]
    arrows: dict[str, tuple[int, int]]
    sun_positions: int
    sun_start: int
    frozen_rows: dict[int, int]


@dataclass(frozen=True, slots=True)
class RulesDef:
    crew: int
    display_size: int
    action_costs: dict[str, int]
    further_action_surcharge: int
    token_supply: dict[str, int]
    token_points: dict[str, int]
    island_points: dict[int, int]
    arrow_tokens: dict[int, dict[str, tuple[int, ...]]]
    majorities: dict[str, tuple[int, ...]]
    set_points: int
    abandon_per_crewman: int
    abandon_ship: int

    def island_value(self, size: int) -> int:
        """Points for a completed island of ``size`` tiles (the largest size listed covers more)."""
        if size < min(self.island_points):
            return 0
        return self.island_points[min(size, max(self.island_points))]


@dataclass(frozen=True, slots=True)
class Content:
    board: BoardDef
    tiles: tuple[TileDef, ...]
    rules: RulesDef

    @property
    def large_tiles(self) -> tuple[TileDef, ...]:
        return tuple(t for t in self.tiles if t.large)

    @property
    def small_tiles(self) -> tuple[TileDef, ...]:
        return tuple(t for t in self.tiles if not t.large)


def _req(d: dict[str, Any], key: str, where: str) -> Any:
    if not isinstance(d, dict) or key not in d:
        raise ContentError(f"{where}: missing key {key!r}")
    return d[key]


def parse_board(d: dict[str, Any]) -> BoardDef:
    printed = tuple(
        PrintedSquare(
            id=str(_req(p, "id", "printed square")),
            x=int(_req(p, "x", "printed square")),
            y=int(_req(p, "y", "printed square")),
            corners=str(_req(p, "corners", "printed square")),
            symbol=p.get("symbol"),
        )
        for p in _req(d, "printed_squares", "board")
    )
    arrows = {
        str(name): (int(a["square"][0]), int(a["square"][1]))
        for name, a in _req(d, "arrows", "board").items()
    }
    sun = _req(d, "sun", "board")
    return BoardDef(
        width=int(_req(d, "width", "board")),
        height=int(_req(d, "height", "board")),
        rounds=int(_req(d, "rounds", "board")),
        zones=tuple(int(z) for z in _req(d, "zones", "board")),
        border={str(k): str(v) for k, v in _req(d, "border", "board").items()},
        printed=printed,
        arrows=arrows,
        sun_positions=int(_req(sun, "positions", "board.sun")),
        sun_start=int(_req(sun, "start", "board.sun")),
        frozen_rows={int(k): int(v) for k, v in _req(sun, "frozen_rows", "board.sun").items()},
    )


def parse_tiles(d: dict[str, Any]) -> tuple[TileDef, ...]:
    tiles: list[TileDef] = []
    for t in _req(d, "tiles", "tiles"):
        tid = str(_req(t, "id", "tile"))
        sides = {
            str(name): TileSide(
                terrain=tuple(str(r) for r in _req(s, "terrain", f"tile {tid}")),
                symbol=s.get("symbol"),
                symbol_square=s.get("symbol_square"),
            )
            for name, s in _req(t, "sides", f"tile {tid}").items()
        }
        tiles.append(
            TileDef(
                id=tid, size=int(_req(t, "size", f"tile {tid}")), sides=sides, pile=t.get("pile")
            )
        )
    return tuple(tiles)


def parse_rules(d: dict[str, Any]) -> RulesDef:
    ab = _req(d, "abandonment", "rules")
    return RulesDef(
        crew=int(_req(d, "crew", "rules")),
        display_size=int(_req(d, "display_size", "rules")),
        action_costs={str(k): int(v) for k, v in _req(d, "action_costs", "rules").items()},
        further_action_surcharge=int(_req(d, "further_action_surcharge", "rules")),
        token_supply={str(k): int(v) for k, v in _req(d, "token_supply", "rules").items()},
        token_points={str(k): int(v) for k, v in _req(d, "token_points", "rules").items()},
        island_points={int(k): int(v) for k, v in _req(d, "island_points", "rules").items()},
        arrow_tokens={
            int(n): {str(k): tuple(int(x) for x in v) for k, v in by.items()}
            for n, by in _req(d, "arrow_tokens", "rules").items()
        },
        majorities={
            str(k): tuple(int(x) for x in v) for k, v in _req(d, "majorities", "rules").items()
        },
        set_points=int(_req(d, "set_points", "rules")),
        abandon_per_crewman=int(_req(ab, "per_crewman", "rules.abandonment")),
        abandon_ship=int(_req(ab, "ship", "rules.abandonment")),
    )


def _read_json(directory: Path | None, name: str) -> Any:
    if directory is not None:
        return json.loads((directory / name).read_text(encoding="utf-8"))
    ref = resources.files("erebus.games.northwest").joinpath("data", name)
    return json.loads(ref.read_text(encoding="utf-8"))


def load_content(directory: str | Path | None = None, *, validate: bool = True) -> Content:
    """Load board, tiles and rules from ``directory`` (default: the packaged data).

    Raises :class:`ContentError` naming every broken constraint when ``validate``.
    """
    path = Path(directory) if directory is not None else None
    try:
        content = Content(
            board=parse_board(_read_json(path, "board.json")),
            tiles=parse_tiles(_read_json(path, "tiles.json")),
            rules=parse_rules(_read_json(path, "rules.json")),
        )
    except ContentError:
        raise
    except (KeyError, TypeError, IndexError, AttributeError, ValueError) as exc:
        raise ContentError(f"malformed content data: {exc!r}") from exc
    if validate:
        from erebus.games.northwest.validate import check_content

        check_content(content)
    return content


@cache
def default_content() -> Content:
    """The packaged content, loaded and validated once per process."""
    return load_content()


def per_content(
    cache: dict[int, tuple[Content, T]], content: Content, build: Callable[[Content], T]
) -> T:
    """``build(content)``, computed once per content object and kept in ``cache``.

    Precomputed tables (geometry, action index space, observation encoder) depend
    only on the content; the content object itself is kept beside the value so a
    recycled ``id()`` can never return another content's tables.
    """
    hit = cache.get(id(content))
    if hit is not None and hit[0] is content:
        return hit[1]
    value = build(content)
    cache[id(content)] = (content, value)
    return value
