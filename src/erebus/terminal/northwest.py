"""Expedition: Northwest Passage at the terminal: its :class:`UI` for the generic app
(:mod:`erebus.terminal.app`) and its pictures (:mod:`erebus.terminal.northwest_screen`).

This is the one place outside the engine that may know the game's internals: the
screen draws the board from the state's own queries.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from rich.console import Console, RenderableType
from rich.style import Style
from rich.text import Text

from erebus.core.events import Event
from erebus.games import northwest as nw
from erebus.games.northwest.events import (
    CrewSpent,
    GameOver,
    RoundEnded,
    RoundStarted,
    ScoreChanged,
    SledLost,
    SunMoved,
)
from erebus.terminal import northwest_screen as render
from erebus.terminal import seats as seats_look
from erebus.terminal.app import GameUI, _Choice

# Action groups in the order a player thinks of a turn: (kind, key, label).
# Draft (setup only) and draw never occur together, so they share "d".
GROUPS: tuple[tuple[str, str, str], ...] = (
    ("draft", "d", "draft"),
    ("draw", "d", "draw"),
    ("refresh", "r", "refresh"),
    ("place", "p", "place"),
    ("move", "m", "move"),
    ("transfer", "t", "transfer"),
    ("explore", "x", "explore"),
    ("discover", "c", "discover"),
    ("end_turn", "e", "end turn"),
    ("pass", "pass", "pass"),
)


def _cell_for(console: Console) -> render.CellSize:
    """The large board when the terminal has room for it and the panels, else the compact one."""
    width, height = console.size
    return render.LARGE if width >= 150 and height >= 60 else render.COMPACT


def describe(state: Any, action: Any) -> str:
    """Northwest: ``str(action)`` plus what it refers to: the tile of a display slot or pile."""
    text = str(action)
    # ``Action.index`` is the display slot, but mypy reads it as ``tuple.index``.
    slot = action.to_json().get("index")
    if action.kind in ("draw", "draft") and isinstance(slot, int):
        if 0 <= slot < len(state.display):
            text += f" ({state.display[slot]})"
    elif action.kind == "draw" and action.pile is not None:
        text += f" ({render._PILE_NAMES[action.pile]}, {state.piles[action.pile]} left)"
    return text


def _nw_event_text(ev: Event, names: Sequence[str]) -> Text:
    line = ev.text(list(names))
    seat = getattr(ev, "seat", None)
    if isinstance(ev, RoundStarted | RoundEnded | SunMoved | GameOver):
        return Text(f"— {line}", Style(bold=True, color="#e8d27a"))
    if isinstance(ev, CrewSpent):
        return Text(f"  {line}", Style(dim=True))
    t = Text("  ")
    if isinstance(seat, int):
        t.append("● ", seats_look.player_style(seat))
    style = Style(bold=True, color="#ffd24a") if isinstance(ev, ScoreChanged) else None
    if isinstance(ev, SledLost):
        style = Style(bold=True, color="#e06666")
    t.append(line, style or Style())
    return t


class NorthwestUI(GameUI):
    name = "northwest"
    title = nw.TITLE
    short = "Northwest Passage"
    filter_example = '"place L17"'

    def describe(self, state: Any, action: Any) -> str:
        return describe(state, action)

    def event_line(self, state: Any, ev: Event, names: Sequence[str]) -> Text:
        return _nw_event_text(ev, names)

    def game_view(
        self,
        state: Any,
        names: Sequence[str],
        bots: Sequence[bool] | None,
        console: Console,
        seat: int | None,
        log: Sequence[Event],
    ) -> RenderableType:
        return render.game_view(state, names, bots, _cell_for(console))

    def final(self, state: Any, events: Sequence[Event], names: Sequence[str]) -> RenderableType:
        return render.final_table(state, events, names)

    def choices(self, state: Any) -> _Choice:
        by_kind: dict[str, list[Any]] = {}
        for a in state.legal_actions():
            by_kind.setdefault(a.kind, []).append(a)
        numbered: list[Any] = []
        groups: list[tuple[str, str, str, list[int]]] = []
        for kind, key, label in GROUPS:
            acts = by_kind.pop(kind, [])
            if acts:
                n0 = len(numbered)
                groups.append((kind, key, label, list(range(n0 + 1, n0 + len(acts) + 1))))
                numbered += acts
        for kind, acts in by_kind.items():  # a kind this prompt does not know yet
            n0 = len(numbered)
            groups.append((kind, kind, kind, list(range(n0 + 1, n0 + len(acts) + 1))))
            numbered += acts
        return _Choice(numbered, groups)

    def group_note(self, state: Any, kind: str) -> str:
        cost = state.cost_of(kind)
        return "free" if cost == 0 else f"{cost} crew"

    def summary(self, state: Any, actions: Sequence[Any], kind: str) -> str:
        """A folded group in a few words: placements by tile, others by vehicle."""
        counts: dict[str, int] = {}
        for a in actions:
            key = a.tile if kind == "place" and a.tile else (a.vehicle or kind)
            counts[key] = counts.get(key, 0) + 1
        return ", ".join(f"{k} ×{v}" for k, v in counts.items())

    def menu_head(self, state: Any, names: Sequence[str]) -> Text:
        seat = state.current_player
        crew = state.crew(seat)
        head = Text()
        head.append(names[seat], seats_look.player_style(seat))
        acted = state.view(None)["acted"]
        if state.round == 0:
            head.append(" drafts a tile from the display (free).")
        else:
            head.append(f" — round {state.round}, ")
            head.append(
                "first action of the turn"
                if not acted
                else f"action {acted + 1} of the turn (+1 crew)"
            )
            head.append("   available crew: ")
            head.append(f"ship {crew['ship']['available']}, sled {crew['sled']['available']}")
        return head

    def preview_view(
        self,
        state: Any,
        names: Sequence[str],
        bots: Sequence[bool] | None,
        console: Console,
        seat: int | None,
        log: Sequence[Event],
    ) -> RenderableType:
        """The board alone: the panels would not change enough to be worth a screen."""
        return render.board(state, names, _cell_for(console))

    def plain_text(self, state: Any, width: int = 160) -> str:
        """Status line, sun track, board and player panels, without colours."""
        buf = io.StringIO()
        console = Console(
            file=buf, width=width, color_system=None, force_terminal=False, highlight=False
        )
        console.print(render.status_line(state))
        console.print(render.sun_track(state))
        console.print(render.board(state))
        console.print(render.players_row(state))
        return buf.getvalue()

    def known_groups(self, low: str, word: str) -> list[str]:
        return [g[2] for g in GROUPS if low in (g[1], g[2], g[0])]

    def stopped_where(self, state: Any) -> str:
        return f"round {state.round}" if state.round else "the setup draft"

    def min_width(self) -> int:
        """The compact board's width: its squares cannot wrap (the panels can)."""
        return _compact_board_width()


def _compact_board_width() -> int:
    global _BOARD_WIDTH
    if _BOARD_WIDTH is None:
        wide = Console(width=1000, record=True, file=io.StringIO())
        wide.print(render.board(nw.new_game(2, 0), cell=render.COMPACT))
        _BOARD_WIDTH = max(len(line.rstrip()) for line in wide.export_text().splitlines())
    return _BOARD_WIDTH


_BOARD_WIDTH: int | None = None


UI = NorthwestUI()
