"""The Action phase (§4.5–4.6, modes §6, solo changes §7): the legal ``take``
actions of a seat and their effects.

Crew are counted by kind ``(captain, carpenter, scientist, sailors, inuit)``.
A space's ``need`` (board.json) lists roles of which at least one must be
among the crew; ``totals`` the allowed crew counts (empty: any number ≥ 1).
Upgrades 1, 4 and 5 let one placed crew member play the carpenter, scientist
or captain once per round (``proxy``; offered only when the crew does not
already hold a needed officer).  Crew compositions are enumerated once per
availability and cached, because search calls this thousands of times.
"""

from __future__ import annotations

import itertools
from functools import cache
from typing import TYPE_CHECKING

from erebus.core.events import Event
from erebus.games.iceandsnow import legends, legends_explorers, legends_j, myths, walking_rules
from erebus.games.iceandsnow.actions import Action, Crew, Take, compositions
from erebus.games.iceandsnow.content import RESOURCES, Space
from erebus.games.iceandsnow.events import (
    CabinBuilt,
    CardTaken,
    CompassDrawn,
    CrewPlaced,
    ScenarioProgress,
    ShelterBuilt,
    UpgradeBuilt,
)
from erebus.games.iceandsnow.layout import (
    BRIDGE,
    CABINS,
    CANS,
    DOGS,
    DYN,
    EXPLORES,
    FISHING_BOAT,
    FOOD,
    FUEL,
    INTERPRETER,
    LABORATORY,
    PROXY,
    RES,
    RESCUED,
    RIFLES,
    SHELTERS,
    SLED,
    TURNS,
    USED,
    WOOD,
    WORKSHOP,
    F,
)
from erebus.games.iceandsnow.resources import acquire_species

if TYPE_CHECKING:
    from erebus.games.iceandsnow.events_cards import EventCardRules as State
    from erebus.games.iceandsnow.tables import Tables

ROLE_INDEX = {
    "captain": 0,
    "carpenter": 1,
    "scientist": 2,
    "sailors": 3,
    "sailor": 3,
    "inuit": 4,
    "inuk": 4,
}
#: Upgrade tile -> the officer one placed crew member may play once per round (§8.3).
PROXY_UPGRADES = {WORKSHOP: "carpenter", LABORATORY: "scientist", BRIDGE: "captain"}
PROXY_BIT = {"captain": 1, "carpenter": 2, "scientist": 4, "inuit": legends_explorers.INUK_BIT}
#: (tile, role, bit) of the proxy upgrades, in tile order (what proxies_of walks).
_PROXIES = tuple((num, role, PROXY_BIT[role]) for num, role in sorted(PROXY_UPGRADES.items()))
#: Crew of Build Shelter (§6.2): 1 Inuk + 1 crew.
SHELTER_NEED = ("inuit",)
SHELTER_TOTALS = (2,)
#: Visit the Inuit with event card 17 (Inuk Interpreter): 1 Inuk + 1 crew.
INTERPRETER_TOTALS = (2,)
EVENT_SPACE = "event"
SHELTER_SPACE = "build_shelter"


@cache
def crew_options(
    avail: Crew, need: tuple[str, ...], totals: tuple[int, ...], proxies: tuple[str, ...]
) -> tuple[tuple[Crew, str | None], ...]:
    """(crew, proxy role) pairs that meet a space's requirement."""
    out: list[tuple[Crew, str | None]] = []
    idx = [ROLE_INDEX[r] for r in need]
    for c in compositions(avail):
        t = sum(c)
        if t == 0 or (totals and t not in totals):
            continue
        if not need or any(c[i] for i in idx):
            out.append((c, None))
            continue
        for role in need:
            if role in proxies:
                out.append((c, role))
    return tuple(out)


@cache
def vow_options(
    avail: Crew, officer: str, proxies: tuple[str, ...]
) -> tuple[tuple[Crew, str | None], ...]:
    """Vow of Silence: the officer shown alone, or any 2 crew (§4.6.5)."""
    i = ROLE_INDEX[officer]
    out: list[tuple[Crew, str | None]] = []
    for c in compositions(avail):
        t = sum(c)
        if t == 1 and c[i]:
            out.append((c, None))
        elif t == 1 and officer in proxies:
            out.append((c, officer))
        elif t == 2:
            out.append((c, None))
    return tuple(out)


@cache
def take_vectors(box: Take, k: int) -> tuple[Take, ...]:
    """Every choice of ``min(k, contents)`` resources from a warehouse box."""
    k = min(k, sum(box))
    return tuple(
        v  # type: ignore[misc]
        for v in itertools.product(*(range(b + 1) for b in box))
        if sum(v) == k
    )


def proxies_of(st: State, seat: int) -> tuple[str, ...]:
    upgrades = st.upgrades[seat]
    if upgrades:
        used = st.pv[F * seat + PROXY]
        out = tuple([role for num, role, bit in _PROXIES if num in upgrades and not used & bit])
    else:
        out = ()
    if st.explorer and legends_explorers.apprentice(st, seat):  # Ross: a crew member as an Inuk
        out += (legends_explorers.INUK_PROXY,)
    return out


def _inuk(proxies: tuple[str, ...]) -> tuple[str, ...]:
    """The proxies of a requirement that names only an Inuk (Build Shelter, event 17)."""
    return ("inuit",) if "inuit" in proxies else ()


def column_index(st: State, column: str) -> int:
    cols = st.tables.columns
    return cols.index(column) if column in cols else -1


def needs_deposit(st: State, sp: Space) -> bool:
    if not (st.mode("survival") and sp.above_warehouse):
        return False
    ci = column_index(st, sp.column)
    return ci >= 0 and not st.col_paid[ci]


def active_shelter(st: State, seat: int) -> bool:
    if not st.shelters_at:  # (most games: no shelter anywhere)
        return False
    here = set(st.tables.sections_of[st.fleet])
    return any(s == seat and here.intersection(st.tables.sections_of[a]) for a, s in st.shelters_at)


def sled_for_explore(st: State, seat: int) -> int:
    """The sled's value for Explore: a round modifier may change it (Freezing Wind)."""
    m = st.round_mod("explore_sled")
    return st.p(seat, SLED) + (int(m["amount"]) if m is not None else 0)


def explore_pp(st: State, seat: int) -> int:
    """min(sled value, dog value) (§4.6.1), the sled as :func:`sled_for_explore` counts it."""
    tr = st.content.tracks
    sled = max(0, min(sled_for_explore(st, seat), len(tr["sled"]["explore_pp"]) - 1))
    dogs = min(legends.explore_dogs(st, seat), len(tr["dogs"]["explore_pp"]) - 1)
    return min(int(tr["sled"]["explore_pp"][sled]), int(tr["dogs"]["explore_pp"][dogs]))


def available_sled_level(st: State, seat: int) -> int:
    """Lost Expedition: the highest sled level up to the sled track whose dog group
    has at least one dog (the Spanish edition's reading, decision 13)."""
    groups = st.content.tracks["dogs"].get("groups", [])
    dogs = legends.sled_dogs(st, seat) if st.explorer else st.p(seat, DOGS)  # J: track of 7
    level = 0
    for i, g in enumerate(groups, start=1):
        if i <= sled_for_explore(st, seat) and dogs >= int(g[0]):
            level = i
    return level


#: A ``take``'s variable fields after the crew and proxy, in the order of
#: :class:`Action`'s fields: (card, resource, tile, food, take, deposit).
Suffix = tuple[str | None, str | None, int | None, int | None, Take | None, str | None]

_new = tuple.__new__
_NO_PAY = (0, 0, 0, 0)
#: The deposits of a take that owes none (``None``: no deposit).
_NO_DEPOSIT: tuple[str | None, ...] = (None,)
_PLAIN: tuple[Suffix, ...] = ((None, None, None, None, None, None),)
#: Built blocks of ``take`` actions (one space, one crew requirement, one set of
#: suffixes), shared by every state: the same blocks come back all game long.  A key
#: is ``(crews, space index, …)``: ``crews`` the :class:`_Crews` of the available crew
#: and proxies (hashed by identity, so a key is cheap to hash and to compare), then
#: what the space's crew options and suffixes depend on (:func:`take_actions`).
_BLOCKS: dict[tuple[object, ...], tuple[Action, ...]] = {}
_BLOCKS_MAX = 1 << 14
_BLOCK_MAX_LEN = 1024
#: How many :class:`_Crews` one board keeps (a handful are in use at a time).
_CREWS_MAX = 1 << 12

# The kinds of space of take_actions, as small ints (one test each, not a chain of
# string comparisons): _KINDS names the exact ones, the rest go by prefix.  The
# kinds up to _EXPERIMENT take at most a condition and the space's own crew; the
# others follow, those with several spaces first (take_actions tests them in order).
(
    _OTHER,  # ice_fishing, trace_map, document_methods, lab_research, Walking on Ice tiles
    _LEAD,
    _EXPLORE,
    _HIRE,
    _RECYCLE,
    _MAGNETIC,
    _TIN,
    _EXPERIMENT,
    _EXCHANGE,
    _COLLECT,
    _VOW,
    _HUNT,
    _DISCOVER,
    _CABIN,
    _UPGRADE,
    _SLED,
    _VISIT,
) = range(17)
_KINDS = {
    "lead": _LEAD,
    "explore": _EXPLORE,
    "visit_inuit": _VISIT,
    "hire_inuk": _HIRE,
    "build_cabin": _CABIN,
    "improve_sled": _SLED,
    "upgrade_ship": _UPGRADE,
    "recycle_wood": _RECYCLE,
    "magnetic_research": _MAGNETIC,
    "discover": _DISCOVER,
    "hunt": _HUNT,
    "tin_refining": _TIN,  # Walking on Ice's tile over Experiment
    "experiment": _EXPERIMENT,
}


def _kind_code(kind: str) -> int:
    if kind in _KINDS:
        return _KINDS[kind]
    if kind.startswith("exchange"):
        return _EXCHANGE
    if kind.startswith("collect"):
        return _COLLECT
    if kind.startswith("vow"):
        return _VOW
    return _OTHER


#: One board space a ``take`` may name: (index, id, slots, kind code, column index,
#: the column owing a Survival deposit when the space is above its warehouse, else -1,
#: whether its crew options are always its own requirement's, the space).
_Row = tuple[int, str, int | None, int, int, int, bool, Space]
#: The kinds whose crew options may be other than the space's own requirement's.
_OWN_CREW_OR_MORE = frozenset({_VISIT, _SLED, _HUNT, _VOW})


def _rows(st: State, tables: Tables, crews: _Crews | None) -> tuple[_Row, ...]:
    """The spaces of the board open to a ``take`` at all, in board order: the
    final-round ones only in the final round, the blocked ones never.  They depend on
    nothing else (the players' count, the scenario, the blocked spaces), so they are
    computed once per board and those.  With ``crews``, only the spaces whose
    crew options may hold something for that available crew: those with options of
    their own requirement, and those whose options may be others."""
    blocked = st.blocked_spaces()
    final = st.is_final_round
    key = (st.n, final, st.scenario, tuple(blocked))
    if crews is not None:
        rows = crews.rows.get(key)
        if rows is None:
            toks = crews.toks
            rows = crews.rows[key] = tuple(
                r
                for r in _rows(st, tables, None)
                if toks[r[0]] is not None or (r[3] != _HUNT and not r[6])
            )
        return rows
    rows = tables.take_rows.get(key)
    if rows is not None:
        return rows
    replaced = st.scen().get("replaced_spaces", {})
    out: list[_Row] = []
    for i, sp in enumerate(tables.spaces):
        if sp.final and not final:
            continue
        sid = sp.id
        if sid in blocked:
            continue
        ci = tables.space_column[i]
        wcol = ci if sp.above_warehouse and ci >= 0 else -1
        code = _kind_code(replaced.get(sid, sid))
        own = code not in _OWN_CREW_OR_MORE
        out.append((i, sid, sp.slots.get(st.n), code, ci, wcol, own, sp))
    rows = tables.take_rows[key] = tuple(out)
    return rows


class _Opts:
    """The key of one tuple of crew options on one board in :data:`_BLOCKS`: a block
    depends on the options, not on the crew they came from, so every available crew
    with the same options for a space shares its blocks."""

    __slots__ = ("opts",)

    def __init__(self, opts: tuple[tuple[Crew, str | None], ...]) -> None:
        self.opts = opts


def _token(tables: Tables, opts: tuple[tuple[Crew, str | None], ...]) -> _Opts:
    tok = tables.take_opts.get(opts)
    if tok is None:
        if len(tables.take_opts) >= _CREWS_MAX:
            tables.take_opts.clear()
        tok = tables.take_opts[opts] = _Opts(opts)
    return tok


class _Crews:
    """The key of one (available crew, proxies) on one board in :data:`_BLOCKS`, and
    ``toks``: per space index, the :class:`_Opts` of the space's own requirement
    (``None``: no crew meets it), and the spaces that leaves."""

    __slots__ = ("avail", "proxies", "rows", "toks")

    def __init__(self, tables: Tables, avail: Crew, proxies: tuple[str, ...]) -> None:
        self.avail = avail
        self.proxies = proxies
        #: :func:`_rows` for this crew (without Sedna's extra crew), by the same keys
        self.rows: dict[tuple[object, ...], tuple[_Row, ...]] = {}
        self.toks: list[_Opts | None] = []
        for sp in tables.spaces:
            opts = crew_options(avail, sp.need, sp.totals, proxies)
            self.toks.append(_token(tables, opts) if opts else None)


def _crews(tables: Tables, avail: Crew, proxies: tuple[str, ...]) -> _Crews:
    key = (avail, proxies)
    c = tables.take_crews.get(key)
    if c is None:
        if len(tables.take_crews) >= _CREWS_MAX:
            tables.take_crews.clear()
        c = tables.take_crews[key] = _Crews(tables, avail, proxies)
    return c


def _tiles_in_game(st: State, tables: Tables) -> tuple[tuple[int, int], ...]:
    """(number, wood cost) of the upgrade tiles in this game, in number order: what
    :meth:`upgrade_in_game` says, which reads only the content and these options."""
    o = st.options
    key = (tuple(o["modules"]), o["upgrades"], st.mode("dual_species"))
    tiles = tables.take_tiles.get(key)
    if tiles is None:
        tiles = tables.take_tiles[key] = tuple(
            (num, u.cost) for num, u in tables.upgrades_sorted if st.upgrade_in_game(num)
        )
    return tiles


def _deposits(res: Take, paid: tuple[int, ...], keep: tuple[int, ...]) -> tuple[str | None, ...]:
    """The Survival deposits possible with ``paid`` paid and ``keep`` kept."""
    return tuple(
        [r for r, k, p, q in zip(RESOURCES, res, paid, keep, strict=True) if k - p - q >= 1]
    )


def _default_opts(
    avail: Crew, sp: Space, more: int, proxies: tuple[str, ...]
) -> tuple[tuple[Crew, str | None], ...]:
    """The crew options of ``sp``'s own requirement, with ``more`` crew (Sedna)."""
    totals = myths.plus_totals(sp.totals, more) if more else sp.totals
    return crew_options(avail, sp.need, totals, proxies)


def _keep(key: tuple[object, ...], block: tuple[Action, ...]) -> tuple[Action, ...]:
    if len(block) <= _BLOCK_MAX_LEN:
        if len(_BLOCKS) >= _BLOCKS_MAX:
            _BLOCKS.clear()
        _BLOCKS[key] = block
    return block


def _block(
    key: tuple[object, ...],
    sid: str,
    opts: tuple[tuple[Crew, str | None], ...],
    suffixes: tuple[Suffix, ...],
) -> tuple[Action, ...]:
    """The actions ``take sid`` for every (crew, proxy) of ``opts`` (outer loop)
    and every suffix (inner loop), kept under ``key``."""
    block = tuple(
        [
            _new(
                Action,
                ("take", c, sid, None, None, None, None, r, crew, t, f, v, proxy, d, None, None),
            )
            for crew, proxy in opts
            for c, r, t, f, v, d in suffixes
        ]
    )
    return _keep(key, block)


def _collect_block(
    key: tuple[object, ...],
    sid: str,
    opts: tuple[tuple[Crew, str | None], ...],
    box: Take,
    deposits: tuple[str | None, ...],
    uncounted: int = 0,
) -> tuple[Action, ...]:
    """Collect: every crew, then every take vector of ``min(crew, contents)``
    (``uncounted`` crew — a creature's extra crew — do not collect), kept under ``key``."""
    no = None  # (a name, to write the 16 fields on one line)
    block = tuple(
        [
            _new(Action, ("take", no, sid, no, no, no, no, no, crew, no, no, v, proxy, d, no, no))
            for crew, proxy in opts
            for v in take_vectors(box, sum(crew) - uncounted)
            for d in deposits
        ]
    )
    return _keep(key, block)


def take_actions(st: State, seat: int) -> list[Action]:
    """Every legal ``take`` of ``seat`` now, in board order (a new list: callers extend it).

    Per space the order is: crew compositions (``crew_options`` order), then the
    space's parameters (card, tile, food, resource, take), then the Survival
    deposit (resource order) when one is due.

    Search and the RL environment call this on most of their decisions, so each
    space costs one cache look-up when nothing new happens: the spaces this crew may
    take come from :func:`_rows`, and each space's block of actions from
    :data:`_BLOCKS`, keyed on its crew options (:class:`_Opts`; or the available crew
    and proxies, :class:`_Crews`, where the options are not the space's own), the
    space and what its parameters depend on — built (and its suffixes computed) only
    on a miss."""
    avail = st.avail_crew(seat)
    if sum(avail) == 0:
        return []
    proxies = proxies_of(st, seat)
    tables = st.tables
    crews = tables.take_crews.get((avail, proxies))
    if crews is None:
        crews = _crews(tables, avail, proxies)
    pv = st.pv
    b = F * seat
    res = (pv[b + DYN], pv[b + WOOD], pv[b + RIFLES], pv[b + DOGS])
    out: list[Action] = []
    survival = st.mode("survival")
    col_paid = st.col_paid
    occ = st.occ
    upgrades = st.upgrades[seat]
    boat = FISHING_BOAT in upgrades
    explorer = st.explorer
    # the deposits possible with nothing paid nor kept (most spaces)
    deps0 = _deposits(res, _NO_PAY, _NO_PAY) if survival else _NO_DEPOSIT
    # Inuit Myths: creatures in play may ask more of an action (§9.2)
    sedna = bool(st.cr_active) and any(x.cost == "extra_crew" for x in myths.extras(st, seat))
    resk: Take | None = None  # the resources capped at 2: what Exchange depends on
    blocks = _BLOCKS
    blk: tuple[Action, ...] | None
    toks = crews.toks
    tok: _Opts | None
    # with Sedna's extra crew every space; else those this crew may take
    rows = _rows(st, tables, None if sedna else crews)
    for i, sid, slots, code, ci, wcol, own, sp in rows:
        if slots is not None and occ[i] >= slots:
            continue
        more = myths.extra_crew(st, seat, sp) if sedna else 0
        if more:  # Sedna: more crew than the space's own requirement
            tok = _token(tables, _default_opts(avail, sp, more, proxies))
        else:
            tok = toks[i]
            if tok is None and own:
                continue  # nobody can take it: an empty block
        due = survival and wcol >= 0 and not col_paid[wcol]
        plain = deps0 if due else _NO_DEPOSIT
        deps = plain  # the default: the space's crew, then its deposits
        if code <= _EXPERIMENT:  # at most a condition, then that default
            if code == _OTHER:
                pass
            elif code == _LEAD:
                if seat == st.leader and pv[b + TURNS] == 0:
                    continue
            elif code == _EXPLORE:
                dogs = legends.sled_dogs(st, seat) if explorer else pv[b + DOGS]
                if dogs < 1 or sled_for_explore(st, seat) < 1:
                    continue
                if due:
                    deps = _deposits(res, _NO_PAY, (0, 0, 0, 1))
            elif code == _HIRE:
                if st.inuit_pool <= 0:
                    continue
            elif code == _RECYCLE:
                if pv[b + FUEL] < sp.fuel:
                    continue
            elif code == _MAGNETIC:
                if not st.compass:
                    continue
            elif code == _TIN:
                if pv[b + CANS] < sp.cans:
                    continue
            else:  # _EXPERIMENT
                if res[1] < sp.wood:
                    continue
                if due:
                    deps = _deposits(res, (0, sp.wood, 0, 0), _NO_PAY)
        elif code == _EXCHANGE:
            # the suffixes depend on which resources are above 0, and when a deposit
            # is due on which are above 1: the resources capped at 2 say both
            if resk is None:
                resk = (min(res[0], 2), min(res[1], 2), min(res[2], 2), min(res[3], 2))
            assert tok is not None
            key: tuple[object, ...] = (tok, i, "x", due, resk)
            blk = blocks.get(key)
            if blk is None:
                swaps: list[Suffix] = []
                for ri, r in enumerate(RESOURCES):
                    if res[ri] > 0:
                        if due:
                            paid = [0, 0, 0, 0]
                            paid[ri] = 1
                            dx = _deposits(res, tuple(paid), _NO_PAY)
                        else:
                            dx = plain
                        swaps += [(None, r, None, None, None, d) for d in dx]
                blk = _block(key, sid, tok.opts, tuple(swaps))
            out += blk
            continue
        elif code == _COLLECT:
            box: Take = tuple(st.boxes[4 * ci : 4 * ci + 4])  # type: ignore[assignment]
            if box == _NO_PAY:
                continue
            assert tok is not None
            key = (tok, i, "k", more, box, plain)
            blk = blocks.get(key)
            if blk is None:
                blk = _collect_block(key, sid, tok.opts, box, plain, more)
            out += blk
            continue
        elif code == _VOW:
            key = (crews, i, "V", more, plain)
            blk = blocks.get(key)
            if blk is None:
                need = sp.need
                officer = need[0] if need else "captain"
                opts = vow_options(avail, officer, proxies)
                if more:  # the officer + ``more``, or any 2 + ``more``
                    opts = tuple(
                        (c, p)
                        for c, p in crew_options(avail, (), (1 + more, 2 + more), ())
                        if sum(c) == 2 + more or c[ROLE_INDEX[officer]]
                    )
                blk = _block(key, sid, opts, _plain_suffixes(plain))
            out += blk
            continue
        elif code == _HUNT:
            if toks[i] is None:  # nobody can take it: every (prey,) crew is among these
                continue
            dual = st.content.dual
            hunting = tables.hunting_all
            row = st.hu_rev
            top = legends_explorers.huntable_top(st, seat) if explorer else None
            if top is not None:
                row = [*row, top]  # Kellett's look at the hunting deck
            less = legends.rifles_less(st, seat) if explorer else 0
            need = sp.need
            for cid in row:
                h = hunting[cid]
                if (h.whale or cid in dual) and not boat:
                    continue
                prey = h.prey
                if res[2] < prey - less:
                    continue
                block: tuple[Action, ...] = ()
                if res[2] >= prey:
                    deps = _deposits(res, _NO_PAY, (0, 0, prey, 0)) if due else plain
                    key = (crews, i, "h", prey, cid, deps)
                    blk = blocks.get(key)
                    if blk is None:
                        hunt = tuple([(cid, None, None, None, None, d) for d in deps])
                        blk = _block(key, sid, crew_options(avail, need, (prey,), proxies), hunt)
                    block = blk
                    out += block
                if less:  # event 47: with at least 1 Inuk, 1 rifle less
                    rifles = prey - less
                    deps = _deposits(res, _NO_PAY, (0, 0, rifles, 0)) if due else plain
                    out += legends.hunt_with_inuk(
                        crew_options(avail, need, (prey,), proxies), sid, cid, deps, block
                    )
            continue
        elif code == _DISCOVER:
            content = st.content
            species = content.species
            cards = [cid for cid in st.sp_rev if boat or not species[cid].fishing_boat]
            if boat:
                cards += [cid for cid in st.hu_rev if cid in content.dual]
            top = legends_explorers.looked_card(st, seat, "species") if explorer else None
            if top is not None and (boat or not species[top].fishing_boat):
                cards.append(top)  # Kellett's look at the species deck
            if not cards:
                continue
            assert tok is not None
            key = (tok, i, "d", tuple(cards), plain)
            blk = blocks.get(key)
            if blk is None:
                found = tuple((cid, None, None, None, None, d) for cid in cards for d in plain)
                blk = _block(key, sid, tok.opts, found)
            out += blk
            continue
        elif code == _CABIN:
            if pv[b + CABINS] >= int(st.rules["limits"]["cabins"]) or res[1] < sp.wood:
                continue
            if due:
                deps = _deposits(res, (0, sp.wood, 0, 0), _NO_PAY)
            assert tok is not None
            food = pv[b + FOOD]
            key = (tok, i, "c", food, deps)
            blk = blocks.get(key)
            if blk is None:
                suffixes: tuple[Suffix, ...] = tuple(
                    (None, None, None, f, None, d) for f in range(food + 1) for d in deps
                )
                blk = _block(key, sid, tok.opts, suffixes)
            out += blk
            if pv[b + CANS]:  # Walking on Ice: food cans count as 5 food lowered each
                out += _cabin_with_cans(sid, tok.opts, food, pv[b + CANS], deps)
            continue
        elif code == _UPGRADE:
            if len(upgrades) >= st.upgrade_space_limit():
                continue
            upg_left = st.upg_left
            wood = res[1]
            nums = tuple(  # the cheap tests first (all of them side-effect free)
                [
                    num
                    for num, cost in _tiles_in_game(st, tables)
                    if wood >= cost and num not in upgrades and upg_left[num] > 0
                ]
            )
            if not nums:
                continue
            assert tok is not None
            key = (tok, i, "u", nums, res if due else None)
            blk = blocks.get(key)
            if blk is None:
                tiles: list[Suffix] = []
                ups = st.content.upgrades
                for num in nums:
                    dt = _deposits(res, (0, ups[num].cost, 0, 0), _NO_PAY) if due else plain
                    tiles += [(None, None, num, None, None, d) for d in dt]
                blk = _block(key, sid, tok.opts, tuple(tiles))
            out += blk
            continue
        elif code == _SLED:
            wood = legends_j.sled_wood(st, seat, sp.wood) if explorer else sp.wood
            if res[1] < wood or pv[b + SLED] >= int(st.content.tracks["sled"]["max"]):
                continue
            if due:
                deps = _deposits(res, (0, wood, 0, 0), _NO_PAY)
            if explorer and avail[4] and legends_j.sled_master(st, seat):
                key = (crews, i, "S", more, deps)
                blk = blocks.get(key)
                if blk is None:
                    power = ((legends_j.INUK_ALONE, None),)  # event 53's power
                    opts = _merged(_default_opts(avail, sp, more, proxies), power)
                    blk = _block(key, sid, opts, _plain_suffixes(deps))
                out += blk
                continue
        elif pv[b + INTERPRETER]:  # _VISIT with event 17's Inuk Interpreter
            key = (crews, i, "I", more, plain)
            blk = blocks.get(key)
            if blk is None:
                extra = crew_options(avail, ("inuit",), INTERPRETER_TOTALS, _inuk(proxies))
                opts = _merged(_default_opts(avail, sp, more, proxies), extra)
                blk = _block(key, sid, opts, _plain_suffixes(plain))
            out += blk
            continue
        # the space's own crew requirement, then the deposits ``deps``
        if tok is not None:
            key = (tok, i, deps)
            blk = blocks.get(key)
            if blk is None:
                blk = _block(key, sid, tok.opts, _plain_suffixes(deps))
            out += blk
    if (
        st.mode("shelters")
        and pv[b + SHELTERS] < int(st.rules["limits"]["shelters"])
        and not active_shelter(st, seat)
    ):
        key = (crews, -1)
        blk = blocks.get(key)
        if blk is None:
            opts = crew_options(avail, SHELTER_NEED, SHELTER_TOTALS, _inuk(proxies))
            blk = _block(key, SHELTER_SPACE, opts, _PLAIN)
        out += blk
    event = st.event
    if event is not None and st.event_takeable(seat):
        key = (crews, -2, event)
        blk = blocks.get(key)
        if blk is None:
            totals = tuple(st.content.events[event].crew)
            blk = _block(key, EVENT_SPACE, crew_options(avail, (), totals, ()), _PLAIN)
        out += blk
    if explorer:  # Legendary Expeditions: George Back's choice of upgrade space
        out = legends.expand_upgrades(st, seat, out)
    if st.cr_active:
        out += myths.creature_takes(st, seat, avail)
        out = myths.filter_takes(st, seat, out)
    return out


def _cabin_with_cans(
    sid: str,
    opts: tuple[tuple[Crew, str | None], ...],
    food: int,
    cans: int,
    deposits: tuple[str | None, ...],
) -> list[Action]:
    """Build a Cabin discarding 1..``cans`` food cans (Walking on Ice, §9.1) with any
    food lowered besides: every crew, then cans, food and deposit."""
    return [
        Action("take", space=sid, crew=crew, food=f, proxy=proxy, deposit=d, cans=k)
        for crew, proxy in opts
        for k in range(1, cans + 1)
        for f in range(food + 1)
        for d in deposits
    ]


@cache
def _plain_suffixes(deposits: tuple[str | None, ...]) -> tuple[Suffix, ...]:
    """The suffixes of a space without parameters: one per possible deposit."""
    return tuple((None, None, None, None, None, d) for d in deposits)


@cache
def _merged(
    a: tuple[tuple[Crew, str | None], ...], b: tuple[tuple[Crew, str | None], ...]
) -> tuple[tuple[Crew, str | None], ...]:
    """``a`` then the options of ``b`` not in ``a`` (Visit the Inuit with the ``interpreter`` power)."""
    return tuple(dict.fromkeys(a + b))


def why_not(st: State, a: Action) -> str:
    """A player-facing reason why a ``take`` is refused."""
    seat = st.current_player
    if seat is None:
        return "the game is over"
    if st.pending != "action":
        return f"{a} is not possible now: you must {st.expecting()}"
    sid = a.space
    spaces = st.tables.space_index
    if sid not in spaces and sid not in (EVENT_SPACE, SHELTER_SPACE, myths.CREATURE_SPACE):
        return f"there is no action space {sid!r}"
    if sid in spaces:
        i = spaces[sid]
        sp = st.tables.spaces[i]
        slots = sp.slots.get(st.n)
        if sp.final and not st.is_final_round:
            return f"{sid} is a final-round action"
        if slots is not None and st.occ[i] >= slots:
            return f"every {sid} space is taken this round"
        if sid == "lead" and seat == st.leader and st.pv[F * seat + TURNS] == 0:
            return "the leader cannot take Lead on their first turn"
    if a.crew is not None:
        avail = st.avail_crew(seat)
        if any(c > v for c, v in zip(a.crew, avail, strict=True)):
            return f"you do not have that crew available (available: {avail})"
    return f"{a} does not meet the requirements of {sid} (crew, resources, cards or deposit)"


def apply_take(st: State, seat: int, a: Action, ev: list[Event]) -> None:
    """Place the crew, pay, and apply the effect of a legal ``take``."""
    assert a.space is not None and a.crew is not None
    b = F * seat
    pv = st.pv
    crew = a.crew
    placed = b + USED
    pv[placed] += crew[0]
    pv[placed + 1] += crew[1]
    pv[placed + 2] += crew[2]
    pv[placed + 3] += crew[3]
    pv[placed + 4] += crew[4]
    if a.proxy is not None:
        pv[b + PROXY] |= PROXY_BIT[a.proxy]
    ev.append(CrewPlaced(seat, a.space, a.crew))
    st.stands.append([a.space, seat, *a.crew])
    sid = a.space
    if st.cr_active:
        myths.pay_extras(st, seat, a, ev)
        if st.over:
            return
        if sid == myths.CREATURE_SPACE:
            myths.apply_creature_take(st, seat, a, ev)
            return
    if sid == SHELTER_SPACE:
        pv[b + SHELTERS] += 1
        st.shelters_at.append([st.fleet, seat])
        ev.append(ShelterBuilt(seat, st.fleet))
        st._gain(seat, "food", int(st.rules["shelter_food"]), "shelter", ev)
        return
    if sid == EVENT_SPACE:
        st._take_event(seat, ev)
        return
    i = st.tables.space_index[sid]
    sp = st.tables.spaces[i]
    st.occ[i] += 1
    if a.deposit is not None:
        ci = column_index(st, sp.column)
        st._gain(seat, a.deposit, -1, "survival deposit", ev)
        st.boxes[4 * ci + RESOURCES.index(a.deposit)] += 1
        st.col_paid[ci] = 1
    kind = st.scen().get("replaced_spaces", {}).get(sid, sid)
    r = st.rules
    total = sum(a.crew)
    if st.cr_active:
        total -= myths.extra_crew(st, seat, sp)  # Sedna's extra crew does not count
    if kind == "lead":
        st.lead_taker = seat
    elif kind == "explore":
        pp = explore_pp(st, seat)
        st._score(seat, pp, "explore", ev)
        st._gain(seat, "morale", int(r["explore_morale"]), "explore", ev)
        pv[b + EXPLORES] += 1
        st.mnp_explore = max(st.mnp_explore, pp)
        if st.scenario == "lost-expedition" and st.region_of(st.fleet) in st.priority:
            _search(st, seat, available_sled_level(st, seat), ev)
    elif kind == "visit_inuit":
        vi = r["visit_inuit"]
        st._gain(seat, "dogs", int(vi["dogs"]), "visit the Inuit", ev)
        st._gain(seat, "fuel", int(vi["fuel"]), "visit the Inuit", ev)
    elif kind == "hire_inuk":
        st._hire(seat, 1, "hire an Inuk", ev, at_once=False)
    elif kind == "build_cabin":
        assert a.food is not None
        st._gain(seat, "wood", -sp.wood, "build a cabin", ev)
        pv[b + CABINS] += 1
        st.cabins_at.append([st.fleet, seat])
        lowered = a.food
        if a.cans:  # Walking on Ice: each can counts as 5 food lowered, no health lost
            st._gain(seat, "cans", -a.cans, "build a cabin", ev)
            walking = st.content.walking
            assert walking is not None
            lowered += a.cans * int(walking.cans["cabin_food"])
        ev.append(CabinBuilt(seat, st.fleet, lowered))
        st._score(seat, int(r["cabin_pp"]), "cabin", ev)
        if a.food:
            st._gain(seat, "food", -a.food, "cabin", ev)
        if lowered:
            pp = legends.cabin_pp(st, seat, lowered, int(r["cabin_food_per_pp"]))
            st._score(seat, pp, "cabin food", ev)
        st.mnp_cabin = max(st.mnp_cabin, a.food)
        if st.scenario == "lost-expedition" and not st.le_found:
            obj = st.scen().get("objective", {})
            if a.food >= int(obj.get("cabin_food", 0)) and st.region_of(st.fleet) != obj.get(
                "cabin_forbidden_region"
            ):
                st.le_cabin = True
                ev.append(ScenarioProgress("cabin objective met", 1))
    elif kind == "improve_sled":
        wood = legends_j.sled_wood(st, seat, sp.wood) if st.explorer else sp.wood
        st._gain(seat, "wood", -wood, "improve the sled", ev)
        st._gain(seat, "sled", 1, "improve the sled", ev)
    elif kind == "upgrade_ship":
        assert a.tile is not None
        u = st.content.upgrades[a.tile]
        st._gain(seat, "wood", -u.cost, f"upgrade {a.tile}", ev)
        st.upgrades[seat].append(a.tile)
        st.upg_left[a.tile] -= 1
        slot = len(st.upgrades[seat]) - 1
        if st.explorer:  # Legendary Expeditions: George Back picks the space
            slot = legends.upgrade_slot(st, seat, a.slot)
        ev.append(UpgradeBuilt(seat, a.tile, slot + 1))
        bonuses = st.upgrade_space_bonuses()
        if slot < len(bonuses):
            for what, v in sorted(bonuses[slot].items()):
                st._gain(seat, what, int(v), "upgrade space", ev)
        pp = st.tables.upgrade_pp.get(a.tile, 0)
        if pp:
            st._score(seat, pp, st.content.upgrades[a.tile].name, ev)
        if st.explorer:  # Legendary Expeditions: the ship card's rewards
            legends.ship_reward(st, seat, ev)
    elif kind == "recycle_wood":
        st._lower(seat, "fuel", sp.fuel, "recycle", ev, effect=False)
        st._gain(seat, "wood", total, "recycle", ev)
    elif kind == "magnetic_research":
        card = st.compass.pop(0)
        ev.append(CompassDrawn(card))
        if card == "pole":
            st.compass.insert(st._rand(len(st.compass) + 1), card)
        else:
            st.compass_disc.append(card)
    elif kind == "discover":
        assert a.card is not None
        if a.card in st.content.dual:
            # §6.3: 8 PP and the dual card goes back to the box
            st.hu_rev.remove(a.card)
            st.hu_box.append(a.card)
            ev.append(CardTaken(seat, a.card, "dual species"))
            st._score(seat, int(r["dual_discover_pp"]), "dual species discovered", ev)
        else:
            if st.explorer:  # Kellett may take the top card he looked at
                legends_explorers.take_card(st, seat, "species", a.card)
            else:
                st.sp_rev.remove(a.card)
            acquire_species(st, seat, a.card, ev)
    elif kind == "hunt":
        assert a.card is not None
        h = st.tables.hunting_all[a.card]
        if st.explorer:  # Kellett may take the top card he looked at
            legends_explorers.take_card(st, seat, "hunting", a.card)
        else:
            st.hu_rev.remove(a.card)
        st.hu_disc.append(a.card)
        ev.append(CardTaken(seat, a.card, "hunting"))
        st._gain(seat, "food", h.food, "hunt", ev)
        st._gain(seat, "health", h.health, "hunt", ev)
    elif kind == "experiment":
        ex = r["experiment"]
        st._gain(seat, "wood", -sp.wood, "experiment", ev)
        st._gain(seat, "fuel", int(ex["fuel"]), "experiment", ev)
        st._gain(seat, "dynamite", int(ex["dynamite"]), "experiment", ev)
    elif kind.startswith("exchange"):
        assert a.resource is not None
        ci = column_index(st, sp.column)
        st._gain(seat, a.resource, -1, "exchange", ev)
        st.boxes[4 * ci + RESOURCES.index(a.resource)] += 1
        st._gain(seat, st.content.warehouses[sp.column].gives, 1, "exchange", ev)
    elif kind.startswith("collect"):
        assert a.take is not None
        ci = column_index(st, sp.column)
        for ri, k in enumerate(a.take):
            if k:
                st.boxes[4 * ci + ri] -= k
                st._gain(seat, RESOURCES[ri], k, "collect", ev)
    elif kind == "ice_fishing":
        shelter = active_shelter(st, seat)
        times = 2 if shelter else 1
        m = st.round_mod("ice_fishing")
        if m is not None:
            times = int(m["with_shelter"]) if shelter else int(m["times"])
        st._gain(seat, "food", total * times, "ice fishing", ev)
    elif kind == "trace_map":
        st._score(seat, len(st.mapped) * int(r["trace_map_pp_per_token"]), "trace the map", ev)
    elif kind == "document_methods":
        st._score(
            seat, len(st.upgrades[seat]) * int(r["document_pp_per_upgrade"]), "document methods", ev
        )
    elif kind == "lab_research":
        st._score(seat, int(r["lab_research_pp"]), "laboratory research", ev)
    elif kind in walking_rules.TILE_KINDS:
        walking_rules.apply_tile(st, seat, kind, total, ev)
    elif kind.startswith("vow"):
        res = sp.resource or "dynamite"
        st._score(seat, st.p(seat, RES[res]) * int(r["vow_pp_per_resource"]), "vow of silence", ev)


def _search(st: State, seat: int, level: int, ev: list[Event]) -> None:
    """Lost Expedition: raise progress; the excess over the maximum reveals search cards."""
    scen = st.scen()
    mx = int(scen.get("progress", {}).get("max", 5))
    new = st.le_progress + level
    excess = max(0, new - mx)
    st.le_progress = min(new, mx)
    ev.append(ScenarioProgress("search progress", st.le_progress))
    results = {c["id"]: c["result"] for c in scen.get("search_cards", [])}
    for _ in range(excess):
        if not st.search or st.le_found:
            break
        card = st.search.pop(0)
        st.search_rev.append(card)
        if results.get(card) == "survivors":
            st.le_found = True
            st.pv[b_rescued(seat)] += int(scen.get("rescued_sailors", 4))
            ev.append(ScenarioProgress("the lost expedition is found", 1))


def b_rescued(seat: int) -> int:
    return F * seat + RESCUED
