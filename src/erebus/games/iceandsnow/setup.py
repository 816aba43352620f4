"""The set-up of a game (§2, solo scenarios §7): tracks, decks, map, dealt cards."""

from __future__ import annotations

from erebus.core.events import Event
from erebus.games.iceandsnow import legends, myths
from erebus.games.iceandsnow.content import RESOURCES
from erebus.games.iceandsnow.events import (
    InvestorRevealed,
    LeaderChanged,
)
from erebus.games.iceandsnow.events_cards import EventCardRules
from erebus.games.iceandsnow.layout import (
    DYN,
    FOOD,
    FUEL,
    HEALTH,
    INUIT,
    MORALE,
    PAWNS,
    PP,
    RES,
    SAILORS,
    SLED,
    TOW,
    F,
)
from erebus.games.iceandsnow.position import POLE


class SetupRules(EventCardRules):
    """A new game's set-up, up to the first decision of the flow."""

    __slots__ = ()

    def _setup(self, ev: list[Event]) -> None:
        c = self.content
        r = self.rules
        n = self.n
        scen = self.scen()
        start_res = dict(r["start_resources"][str(n)])
        tracks = dict(r["start_tracks"])
        for k in ("dynamite", "wood", "rifles", "dogs", "fuel"):
            if k in scen.get("start", {}):
                (start_res if k in RES else tracks)[k] = scen["start"][k]
        crew = r["crew_start"]
        self.pv = [0] * (F * n)
        for s in range(n):
            b = F * s
            pv = self.pv
            pv[b + PP] = 0
            pv[b + FOOD] = tracks["food"]
            pv[b + HEALTH] = tracks["health"]
            pv[b + MORALE] = tracks["morale"]
            pv[b + FUEL] = tracks["fuel"]
            pv[b + SLED] = tracks["sled"]
            pv[b + INUIT] = tracks.get("inuit", 0)
            pv[b + TOW] = tracks.get("towing", 0)
            for res, idx in RES.items():
                pv[b + idx] = int(start_res.get(res, 0))
            pv[b + SAILORS] = crew["sailors"]
            pv[b + PAWNS] = crew.get("inuit", 0)
            self._score(s, int(r["start_pp"]), "start", ev, force=True)
        self.inuit_pool = int(r["limits"]["inuit"]) - sum(self.pv[F * s + PAWNS] for s in range(n))
        self.carto_tokens = int(r["limits"]["cartography_tokens"])
        self.species = [[] for _ in range(n)]
        self.gained = [[] for _ in range(n)]
        self.upgrades = [[] for _ in range(n)]
        self.investor = [None] * n
        self.carto = [None] * n
        self.inv_opts = [[] for _ in range(n)]
        self.carto_opts = [[] for _ in range(n)]
        self.occ = [0] * len(self._t.spaces)
        self.col_paid = [0] * len(self._t.columns)
        self.boxes = [0] * (len(self._t.columns) * len(RESOURCES))
        # module tiles widen the table only when their module is in play
        top = 1 + max(
            (k for k, u in c.upgrades.items() if u.module is None or self.upgrade_in_game(k)),
            default=0,
        )
        self.upg_left = [0] * top
        for num, u in c.upgrades.items():
            if self.upgrade_in_game(num):
                self.upg_left[num] = u.copies
        # map: East section (side by scenario), start anchor
        east_side = str(scen.get("east_side", "A"))
        self.placed = [[0, east_side]]
        starts = [a.id for a in c.sections[0].sides[east_side].anchors if a.start]
        self.fleet = starts[0]
        # decks
        if scen.get("species_deck", True) is not False:
            self.sp_deck = sorted(c.species)
            self._shuffle(self.sp_deck)
        hunting = sorted(c.hunting)
        if self.options["upgrades"] == "all":
            hunting += sorted(c.whales)
        self._shuffle(hunting)
        if self.mode("dual_species"):
            for _ in range(len(c.dual)):
                self.hu_box.append(hunting.pop(self._rand(len(hunting))))
            hunting += sorted(c.dual)
            self._shuffle(hunting)
        self.hu_deck = hunting
        self._build_event_decks()
        if self.module(myths.MODULE):
            myths.setup(self)
        if self.module(legends.MODULE):
            legends.setup(self, ev)
        # investors and cartography
        if self.scenario is None:
            inv = sorted(c.investors)
            self._shuffle(inv)
            car = sorted(c.cartography)
            self._shuffle(car)
            k_inv = int(r.get("investor_cards_dealt", 2))
            k_car = int(r.get("cartography_cards_dealt", 2))
            for s in range(n):
                self.inv_opts[s] = [inv.pop() for _ in range(min(k_inv, len(inv)))]
                self.carto_opts[s] = [car.pop() for _ in range(min(k_car, len(car)))]
            self.inv_pool = inv
            self.carto_pool = car
            self.step = "choose"
        elif self.scenario == "lost-expedition":
            car = sorted(c.cartography)
            self._shuffle(car)
            if car:
                self.priority = list(c.cartography[car.pop()].regions)
            self.carto_pool = car
            self.search = [s["id"] for s in scen.get("search_cards", [])]
            self._shuffle(self.search)
            self.le_progress = int(scen.get("progress", {}).get("start", 0))
            self._begin(ev)
        elif self.scenario == "magnetic-north-pole":
            deck: list[str] = []
            for d, k in scen.get("compass", {}).items():
                deck += [d] * int(k)
            self._shuffle(deck)  # index 0 = top
            bottom = int(scen.get("pole_in_bottom", 5)) - 1
            tail = deck[len(deck) - bottom :] if bottom > 0 else []
            head = deck[: len(deck) - len(tail)]
            tail.append(POLE)
            self._shuffle(tail)
            self.compass = head + tail
            self.leader = 0
            self.current = 0
            self.step = "mnp_section"
        else:  # the Myths & Legends scenarios: their state classes add the rest
            self._begin(ev)

    def _build_event_decks(self) -> None:
        c = self.content
        scen = self.scen()
        if scen.get("decks"):
            self.ev_open = [int(x) for x in scen["decks"]["open"]]
            self.ev_coastal = [int(x) for x in scen["decks"]["coastal"]]
        else:
            # the explorer events enter their decks with their sets (legends.assign)
            base = [e for e in c.events.values() if e.number not in legends.event_numbers()]
            self.ev_open = sorted(e.number for e in base if e.deck == "open" and not e.optional)
            self.ev_coastal = sorted(
                e.number for e in base if e.deck == "coastal" and not e.optional
            )
            if self.options["extra_events"]:
                for e in sorted(c.events.values(), key=lambda e: e.number):
                    if not e.optional:
                        continue
                    deck = self.ev_open if e.deck == "open" else self.ev_coastal
                    self.ev_box.append(deck.pop(self._rand(len(deck))))
                    deck.append(e.number)
        self._shuffle(self.ev_open)
        self._shuffle(self.ev_coastal)

    def _begin(self, ev: list[Event]) -> None:
        """After the setup choices: reveal investors, give the helm (§2.2 steps 7–8)."""
        n = self.n
        if self.scenario is None:
            self.revealed = True
            for s in range(n):
                inv_id = self.investor[s]
                if inv_id is None:
                    continue
                ev.append(InvestorRevealed(s, inv_id))
                for k, v in self.content.investors[inv_id].bonus.items():
                    self._gain(s, k, int(v), "investor bonus", ev)
        dyn = [self.p(s, DYN) for s in range(n)]
        self.leader = max(range(n), key=lambda s: (dyn[s], -s))
        ev.append(LeaderChanged(self.leader, "most dynamite"))
        self.step = "round"
        self.phase = "flow"
