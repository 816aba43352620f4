"""Terminal play and replay of every erebus game.

``run_play`` runs a game at the terminal: human seats choose from the legal
actions, the others are played by bots of a chosen level (erebus.bots); ``run_replay`` steps
through a saved game.  Both only use the public engine API
(``shared/design/engine-api.md``) of the game module (:func:`erebus.games.get_game`)
and its pictures (:mod:`erebus.games.northwest.render`,
:mod:`erebus.games.iceandsnow.render`), reached through a small :class:`GameUI`
per game.

Why the prompt works the way it does: a turn can offer hundreds of actions
(Northwest placements; Through Ice and Snow crew compositions and cabin food
amounts), so actions are shown **grouped** (by kind, or by action space) with
small groups inline and big ones folded.  Every action keeps **one number** for
the whole decision, whether it was listed from the overview, a group or a
filter, so ``12`` always means the same thing; a group key (``p``, ``hunt``) or
a filter (``place L17``, ``cabin food=3``) only changes what is listed.  ``v 12``
previews the board after action 12 without playing it.

Input comes through ``input_fn`` (default :func:`input`), so the loop is driven
the same way by a person, by a pipe (stdin that is not a terminal: one line per
answer, end of input = quit) and by tests.

The save file is the action log, written after every action so a game that is
quit or interrupted is never lost::

    {"game": "northwest", "players": 3, "seed": 42, "options": {},
     "names": ["Red", ...], "actions": [{"type": "draft", "index": 1}, ...]}

Replaying it through the engine rebuilds every state exactly (same game,
options, seed and actions, same state).
"""

from __future__ import annotations

import io
import json
import os
import random
import secrets
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from rich.columns import Columns
from rich.console import Console, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text

from erebus import seats as seats_look
from erebus.bots import LEVELS, make_bot
from erebus.core.events import Event
from erebus.games import GAMES, get_game
from erebus.games import northwest as nw
from erebus.games.northwest import render
from erebus.games.northwest.events import (
    CrewSpent,
    GameOver,
    RoundEnded,
    RoundStarted,
    ScoreChanged,
    SledLost,
    SunMoved,
)
from erebus.undo import is_barrier

InputFn = Callable[[str], str]

GAME = "northwest"

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
_INLINE = 4  # groups up to this size are listed in the overview
_LIST_MAX = 60  # a bigger group is summarised when listed; "<key> all" lists it

HELP = """\
How to choose an action
  12            play action number 12 (numbers stay the same until you act)
  p             list a group: d draw/draft, r refresh, p place, m move,
                t transfer, x explore, c discover, e end turn, pass; a group
                key never plays an action, even the only one of its group
  place L17     list the actions whose description contains every word;
                if exactly one matches, it is played (try "move greenland")
  v 12          preview the board after action 12 without playing it
  u             take back your last action of this turn (not past a tile
                drawn from the bag, nor past the end of your turn)
  a             list every legal action
  b             show the board and the panels again
  ?             this help
  q             quit (the game is saved if you started it with --save,
                otherwise you are offered to save it)

Reading actions
  place L17b r1 at 5,2   tile L17, side b up, turned 1 quarter clockwise,
                         top-left square at column 5, row 2
  transfer (sled 2 available, 1 resting)   the sled column afterwards
  Costs are in crewmen of the acting vehicle's column; every action after
  the first in a turn costs one more.  End turn keeps your crew for later
  turns this round; pass ends your round.
"""

ICE_HELP = """\
How to choose an action
  12              play action number 12 (numbers stay the same until you act)
  hunt            list a group: its key is shown left of it in the menu
                  (cabin, hunt, fish, explore, xcapt = Exchange in the captain
                  column, ccarp = Collect in the carpenter column, dest, voyage …);
                  a group key never plays an action, even the only one of its group
  hunt all        list a big group in full (otherwise it is summarised)
  cabin food=3    list the actions matching every word (key=value words match
                  exactly, other words anywhere in the description); if exactly
                  one matches, it is played (try "fish sailors3")
  v 12            preview the board after action 12 (hidden cards are drawn at
                  random in the preview, so it shows nothing you may not know)
  u               take back your last action of this turn (not past a card
                  revealed or drawn, nor past the end of your turn)
  a               list every legal action
  b               show the board and the panels again
  ?               this help
  q               quit (the game is saved if you started it with --save,
                  otherwise you are offered to save it)

Reading actions
  Hunt — Caribou (prey 2, food +6) · crew scientist + sailor · deposit 1 wood
      the space, what it gives, the crew you place and (Survival) the resource
      put in the column's warehouse by the first action above it this round.
  Build a cabin — food −4 (+7 PP): the food you give up, and the PP it all
      scores (the cabin's own 5 PP plus 1 PP per 2 food).

Reading the screen
  Map: ▶ fleet, ✸ icebreaking dynamite (a route marked +1✸ needs one more),
  ★ final-round anchor, ⚑ final anchor (PP to the leader), ⌂n / △n cabin /
  shelter of seat n, ✓ region mapped.  Board: [n] seat n is on that slot,
  [ ] free, [∞] unlimited, ⇩ above a warehouse.  ⎈ marks the leader (helm).
"""


# --------------------------------------------------------------------- options


def parse_options(options: str | dict[str, Any] | None) -> dict[str, Any]:
    """``--options`` as given: a JSON object (text) or a dict; ``ValueError`` if neither."""
    if options is None:
        return {}
    if isinstance(options, dict):
        return dict(options)
    text = options.strip()
    if not text:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"--options is not valid JSON ({exc.msg} at column {exc.pos + 1})"
        ) from exc
    if not isinstance(value, dict):
        raise ValueError(
            f'--options must be a JSON object such as \'{{"modes": ["survival"]}}\', '
            f"not {type(value).__name__}"
        )
    return value


# --------------------------------------------------------------------- the per-game pieces


@dataclass
class _Choice:
    """The numbered legal actions of one decision, grouped."""

    numbered: list[Any]
    groups: list[tuple[str, str, str, list[int]]]  # kind, key, label, 1-based numbers


class GameUI(ABC):
    """What the terminal loop needs to know about one game.  Each game subclasses it
    and must provide the four abstract pieces: its screen, its end-of-game table,
    its grouped action menu and the menu's heading."""

    name = ""
    title = ""
    short = ""  # the title in a sentence: "Northwest Passage"
    help = HELP

    @property
    def module(self) -> ModuleType:
        return get_game(self.name)

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(self.module.PLAYERS)

    def options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        """The checked, canonical options (``ValueError`` with a clear message)."""
        if options:
            raise ValueError(f"{self.short} has no options")
        return {}

    def new_game(self, players: int, seed: int, options: dict[str, Any]) -> Any:
        return self.module.new_game(players, seed)

    def setup_events(self, state: Any) -> list[Event]:
        return list(getattr(state, "setup_events", []))

    def default_names(self, players: int) -> list[str]:
        return seats_look.default_names(players)

    def player_style(self, seat: int) -> Style:
        return seats_look.player_style(seat)

    def action_from_json(self, data: Any) -> Any:
        return self.module.Action.from_json(data)

    def describe(self, state: Any, action: Any) -> str:
        return str(action)

    def played(self, state: Any, action: Any, secret: bool) -> str:
        """The action on the "▶ player: …" line; ``secret``: others watch the screen."""
        return self.describe(state, action)

    def brief(self, state: Any, action: Any) -> str:
        """An action on a menu line that already names its group."""
        return self.describe(state, action)

    def matches(self, state: Any, action: Any, words: Sequence[str]) -> bool:
        text = self.describe(state, action).lower()
        return all(w in text for w in words)

    def event_line(self, state: Any, ev: Event, names: Sequence[str]) -> Text:
        return Text("  " + ev.text(list(names)))

    @abstractmethod
    def game_view(
        self,
        state: Any,
        names: Sequence[str],
        bots: Sequence[bool] | None,
        console: Console,
        seat: int | None,
        log: Sequence[Event],
    ) -> RenderableType:
        """Provided by each game."""

    @abstractmethod
    def final(self, state: Any, events: Sequence[Event], names: Sequence[str]) -> RenderableType:
        """Provided by each game."""

    @abstractmethod
    def choices(self, state: Any) -> _Choice:
        """Provided by each game."""

    def group_note(self, state: Any, kind: str) -> str:
        return ""

    def summary(self, state: Any, actions: Sequence[Any], kind: str) -> str:
        return ""

    @abstractmethod
    def menu_head(self, state: Any, names: Sequence[str]) -> Text:
        """Provided by each game."""

    def preview(self, state: Any, action: Any) -> tuple[Any, list[Event], str]:
        """The state after ``action`` (nothing is played), its events, and a note."""
        trial = state.clone()
        return trial, trial.apply(action), ""

    def stopped_where(self, state: Any) -> str:
        return f"round {state.round}" if state.round else "the setup"

    def min_width(self) -> int:
        """Columns the game's screen needs; narrower, it would be cut off."""
        return 80


# -- Expedition: Northwest Passage -------------------------------------------------


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


# -- Through Ice and Snow ------------------------------------------------------------

#: Group keys of Through Ice and Snow: decisions by kind, ``take`` by action space.
ICE_KIND_KEYS = {
    "choose_investor": ("investor", "investor"),
    "choose_cartography": ("carto", "cartography card"),
    "section": ("side", "map section side"),
    "destination": ("dest", "destination"),
    "voyage": ("voyage", "voyage type"),
    "mast": ("mast", "mast: event card"),
    "boiler": ("boiler", "boiler"),
    "discard": ("discard", "discard a resource"),
    "infirmary": ("infirmary", "crew to the infirmary"),
    "eat": ("eat", "species card to eat"),
    "compass": ("compass", "compass: new anchor"),
    "pass": ("pass", "pass"),
}
ICE_SPACE_KEYS = {
    "lead": "lead",
    "explore": "explore",
    "visit_inuit": "visit",
    "hire_inuk": "hire",
    "build_cabin": "cabin",
    "improve_sled": "sled",
    "upgrade_ship": "upgrade",
    "recycle_wood": "recycle",
    "discover": "discover",
    "hunt": "hunt",
    "experiment": "experiment",
    "exchange_captain": "xcapt",
    "exchange_carpenter": "xcarp",
    "exchange_scientist": "xsci",
    "collect_captain": "ccapt",
    "collect_carpenter": "ccarp",
    "collect_scientist": "csci",
    "ice_fishing": "fish",
    "trace_map": "trace",
    "document_methods": "document",
    "lab_research": "lab",
    "vow_captain": "vcapt",
    "vow_carpenter": "vcarp",
    "vow_scientist": "vsci",
    "build_shelter": "shelter",
    "event": "event",
}


class IceAndSnowUI(GameUI):
    name = "iceandsnow"
    title = "Through Ice and Snow"
    short = "Through Ice and Snow"
    help = ICE_HELP

    @property
    def _render(self) -> ModuleType:
        from erebus.games.iceandsnow import render as ice_render

        return ice_render

    def options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        from erebus.games.iceandsnow.options import normalize

        result: dict[str, Any] = normalize(options, players)
        return result

    def new_game(self, players: int, seed: int, options: dict[str, Any]) -> Any:
        return self.module.new_game(players, seed, options)

    def default_names(self, players: int) -> list[str]:
        names: list[str] = seats_look.default_names(players)
        return names

    def player_style(self, seat: int) -> Style:
        style: Style = seats_look.player_style(seat)
        return style

    def describe(self, state: Any, action: Any) -> str:
        text: str = self._render.describe(state, action)
        return text

    def played(self, state: Any, action: Any, secret: bool) -> str:
        if secret and action.kind == "choose_investor":
            return "chooses an investor (kept secret)"
        if secret and action.kind == "choose_cartography":
            return "chooses a cartography card (kept secret)"
        return self.describe(state, action)

    def brief(self, state: Any, action: Any) -> str:
        if action.kind != "take":
            return self.describe(state, action)
        text: str = self._render.describe(state, action, brief=True)
        return text

    def matches(self, state: Any, action: Any, words: Sequence[str]) -> bool:
        raw = str(action).lower()
        tokens = set(raw.split())
        text = f"{self.describe(state, action).lower()} {raw}"
        key = self._key_of(action)
        return all((w in tokens) if "=" in w else (w == key or w in text) for w in words if w)

    def event_line(self, state: Any, ev: Event, names: Sequence[str]) -> Text:
        line: Text = self._render.event_line(state, ev, names)
        return line

    def game_view(
        self,
        state: Any,
        names: Sequence[str],
        bots: Sequence[bool] | None,
        console: Console,
        seat: int | None,
        log: Sequence[Event],
    ) -> RenderableType:
        view: RenderableType = self._render.game_view(state, names, bots, seat, log)
        return view

    def final(self, state: Any, events: Sequence[Event], names: Sequence[str]) -> RenderableType:
        table: RenderableType = self._render.final_table(state, events, names)
        return table

    @staticmethod
    def _key_of(action: Any) -> str:
        if action.kind == "take":
            return ICE_SPACE_KEYS.get(str(action.space), str(action.space))
        kind = str(action.kind)
        return ICE_KIND_KEYS.get(kind, (kind, kind))[0]

    def choices(self, state: Any) -> _Choice:
        by_group: dict[str, list[Any]] = {}
        labels: dict[str, tuple[str, str]] = {}
        for a in state.legal_actions():
            if a.kind == "take":
                kind = f"take:{a.space}"
                labels[kind] = (self._key_of(a), self._render.space_label(state, a.space))
            else:
                kind = a.kind
                labels[kind] = ICE_KIND_KEYS.get(a.kind, (a.kind, a.kind))
            by_group.setdefault(kind, []).append(a)
        if "pass" in by_group:  # passing comes last, after every action space
            by_group["pass"] = by_group.pop("pass")
        numbered: list[Any] = []
        groups: list[tuple[str, str, str, list[int]]] = []
        for kind, acts in by_group.items():
            n0 = len(numbered)
            key, label = labels[kind]
            groups.append((kind, key, label, list(range(n0 + 1, n0 + len(acts) + 1))))
            numbered += acts
        return _Choice(numbered, groups)

    def summary(self, state: Any, actions: Sequence[Any], kind: str) -> str:
        """What varies in a folded group: crews, cards, tiles, food, resources, deposits."""
        r = self._render
        parts: list[str] = []
        crews = {a.crew for a in actions if a.crew is not None}
        if len(crews) > 1:
            parts.append(f"{len(crews)} crews")
        elif crews:
            parts.append(r.crew_words(next(iter(crews)), True))
        cards = list(dict.fromkeys(a.card for a in actions if a.card))
        if cards:
            names = list(dict.fromkeys(r.card_label(state, c).split(" (")[0] for c in cards))
            if kind in ("choose_investor", "mast", "eat"):
                names = [r.describe(state, a).split(":")[0] for a in actions]
            if kind == "choose_cartography":  # the cards have no names: their regions
                names = [r.describe(state, a).split(": ", 1)[-1] for a in actions]
            parts.append(", ".join(names))
        tiles = list(dict.fromkeys(a.tile for a in actions if a.tile is not None))
        if tiles:
            parts.append("tiles " + ", ".join(map(str, tiles)))
        foods = [a.food for a in actions if a.food is not None]
        if foods:
            parts.append(f"food {min(foods)}–{max(foods)}")
        for fld, word in (("resource", "give"), ("deposit", "deposit")):
            vals = list(dict.fromkeys(getattr(a, fld) for a in actions if getattr(a, fld)))
            if vals:
                parts.append(f"{word} " + "/".join(vals))
        if any(a.take is not None for a in actions):
            parts.append("choice of resources")
        if kind in ("destination", "compass", "section", "voyage", "discard", "infirmary"):
            parts = [r.describe(state, a) for a in actions[:3]] + (
                ["…"] if len(actions) > 3 else []
            )
        return " · ".join(parts)

    def menu_head(self, state: Any, names: Sequence[str]) -> Text:
        r = self._render
        seat = state.current_player
        head = Text()
        head.append(names[seat], r.player_style(seat))
        head.append(f" — round {state.round}: " if state.round else " — setup: ")
        head.append(state.expecting(), Style(bold=True))
        if state.pending == "action":
            p = state.player(seat)
            free = r.crew_state(state, seat)["free"]
            head.append("   free crew: ")
            head.append(r.crew_words(free, True), Style(bold=True))
            head.append(
                f"   {p['dynamite']} dyn, {p['wood']} wood, {p['rifles']} rifles, "
                f"{p['dogs']} dogs, food {p['food']}"
            )
        return head

    def preview(self, state: Any, action: Any) -> tuple[Any, list[Event], str]:
        """On a determinization of the player's view: hidden cards are drawn at random."""
        seat = state.current_player
        trial = self.module.determinize(state.view(seat), random.getrandbits(63))
        events = trial.apply(action)
        return trial, events, " (cards not yet revealed are drawn at random here)"

    def stopped_where(self, state: Any) -> str:
        return f"round {state.round}" if state.round else "the setup choices"

    def min_width(self) -> int:
        """The panels reflow; one action-board column or personal board must fit."""
        r = self._render
        return max(int(r._BOARD_COLUMN), int(r._BOARD_WIDTH)) + 4


UIS: dict[str, GameUI] = {"northwest": NorthwestUI(), "iceandsnow": IceAndSnowUI()}


def ui_for(game: str) -> GameUI:
    """The terminal pieces of ``game`` (``ValueError`` for a game without them)."""
    if game not in GAMES or game not in UIS:
        known = ", ".join(g for g in GAMES if g in UIS)
        raise ValueError(f"unknown game {game!r}; choose one of {known}")
    return UIS[game]


# --------------------------------------------------------------------- save files


class SaveError(ValueError):
    """A save file that cannot be read or does not replay; the message says why."""


@dataclass(frozen=True, slots=True)
class SavedGame:
    """The content of a save file, checked: it replays through the engine."""

    players: int
    seed: int
    actions: list[Any]
    names: list[str]
    game: str = GAME
    options: dict[str, Any] = field(default_factory=dict)
    seats: list[str] | None = None  # "human" or "bot" per seat; None in older saves
    level: str | None = None  # the bots' level; None in older saves


SEAT_KINDS = ("human", "bot")


def save_data(
    players: int,
    seed: int,
    actions: Sequence[Any],
    names: Sequence[str],
    game: str = GAME,
    options: dict[str, Any] | None = None,
    seats: Sequence[str] | None = None,
    level: str | None = None,
) -> dict[str, Any]:
    """The JSON document of a save file (``seats`` and ``level`` let ``--load`` resume it
    with the same people and bots)."""
    data: dict[str, Any] = {
        "game": game,
        "players": players,
        "seed": seed,
        "options": dict(options or {}),
        "actions": [a.to_json() for a in actions],
        "names": list(names),
    }
    if seats is not None:
        data["seats"] = list(seats)
    if level is not None:
        data["level"] = level
    return data


def write_save(path: str | os.PathLike[str], data: dict[str, Any]) -> None:
    """Write atomically (temporary file, then rename), so a crash never leaves half a save."""
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, target)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def load_save(path: str | os.PathLike[str]) -> SavedGame:
    """Read and check a save file; :class:`SaveError` names the first problem."""
    try:
        raw = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise SaveError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise SaveError(f"cannot read {path}: it is not UTF-8 text ({exc.reason})") from exc
    try:
        d = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise SaveError(
            f"{path} is not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
        ) from exc
    if not isinstance(d, dict):
        raise SaveError(f"{path}: a save file is a JSON object, not {type(d).__name__}")
    game = d.get("game")
    if not isinstance(game, str) or game not in UIS or game not in GAMES:
        titles = " or ".join(ui.short for name, ui in UIS.items() if name in GAMES)
        raise SaveError(f"{path}: not a {titles} save (game is {game!r})")
    ui = UIS[game]
    players = d.get("players")
    if not _is_int(players) or players not in ui.players:
        raise SaveError(f"{path}: 'players' must be one of {', '.join(map(str, ui.players))}")
    seed = d.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SaveError(f"{path}: 'seed' must be an integer")
    options = d.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise SaveError(f"{path}: 'options' must be a JSON object")
    try:
        options = ui.options(players, options)
    except ValueError as exc:
        raise SaveError(f"{path}: bad 'options': {exc}") from exc
    acts = d.get("actions")
    if not isinstance(acts, list):
        raise SaveError(f"{path}: 'actions' must be a list")
    names = d.get("names")
    if names is None:
        names = ui.default_names(players)
    if not (
        isinstance(names, list) and len(names) == players and all(isinstance(n, str) for n in names)
    ):
        raise SaveError(f"{path}: 'names' must be a list of {players} strings")
    seats = d.get("seats")
    if seats is not None and not (
        isinstance(seats, list) and len(seats) == players and all(k in SEAT_KINDS for k in seats)
    ):
        raise SaveError(f'{path}: \'seats\' must be a list of {players} of "human" or "bot"')
    level = d.get("level")
    if level is not None and level not in LEVELS:
        raise SaveError(f"{path}: 'level' must be one of {', '.join(LEVELS)}")
    actions: list[Any] = []
    state = ui.new_game(players, seed, options)
    for i, a in enumerate(acts, 1):
        try:
            action = ui.action_from_json(a)
        except ValueError as exc:
            raise SaveError(f"{path}: action {i} is malformed: {exc}") from exc
        if state.is_over:
            raise SaveError(f"{path}: action {i} comes after the end of the game")
        try:
            state.apply(action)
        except ValueError as exc:
            raise SaveError(f"{path}: action {i} ({action}) is not legal there: {exc}") from exc
        actions.append(action)
    return SavedGame(players, seed, actions, list(names), game, options, seats, level)


# --------------------------------------------------------------------- printing


def _name_text(ui: GameUI, names: Sequence[str], seat: int) -> Text:
    return Text(names[seat], ui.player_style(seat))


def print_events(
    console: Console,
    events: Sequence[Event],
    names: Sequence[str],
    state: Any = None,
    ui: GameUI | None = None,
) -> None:
    """Every event of an action in words, one per line."""
    ui = ui or UIS[GAME]
    for ev in events:
        console.print(ui.event_line(state, ev, names))


def too_narrow(console: Console, ui: GameUI) -> bool:
    return console.width < ui.min_width()


def width_notice(console: Console, ui: GameUI) -> Text:
    """What is shown instead of a screen the terminal is too narrow for."""
    return Text(
        f"This screen needs {ui.min_width()} columns; the terminal has {console.width} — "
        "widen it to see the board (the list of actions below still works).",
        Style(bold=True, color="#e06666"),
    )


def print_view(
    console: Console,
    ui: GameUI,
    state: Any,
    names: Sequence[str],
    bots: Sequence[bool] | None,
    seat: int | None,
    log: Sequence[Event],
) -> None:
    """The game's screen, or a notice saying how wide the terminal must be for it
    (Rich would otherwise cut the board's columns off)."""
    if too_narrow(console, ui):
        console.print(width_notice(console, ui))
    else:
        console.print(ui.game_view(state, names, bots, console, seat, log))


# --------------------------------------------------------------------- the human prompt


def _numbered_item(ui: GameUI, state: Any, choice: _Choice, n: int, brief: bool = False) -> str:
    action = choice.numbered[n - 1]
    return f"{n:>3}) {ui.brief(state, action) if brief else ui.describe(state, action)}"


def _print_list(
    console: Console,
    ui: GameUI,
    state: Any,
    choice: _Choice,
    numbers: Sequence[int],
    brief: bool = False,
) -> None:
    """Numbered actions in columns; ``brief`` under a heading that names their group."""
    items = [_numbered_item(ui, state, choice, n, brief) for n in numbers]
    console.print(Columns(items, padding=(0, 3), equal=True, column_first=True))


def _print_menu(
    console: Console, ui: GameUI, state: Any, choice: _Choice, names: Sequence[str]
) -> None:
    console.print(ui.menu_head(state, names))
    grid = Table.grid(padding=(0, 2))
    grid.add_column(justify="right", style=Style(bold=True, color="#e8d27a"), no_wrap=True)
    grid.add_column(style=Style(bold=True), no_wrap=True)
    notes = any(ui.group_note(state, g[0]) for g in choice.groups)
    if notes:
        grid.add_column(justify="right", style=Style(color="#9a9a9a"), no_wrap=True)
    grid.add_column(ratio=1)
    for kind, key, label, numbers in choice.groups:
        items = Text()
        if len(numbers) <= _INLINE:
            items.append(
                "   ".join(f"{n}) {ui.brief(state, choice.numbered[n - 1])}" for n in numbers)
            )
        else:
            acts = [choice.numbered[n - 1] for n in numbers]
            items.append(
                f"{numbers[0]}–{numbers[-1]}: {len(numbers)} options ", Style(color="#cfcfcf")
            )
            items.append(f"({ui.summary(state, acts, kind)})", Style(color="#9a9a9a"))
        row: list[Any] = [key, label]
        if notes:
            row.append(ui.group_note(state, kind))
        grid.add_row(*row, items)
    console.print(grid)
    example = '"place L17"' if ui.name == GAME else '"cabin food=3"'
    console.print(
        Text(
            f"Number to play · group key to list · words to filter ({example}) · "
            "v N preview · u undo · ? help · q quit",
            Style(color="#9a9a9a"),
        )
    )


def _preview(
    console: Console,
    ui: GameUI,
    state: Any,
    action: Any,
    names: Sequence[str],
    bots: Sequence[bool] | None,
    log: Sequence[Event],
) -> None:
    """The board after ``action``, computed on a copy: nothing is played."""
    trial, events, note = ui.preview(state, action)
    console.print(Text(f"Preview of: {ui.describe(state, action)}{note}", Style(bold=True)))
    seat = state.current_player
    if too_narrow(console, ui):
        console.print(width_notice(console, ui))
    elif ui.name == GAME:
        console.print(render.board(trial, names, _cell_for(console)))
    else:
        console.print(ui.game_view(trial, names, bots, console, seat, [*log, *events]))
    for ev in events:
        console.print(ui.event_line(trial, ev, names))
    console.print(Text("(not played)", Style(color="#9a9a9a")))


#: What :func:`ask_human` returns when the player types ``u`` and may take back an action.
UNDO = "undo"


def ask_human(
    state: Any,
    names: Sequence[str],
    bots: Sequence[bool],
    console: Console,
    input_fn: InputFn,
    ui: GameUI | None = None,
    log: Sequence[Event] = (),
    undoable: str | None = None,
) -> Any | None:
    """Ask the current player for an action; ``None`` if they quit (or input ended),
    :data:`UNDO` if they take back ``undoable`` (their last action, when it may be)."""
    ui = ui or UIS[GAME]
    seat = state.current_player
    choice = ui.choices(state)
    print_view(console, ui, state, names, bots, seat, log)
    _print_menu(console, ui, state, choice, names)
    total = len(choice.numbered)
    while True:
        try:
            raw = input_fn("> ")
        except EOFError:
            return None
        cmd = " ".join(raw.strip().split())
        low = cmd.lower()
        if not low:
            _print_menu(console, ui, state, choice, names)
            continue
        if low in ("q", "quit", "exit"):
            return None
        if low in ("?", "h", "help"):
            console.print(ui.help, markup=False, highlight=False)
            continue
        if low in ("b", "board"):
            print_view(console, ui, state, names, bots, seat, log)
            _print_menu(console, ui, state, choice, names)
            continue
        if low in ("u", "undo"):
            if undoable is not None:
                return UNDO
            console.print(
                "Nothing to take back: undo works within your turn, back to the last "
                "action that revealed a tile or card or passed the turn on."
            )
            continue
        if low in ("a", "all"):
            _print_list(console, ui, state, choice, range(1, total + 1))
            continue
        if low.isdigit():
            n = int(low)
            if 1 <= n <= total:
                return choice.numbered[n - 1]
            console.print(f"There is no action {n}; choose 1–{total}.")
            continue
        parts = low.split()
        if len(parts) == 2 and parts[0] in ("v", "view", "preview") and parts[1].isdigit():
            n = int(parts[1])
            if 1 <= n <= total:
                _preview(console, ui, state, choice.numbered[n - 1], names, bots, log)
            else:
                console.print(f"There is no action {n}; choose 1–{total}.")
            continue
        full = len(parts) == 2 and parts[1] == "all"
        word = parts[0] if full else low
        group = next((g for g in choice.groups if word in (g[1], g[2], g[0])), None)
        if group is None and ui.name != GAME:
            group = next(
                (g for g in choice.groups if g[0].startswith("take:") and word == g[0][5:]), None
            )
        if group is not None:  # a group key only lists, even a group of one (issue 10)
            note = ui.group_note(state, group[0])
            console.print(Text(f"{group[2]}{' — ' + note if note else ''}", Style(bold=True)))
            if len(group[3]) > _LIST_MAX and not full:
                acts = [choice.numbered[n - 1] for n in group[3]]
                console.print(
                    f"{len(group[3])} options, {group[3][0]}–{group[3][-1]}: "
                    f"{ui.summary(state, acts, group[0])}.\n"
                    f'Add words to narrow them (e.g. "{group[1]} wood" or "{group[1]} '
                    f'sailors"), or type "{group[1]} all" to list them all.'
                )
            else:
                _print_list(console, ui, state, choice, group[3], brief=True)
            continue
        if ui.name == GAME:
            known = [g[2] for g in GROUPS if low in (g[1], g[2], g[0])]
        else:
            keys = (*ICE_KIND_KEYS.values(), *((k, k) for k in ICE_SPACE_KEYS.values()))
            known = [label for key, label in keys if word == key]
        if known:
            console.print(f"No {' or '.join(known)} action is possible now.")
            continue
        matches = [
            n for n in range(1, total + 1) if ui.matches(state, choice.numbered[n - 1], parts)
        ]
        if len(matches) == 1:
            return choice.numbered[matches[0] - 1]
        if not matches:
            console.print(f'Nothing matches "{cmd}". Type ? for help.')
            continue
        _print_list(console, ui, state, choice, matches)


# --------------------------------------------------------------------- play


def _error(console: Console, message: str) -> int:
    # One line, whatever the width: the terminal wraps it, Rich does not break it.
    console.print(
        Text("error: ", Style(bold=True, color="#e06666")) + Text(message), soft_wrap=True
    )
    return 2


def run_play(
    players: int | None,
    humans: int | None,
    seed: int | None,
    save: str | None,
    names: list[str] | None = None,
    console: Console | None = None,
    input_fn: InputFn = input,
    level: str | None = None,
    think_s: float = 1.0,
    game: str | None = None,
    options: str | dict[str, Any] | None = None,
    scenario: str | None = None,
    load: str | None = None,
) -> int:
    """Play a game at the terminal; returns the exit code (0, or 2 for bad arguments).

    Seats ``0 .. humans-1`` are people (seat 1 is Red, and so on), the others
    bots of difficulty ``level`` (easy = random, medium = greedy, hard = MCTS
    thinking ``think_s`` seconds a move; default medium), seeded from the game seed so
    a game of easy or medium bots is reproducible.  With ``save`` the action log is
    written after every action.  ``options`` (a dict or JSON text) are the
    game's options; ``scenario`` (Through Ice and Snow's solo scenarios) implies
    one player, a person unless ``humans`` says otherwise.

    ``load`` resumes a save file: game, players, seed, options and names come from
    it (giving a different one is an error), the seats are people or bots as saved
    unless ``humans`` says otherwise, the bots play at the saved level unless
    ``level`` is given.  Saving goes to ``save`` only when it is given (it may be the
    loaded file itself).
    """
    console = console or Console()
    loaded: SavedGame | None = None
    if load is not None:
        try:
            loaded = load_save(load)
        except SaveError as exc:
            return _error(console, str(exc))
        clash = [
            f"{flag} {given}"
            for flag, given, saved_value in (
                ("--game", game, loaded.game),
                ("--players", players, loaded.players),
                ("--seed", seed, loaded.seed),
                ("--scenario", scenario, loaded.options.get("scenario")),
            )
            if given is not None and given != saved_value
        ]
        if options is not None:
            clash.append("--options")
        if clash:
            return _error(
                console,
                f"{load} holds its own game, players, seed and options; drop {', '.join(clash)}",
            )
        game, players, seed = loaded.game, loaded.players, loaded.seed
        options = dict(loaded.options)
        if humans is None and loaded.seats is not None:
            humans = loaded.seats.count("human")
        if level is None:
            level = loaded.level
        if names is None:
            names = list(loaded.names)
    try:
        ui = ui_for(game or GAME)
    except ValueError as exc:
        return _error(console, str(exc))
    try:
        opts = parse_options(options)
    except ValueError as exc:
        return _error(console, str(exc))
    if scenario is not None and loaded is None:
        if ui.name != "iceandsnow":
            return _error(console, f"{ui.short} has no scenarios (--scenario)")
        from erebus.games.iceandsnow.options import SCENARIOS

        if scenario not in SCENARIOS:
            return _error(
                console, f"unknown scenario {scenario!r}; choose one of {', '.join(SCENARIOS)}"
            )
        opts["scenario"] = scenario
    solo = ui.name == "iceandsnow" and opts.get("scenario") is not None
    if players is None:
        players = 1 if solo else 3
    if humans is None:
        humans = 1
    level = level or "medium"
    if players not in ui.players:
        lo, hi = ui.players[0], ui.players[-1]
        return _error(console, f"{ui.short} is for {lo}–{hi} players")
    if not 0 <= humans <= players:
        return _error(console, f"--humans must be between 0 and {players}")
    if level not in LEVELS:
        return _error(console, f"--level must be one of {', '.join(LEVELS)}")
    if names is not None and len(names) != players:
        return _error(console, f"--names needs {players} names, got {len(names)}")
    try:
        opts = ui.options(players, opts)
    except ValueError as exc:
        return _error(console, f"bad --options: {exc}")
    # A fresh seed is short enough to type back in.
    game_seed = secrets.randbelow(10**6) if seed is None else seed
    names = list(names) if names else ui.default_names(players)
    if loaded is not None and loaded.seats is not None and humans == loaded.seats.count("human"):
        bots = [kind == "bot" for kind in loaded.seats]
    else:
        bots = [seat >= humans for seat in range(players)]
    state = ui.new_game(players, game_seed, opts)
    seat_bots = {
        s: make_bot(level, seed=game_seed * 10 + s, time_s=think_s)
        for s in range(players)
        if bots[s]
    }
    history: list[Any] = []
    all_events: list[Event] = ui.setup_events(state)
    for action in loaded.actions if loaded is not None else ():
        all_events += state.apply(action)
        history.append(action)
    # Take-backs of the current turn: (state before, events before, the action).
    undo_stack: list[tuple[Any, int, Any]] = []
    assert level is not None

    def data() -> dict[str, Any]:
        seats = ["bot" if b else "human" for b in bots]
        return save_data(players, game_seed, history, names, ui.name, opts, seats, level)

    def saved() -> None:
        if save:
            write_save(save, data())

    try:
        saved()
    except OSError as exc:
        return _error(console, f"cannot write the save file {save}: {exc}")
    intro = Text()
    if loaded is not None:
        intro.append(f"Resumed {load} ({len(history)} actions): ", Style(bold=True))
    intro.append(ui.title, Style(bold=True))
    extra = ""
    if opts.get("scenario"):
        extra = f", scenario {opts['scenario']}"
    if opts.get("modes"):
        extra += f", modes {', '.join(opts['modes'])}"
    intro.append(f" — {players} player{'s' if players > 1 else ''}{extra}, seed {game_seed}. ")
    people = players - sum(bots)
    for s in range(players):
        intro.append_text(_name_text(ui, names, s))
        intro.append(f" ({level} bot)" if bots[s] else " (you)" if people == 1 else " (human)")
        intro.append(", " if s < players - 1 else ".")
    console.print(intro)
    if people:
        console.print(Text("Type ? at the prompt for help.", Style(color="#9a9a9a")))

    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        if bots[seat]:
            action = seat_bots[seat].choose(state)
        else:
            last = ui.describe(undo_stack[-1][0], undo_stack[-1][2]) if undo_stack else None
            picked = ask_human(state, names, bots, console, input_fn, ui, all_events, last)
            if picked is None:
                return _quit(console, input_fn, save, data)
            if picked is UNDO:
                state, kept, taken = undo_stack.pop()
                history.pop()
                del all_events[kept:]
                saved()
                line = Text("↶ ")
                line.append_text(_name_text(ui, names, seat))
                line.append(f" takes back: {ui.describe(state, taken)}")
                console.print(line)
                continue
            action = picked
        line = Text("▶ ")
        line.append_text(_name_text(ui, names, seat))
        # A secret choice (an investor) stays hidden from the people at the screen.
        secret = people > 1 or (bots[seat] and people > 0)
        line.append(f": {ui.played(state, action, secret)}")
        before = state.clone()
        events = state.apply(action)
        if bots[seat] or is_barrier(ui.name, seat, before, state, events):
            undo_stack.clear()
        else:
            undo_stack.append((before, len(all_events), action))
        history.append(action)
        all_events += events
        saved()
        console.print(line)
        print_events(console, events, names, state, ui)

    viewer = next((s for s in range(players) if not bots[s]), None) if people == 1 else None
    print_view(console, ui, state, names, bots, viewer, all_events)
    console.print(ui.final(state, all_events, names))
    if save:
        console.print(f"Saved to {save}; watch it again with: erebus replay {save}")
    return 0


def _quit(
    console: Console,
    input_fn: InputFn,
    save: str | None,
    data: Callable[[], dict[str, Any]],
) -> int:
    """Leave the game, offering to save it when no --save file was given."""
    count = len(data()["actions"])
    if save:
        console.print(f"Game saved to {save} ({count} actions).")
        return 0
    try:
        answer = input_fn(
            "Save this game? Type a file name, or just Enter to leave without saving: "
        )
    except EOFError:
        answer = ""
    path = answer.strip()
    if path:
        try:
            write_save(path, data())
        except OSError as exc:
            return _error(console, f"cannot write {path}: {exc}")
        console.print(f"Game saved to {path} ({count} actions).")
    else:
        console.print("Game left without saving.")
    return 0


# --------------------------------------------------------------------- replay


def run_replay(
    path: str,
    step: bool = True,
    console: Console | None = None,
    input_fn: InputFn = input,
) -> int:
    """Replay a save file: step by step (Enter = next, q = quit) or all at once.

    Returns 0, or 2 with a clear message if the file is unreadable, malformed
    or does not replay.  A replay shows what a spectator sees (no hidden cards).
    """
    console = console or Console()
    try:
        game = load_save(path)
    except SaveError as exc:
        return _error(console, str(exc))
    ui = UIS[game.game]
    names = game.names
    state = ui.new_game(game.players, game.seed, game.options)
    extra = f", scenario {game.options['scenario']}" if game.options.get("scenario") else ""
    console.print(
        Text(
            f"Replay of {path}: {ui.title}, {game.players} players{extra}, seed {game.seed}, "
            f"{len(game.actions)} actions.",
            Style(bold=True),
        )
    )
    all_events: list[Event] = ui.setup_events(state)
    if step:
        print_view(console, ui, state, names, None, None, all_events)
    total = len(game.actions)
    for i, action in enumerate(game.actions, 1):
        if step:
            try:
                key = input_fn(f"[{i}/{total}] Enter = next action, q = quit: ")
            except EOFError:
                break
            if key.strip().lower() in ("q", "quit", "exit"):
                break
        seat = state.current_player
        assert seat is not None
        line = Text(f"#{i} ")
        line.append_text(_name_text(ui, names, seat))
        line.append(f": {ui.played(state, action, True)}")  # a spectator's view
        events = state.apply(action)
        all_events += events
        console.print(line)
        print_events(console, events, names, state, ui)
        if step:
            print_view(console, ui, state, names, None, None, all_events)
    if not step:
        print_view(console, ui, state, names, None, None, all_events)
    if state.is_over:
        console.print(ui.final(state, all_events, names))
    else:
        console.print(f"Stopped in {ui.stopped_where(state)}, before the end of the game.")
    return 0
