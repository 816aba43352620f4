"""Game content of Expedition: Northwest Passage, loaded from JSON data files.

The board, the tile set and every scoring number live in ``data/*.json`` so that
a different printing of the game (or one of our [design] choices revised) is a
data change, never a code change.  This module parses those files into the
frozen dataclasses of :mod:`erebus.games.northwest.content_types` (re-exported
here) and hands them to :mod:`erebus.games.northwest.validate`, which checks the
structural rules (rules section 9, board and rules consistency) before the
engine sees the data.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from erebus.games.northwest.content_types import (
    ALL_TOKEN_KINDS,
    TOKEN_KINDS,
    BoardDef,
    Content,
    ContentError,
    PrintedSquare,
    RulesDef,
    TileDef,
    TileSide,
)
from erebus.games.northwest.validate import check_content

__all__ = [
    "ALL_TOKEN_KINDS",
    "TOKEN_KINDS",
    "BoardDef",
    "Content",
    "ContentError",
    "PrintedSquare",
    "RulesDef",
    "TileDef",
    "TileSide",
    "default_content",
    "load_content",
    "parse_board",
    "parse_rules",
    "parse_tiles",
    "per_content",
]

T = TypeVar("T")


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
