"""The fields of a Through Ice and Snow position and the queries on them.

:class:`Position` is the bottom layer of :class:`~erebus.games.iceandsnow.state.State`:
the flat bag of ints, strings and lists (``__slots__``; cheap to clone, exact to
serialise), the small accessors every rule uses (``p``, ``avail_crew``, …), the
public read-only queries of engine-api.md (``current_player``, ``scores``, …)
and the all-lose ending.  The layers above add the rules, one concern each:
:mod:`.resources`, :mod:`.events_cards`, :mod:`.setup`, :mod:`.flow`,
:mod:`.decisions`, :mod:`.serialization` and :mod:`.hidden`.
"""

from __future__ import annotations

from typing import Any, Self

from erebus.core.events import Event
from erebus.core.rng import Rng
from erebus.games.iceandsnow.actions import Action, Crew
from erebus.games.iceandsnow.content import CREW_KINDS, Content
from erebus.games.iceandsnow.effects import Op
from erebus.games.iceandsnow.events import (
    GameOver,
)
from erebus.games.iceandsnow.layout import (
    CANS,
    DOGS,
    DYN,
    FISHING_BOAT,
    FOOD,
    FUEL,
    HEALTH,
    INF,
    INUIT,
    MORALE,
    PAWNS,
    PP,
    RESCUED,
    SAILORS,
    SLED,
    TOW,
    USED,
    WOOD,
    F,
)
from erebus.games.iceandsnow.tables import Tables, tables_for

POLE = "pole"
WAITING = ("setup", "section", "start", "destination", "voyage", "action")

# Serialised fields: (JSON key, kind) with kind "s" scalar, "l" flat list, "ll" list of
# lists, "f" a format-1 flag of a round modifier (held in ``round_mods``).
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
    ("ev22", "s"),  # the card drawn by the revealed event (``event_draw``)
    ("ev4", "f"),  # round modifiers in force, as format 1's flags (LEGACY_FLAGS)
    ("ev26", "f"),
    ("ev28", "f"),
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
    ("stands", "ll"),
)
#: Fields of the Myths & Legends modules: (module, JSON key, kind), kinds as in
#: ``_FIELDS``.  They are saved only when their module is in the options, so that
#: a game without the module keeps format 1's JSON exactly (saved games, goldens).
MODULE_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("inuit_myths", "creature_at", "s"),  # region of the creature token (None: beside the map)
    ("inuit_myths", "cr_deck", "l"),  # the face-down creature deck, top first
    ("inuit_myths", "cr_active", "l"),  # creature cards in play, in reveal order
    ("inuit_myths", "cr_box", "l"),  # creature cards back in the box
    ("inuit_myths", "cr_takers", "ll"),  # [card, seat]: who took a card's action
    ("inuit_myths", "curse", "l"),  # per seat: 1 holds a curse cylinder (health - 1)
    ("inuit_myths", "held_inuit", "l"),  # per seat: Inuit pawns held on a hold_inuit card
    # Walking on Ice (§9.1; the rules in walking.py):
    ("walking_on_ice", "abandoned", "s"),  # None, or how the ships were left: voluntary / forced
    ("walking_on_ice", "walk_deck", "l"),  # the walking event deck (29-36), top first
    ("walking_on_ice", "walk_disc", "l"),  # its discard pile
    ("walking_on_ice", "maint", "l"),  # per seat: maintenance level (0 before abandoning)
    ("walking_on_ice", "guilt", "l"),  # per seat: guilt level
    ("walking_on_ice", "sick", "l"),  # per seat: 1 carries the sick sailor of event 32
    ("walking_on_ice", "customs", "l"),  # per seat: event 36 taken this round (1) / held (2)
    # Legendary Expeditions (§9.3; the rules in legends.py):
    ("legendary_expeditions", "explorer", "l"),  # per seat: set letter A-J ("" = none yet)
    ("legendary_expeditions", "ex_dealt", "ll"),  # per seat: the 2 dealt explorers until chosen
    ("legendary_expeditions", "ex_box", "l"),  # explorer cards back in the box (hidden)
    ("legendary_expeditions", "ex_held", "ll"),  # per seat: powers of kept explorer events
    ("legendary_expeditions", "ex_due", "ll"),  # per seat: such powers taken this round
    ("legendary_expeditions", "ex_sailor", "s"),  # event 51's set-aside sailors
    ("legendary_expeditions", "ex_spaces", "l"),  # per seat: Back's filled upgrade spaces (bits)
    ("legendary_expeditions", "ex_despot", "l"),  # per seat: Belcher's forced routes so far
    ("legendary_expeditions", "ex_peek", "ll"),  # per seat: Kellett's look [deck, card, space]
    ("legendary_expeditions", "ex_forbid", "s"),  # the route Belcher forbade (None)
    ("legendary_expeditions", "ex_voyager", "s"),  # Belcher chooses this voyage type (None)
    # Solo scenarios of Myths & Legends (§9.4, §9.5): a row keyed by the scenario's
    # name is saved when that scenario is played (the rules in epidemic.py, amundsen.py)
    ("mysterious-epidemic", "ep_settlement", "s"),  # the Inuit settlement card in play
    ("mysterious-epidemic", "ep_inuit", "l"),  # anchor points with an Inuk pawn
    ("mysterious-epidemic", "ep_dis_deck", "l"),  # the disease deck, top first (hidden)
    ("mysterious-epidemic", "ep_dis_disc", "l"),  # its discard pile
    ("mysterious-epidemic", "ep_ill", "ll"),  # disease cards beside the board: [card, 4 counts]
    ("mysterious-epidemic", "ep_tr_deck", "l"),  # the treatment deck, top first (hidden)
    ("mysterious-epidemic", "ep_tr_disc", "l"),  # its discard pile
    ("mysterious-epidemic", "ep_treat", "l"),  # treatment cards beside the board
    ("amundsens-voyage", "am_cyl", "l"),  # black cylinders left: [health, morale right, left]
    ("amundsens-voyage", "am_haven", "s"),  # round #55 was revealed in (0: not yet)
    ("amundsens-voyage", "am_founded", "s"),  # Gjøa Haven is founded
)
_MOD_SCALARS = tuple(k for _, k, kind in MODULE_FIELDS if kind == "s")
_MOD_LISTS = tuple(k for _, k, kind in MODULE_FIELDS if kind == "l")
_MOD_NESTED = tuple(k for _, k, kind in MODULE_FIELDS if kind == "ll")
#: JSON key -> attribute, where they differ (format 1 named the field for its card).
_ATTR = {"ev22": "event_draw"}
#: Format 1's flag keys of the round modifiers (:data:`.effects.MODIFIERS`).
LEGACY_FLAGS = {"ev4": "explore_sled", "ev26": "ice_fishing", "ev28": "no_walrus"}
#: Scalar attributes (``round_mods`` is a tuple: shared by clones like a scalar).
_SCALARS = (*(_ATTR.get(n, n) for n, k in _FIELDS if k == "s"), "round_mods")
_LISTS = tuple(n for n, k in _FIELDS if k == "l")
_NESTED = tuple(n for n, k in _FIELDS if k == "ll")


class Position:
    """The fields of a position (the bottom layer of ``State``) and the queries on them.

    The attributes are internal but stable enough for renderers and the test
    kit (:mod:`erebus.games.iceandsnow.kit`); build a state with ``new_game``.
    """

    __slots__ = (
        *_SCALARS,
        *_LISTS,
        *_NESTED,
        *_MOD_SCALARS,
        *_MOD_LISTS,
        *_MOD_NESTED,
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
    event_draw: str | None
    round_mods: tuple[str, ...]
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
    #: Who stands on the action board this round, in the order placed: one
    #: ``[space id, seat, captain, carpenter, scientist, sailors, inuit]`` per take
    #: (the board shows it; cleared at Boarding, when the crew comes back).
    stands: list[list[Any]]
    cabins_at: list[list[Any]]
    shelters_at: list[list[Any]]
    placed: list[list[Any]]
    species: list[list[str]]
    gained: list[list[str]]
    upgrades: list[list[int]]
    inv_opts: list[list[str]]
    carto_opts: list[list[str]]
    decisions: list[list[Any]]
    creature_at: str | None
    cr_deck: list[int]
    cr_active: list[int]
    cr_box: list[int]
    cr_takers: list[list[int]]
    curse: list[int]
    held_inuit: list[int]
    abandoned: str | None
    walk_deck: list[int]
    walk_disc: list[int]
    maint: list[int]
    guilt: list[int]
    sick: list[int]
    customs: list[int]
    explorer: list[str]
    ex_dealt: list[list[str]]
    ex_box: list[str]
    ex_held: list[list[str]]
    ex_due: list[list[str]]
    ex_sailor: int
    ex_spaces: list[int]
    ex_despot: list[int]
    ex_peek: list[list[Any]]
    ex_forbid: str | None
    ex_voyager: int | None
    ep_settlement: str | None
    ep_inuit: list[str]
    ep_dis_deck: list[str]
    ep_dis_disc: list[str]
    ep_ill: list[list[Any]]
    ep_tr_deck: list[str]
    ep_tr_disc: list[str]
    ep_treat: list[str]
    am_cyl: list[int]
    am_haven: int
    am_founded: bool

    @classmethod
    def _blank(cls, players: int, seed: int, opts: dict[str, Any], content: Content) -> Self:
        klass, content = cls._variant(opts, content)
        st = klass.__new__(klass)
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
        st.event_draw = None
        st.round_mods = ()
        st.stands = []
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
        for name in _MOD_SCALARS:
            setattr(st, name, None)
        for name in (*_MOD_LISTS, *_MOD_NESTED):
            setattr(st, name, [])
        return st

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
        """Own crew (officers, sailors, Inuit pawns); Mutiny and the ``feed_crew`` effect count these."""
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

    @classmethod
    def _variant(cls, opts: dict[str, Any], content: Content) -> tuple[type[Self], Content]:
        """The class and content a game with these options plays: a module may bring
        its own (Walking on Ice: ``walking.WalkingState`` on the module's map)."""
        return cls, content

    def blocked_spaces(self) -> Any:
        """Action spaces nobody may take now (a solo scenario's blocked spaces; Walking
        on Ice adds the tiles before abandonment and the spaces they cover after)."""
        return self.scen().get("blocked_spaces", ())

    def upgrade_space_limit(self) -> int:
        """How many upgrade tiles a board holds (the ship board; the sled board)."""
        return int(self.rules["limits"]["upgrade_spaces"])

    def upgrade_space_bonuses(self) -> list[dict[str, int]]:
        """The bonus printed on each upgrade space, first space first."""
        b: list[dict[str, int]] = self.content.tracks.get("upgrade_spaces", [])
        return b

    def module(self, name: str) -> bool:
        """Is the Myths & Legends module ``name`` in play?"""
        return name in self.options["modules"]

    def upgrade_in_game(self, number: int) -> bool:
        u = self.content.upgrades[number]
        if u.module is not None:
            if self.module(u.module):
                return True
            # a tile "usable with other modules" (#12, #13) joins them with the full tile set
            return (
                u.with_other_modules
                and bool(self.options["modules"])
                and (self.options["upgrades"] == "all")
            )
        if not u.optional or self.options["upgrades"] == "all":
            return True
        # the Fishing Boat is required by Dual Species (§6.3)
        return number == FISHING_BOAT and self.mode("dual_species")

    def _section_placed(self, idx: int) -> bool:
        return any(int(s) == idx for s, _ in self.placed)

    def round_mod(self, name: str) -> Op | None:
        """The parameters of round modifier ``name`` if it is in force this round."""
        if name not in self.round_mods:
            return None
        return self._t.modifiers.get(name)

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

    def scenario_value(self, seat: int) -> float:
        """A search bot's extra liking for a solo position (``heuristics``): 0 here; a
        scenario's state class scores its own progress (ill crew, black cylinders)."""
        return 0.0

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
        out = {
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
            "cans": pv[b + CANS],
            "crew": dict(zip(CREW_KINDS, self.owned_crew(seat), strict=True)),
            "upgrades": list(self.upgrades[seat]),
            "cabins": pv[b + 15],
            "species": list(self.species[seat]),
        }
        if self.curse:  # Inuit Myths: the curse cylinder and the Inuit held on a card
            out["curse"] = bool(self.curse[seat])
            out["held_inuit"] = self.held_inuit[seat]
        return out

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
            "explorer": "choose the explorer you keep",
            "benevolent": "trade 3 food for 1 morale, or stop",
            "despot": "decide whether to force the leader onto another route",
            "over": "nothing: the game is over",
        }.get(k, k)
