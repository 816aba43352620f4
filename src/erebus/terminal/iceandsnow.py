"""Through Ice and Snow at the terminal: its :class:`UI` for the generic app
(:mod:`erebus.terminal.app`) and its pictures (:mod:`erebus.terminal.iceandsnow_screen`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from rich.console import Console, RenderableType
from rich.style import Style
from rich.text import Text

from erebus.core.events import Event
from erebus.games.iceandsnow.options import SCENARIOS
from erebus.terminal import seats as seats_look
from erebus.terminal.app import GameUI, _Choice

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
  h               a hint: the hard bot's choice here, from what you can see
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
    "choose_upgrade": ("upgrade", "free upgrade (set-up)"),
    "fall_ill": ("ill", "who falls ill"),
    "treat": ("treat", "treatment (free)"),
    "track": ("look", "look at a deck's top card"),
    "chart": ("chart", "chart a region"),
    "despot": ("despot", "force another route"),
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
    filter_example = '"cabin food=3"'
    scenarios = tuple(SCENARIOS)

    @property
    def _render(self) -> ModuleType:
        from erebus.terminal import iceandsnow_screen

        return iceandsnow_screen

    def plain_text(self, state: Any, width: int = 140) -> str:
        """The game view of the seat to act, without colours."""
        return str(self._render.render_text(state, seat=state.current_player, width=width))

    def default_players(self, options: dict[str, Any]) -> int:
        """One for a scenario (solo play), else three."""
        return 1 if options.get("scenario") is not None else 3

    def new_game(self, players: int, seed: int, options: dict[str, Any]) -> Any:
        return self.spec.new_game(players, seed, options)

    def setup_events(self, state: Any) -> list[Event]:
        """The starting 10 PP of each seat, and the revealed setup."""
        return list(state.setup_events)

    def find_group(self, choice: _Choice, word: str) -> tuple[str, str, str, list[int]] | None:
        """An action space by its id (``hunt``, ``ice_fishing``)."""
        return next(
            (g for g in choice.groups if g[0].startswith("take:") and word == g[0][5:]), None
        )

    def known_groups(self, low: str, word: str) -> list[str]:
        keys = (*ICE_KIND_KEYS.values(), *((k, k) for k in ICE_SPACE_KEYS.values()))
        return [label for key, label in keys if word == key]

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
        determinize = self.spec.determinize
        assert determinize is not None  # the game declares it (its bots search)
        trial = determinize(state.view(seat), random.getrandbits(63))
        events = trial.apply(action)
        return trial, events, " (cards not yet revealed are drawn at random here)"

    def stopped_where(self, state: Any) -> str:
        return f"round {state.round}" if state.round else "the setup choices"

    def min_width(self) -> int:
        """The panels reflow; one action-board column or personal board must fit."""
        r = self._render
        return max(int(r._BOARD_COLUMN), int(r._BOARD_WIDTH)) + 4


UI = IceAndSnowUI()
