"""The rules engine of Through Ice and Snow: the game state and its flow.

A :class:`State` is a flat bag of ints, strings and lists (cheap to clone,
exact to serialise).  The round of §4 is a chain of *steps* (``State.step``)
run by :meth:`State._run` until a player must decide something:

* a **phase decision** of the flow — ``setup`` (investor / cartography),
  ``section``, ``start`` (Magnetic North Pole start anchor), ``destination``,
  ``voyage`` and ``action`` (the Action phase, one ``take`` or ``pass`` per
  turn);
* a **queued decision** (``State.decisions``) raised by a rule in the middle
  of a step — ``discard`` (fuel 0–3, event 7), ``infirmary`` (Scurvy, event
  27), ``eat`` (food shortage with a choice of species), ``compass`` (event
  25), ``mast`` (upgrade 9), ``boiler`` (upgrade 8).  Queued decisions are
  answered first; then the flow goes on from ``State.step``.

Steps of a round: ``round`` (leader check) → ``dest`` → [``section``] →
``ice`` → ``attrition`` → ``vtype`` → ``fuel`` → ``mapevent`` → ``cards`` →
``action`` → ``board`` → ``cleanup`` → ``round`` …; after the final round the
final voyage runs ``round`` → … → ``fuel`` → ``final`` and the game ends.

The Action phase (its legal ``take`` actions and their effects) lives in
:mod:`erebus.games.iceandsnow.action_phase`; final scoring in
:mod:`~erebus.games.iceandsnow.scoring`; towing in
:mod:`~erebus.games.iceandsnow.towing`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from erebus.core.errors import IllegalAction
from erebus.core.events import Event
from erebus.core.rng import Rng
from erebus.games.iceandsnow import action_phase, scoring
from erebus.games.iceandsnow.actions import Action, Crew
from erebus.games.iceandsnow.content import CREW_KINDS, RESOURCES, Content, default_content
from erebus.games.iceandsnow.events import (
    AttritionPenalty,
    CardsRevealed,
    CartographyChosen,
    CartographyRevealed,
    CompassDrawn,
    CrewLost,
    CrewToInfirmary,
    DestinationChosen,
    DynamitePlaced,
    EventRevealed,
    FleetMoved,
    FoodShortage,
    GameOver,
    InvestorChosen,
    InvestorRevealed,
    LeaderChanged,
    Passed,
    RegionMapped,
    ResourceChanged,
    RoundEnded,
    RoundStarted,
    ScenarioProgress,
    ScoreChanged,
    SectionPlaced,
    SpeciesEaten,
    Towing,
    TrackChanged,
    VoyageChosen,
)
from erebus.games.iceandsnow.layout import (
    BADZONE,
    BOILER,
    BOILER_TILE,
    CARD9,
    CARD17,
    DOGS,
    DYN,
    FISHING_BOAT,
    FOOD,
    FUEL,
    GALLEY,
    GET9,
    GET17,
    HEALTH,
    HIRED,
    INF,
    INUIT,
    LEADS,
    MAST,
    MORALE,
    PASSED,
    PAWNS,
    PP,
    PROXY,
    RES,
    RESCUED,
    SAILORS,
    SALOON,
    SLED,
    TOW,
    TREATMENT_ROOM,
    TURNS,
    USED,
    WOOD,
    F,
)
from erebus.games.iceandsnow.options import normalize
from erebus.games.iceandsnow.tables import Tables, tables_for
from erebus.games.iceandsnow.towing import tow

FORMAT = 1
#: Dynamite of the icebreaking itself (§4.1 step 3), before a route's extra dynamite.
ICEBREAK_DYNAMITE = 1
#: Compass directions as unit vectors on the map's (x east, y north) grid.
DIRECTIONS = {"N": (0.0, 1.0), "S": (0.0, -1.0), "E": (1.0, 0.0), "W": (-1.0, 0.0)}
POLE = "pole"
WAITING = ("setup", "section", "start", "destination", "voyage", "action")

# Serialised fields: (name, kind) with kind "s" scalar, "l" flat list, "ll" list of lists.
_FIELDS: tuple[tuple[str, str], ...] = (
    ("n", "s"),
    ("seed", "s"),
    ("rng", "s"),
    ("round", "s"),
    ("step", "s"),
    ("phase", "s"),
    ("current", "s"),
    ("leader", "s"),
    ("lead_taker", "s"),
    ("fleet", "s"),
    ("prev_fleet", "s"),
    ("dest", "s"),
    ("dest_dyn", "s"),
    ("voyage", "s"),
    ("event", "s"),
    ("event_pending", "s"),
    ("event_taken", "s"),
    ("ev22", "s"),
    ("ev4", "s"),
    ("ev26", "s"),
    ("ev28", "s"),
    ("final_round", "s"),
    ("final_voyage", "s"),
    ("over", "s"),
    ("lost", "s"),
    ("won", "s"),
    ("reason", "s"),
    ("magnetised", "s"),
    ("pole_dir", "s"),
    ("pole_found", "s"),
    ("mnp_explore", "s"),
    ("mnp_cabin", "s"),
    ("le_progress", "s"),
    ("le_found", "s"),
    ("le_cabin", "s"),
    ("inuit_pool", "s"),
    ("carto_tokens", "s"),
    ("setup_seat", "s"),
    ("setup_stage", "s"),
    ("revealed", "s"),
    ("pv", "l"),
    ("mapped", "l"),
    ("dyn_anchors", "l"),
    ("sp_deck", "l"),
    ("sp_disc", "l"),
    ("sp_eaten", "l"),
    ("hu_deck", "l"),
    ("hu_disc", "l"),
    ("hu_box", "l"),
    ("hu_rev", "l"),
    ("sp_rev", "l"),
    ("ev_open", "l"),
    ("ev_coastal", "l"),
    ("ev_open_disc", "l"),
    ("ev_coastal_disc", "l"),
    ("ev_box", "l"),
    ("compass", "l"),
    ("compass_disc", "l"),
    ("search", "l"),
    ("search_rev", "l"),
    ("priority", "l"),
    ("discovered", "l"),
    ("occ", "l"),
    ("col_paid", "l"),
    ("boxes", "l"),
    ("upg_left", "l"),
    ("investor", "l"),
    ("carto", "l"),
    ("carto_pool", "l"),
    ("inv_pool", "l"),
    ("cabins_at", "ll"),
    ("shelters_at", "ll"),
    ("placed", "ll"),
    ("species", "ll"),
    ("gained", "ll"),
    ("upgrades", "ll"),
    ("inv_opts", "ll"),
    ("carto_opts", "ll"),
    ("decisions", "ll"),
)
_SCALARS = tuple(n for n, k in _FIELDS if k == "s")
_LISTS = tuple(n for n, k in _FIELDS if k == "l")
_NESTED = tuple(n for n, k in _FIELDS if k == "ll")


class State:
    """A position in a game of Through Ice and Snow.

    Build one with :func:`new_game`.  The public API is the one of
    ``shared/design/engine-api.md``; the attributes are internal but stable
    enough for renderers and the test kit (:mod:`erebus.games.iceandsnow.kit`).
    """

    __slots__ = (
        *(n for n, _ in _FIELDS),
        "_legal",
        "_t",
        "options",
        "setup_events",
        "viewer",
    )

    game = "iceandsnow"

    _t: Tables
    _legal: list[Action] | None
    options: dict[str, Any]
    setup_events: list[Event]
    viewer: int | None
    n: int
    seed: int
    rng: int
    round: int
    step: str
    phase: str
    current: int | None
    leader: int
    lead_taker: int
    fleet: str
    prev_fleet: str | None
    dest: str | None
    dest_dyn: int
    voyage: str | None
    event: int | None
    event_pending: int | None
    event_taken: bool
    ev22: str | None
    ev4: bool
    ev26: bool
    ev28: bool
    final_round: bool
    final_voyage: bool
    over: bool
    lost: bool
    won: bool | None
    reason: str
    magnetised: bool
    pole_dir: str | None
    pole_found: bool
    mnp_explore: int
    mnp_cabin: int
    le_progress: int
    le_found: bool
    le_cabin: bool
    inuit_pool: int
    carto_tokens: int
    setup_seat: int
    setup_stage: int
    revealed: bool
    pv: list[int]
    mapped: list[str]
    dyn_anchors: list[str]
    sp_deck: list[str]
    sp_disc: list[str]
    sp_eaten: list[str]
    hu_deck: list[str]
    hu_disc: list[str]
    hu_box: list[str]
    hu_rev: list[str]
    sp_rev: list[str]
    ev_open: list[int]
    ev_coastal: list[int]
    ev_open_disc: list[int]
    ev_coastal_disc: list[int]
    ev_box: list[int]
    compass: list[str]
    compass_disc: list[str]
    search: list[str]
    search_rev: list[str]
    priority: list[str]
    discovered: list[str]
    occ: list[int]
    col_paid: list[int]
    boxes: list[int]
    upg_left: list[int]
    investor: list[str | None]
    carto: list[str | None]
    carto_pool: list[str]
    inv_pool: list[str]
    cabins_at: list[list[Any]]
    shelters_at: list[list[Any]]
    placed: list[list[Any]]
    species: list[list[str]]
    gained: list[list[str]]
    upgrades: list[list[int]]
    inv_opts: list[list[str]]
    carto_opts: list[list[str]]
    decisions: list[list[Any]]

    # ------------------------------------------------------------------ setup

    @classmethod
    def new(
        cls,
        players: int,
        seed: int,
        options: dict[str, Any] | None = None,
        content: Content | None = None,
    ) -> State:
        """Set up a game (§2) and run it to the first decision."""
        if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 4:
            raise ValueError(f"Through Ice and Snow is for 1–4 players, not {players!r}")
        opts = normalize(options, players)
        st = cls._blank(players, seed, opts, content or default_content())
        events: list[Event] = []
        st._setup(events)
        st._run(events)
        st.setup_events = events
        return st

    @classmethod
    def _blank(cls, players: int, seed: int, opts: dict[str, Any], content: Content) -> State:
        st = cls.__new__(cls)
        st._t = tables_for(content)
        st._legal = None
        st.options = opts
        st.setup_events = []
        st.viewer = None
        st.n = players
        st.seed = seed
        st.rng = Rng(seed).state
        st.round = 0
        st.step = "setup"
        st.phase = "flow"
        st.current = 0
        st.leader = 0
        st.lead_taker = -1
        st.fleet = ""
        st.prev_fleet = None
        st.dest = None
        st.dest_dyn = 0
        st.voyage = None
        st.event = None
        st.event_pending = None
        st.event_taken = False
        st.ev22 = None
        st.ev4 = st.ev26 = st.ev28 = False
        st.final_round = False
        st.final_voyage = False
        st.over = False
        st.lost = False
        st.won = None
        st.reason = ""
        st.magnetised = False
        st.pole_dir = None
        st.pole_found = False
        st.mnp_explore = 0
        st.mnp_cabin = -1
        st.le_progress = 0
        st.le_found = False
        st.le_cabin = False
        st.inuit_pool = 0
        st.carto_tokens = 0
        st.setup_seat = 0
        st.setup_stage = 0
        st.revealed = False
        for name in _LISTS:
            setattr(st, name, [])
        for name in _NESTED:
            setattr(st, name, [])
        return st

    # -- small accessors --------------------------------------------------------

    @property
    def content(self) -> Content:
        return self._t.content

    @property
    def tables(self) -> Tables:
        return self._t

    @property
    def rules(self) -> dict[str, Any]:
        return self.content.rules

    @property
    def scenario(self) -> str | None:
        s: str | None = self.options["scenario"]
        return s

    def mode(self, name: str) -> bool:
        return name in self.options["modes"]

    def scen(self) -> dict[str, Any]:
        s = self.scenario
        d: dict[str, Any] = self.content.scenarios[s] if s else {}
        return d

    def _rand(self, n: int) -> int:
        r = Rng.from_state(self.rng)
        v = r.below(n)
        self.rng = r.state
        return v

    def _shuffle(self, items: list[Any]) -> None:
        r = Rng.from_state(self.rng)
        r.shuffle(items)
        self.rng = r.state

    def p(self, seat: int, field: int) -> int:
        return self.pv[F * seat + field]

    def owned_crew(self, seat: int) -> Crew:
        b = F * seat
        return (1, 1, 1, self.pv[b + SAILORS], self.pv[b + PAWNS])

    def avail_crew(self, seat: int) -> Crew:
        b = F * seat
        pv = self.pv
        return (
            1 - pv[b + USED] - pv[b + INF],
            1 - pv[b + USED + 1] - pv[b + INF + 1],
            1 - pv[b + USED + 2] - pv[b + INF + 2],
            pv[b + SAILORS] - pv[b + USED + 3] - pv[b + INF + 3],
            pv[b + PAWNS] - pv[b + USED + 4] - pv[b + INF + 4],
        )

    def crew_count(self, seat: int) -> int:
        """Own crew (officers, sailors, Inuit pawns); Mutiny and event 24 count these."""
        b = F * seat
        return 3 + self.pv[b + SAILORS] + self.pv[b + PAWNS]

    def fed_count(self, seat: int) -> int:
        """Mouths to feed: own crew plus rescued Lost Expedition sailors (§7.1)."""
        return self.crew_count(seat) + self.pv[F * seat + RESCUED]

    def has_upgrade(self, seat: int, number: int) -> bool:
        return number in self.upgrades[seat]

    def region_of(self, anchor: str) -> str:
        return self._t.anchors[anchor].region

    def placed_key(self) -> tuple[tuple[int, str], ...]:
        return tuple((int(s), str(d)) for s, d in self.placed)

    def order_from(self, seat: int) -> list[int]:
        return [(seat + i) % self.n for i in range(self.n)]

    # -- setup ----------------------------------------------------------------------

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
        top = max(c.upgrades) + 1 if c.upgrades else 1
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
        else:  # magnetic north pole
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

    def upgrade_in_game(self, number: int) -> bool:
        u = self.content.upgrades[number]
        if not u.optional or self.options["upgrades"] == "all":
            return True
        # the Fishing Boat is required by Dual Species (§6.3)
        return number == FISHING_BOAT and self.mode("dual_species")

    def _build_event_decks(self) -> None:
        c = self.content
        scen = self.scen()
        if scen.get("decks"):
            self.ev_open = [int(x) for x in scen["decks"]["open"]]
            self.ev_coastal = [int(x) for x in scen["decks"]["coastal"]]
        else:
            self.ev_open = sorted(
                e.number for e in c.events.values() if e.deck == "open" and not e.optional
            )
            self.ev_coastal = sorted(
                e.number for e in c.events.values() if e.deck == "coastal" and not e.optional
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

    def _gain(self, seat: int, what: str, v: int, reason: str, ev: list[Event]) -> None:
        """A gain of a resource, track or Inuk from a card (no space effects)."""
        if v == 0:
            return
        if what in RES:
            idx = RES[what]
            if what == "dogs":
                room = int(self.content.tracks["dogs"]["spaces"]) - self.p(seat, DOGS)
                v = min(v, room) if v > 0 else v
            b = F * seat + idx
            v = max(v, -self.pv[b])
            if v:
                self.pv[b] += v
                ev.append(ResourceChanged(seat, what, v, reason))
        elif what == "food":
            if v > 0:
                self._set(
                    seat, FOOD, min(self._t.food_max, self.p(seat, FOOD) + v), "food", reason, ev
                )
            else:
                self._set(seat, FOOD, max(0, self.p(seat, FOOD) + v), "food", reason, ev)
        elif what in ("health", "morale", "fuel"):
            if v > 0:
                self._raise(seat, what, v, reason, ev)
            else:
                self._lower(seat, what, -v, reason, ev, effect=False)
        elif what == "inuit":
            self._hire(seat, v, reason, ev, at_once=True)
        elif what == "sled":
            mx = int(self.content.tracks["sled"]["max"])
            self._set(seat, SLED, max(0, min(mx, self.p(seat, SLED) + v)), "sled", reason, ev)

    def _hire(self, seat: int, k: int, reason: str, ev: list[Event], at_once: bool) -> None:
        k = min(k, self.inuit_pool)
        if k <= 0:
            return
        self.inuit_pool -= k
        b = F * seat
        self._set(seat, INUIT, self.pv[b + INUIT] + k, "inuit", reason, ev)
        if at_once:
            self.pv[b + PAWNS] += k
        else:
            self.pv[b + HIRED] += k

    # -- tracks and score ---------------------------------------------------------------

    def _set(self, seat: int, idx: int, new: int, track: str, reason: str, ev: list[Event]) -> None:
        b = F * seat + idx
        old = self.pv[b]
        if old != new:
            self.pv[b] = new
            ev.append(TrackChanged(seat, track, old, new, reason))

    def _score(
        self, seat: int, delta: int, reason: str, ev: list[Event], force: bool = False
    ) -> None:
        """Every PP change goes through here (one ScoreChanged each).

        In a solo scenario no PP are gained during play (§7.0), losses apply,
        and 0 or less loses at once.
        """
        if delta == 0:
            return
        if self.scenario is not None and delta > 0 and not force:
            return
        self.pv[F * seat + PP] += delta
        ev.append(ScoreChanged(seat, delta, reason))
        if self.scenario is not None and self.pv[F * seat + PP] <= 0 and not self.over:
            self._lose("your prestige fell to 0", ev)

    def _raise(self, seat: int, track: str, v: int, reason: str, ev: list[Event]) -> None:
        """Raise health, morale or fuel; points above the maximum overflow (§3.4)."""
        idx = {"health": HEALTH, "morale": MORALE, "fuel": FUEL}[track]
        mx = (
            self.content.health.max
            if track == "health"
            else self.content.morale.max
            if track == "morale"
            else int(self.content.tracks["fuel"]["max"])
        )
        old = self.p(seat, idx)
        new = old + v
        over = max(0, new - mx)
        self._set(seat, idx, min(new, mx), track, reason, ev)
        if over:
            ovf = self.rules["overflow"][track]
            if "pp" in ovf:
                self._score(seat, over * int(ovf["pp"]), f"{track} overflow", ev)
            if "morale" in ovf:
                self._raise(seat, "morale", over * int(ovf["morale"]), "fuel overflow", ev)

    def _lower(
        self, seat: int, track: str, v: int, reason: str, ev: list[Event], effect: bool
    ) -> None:
        """Lower health or morale (``effect``: apply the new space's effect, §3.4/§4.3),
        or fuel (no band effect here; the Voyage step handles bands)."""
        if track == "fuel":
            self._set(seat, FUEL, max(0, self.p(seat, FUEL) - v), "fuel", reason, ev)
            return
        idx = HEALTH if track == "health" else MORALE
        tr = self.content.health if track == "health" else self.content.morale
        new = max(0, self.p(seat, idx) - v)
        self._set(seat, idx, new, track, reason, ev)
        eff = tr.effects.get(new)
        if eff == "death" or (track == "morale" and eff == "mutiny"):
            self.pv[F * seat + BADZONE] = 1
        if not effect:
            return
        if eff == "death":
            ev.append(AttritionPenalty(seat, "death"))
            self._score(seat, int(self.rules["death_pp"]), f"death ({track})", ev)
            self._set(seat, idx, new + 1, track, "death", ev)
            self._lose_sailor(seat, "death", ev)
            return
        if eff == "scurvy":
            if self.has_upgrade(seat, TREATMENT_ROOM):
                ev.append(AttritionPenalty(seat, "scurvy (cancelled by the Treatment Room)"))
            else:
                ev.append(AttritionPenalty(seat, "scurvy"))
                self._infirmary(seat, int(self.rules["scurvy_infirmary"]), True, ev)
        elif eff == "mutiny":
            if self.has_upgrade(seat, SALOON):
                ev.append(AttritionPenalty(seat, "mutiny (cancelled by the Saloon)"))
            else:
                ev.append(AttritionPenalty(seat, "mutiny"))
                self._lower_food(seat, math.ceil(self.crew_count(seat) / 2), "mutiny", ev)
        if new == 0:
            self._set(seat, idx, 1, track, "reached 0", ev)

    def _lose_sailor(self, seat: int, reason: str, ev: list[Event]) -> bool:
        b = F * seat
        pv = self.pv
        if pv[b + SAILORS] <= 0:
            return False
        pv[b + SAILORS] -= 1
        # a sailor no longer on the ship cannot stay placed or in the infirmary
        free = pv[b + SAILORS] - pv[b + USED + 3] - pv[b + INF + 3]
        if free < 0:
            if pv[b + INF + 3] > 0:
                pv[b + INF + 3] -= 1
            else:
                pv[b + USED + 3] -= 1
        ev.append(CrewLost(seat, "sailor", reason))
        return True

    # -- decisions raised inside steps ---------------------------------------------------

    def _infirmary(self, seat: int, count: int, allow_inuit: bool, ev: list[Event]) -> None:
        opts = infirmary_options(self.avail_crew(seat), count, allow_inuit)
        if not opts:
            return
        if len(opts) == 1:
            self._to_infirmary(seat, opts[0], ev)
        else:
            self.decisions.append(["infirmary", seat, count, int(allow_inuit)])

    def _to_infirmary(self, seat: int, crew: Crew, ev: list[Event]) -> None:
        b = F * seat + INF
        for i, k in enumerate(crew):
            self.pv[b + i] += k
        ev.append(CrewToInfirmary(seat, crew))

    def _discard_choice(self, seat: int, reason: str, ev: list[Event]) -> None:
        kinds = [r for r in RESOURCES if self.p(seat, RES[r]) > 0]
        if not kinds:
            return
        if len(kinds) == 1:
            self._gain(seat, kinds[0], -1, reason, ev)
        else:
            self.decisions.append(["discard", seat, reason])

    def _lower_food(self, seat: int, need: int, reason: str, ev: list[Event]) -> None:
        """Lower food by ``need``, with the food-shortage rules when short (§4.7)."""
        if need <= 0:
            return
        food = self.p(seat, FOOD)
        if food >= need:
            self._set(seat, FOOD, food - need, "food", reason, ev)
            return
        ev.append(FoodShortage(seat, need - food))
        self._shortage(seat, need, reason, ev)

    def eat_options(self, seat: int) -> list[str]:
        """One species card per distinct (species, PP, food, health) held, in hand order."""
        seen: set[tuple[str, int, int, int]] = set()
        out: list[str] = []
        for cid in self.species[seat]:
            c = self.content.species.get(cid)
            if c is None:
                continue
            key = (c.species, c.pp, c.food, c.health)
            if key not in seen:
                seen.add(key)
                out.append(cid)
        return out

    def _shortage(
        self, seat: int, need: int, reason: str, ev: list[Event], front: bool = False
    ) -> None:
        """Steps 1–4 of the food shortage, strict order; a choice of species queues ``eat``."""
        sh = self.rules["shortage"]
        b = F * seat
        while self.pv[b + FOOD] < need:
            opts = self.eat_options(seat)
            if len(opts) > 1:
                d = ["eat", seat, need, reason]
                if front:
                    self.decisions.insert(0, d)
                else:
                    self.decisions.append(d)
                return
            if opts:
                self._eat(seat, opts[0], ev)
                continue
            if self.pv[b + DOGS] > 0:
                self._gain(seat, "dogs", -1, "eaten in a food shortage", ev)
                self._set(
                    seat, FOOD, self.pv[b + FOOD] + int(sh["dog_food"]), "food", "dog eaten", ev
                )
                self._score(seat, int(sh["dog_pp"]), "dog eaten", ev)
                continue
            if self.pv[b + SAILORS] > 0:
                self._lose_sailor(seat, "food shortage", ev)
                self._set(
                    seat,
                    FOOD,
                    self.pv[b + FOOD] + int(sh["sailor_food"]),
                    "food",
                    "sailor lost",
                    ev,
                )
                self._score(seat, int(sh["sailor_pp"]), "sailor lost to hunger", ev)
                continue
            missing = need - self.pv[b + FOOD]
            self._score(seat, missing * int(sh["missing_food_pp"]), "missing food", ev)
            self._set(seat, FOOD, 0, "food", reason, ev)
            return
        self._set(seat, FOOD, self.pv[b + FOOD] - need, "food", reason, ev)

    def _eat(self, seat: int, cid: str, ev: list[Event]) -> None:
        card = self.content.species[cid]
        self.species[seat].remove(cid)
        self.sp_eaten.append(cid)
        ev.append(SpeciesEaten(seat, cid))
        b = F * seat
        self._set(
            seat,
            FOOD,
            min(self._t.food_max, self.pv[b + FOOD] + card.food),
            "food",
            "species eaten",
            ev,
        )
        if card.health:
            self._raise(seat, "health", card.health, "species eaten", ev)

    # -- ending -------------------------------------------------------------------------

    def _lose(self, reason: str, ev: list[Event]) -> None:
        """An all-lose ending (§5.4, §7.0)."""
        if self.over:
            return
        self.over = True
        self.lost = True
        self.reason = reason
        if self.scenario is not None:
            self.won = False
        self.decisions = []
        self.current = None
        self.phase = "over"
        self.step = "over"
        ev.append(GameOver("lost", reason, tuple(self.scores())))

    def _finish(self, ev: list[Event]) -> None:
        """The passage is complete: final scoring (§5.2) or the solo objectives (§7)."""
        self.over = True
        self.current = None
        self.phase = "over"
        self.step = "over"
        if self.scenario is None:
            for seat, delta, reason in scoring.final_scores(self):
                self._score(seat, delta, reason, ev)
            for s in range(self.n):
                cid = self.carto[s]
                if cid is not None:
                    ev.append(CartographyRevealed(s, cid, self.content.cartography[cid].regions))
            self.reason = "the expedition completed the Northwest Passage"
            ev.append(GameOver("finished", self.reason, tuple(self.scores())))
            return
        missing = self.objectives_missing()
        self.won = not missing
        self.lost = bool(missing)
        self.reason = (
            "all objectives met" if not missing else "objectives not met: " + "; ".join(missing)
        )
        ev.append(GameOver("won" if self.won else "lost", self.reason, tuple(self.scores())))

    def objectives_missing(self) -> list[str]:
        """The solo objectives not (yet) met, in words (§7.1, §7.2); the passage itself
        counts as met once the game is over."""
        out: list[str] = []
        scen = self.scen()
        if self.scenario == "lost-expedition":
            obj = scen.get("objective", {})
            if not self.le_cabin:
                out.append("no cabin lowering enough food before finding the lost expedition")
            sp = obj.get("species")
            if sp and not any(self.content.species[c].species == sp for c in self.species[0]):
                out.append(f"you do not own a {sp} species card")
            if not self.le_found:
                out.append("the lost expedition was not found")
        elif self.scenario == "magnetic-north-pole" and not self.pole_found:
            out.append("the magnetic north pole was not discovered")
        return out

    # -- the flow -----------------------------------------------------------------------

    def _run(self, ev: list[Event]) -> None:
        """Run steps until a player must decide (or the game ends)."""
        guard = 0
        while not self.over and self.phase not in WAITING:
            # a queued decision whose options vanished (nothing left to choose) is skipped
            while self.decisions and not self._decision_actions(self.decisions[0]):
                self.decisions.pop(0)
            if self.decisions:
                break
            guard += 1
            if guard > 10_000:  # pragma: no cover - a flow bug, not a rule
                raise RuntimeError(f"the game flow does not progress at step {self.step!r}")
            getattr(self, "_step_" + self.step)(ev)
        if self.over:
            self.current = None
            self.decisions = []

    def _step_choose(self, ev: list[Event]) -> None:
        self.phase = "setup"
        self.current = self.setup_seat

    def _step_mnp_section(self, ev: list[Event]) -> None:
        self.phase = "section"
        self.current = self.leader
        self.dest = None

    def _step_mnp_start(self, ev: list[Event]) -> None:
        self.phase = "start"
        self.current = self.leader

    def _step_round(self, ev: list[Event]) -> None:
        self.round += 1
        self.event = None
        self.event_pending = None
        self.event_taken = False
        self.ev22 = None
        self.ev4 = self.ev26 = self.ev28 = False
        self.voyage = None
        self.dest = None
        self.dest_dyn = 0
        self.mnp_explore = 0
        self.mnp_cabin = -1
        for s in range(self.n):
            self.pv[F * s + BOILER] = 0
        self.pv[F * self.leader + LEADS] += 1
        ev.append(RoundStarted(self.round, self.leader))
        if self.scenario == "magnetic-north-pole" and not self.pole_found and not self.magnetised:
            sec = self.scen().get("magnetise_section", "central_west")
            idx = self._t.section_ids.index(sec) if sec in self._t.section_ids else 2
            if idx in self._t.sections_of[self.fleet] and self._section_placed(idx):
                self.magnetised = True
                ev.append(ScenarioProgress("the compass is magnetised", 1))
        self.step = "dest"

    def _section_placed(self, idx: int) -> bool:
        return any(int(s) == idx for s, _ in self.placed)

    def destinations(self) -> list[tuple[str, int]]:
        return list(self._t.routes_from(self.placed_key(), self.fleet))

    def _step_dest(self, ev: list[Event]) -> None:
        if self.magnetised:
            self._compass_destination(ev)
            return
        if not self.destinations():
            self._lose("no route leads on from here", ev)
            return
        self.phase = "destination"
        self.current = self.leader

    def _compass_destination(self, ev: list[Event]) -> None:
        """Magnetised compass (§7.2): the card decides; no destination costs 1 fuel."""
        routes = self._t.routes_from(self.placed_key(), self.fleet, both_ways=True)
        here = self._t.anchors[self.fleet]
        for _ in range(1000):
            if not self.compass:
                self.compass = self.compass_disc
                self.compass_disc = []
                self._shuffle(self.compass)
                if not self.compass:
                    self._lose("the compass deck is empty", ev)
                    return
            card = self.compass.pop(0)
            ev.append(CompassDrawn(card))
            if card == POLE:
                direction = self.compass_disc[-1] if self.compass_disc else None
            else:
                self.compass_disc.append(card)
                direction = card
            best: tuple[float, str, int] | None = None
            if direction is not None:
                dx, dy = DIRECTIONS[direction]
                for to, dyn in routes:
                    a = self._t.anchors[to]
                    d = (a.x - here.x) * dx + (a.y - here.y) * dy
                    if d > 0 and (best is None or d > best[0]):
                        best = (d, to, dyn)
            if best is None:
                if card == POLE:
                    self.compass.insert(self._rand(len(self.compass) + 1), POLE)
                else:
                    self.compass_disc.pop()
                    self.compass.insert(self._rand(len(self.compass) + 1), card)
                self._fuel_cost_solo(1, "the compass points nowhere", ev)
                if self.over:
                    return
                continue
            if card == POLE:
                self.pole_dir = direction
                ev.append(ScenarioProgress(f"the pole lies {direction}", 1))
            self._choose_destination(best[1], best[2], ev)
            return
        self._lose("the compass never settles", ev)

    def _fuel_cost_solo(self, v: int, reason: str, ev: list[Event]) -> None:
        missing = max(0, v - self.p(0, FUEL))
        self._lower(0, "fuel", v, reason, ev, effect=False)
        if missing:
            self._towing([missing if s == 0 else 0 for s in range(self.n)], ev)

    def _choose_destination(self, to: str, dyn: int, ev: list[Event]) -> None:
        self.dest = to
        self.dest_dyn = dyn
        ev.append(DestinationChosen(self.leader, to))
        if not all(self._section_placed(i) for i in self._t.sections_of[to]):
            self.phase = "section"
            self.current = self.leader
        else:
            self.phase = "flow"
            self.step = "ice"

    def next_section(self) -> int:
        """Index of the map section a ``section`` action places now."""
        if self.dest is None:
            return 1  # Magnetic North Pole setup: Central East
        return max(i for i in self._t.sections_of[self.dest] if not self._section_placed(i))

    def _step_ice(self, ev: list[Event]) -> None:
        assert self.dest is not None
        cost = ICEBREAK_DYNAMITE + self.dest_dyn
        if sum(self.p(s, DYN) for s in range(self.n)) < cost:
            self._lose("nobody can pay the icebreaking dynamite", ev)
            return
        left = cost
        for s in self.order_from(self.leader):
            pay = min(left, self.p(s, DYN))
            if pay:
                self.pv[F * s + DYN] -= pay
                left -= pay
                ev.append(DynamitePlaced(s, self.dest, pay))
            if not left:
                break
        if self.dest not in self.dyn_anchors:
            self.dyn_anchors.append(self.dest)
        self.step = "attrition"

    def _step_attrition(self, ev: list[Event]) -> None:
        att = self.rules["attrition"]
        for s in self.order_from(self.leader):
            self._lower(s, "health", int(att["health"]), "attrition", ev, effect=True)
            if self.over:
                return
            self._lower(s, "morale", int(att["morale"]), "attrition", ev, effect=True)
            if self.over:
                return
        self.step = "vtype"

    def voyage_options(self) -> list[str]:
        if self.final_voyage:
            return ["open"]
        opts = []
        solo = self.n == 1
        need = int(self.rules["coastal_min_fuel_per_player"]) * self.n
        fuel_ok = sum(self.p(s, FUEL) for s in range(self.n)) >= need
        if fuel_ok and (not solo or self.ev_coastal):
            opts.append("coastal")
        if not solo or self.ev_open:
            opts.append("open")
        return opts

    def _step_vtype(self, ev: list[Event]) -> None:
        if self.n == 1 and not self.ev_open and not self.ev_coastal:
            # R2: in solo both decks exhausted -> both reshuffle their discards
            self.ev_open, self.ev_open_disc = self.ev_open_disc, []
            self.ev_coastal, self.ev_coastal_disc = self.ev_coastal_disc, []
            self._shuffle(self.ev_open)
            self._shuffle(self.ev_coastal)
        if not self.voyage_options():
            self.ev_open, self.ev_open_disc = self.ev_open + self.ev_open_disc, []
            self._shuffle(self.ev_open)
        if self.final_voyage:
            self._voyage_chosen("open", ev)
            return
        self.phase = "voyage"
        self.current = self.leader

    def _voyage_chosen(self, voyage: str, ev: list[Event]) -> None:
        self.voyage = voyage
        ev.append(VoyageChosen(self.leader, voyage))
        self.phase = "flow"
        self.step = "fuel"
        if not self.final_voyage and self.has_upgrade(self.leader, MAST):
            deck = self._event_deck(voyage)
            if len(deck) >= 2:
                self.decisions.append(["mast", self.leader, str(deck[0]), str(deck[1])])
        for s in self.order_from(self.leader):
            if self.has_upgrade(s, BOILER_TILE) and self.p(s, WOOD) > 0:
                self.decisions.append(["boiler", s])

    def _event_deck(self, voyage: str) -> list[int]:
        """The deck of ``voyage``; an empty multiplayer deck reshuffles its discards (R2)."""
        if voyage == "open":
            if not self.ev_open and self.n > 1:
                self.ev_open, self.ev_open_disc = self.ev_open_disc, []
                self._shuffle(self.ev_open)
            return self.ev_open
        if not self.ev_coastal and self.n > 1:
            self.ev_coastal, self.ev_coastal_disc = self.ev_coastal_disc, []
            self._shuffle(self.ev_coastal)
        return self.ev_coastal

    def _step_fuel(self, ev: list[Event]) -> None:
        assert self.dest is not None and self.voyage is not None
        self.prev_fleet = self.fleet
        self.fleet = self.dest
        ev.append(FleetMoved(self.fleet))
        cost = int(self.rules["voyage_fuel"][self.voyage])
        missing = [0] * self.n
        bands = self.content.tracks["fuel"]["bands"]
        for s in self.order_from(self.leader):
            c = cost
            if self.pv[F * s + BOILER] and c > 0 and self.p(s, WOOD) > 0:
                self._gain(s, "wood", -1, "boiler", ev)
                c -= 1
            old = self.p(s, FUEL)
            missing[s] = max(0, c - old)
            self._lower(s, "fuel", c, f"{self.voyage} voyage", ev, effect=False)
            new = self.p(s, FUEL)
            for band in bands:
                if int(band["from"]) <= new <= int(band["to"]):
                    if band["effect"] == "morale":
                        self._raise(s, "morale", 1, "fuel 8–10", ev)
                    elif band["effect"] == "discard":
                        self._discard_choice(s, "fuel 0–3", ev)
                    break
            if self.over:
                return
        if any(missing):
            self._towing(missing, ev)
            if self.over:
                return
        # a final anchor point ends the passage even if the map reaches it without
        # a blue anchor before it (the shipped map never does)
        final = self.final_voyage or self._t.anchors[self.fleet].final_pp is not None
        self.step = "final" if final else "mapevent"

    def _towing(self, missing: list[int], ev: list[Event]) -> None:
        tt = self.content.tracks["towing"]
        pp = {int(k): abs(int(v)) for k, v in tt["pp"].items()}
        res = tow(
            [self.p(s, FUEL) for s in range(self.n)],
            missing,
            [self.p(s, TOW) for s in range(self.n)],
            self.leader,
            pp,
            int(tt["min"]),
            int(tt["max"]),
            per_fuel=self.options["towing_pp"] == "per_fuel",
        )
        ev.append(Towing(res.towed, res.towers, res.missing))
        if res.lost:
            self._lose("there is not enough fuel for all ships to sail", ev)
            return
        for s in range(self.n):
            self._set(s, FUEL, res.fuel[s], "fuel", "towing", ev)
            self._set(s, TOW, res.towing[s], "towing", "towing", ev)
        for s, delta, reason in res.pp:
            self._score(s, delta, reason, ev)

    def _step_final(self, ev: list[Event]) -> None:
        pp = self._t.anchors[self.fleet].final_pp or 0
        self._score(self.leader, int(pp), "final anchor point", ev)
        if not self.over:
            self._finish(ev)

    def _step_mapevent(self, ev: list[Event]) -> None:
        assert self.voyage is not None
        region = self.region_of(self.fleet)
        leader = self.leader
        can_map = self.voyage == "coastal" or self.p(leader, CARD9) > 0
        if can_map and region not in self.mapped and self.carto_tokens > 0:
            self.mapped.append(region)
            self.carto_tokens -= 1
            ev.append(RegionMapped(leader, region))
            self._score(leader, int(self.rules["mapping_pp"]), "mapping", ev)
            if self.over:
                return
        if self.magnetised and self.voyage == "open" and region not in self.mapped:
            self.compass += self.compass_disc
            self.compass_disc = []
            self._shuffle(self.compass)
        if self.event_pending is not None:
            num: int | None = self.event_pending
            self.event_pending = None
            deck = self._event_deck(self.voyage)
            if num in deck:
                deck.remove(num)
        else:
            deck = self._event_deck(self.voyage)
            num = deck.pop(0) if deck else None
        self.event = num
        self.step = "cards"
        if num is not None:
            self._reveal_event(num, ev)

    def _reveal_event(self, num: int, ev: list[Event]) -> None:
        card = self.content.events[num]
        ev.append(EventRevealed(num, card.name, card.kind))
        if card.kind == "action":
            if num == 22 and self.sp_deck_draw() is not None:
                self.ev22 = self.sp_deck.pop(0)
                ev.append(CardsRevealed("species", (self.ev22,)))
            return
        eff = self.rules["events"].get(str(num), {})
        order = self.order_from(self.leader)
        if num in (1, 3):
            for s in order:
                self._gain(s, "morale" if num == 1 else "fuel", 1, card.name, ev)
        elif num in (2, 6, 14, 15):
            v = -int(eff.get("fuel", -1))
            self._fuel_loss_all(v, card.name, ev)
        elif num == 4:
            self.ev4 = True
        elif num == 5:
            for s in order:
                self._lower(s, "morale", -int(eff.get("morale", -1)), card.name, ev, effect=True)
                if self.over:
                    return
        elif num == 7:
            for s in order:
                self._discard_choice(s, card.name, ev)
        elif num == 12:
            for s in order:
                self._gain(s, "food", int(eff.get("food", -4)), card.name, ev)
                self._gain(s, "wood", int(eff.get("wood", -1)), card.name, ev)
        elif num == 18:
            missing = [0] * self.n
            for s in order:
                if self.p(s, WOOD) > 0:
                    self._gain(s, "wood", int(eff.get("wood", -1)), card.name, ev)
                else:
                    v = -int(eff.get("fuel_instead", -1))
                    missing[s] = max(0, v - self.p(s, FUEL))
                    self._lower(s, "fuel", v, card.name, ev, effect=False)
            if any(missing):
                self._towing(missing, ev)
        elif num == 19:
            for s in order:
                inuit = self.avail_crew(s)[4]
                if inuit:
                    self._to_infirmary(s, (0, 0, 0, 0, inuit), ev)
        elif num == 23:
            for s in order:
                self._gain(s, "dynamite", int(eff.get("dynamite", -1)), card.name, ev)
        elif num == 24:
            per = -int(eff.get("food_per_crew", -1))
            for s in order:
                self._lower_food(s, per * self.crew_count(s), card.name, ev)
                if self.over:
                    return
        elif num == 25:
            if self.compass_options():
                self.decisions.append(["compass", (self.leader + 1) % self.n])
        elif num == 26:
            self.ev26 = True
        elif num == 27:
            limit = int(eff.get("rifles_at_most", 3))
            for s in order:
                if self.p(s, DYN + 2) <= limit:
                    self._infirmary(s, int(eff.get("infirmary", 1)), False, ev)
        elif num == 28:
            self.ev28 = True

    def sp_deck_draw(self) -> str | None:
        """The top species card, reshuffling the discards into an empty deck (R2)."""
        if not self.sp_deck and self.sp_disc:
            self.sp_deck, self.sp_disc = self.sp_disc, []
            self._shuffle(self.sp_deck)
        return self.sp_deck[0] if self.sp_deck else None

    def _fuel_loss_all(self, v: int, reason: str, ev: list[Event]) -> None:
        missing = [0] * self.n
        for s in self.order_from(self.leader):
            missing[s] = max(0, v - self.p(s, FUEL))
            self._lower(s, "fuel", v, reason, ev, effect=False)
        if any(missing):
            self._towing(missing, ev)

    def compass_options(self) -> list[str]:
        """Event 25: anchors reachable along a route from the previous anchor, other
        than the destination, on sections already placed."""
        if self.prev_fleet is None:
            return []
        out = []
        for to, _ in self._t.routes_from(self.placed_key(), self.prev_fleet):
            if to != self.fleet and all(self._section_placed(i) for i in self._t.sections_of[to]):
                out.append(to)
        return out

    def _step_cards(self, ev: list[Event]) -> None:
        k = int(self.rules["hunting_cards_per_round"][str(self.n)])
        self.hu_rev = []
        for _ in range(k):
            if not self.hu_deck and self.hu_disc:
                self.hu_deck, self.hu_disc = self.hu_disc, []
                self._shuffle(self.hu_deck)
            if self.hu_deck:
                self.hu_rev.append(self.hu_deck.pop(0))
        if self.ev28:
            walrus = [h for h in self.hu_rev if self._t.hunting_all[h].walrus]
            self.hu_rev = [h for h in self.hu_rev if h not in walrus]
            self.hu_disc += walrus
        self.sp_rev = []
        if self.scen().get("species_deck", True) is not False:
            for _ in range(self.content.regions[self.region_of(self.fleet)].species):
                if self.sp_deck_draw() is not None:
                    self.sp_rev.append(self.sp_deck.pop(0))
        if self.hu_rev:
            ev.append(CardsRevealed("hunting", tuple(self.hu_rev)))
        if self.sp_rev:
            ev.append(CardsRevealed("species", tuple(self.sp_rev)))
        self.final_round = self._t.anchors[self.fleet].blue
        self.step = "action"

    def _step_action(self, ev: list[Event]) -> None:
        self.occ = [0] * len(self._t.spaces)
        self.col_paid = [0] * len(self._t.columns)
        for s in range(self.n):
            b = F * s
            self.pv[b + PASSED] = 0
            self.pv[b + TURNS] = 0
            self.pv[b + PROXY] = 0
        self.lead_taker = -1
        self.phase = "action"
        self.current = self.leader

    def _advance_turn(self, ev: list[Event]) -> None:
        """Next player clockwise who has not passed; the phase ends when all passed."""
        assert self.current is not None
        for i in range(1, self.n + 1):
            s = (self.current + i) % self.n
            if not self.pv[F * s + PASSED]:
                self.current = s
                return
        self.phase = "flow"
        self.step = "board"

    def _step_board(self, ev: list[Event]) -> None:
        n = self.n
        for s in range(n):
            b = F * s
            for i in range(5):
                self.pv[b + USED + i] = 0
                self.pv[b + INF + i] = 0
            if self.has_upgrade(s, GALLEY):
                self._gain(s, "food", int(self.rules["galley_food"]), "galley", ev)
            if self.pv[b + HIRED]:
                self.pv[b + PAWNS] += self.pv[b + HIRED]
                self.pv[b + HIRED] = 0
            for get, card, num in ((GET9, CARD9, 9), (GET17, CARD17, 17)):
                if self.pv[b + get]:
                    self.pv[b + get] = 0
                    self.pv[b + card] = 1
                    inuit = int(self.rules["events"].get(str(num), {}).get("inuit", 1))
                    self._hire(s, inuit, f"event {num}", ev, at_once=True)
        if self.pole_dir is not None:
            self._check_pole(ev)
        # next leader (§4.7 step 2)
        dyn = [self.p(s, DYN) for s in range(n)]
        if max(dyn) <= 0:
            self._lose("nobody has any dynamite to lead the expedition", ev)
            return
        old = self.leader
        if self.lead_taker >= 0 and dyn[self.lead_taker] > 0:
            new, why = self.lead_taker, "took Lead"
        else:
            top = max(dyn)
            tied = [s for s in range(n) if dyn[s] == top]
            if len(tied) == 1:
                new = tied[0]
            elif self.options["helm_tie"] == "include_leader" and old in tied:
                new = old
            else:
                cands = [s for s in self.order_from(old)[1:] if s in tied]
                new = cands[0] if cands else old
            why = "most dynamite"
        self.leader = new
        if new != old or why == "took Lead":
            ev.append(LeaderChanged(new, why))
        # feeding
        for s in self.order_from(self.leader):
            self._lower_food(s, self.fed_count(s), "feeding", ev)
            if self.over:
                return
        self.step = "cleanup"

    def _check_pole(self, ev: list[Event]) -> None:
        req = self.scen().get("requirements", {}).get(self.pole_dir, {})
        ok = self.mnp_explore >= int(req.get("explore", 0)) and self.mnp_cabin >= int(
            req.get("cabin_food", 0)
        )
        if ok:
            self.pole_found = True
            self.magnetised = False
            ev.append(ScenarioProgress("the magnetic north pole is discovered", 1))
        else:
            self.compass.insert(self._rand(len(self.compass) + 1), POLE)
            ev.append(ScenarioProgress("the search for the pole fails", 0))
        self.pole_dir = None

    def _step_cleanup(self, ev: list[Event]) -> None:
        self.hu_disc += self.hu_rev
        self.hu_rev = []
        self.sp_disc += self.sp_rev
        self.sp_rev = []
        if self.ev22 is not None:
            self.sp_disc.append(self.ev22)
            self.ev22 = None
        if self.event is not None:
            keep = self.event in (9, 17) and self.event_taken
            if not keep:
                deck = self.content.events[self.event].deck
                (self.ev_open_disc if deck == "open" else self.ev_coastal_disc).append(self.event)
        self.event = None
        ev.append(RoundEnded(self.round))
        if self.final_round:
            self.final_voyage = True
        self.step = "round"

    # ------------------------------------------------------------------ public API

    @property
    def current_player(self) -> int | None:
        if self.over:
            return None
        if self.decisions:
            s: int = self.decisions[0][1]
            return s
        return self.current

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def players(self) -> int:
        return self.n

    @property
    def pending(self) -> str:
        """What the current player decides: a queued decision kind or the phase."""
        if self.over:
            return "over"
        if self.decisions:
            k: str = self.decisions[0][0]
            return k
        return self.phase

    @property
    def is_final_round(self) -> bool:
        return self.final_round and not self.final_voyage

    @property
    def outcome(self) -> str | None:
        if not self.over:
            return None
        if self.scenario is not None:
            return "won" if self.won else "lost"
        return "lost" if self.lost else "finished"

    def player(self, seat: int) -> dict[str, Any]:
        """The seat's board as engine-api.md lists it (all ints)."""
        if not (isinstance(seat, int) and 0 <= seat < self.n):
            raise ValueError(f"no seat {seat!r} in a {self.n}-player game")
        b = F * seat
        pv = self.pv
        return {
            "pp": pv[b + PP],
            "food": pv[b + FOOD],
            "health": pv[b + HEALTH],
            "morale": pv[b + MORALE],
            "fuel": pv[b + FUEL],
            "sled": pv[b + SLED],
            "inuit": pv[b + INUIT],
            "towing": pv[b + TOW],
            "dynamite": pv[b + DYN],
            "wood": pv[b + WOOD],
            "rifles": pv[b + DYN + 2],
            "dogs": pv[b + DOGS],
            "cans": 0,
            "crew": dict(zip(CREW_KINDS, self.owned_crew(seat), strict=True)),
            "upgrades": list(self.upgrades[seat]),
            "cabins": pv[b + 15],
            "species": list(self.species[seat]),
        }

    def scores(self) -> list[int]:
        return [self.pv[F * s + PP] for s in range(self.n)]

    def ranking(self) -> list[int]:
        """Seats best first; ties (no tie-break, R1) in seat order."""
        sc = self.scores()
        return sorted(range(self.n), key=lambda s: (-sc[s], s))

    @property
    def sections(self) -> list[tuple[str, str]]:
        """Placed map sections as (section id, side), in placing order."""
        return [(self.content.sections[int(i)].id, str(side)) for i, side in self.placed]

    @property
    def mapped_regions(self) -> list[str]:
        return list(self.mapped)

    @property
    def hunting_cards(self) -> list[str]:
        """The hunting cards face up this round."""
        return list(self.hu_rev)

    @property
    def species_cards(self) -> list[str]:
        """The species cards face up this round."""
        return list(self.sp_rev)

    @property
    def current_event(self) -> int | None:
        """This round's revealed voyage event card (number), if any."""
        return self.event

    def spaces_occupancy(self) -> dict[str, int]:
        return {sp.id: self.occ[i] for i, sp in enumerate(self._t.spaces) if self.occ[i]}

    def legal_actions(self) -> list[Action]:
        """Every action the current player may take, in a fixed order."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self) -> list[Action]:
        if self.over:
            return []
        if self.decisions:
            return self._decision_actions(self.decisions[0])
        seat = self.current
        assert seat is not None
        ph = self.phase
        if ph == "setup":
            if self.setup_stage == 0:
                return [Action("choose_investor", card=c) for c in self.inv_opts[seat]]
            return [Action("choose_cartography", card=c) for c in self.carto_opts[seat]]
        if ph == "section":
            sec = self.content.sections[self.next_section()]
            return [Action("section", side=s) for s in sorted(sec.sides)]
        if ph == "start":
            side = str(self.placed[0][1])
            return [
                Action("destination", to=a.id)
                for a in self.content.sections[0].sides[side].anchors
                if a.start
            ]
        if ph == "destination":
            return [Action("destination", to=to) for to, _ in self.destinations()]
        if ph == "voyage":
            return [Action("voyage", voyage=v) for v in self.voyage_options()]
        if ph == "action":
            takes = action_phase.take_actions(self, seat)
            if takes and self.options["passing"] == "forced":
                return takes
            return [*takes, _PASS]
        raise AssertionError(f"no decision in phase {ph!r}")  # pragma: no cover

    def _decision_actions(self, d: list[Any]) -> list[Action]:
        kind, seat = d[0], d[1]
        if kind == "discard":
            return [Action("discard", resource=r) for r in RESOURCES if self.p(seat, RES[r]) > 0]
        if kind == "infirmary":
            return [
                Action("infirmary", crew=c)
                for c in infirmary_options(self.avail_crew(seat), int(d[2]), bool(d[3]))
            ]
        if kind == "eat":
            return [Action("eat", card=c) for c in self.eat_options(seat)]
        if kind == "compass":
            return [*(Action("compass", to=a) for a in self.compass_options()), _DECLINE]
        if kind == "mast":
            return [Action("mast", card=d[2]), Action("mast", card=d[3])]
        if kind == "boiler":
            return [_BOILER_YES, _BOILER_NO]
        raise AssertionError(kind)  # pragma: no cover

    def expecting(self) -> str:
        """The decision awaited, in words (for error messages)."""
        k = self.pending
        return {
            "setup": "choose your investor and cartography cards",
            "section": "choose the side of the next map section",
            "start": "choose the start anchor point",
            "destination": "choose the destination anchor point",
            "voyage": "choose the voyage type",
            "action": "take an action or pass",
            "discard": "choose a resource to discard",
            "infirmary": "choose the crew for the infirmary",
            "eat": "choose the species card to eat",
            "compass": "choose the new anchor point or decline",
            "mast": "choose the event card to reveal",
            "boiler": "decide whether to use the boiler",
            "over": "nothing: the game is over",
        }.get(k, k)

    def apply(self, action: Action | dict[str, Any]) -> list[Event]:
        """Carry out ``action`` for the current player and return what happened.

        Raises :class:`IllegalAction` if it is not one of ``legal_actions()``;
        the state is then exactly as before.
        """
        if isinstance(action, dict):
            try:
                action = Action.from_json(action)
            except ValueError as exc:
                raise IllegalAction(str(exc)) from exc
        if not isinstance(action, Action):
            raise IllegalAction(f"not an action: {action!r}")
        if self.over:
            raise IllegalAction("the game is over")
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalAction(self._why_illegal(action, legal))
        seat = self.current_player
        assert seat is not None
        self._legal = None
        ev: list[Event] = []
        if self.decisions:
            self._resolve(self.decisions.pop(0), action, ev)
        else:
            self._act(seat, action, ev)
        self._run(ev)
        return ev

    def _why_illegal(self, a: Action, legal: list[Action]) -> str:
        want = self.expecting()
        if not any(x.kind == a.kind for x in legal):
            return f"{a} is not possible now: you must {want}"
        if a.kind == "take":
            return action_phase.why_not(self, a)
        return f"{a} is not allowed here; you must {want}"

    def _resolve(self, d: list[Any], a: Action, ev: list[Event]) -> None:
        kind, seat = d[0], int(d[1])
        if kind == "discard":
            assert a.resource is not None
            self._gain(seat, a.resource, -1, str(d[2]), ev)
        elif kind == "infirmary":
            assert a.crew is not None
            self._to_infirmary(seat, a.crew, ev)
        elif kind == "eat":
            assert a.card is not None
            self._eat(seat, a.card, ev)
            self._shortage(seat, int(d[2]), str(d[3]), ev, front=True)
        elif kind == "compass":
            if a.to is not None:
                old = self.fleet
                if old in self.dyn_anchors and self.dyn_anchors[-1] == old:
                    self.dyn_anchors.pop()
                if a.to not in self.dyn_anchors:
                    self.dyn_anchors.append(a.to)
                self.fleet = a.to
                self.dest = a.to
                ev.append(FleetMoved(a.to, seat))
        elif kind == "mast":
            assert a.card is not None
            num = int(a.card)
            other = int(d[3]) if a.card == d[2] else int(d[2])
            deck = self.ev_open if self.voyage == "open" else self.ev_coastal
            if other in deck:
                deck.remove(other)
                deck.append(other)
            self.event_pending = num
        elif kind == "boiler":
            self.pv[F * seat + BOILER] = int(bool(a.use))

    def _act(self, seat: int, a: Action, ev: list[Event]) -> None:
        k = a.kind
        if k == "choose_investor":
            self.investor[seat] = a.card
            ev.append(InvestorChosen(seat))
            self.setup_stage = 1
            self.phase = "flow"
        elif k == "choose_cartography":
            self.carto[seat] = a.card
            ev.append(CartographyChosen(seat))
            self.setup_stage = 0
            self.setup_seat += 1
            self.phase = "flow"
            if self.setup_seat >= self.n:
                self._begin(ev)
        elif k == "section":
            assert a.side is not None
            idx = self.next_section()
            self.placed.append([idx, a.side])
            ev.append(SectionPlaced(self.content.sections[idx].id, a.side))
            self.phase = "flow"
            self.step = "mnp_start" if self.dest is None and self.round == 0 else "ice"
        elif k == "destination":
            assert a.to is not None
            if self.phase == "start":
                self.fleet = a.to
                ev.append(FleetMoved(a.to))
                self.phase = "flow"
                self.step = "round"
                ev.append(LeaderChanged(self.leader, "solo expedition"))
            else:
                dyn = dict(self.destinations())[a.to]
                self._choose_destination(a.to, dyn, ev)
        elif k == "voyage":
            assert a.voyage is not None
            self._voyage_chosen(a.voyage, ev)
        elif k == "pass":
            self.pv[F * seat + PASSED] = 1
            ev.append(Passed(seat))
            self._advance_turn(ev)
        elif k == "take":
            action_phase.apply_take(self, seat, a, ev)
            if not self.over:
                self.pv[F * seat + TURNS] += 1
                self._advance_turn(ev)

    # ------------------------------------------------------------ clone / JSON / view

    def clone(self) -> State:
        """An independent copy: a few list copies."""
        c = State.__new__(State)
        c._t = self._t
        c._legal = self._legal
        c.options = self.options
        c.setup_events = self.setup_events
        c.viewer = self.viewer
        for name in _SCALARS:
            setattr(c, name, getattr(self, name))
        for name in _LISTS:
            setattr(c, name, getattr(self, name)[:])
        for name in _NESTED:
            setattr(c, name, [x[:] for x in getattr(self, name)])
        return c

    __copy__ = clone

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self.clone()

    def to_json(self) -> dict[str, Any]:
        """Every field as JSON types; :meth:`from_json` restores it exactly."""
        out: dict[str, Any] = {
            "format": FORMAT,
            "game": "iceandsnow",
            "options": _jcopy(self.options),
        }
        for name in _SCALARS:
            out[name] = getattr(self, name)
        for name in _LISTS:
            out[name] = getattr(self, name)[:]
        for name in _NESTED:
            out[name] = [x[:] for x in getattr(self, name)]
        return out

    @classmethod
    def from_json(cls, d: Any, content: Content | None = None) -> State:
        """Restore a state saved by :meth:`to_json`; ``ValueError`` if it is damaged."""
        return cls._load(d, content, deep=True)

    @classmethod
    def _load(cls, d: Any, content: Content | None, deep: bool) -> State:
        if not isinstance(d, dict) or d.get("game") != "iceandsnow" or d.get("format") != FORMAT:
            raise ValueError("not a saved Through Ice and Snow state (format 1)")
        try:
            n = d["n"]
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 4:
                raise ValueError("bad player count")
            opts = normalize(d["options"], n)
            st = cls._blank(n, int(d["seed"]), opts, content or default_content())
            for name in _SCALARS:
                v = d[name]
                if not (v is None or isinstance(v, int | str | bool)):
                    raise ValueError(f"field {name!r} is not a scalar")
                setattr(st, name, v)
            for name in _LISTS:
                v = d[name]
                if not isinstance(v, list) or not all(
                    x is None or isinstance(x, int | str) for x in v
                ):
                    raise ValueError(f"field {name!r} is not a list")
                setattr(st, name, v[:])
            for name in _NESTED:
                v = d[name]
                if not isinstance(v, list) or not all(isinstance(x, list) for x in v):
                    raise ValueError(f"field {name!r} is not a list of lists")
                setattr(st, name, [x[:] for x in v])
            problem = st._consistency_problem()
            if problem is None and deep:
                st._check_deep()
        except (
            KeyError,
            TypeError,
            IndexError,
            AttributeError,
            ValueError,
            OverflowError,
            AssertionError,
        ) as exc:
            raise ValueError(f"corrupt saved state: {exc!r}") from exc
        if problem:
            raise ValueError(f"corrupt saved state: {problem}")
        return st

    def _consistency_problem(self) -> str | None:
        n = self.n
        if len(self.pv) != F * n:
            return "the player table does not match the player count"
        for name in ("pv", "occ", "col_paid", "boxes", "upg_left", "ev_open", "ev_coastal"):
            if not all(type(x) is int for x in getattr(self, name)):
                return f"{name} must hold whole numbers"
        for name in ("ev_open_disc", "ev_coastal_disc", "ev_box"):
            if not all(type(x) is int and x in self.content.events for x in getattr(self, name)):
                return f"{name} holds an unknown event card"
        for name in ("round", "leader", "lead_taker", "dest_dyn", "inuit_pool", "carto_tokens"):
            if type(getattr(self, name)) is not int:
                return f"{name} must be a whole number"
        if not 0 <= self.leader < n:
            return "the leader is not a seat"
        if self.current is not None and (
            type(self.current) is not int or not 0 <= self.current < n
        ):
            return "the current player is not a seat"
        for name in (
            "over",
            "lost",
            "event_taken",
            "ev4",
            "ev26",
            "ev28",
            "final_round",
            "final_voyage",
            "magnetised",
            "pole_found",
            "le_found",
            "le_cabin",
            "revealed",
        ):
            if type(getattr(self, name)) is not bool:
                return f"{name} must be true or false"
        if self.event is not None and self.event not in self.content.events:
            return "unknown event card"
        hunting = self._t.hunting_all
        for name in ("hu_deck", "hu_disc", "hu_box", "hu_rev"):
            if any(x not in hunting for x in getattr(self, name)):
                return f"{name} holds an unknown hunting card"
        for name in ("sp_deck", "sp_disc", "sp_eaten", "sp_rev"):
            if any(x not in self.content.species for x in getattr(self, name)):
                return f"{name} holds an unknown species card"
        for name in ("dest", "prev_fleet"):
            v = getattr(self, name)
            if v is not None and v not in self._t.anchors:
                return f"{name} is not an anchor point"
        if any(x not in self._t.anchors for x in self.dyn_anchors):
            return "dynamite on an unknown anchor point"
        for seat_cards in self.upgrades:
            if any(type(x) is not int or x not in self.content.upgrades for x in seat_cards):
                return "unknown upgrade tile"
        for name in ("species", "gained", "upgrades", "inv_opts", "carto_opts"):
            if len(getattr(self, name)) != n:
                return f"{name} does not match the player count"
        if len(self.investor) != n or len(self.carto) != n:
            return "investor/cartography do not match the player count"
        if len(self.occ) != len(self._t.spaces):
            return "space occupancy does not match the board"
        if self.fleet not in self._t.anchors:
            return f"unknown anchor {self.fleet!r}"
        if self.step not in _STEPS:
            return f"unknown step {self.step!r}"
        if self.phase not in (*WAITING, "flow", "over"):
            return f"unknown phase {self.phase!r}"
        if not self.over and self.current_player is None:
            return "no current player"
        c = self.content
        for hand in self.species:
            if any(x not in c.species for x in hand):
                return "unknown species card"
        for s, side in self.placed:
            if (
                not (isinstance(s, int) and 0 <= s < len(c.sections))
                or side not in c.sections[s].sides
            ):
                return "bad map section"
        for dd in self.decisions:
            if not dd or dd[0] not in ("discard", "infirmary", "eat", "compass", "mast", "boiler"):
                return "bad decision"
            if not isinstance(dd[1], int) or not 0 <= dd[1] < n:
                return "bad decision seat"
        return None

    def _check_deep(self) -> None:
        """Compute the legal actions once: a damaged state fails here, not later."""
        if not self.over:
            self._legal = None
            if not self.legal_actions():
                raise ValueError("no legal action in a running game")

    def _known_box(self) -> list[str]:
        """The hunting cards known to be in the box: discovered dual species cards
        (§6.3).  The set-up puts only ordinary hunting cards in the box, so every
        dual card there was discovered in front of everyone."""
        dual = self.content.dual
        return [x for x in self.hu_box if x in dual]

    def _mast_under(self, seat: int | None) -> int | None:
        """The event card ``seat`` knows lies at the bottom of the voyage deck: the
        one the leader put under it with the Mast (upgrade 9) this Voyage step."""
        if seat is None or seat != self.leader or self.event_pending is None:
            return None
        deck = self.ev_open if self.voyage == "open" else self.ev_coastal
        # the Mast leaves the chosen card on top and the other one at the bottom
        if len(deck) >= 2 and deck[0] == self.event_pending:
            return deck[-1]
        return None

    def _hidden_pools(self, seat: int | None) -> dict[str, Any]:
        """The unknown cards from ``seat``'s point of view, as sorted pools with sizes.

        The hunting pool leaves out the known boxed cards (:meth:`_known_box`);
        the event pools hold every card of the deck and its boxed cards, the ones
        ``seat`` has seen through the Mast included (``_deal_hidden`` puts those
        back in place: on top, and ``ev_under`` at the bottom)."""
        dual = self.content.dual
        out: dict[str, Any] = {
            "sp_deck": sorted(self.sp_deck),
            "hu_deck": sorted(self.hu_deck + [x for x in self.hu_box if x not in dual]),
            "hu_deck_size": len(self.hu_deck),
            "ev_open": sorted(
                self.ev_open + [e for e in self.ev_box if self.content.events[e].deck == "open"]
            ),
            "ev_open_size": len(self.ev_open),
            "ev_coastal": sorted(
                self.ev_coastal
                + [e for e in self.ev_box if self.content.events[e].deck == "coastal"]
            ),
            "ev_coastal_size": len(self.ev_coastal),
            "compass": sorted(self.compass),
            "search": sorted(self.search),
            "ev_under": self._mast_under(seat),
        }
        return out

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator): no seed, no generator state,
        no deck orders, no other seat's cartography card or unrevealed investor,
        no other seat's dealt options.  The box shows only the discovered dual
        species cards (public); ``pools`` lists the unknown cards."""
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.n):
            raise ValueError(f"no seat {seat!r} in a {self.n}-player game")
        d = self.to_json()
        del d["seed"], d["rng"], d["format"]
        for k in ("ev_box", "inv_pool", "carto_pool"):
            d[k] = []
        d["hu_box"] = self._known_box()
        pools = self._hidden_pools(seat)
        d["sp_deck"] = len(self.sp_deck)
        d["hu_deck"] = len(self.hu_deck)
        d["ev_open"] = len(self.ev_open)
        d["ev_coastal"] = len(self.ev_coastal)
        d["compass"] = len(self.compass)
        d["search"] = len(self.search)
        d["pools"] = pools
        for s in range(self.n):
            if s == seat:
                continue
            d["carto"][s] = None
            d["carto_opts"][s] = []
            d["inv_opts"][s] = []
            if not self.revealed:
                d["investor"][s] = None
        d["decisions"] = [
            [*dd[:2], None, None] if dd[0] == "mast" and dd[1] != seat else dd[:]
            for dd in self.decisions
        ]
        if seat != self.leader:
            d["event_pending"] = None  # the Mast's chosen card is still face down
        d["seat"] = seat
        return d

    @classmethod
    def from_view(cls, view: Any, seed: int, content: Content | None = None) -> State:
        """A full state consistent with ``view``: hidden cards dealt anew from ``seed``
        (a *determinization* for search bots)."""
        if not isinstance(view, dict) or view.get("game") != "iceandsnow":
            raise ValueError("not a Through Ice and Snow view")
        try:
            content = content or default_content()
            d = dict(view)
            seat = d.pop("seat")
            pools = d.pop("pools")
            d.update(format=FORMAT, seed=seed, rng=Rng(seed).state)
            for k in ("sp_deck", "hu_deck", "ev_open", "ev_coastal", "compass", "search"):
                d[k] = list(pools[k])
            d["hu_box"] = [x for x in d["hu_box"] if x in content.dual]
            d["ev_box"] = []
            d["decisions"] = [x[:] for x in d["decisions"]]
            st = cls._load(d, content, deep=False)
            st.viewer = seat
            st._deal_hidden(pools, seat)
            st._check_deep()
        except (KeyError, TypeError, IndexError, AttributeError, ValueError) as exc:
            raise ValueError(f"damaged view: {exc!r}") from exc
        return st

    def _deal_hidden(self, pools: dict[str, Any], seat: int | None) -> None:
        """Shuffle every unknown pool and deal the hidden cards (decks, boxes,
        other seats' cartography and unrevealed investors)."""
        self._shuffle(self.sp_deck)
        hu = list(pools["hu_deck"])
        self._shuffle(hu)
        # the deck is cut from the top, the rest boxed; but the set-up boxes
        # ordinary hunting cards only, so a dual card of the pool is in the deck
        dual = self.content.dual
        boxed = len(hu) - int(pools["hu_deck_size"])
        ordinary = [i for i, x in enumerate(hu) if x not in dual]
        cut = set(ordinary[len(ordinary) - boxed :]) if boxed > 0 else set()
        self.hu_deck = [x for i, x in enumerate(hu) if i not in cut]
        self.hu_box = [x for i, x in enumerate(hu) if i in cut] + self._known_box()
        # event cards ``seat`` has seen through the Mast stay where they are
        top: list[int] = []
        bottom: list[int] = []
        for dd in self.decisions:
            if dd[0] == "mast" and dd[2] is not None:  # the seat's own look at the top two
                top = [int(dd[2]), int(dd[3])]
        if self.event_pending is not None:  # the Mast's chosen card, still on top
            top = [self.event_pending]
            if pools.get("ev_under") is not None:
                bottom = [int(pools["ev_under"])]
        voyage_deck = "ev_open" if self.voyage == "open" else "ev_coastal"
        for name in ("ev_open", "ev_coastal"):
            cards = [int(x) for x in pools[name]]
            size = int(pools[name + "_size"])
            head: list[int] = []
            tail: list[int] = []
            if name == voyage_deck:
                head = [x for x in top if x in cards]
                tail = [x for x in bottom if x in cards and x not in head]
                for x in head + tail:
                    cards.remove(x)
            self._shuffle(cards)
            rest = size - len(head) - len(tail)
            setattr(self, name, head + cards[:rest] + tail)
            self.ev_box += cards[rest:]
        # the Magnetic North Pole's pole card is not put back in a known place
        self._shuffle(self.compass)
        self._shuffle(self.search)
        for dd in self.decisions:
            if dd[0] == "mast" and dd[2] is None:  # another seat's look at the top two
                deck = self.ev_open if self.voyage == "open" else self.ev_coastal
                dd[2], dd[3] = str(deck[0]), str(deck[1])
        if self.scenario is None:
            self._deal_setup_cards(seat)

    def _deal_setup_cards(self, seat: int | None) -> None:
        """Deal other seats' unknown cartography and investor cards from the cards
        ``seat`` has not seen.  A seat's hidden options are ``[]`` here; the
        chosen card (when the choice is made) is the first option."""
        c = self.content
        known_c = {x for x in self.carto if x is not None}
        known_c |= {x for opts in self.carto_opts for x in opts}
        known_i = {x for x in self.investor if x is not None}
        known_i |= {x for opts in self.inv_opts for x in opts}
        car = sorted(set(c.cartography) - known_c)
        inv = sorted(set(c.investors) - known_i)
        self._shuffle(car)
        self._shuffle(inv)
        k_inv = int(self.rules.get("investor_cards_dealt", 2))
        k_car = int(self.rules.get("cartography_cards_dealt", 2))
        for s in range(self.n):
            if s == seat:
                continue
            chose_inv = self.setup_seat > s or (self.setup_seat == s and self.setup_stage > 0)
            chose_car = self.setup_seat > s
            if not self.inv_opts[s]:
                have = [self.investor[s]] if self.investor[s] is not None else []
                fresh = [inv.pop() for _ in range(min(k_inv - len(have), len(inv)))]
                self.inv_opts[s] = [*have, *fresh]  # type: ignore[list-item]
                if self.investor[s] is None and chose_inv and self.inv_opts[s]:
                    self.investor[s] = self.inv_opts[s][0]
            if not self.carto_opts[s]:
                self.carto_opts[s] = [car.pop() for _ in range(min(k_car, len(car)))]
                if chose_car and self.carto_opts[s]:
                    self.carto[s] = self.carto_opts[s][0]
        self.carto_pool = car
        self.inv_pool = inv

    def resample_hidden(self, seed: int, seat: int | None = None) -> None:
        """Deal every hidden card anew, consistently with what ``seat`` knows
        (default: the seat this state was determinized for, else the current
        player).  MCTS calls it per iteration; cheaper than :meth:`from_view`."""
        if seat is None:
            seat = self.viewer if self.viewer is not None else self.current_player
        self.rng = Rng(seed).state
        pools = self._hidden_pools(seat)
        for s in range(self.n):
            if s == seat:
                continue
            if self.scenario is None:
                self.carto_opts[s] = []
                if not self.revealed:
                    self.inv_opts[s] = []
                    self.investor[s] = None
                else:
                    self.inv_opts[s] = []
                self.carto[s] = None
        for dd in self.decisions:
            if dd[0] == "mast" and dd[1] != seat:  # another seat's look at the top two
                dd[2] = dd[3] = None
        if seat != self.leader:
            self.event_pending = None  # the Mast's chosen card is still face down
        self.hu_box = self._known_box()
        self.ev_box = []
        self._deal_hidden(pools, seat)
        self._legal = None

    # ---------------------------------------------------------------- dunder

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<iceandsnow.State players={self.n} round={self.round} phase={self.pending} "
            f"current={self.current_player} scores={self.scores()}>"
        )


_PASS = Action("pass")
_DECLINE = Action("compass", to=None)
_BOILER_YES = Action("boiler", use=True)
_BOILER_NO = Action("boiler", use=False)
_STEPS = {name[len("_step_") :] for name in dir(State) if name.startswith("_step_")} | {
    "setup",
    "over",
}


def infirmary_options(avail: Crew, count: int, allow_inuit: bool) -> list[Crew]:
    """Every crew composition of ``min(count, available)`` pawns (Inuit only if allowed)."""
    a: Crew = avail if allow_inuit else (avail[0], avail[1], avail[2], avail[3], 0)
    k = min(count, sum(a))
    if k <= 0:
        return []
    out: list[Crew] = []
    for c in action_phase.compositions(a):
        if sum(c) == k:
            out.append(c)
    return out


def _jcopy(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _jcopy(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_jcopy(v) for v in x]
    return x


def new_game(
    players: int,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    content: Content | None = None,
) -> State:
    """A new game; ``seed`` fixes every random draw (``None``: a fresh random seed).

    The starting 10 PP of each seat are ``ScoreChanged(reason="start")`` events
    kept in ``state.setup_events``.
    """
    if seed is None:
        import secrets

        seed = secrets.randbits(63)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError("seed must be an integer")
    return State.new(players, seed, options, content)


def replay(
    players: int,
    seed: int,
    actions: Sequence[Action | dict[str, Any]],
    options: dict[str, Any] | None = None,
) -> State:
    """The state after ``actions`` from a new game: same inputs, same state."""
    st = new_game(players, seed, options)
    for a in actions:
        st.apply(a)
    return st
