"""The types of Northwest Passage content: board, tiles and rules as frozen dataclasses.

They sit below both the loader (:mod:`erebus.games.northwest.content`, which
parses ``data/*.json`` into them) and the validator
(:mod:`erebus.games.northwest.validate`, which checks them), so neither of those
has to import the other's module to name what it works on.

Terrain strings use ``"l"`` for land and ``"s"`` for sea.  A tile's terrain is
given unrotated as rows of vertices from north to south, each row west to east:
a large (two-square) tile lies horizontally, 3 vertices × 2 rows; a small tile
has 2 × 2 vertices.
"""

from __future__ import annotations

from dataclasses import dataclass

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
