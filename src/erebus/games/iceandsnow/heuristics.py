"""A position estimate for Through Ice and Snow bots, in prestige points.

``heuristic(state, seat)`` = PP now + final scoring as if the game ended now
(majorities, species on board, health/morale, investor, cartography) + a small
value for what can still become points (resources, sled, dogs, food) − the
seat's own dangers (towing, hunger, penalty zones) − the **expedition's**
danger of everyone losing.

Why the shared term matters: in this game the whole table loses when the
expedition runs out of icebreaking dynamite or of fuel (§5.4).  A bot that
only counts its own points lets the expedition starve — random and naive
greedy play lose nearly every game that way.  So every seat's value carries
``LOST_PENALTY × risk``, where ``risk`` grows with the dynamite and fuel the
table still lacks for the shortest way home (arrivals to a blue anchor on the
map's route graph, both sides of every section considered, plus the final
voyage).  It reads only public data and the seat's own cards.  The weights are
ours, set by a few hundred self-play games (see docs/balance.md).
"""

from __future__ import annotations

import heapq
import math

from erebus.games.iceandsnow import planner, scoring
from erebus.games.iceandsnow.action_phase import available_sled_level
from erebus.games.iceandsnow.content import Content
from erebus.games.iceandsnow.layout import (
    DOGS,
    DYN,
    FOOD,
    FUEL,
    HEALTH,
    MORALE,
    PP,
    RIFLES,
    SLED,
    WOOD,
    F,
)
from erebus.games.iceandsnow.state import State

#: MCTS turns heuristic differences into rewards with tanh(Δ / REWARD_SCALE);
#: one action here is worth several points (a cabin 5–10, an Explore 5–15), so the
#: scale looks as if it should not saturate below them, but 15 lost to 6 against
#: greedy (2 players, 100 iterations: 62.3 % over 150 games against 68.8 % at 6;
#: docs/iceandsnow-balance.md, 2026-12-02 b): a saturating tanh keeps the search near
#: the screen's best actions, which is what wins here.
REWARD_SCALE = 6.0

LOST_PENALTY = 60.0  # everyone lost: no points are worth much
DYNAMITE_RISK = 0.2  # risk per dynamite the table lacks
FUEL_RISK = 0.12  # risk per fuel the table lacks
DYNAMITE_GAIN = (
    0.35  # dynamite a seat can still be expected to gain per round (Experiment, Exchange)
)
FUEL_PER_VOYAGE = 1.4  # an open-sea voyage costs 1; fuel events and Recycle take more
FUEL_GAIN = 0.0  # fuel likewise (Visit the Inuit, Experiment, events)
TOWING_DANGER = 3.0  # points per voyage the seat cannot pay in fuel itself
FOOD_DANGER = 1.2  # points per food missing for the feedings within the horizon
HORIZON = 3  # rounds of attrition and feeding looked ahead
DEATH_COST = 7.0  # −5 PP and a sailor
ZONE_COST = {"scurvy": 1.5, "mutiny": 2.0}  # per round spent in the zone
VALUE = {DYN: 1.2, WOOD: 0.8, DOGS: 0.8}  # points per resource held
RIFLE_VALUE = (2.5, 2.5, 1.5, 1.0)  # the 1st, 2nd, … rifle: hunting needs one per prey
RIFLE_SPARE = 0.2
SLED_VALUE = 1.5
FOOD_VALUE = 0.08
SOLO_WIN = 100.0
SOLO_DEATH_PP = 5  # a Death costs 5 PP (rules.json "death_pp"); solo loses at 0
SOLO_OBJECTIVE = 20.0
SOLO_LOSS = -600.0  # a lost solo game, below any heuristic value of a live one
SOLO_LOSS_ROUND = 5.0  # ... plus this per round survived
SOLO_MARGIN_FLOOR = -100.0  # keeps a gradient in bad positions (a flat value plays at random)
SOLO_EMPTY = 100.0  # solo: no dynamite (or fuel) left for the next step
SOLO_DYNAMITE_GAIN = 0.15  # solo: dynamite a lone seat can expect to gain per round
SOLO_COASTAL_FUEL = 2.0  # a coastal voyage lowers fuel by 2
SOLO_FUEL_RISK = 0.25  # solo: risk per fuel the way home lacks
LE_PROGRESS = 3.0  # Lost Expedition: per point of search progress
LE_REVEALED = 4.0  # ... per search card revealed (the survivors are on one of 5)
LE_SLED = 2.0  # ... per available sled level (the progress of one Explore)
LE_PRIORITY = 4.0  # ... for sailing to (or being in) a priority region
AV_READY = 3.0  # Amundsen: a wood kept for the Gjøa Haven cabin
AV_FOOD = 0.25  # ... per food up to twice the crew (the cabin lowers the crew count)
SOLO_MARGIN = 2.0  # solo: points per projected PP at the passage (planner.outlook)
SOLO_MARGIN_CAP = 20.0  # ... up to a comfortable margin: more is no safer
SOLO_RISK_MID = 2.5  # projected PP at which losing is a coin flip
SOLO_RISK_WIDTH = 1.5

_TO_BLUE: dict[tuple[int, bool], tuple[Content, dict[str, int]]] = {}


def arrivals_to_blue(content: Content) -> dict[str, int]:
    """Fewest arrivals from each anchor to a blue anchor over every section side
    (0 on a blue anchor); cached per content."""
    return _to_blue(content, with_dynamite=False)


def dynamite_to_blue(content: Content) -> dict[str, int]:
    """Least icebreaking dynamite from each anchor to a blue anchor (1 per arrival plus
    each route's extra), over every section side; cached per content.  The route a
    leader picks must be one the remaining dynamite can pay for."""
    return _to_blue(content, with_dynamite=True)


def _to_blue(content: Content, with_dynamite: bool) -> dict[str, int]:
    """Shortest distances to the blue anchors along the routes, backwards (Dijkstra):
    each arrival costs 1, plus the route's extra dynamite ``with_dynamite``."""
    key = (id(content), with_dynamite)
    hit = _TO_BLUE.get(key)
    if hit is not None and hit[0] is content:
        return hit[1]
    back: dict[str, list[tuple[str, int]]] = {}
    blue: set[str] = set()
    for sec in content.sections:
        for side in sec.sides.values():
            for a in side.anchors:
                if a.blue:
                    blue.add(a.id)
            for r in side.routes:
                cost = 1 + (r.dynamite if with_dynamite else 0)
                back.setdefault(r.dst, []).append((r.src, cost))
    dist = dict.fromkeys(blue, 0)
    todo = [(0, b) for b in sorted(blue)]
    heapq.heapify(todo)
    while todo:
        d, here = heapq.heappop(todo)
        if d > dist.get(here, d):
            continue
        for there, cost in back.get(here, ()):
            if d + cost < dist.get(there, 1 << 30):
                dist[there] = d + cost
                heapq.heappush(todo, (d + cost, there))
    _TO_BLUE[key] = (content, dist)
    return dist


def dynamite_left(state: State) -> int:
    """Icebreaking dynamite still to pay on the cheapest way home (final voyage included)."""
    if state.final_voyage:
        return 0
    if state.final_round:
        return 1
    dest = _heading(state)
    if dest is None:
        return dynamite_to_blue(state.content).get(state.fleet, 0) + 1
    due = 1 + state.dest_dyn if _before(state, "attrition") else 0
    return due + dynamite_to_blue(state.content).get(dest, 0) + 1


def voyages_left(state: State) -> int:
    """Voyage phases still to come on the shortest way home (final voyage included).

    Once the leader has chosen a destination the fleet token has not moved yet: the
    way home is counted from the destination (else a bot would pay a route's extra
    dynamite and still see the old distance), plus this voyage while its attrition
    is still to come."""
    if state.final_voyage:
        return 0
    if state.final_round:
        return 1
    dest = _heading(state)
    if dest is None:
        return arrivals_to_blue(state.content).get(state.fleet, 0) + 1
    now = 1 if _before(state, "vtype") else 0
    return now + arrivals_to_blue(state.content).get(dest, 0) + 1


#: The Voyage phase's automatic steps in order (flow.py), for :func:`_before`.
_STEPS = ("dest", "ice", "attrition", "vtype")


def _heading(state: State) -> str | None:
    """The destination chosen this Voyage phase that the fleet has not reached yet."""
    dest: str | None = state.dest
    if dest is None or dest == state.fleet or state.phase == "action":
        return None
    return dest


def _before(state: State, step: str) -> bool:
    """True while the Voyage phase has not reached ``step``: a map section still to
    place, or the automatic flow at an earlier step (the voyage-type choice comes
    after icebreaking and attrition)."""
    if state.phase in ("destination", "section"):
        return True
    if state.phase != "flow":
        return False
    return state.step in _STEPS[: _STEPS.index(step)]


def expedition_risk(state: State) -> float:
    """How close the table is to losing together for lack of dynamite or fuel (0 = safe)."""
    n = state.n
    pv = state.pv
    left = voyages_left(state)
    dynamite = sum(pv[F * s + DYN] for s in range(n))
    fuel = sum(pv[F * s + FUEL] for s in range(n))
    ahead = max(0, left - 1)  # rounds in which the table can still gain what it lacks
    # Solo: the route's extra dynamite counts too (a lone ship has nobody to share with).
    pay = dynamite_left(state) if state.scenario is not None else left
    # +1: a leader must still hold one after the last icebreaking.
    gain = SOLO_DYNAMITE_GAIN if state.scenario is not None else DYNAMITE_GAIN
    lack_dyn = max(0.0, pay + 1 - dynamite - gain * n * ahead)
    if state.scenario is not None:
        # A lone ship pays every voyage itself: 1 fuel at open sea, 2 on the coast
        # (Amundsen's Gjøa may not sail the open sea, §9.5), and nobody tows it.
        per = SOLO_COASTAL_FUEL if state.scenario == "amundsens-voyage" else FUEL_PER_VOYAGE
        lack_fuel = max(0.0, per * left - fuel)
        return DYNAMITE_RISK * lack_dyn + SOLO_FUEL_RISK * lack_fuel
    lack_fuel = max(0.0, FUEL_PER_VOYAGE * n * left - fuel - FUEL_GAIN * n * ahead)
    # Not capped at 1: a capped risk stops telling a bot which move helps.
    return DYNAMITE_RISK * lack_dyn + FUEL_RISK * lack_fuel


def heuristic(state: State, seat: int) -> float:
    if state.is_over:
        return terminal_value(state, seat)
    b = F * seat
    pv = state.pv
    value = float(pv[b + PP])
    if state.scenario is not None:
        value -= SOLO_OBJECTIVE * len(state.objectives_missing())
        value += state.scenario_value(seat) + objective_progress(state, seat)
    else:
        for s, delta, _ in scoring.final_scores(state):
            if s == seat:
                value += delta
    for field, worth in VALUE.items():
        value += worth * pv[b + field]
    rifles = pv[b + RIFLES]
    value += sum(RIFLE_VALUE[:rifles]) + RIFLE_SPARE * max(0, rifles - len(RIFLE_VALUE))
    value += SLED_VALUE * pv[b + SLED]
    left = voyages_left(state)
    if state.scenario is not None:
        value += solo_survival(state, seat, left)
    else:
        value += _attrition_outlook(state, seat, left)
    value -= LOST_PENALTY * expedition_risk(state)
    return value


def _attrition_outlook(state: State, seat: int, left: int) -> float:
    """Food, fuel, health and morale over the next :data:`HORIZON` rounds (multiplayer)."""
    b = F * seat
    pv = state.pv
    value = 0.0
    horizon = min(left, HORIZON)
    need = state.fed_count(seat) * horizon
    value += FOOD_VALUE * max(0, pv[b + FOOD] - need)
    value -= FOOD_DANGER * max(0, need - pv[b + FOOD])
    value -= TOWING_DANGER * max(0, left - pv[b + FUEL])
    for track, level in (
        (state.content.health, pv[b + HEALTH]),
        (state.content.morale, pv[b + MORALE]),
    ):
        cost, _ = attrition_cost(track.effects, level, horizon)
        value -= cost
    return value


def objective_progress(state: State, seat: int) -> float:
    """Solo: a gradient towards objectives that take several rounds (the flat
    :data:`SOLO_OBJECTIVE` only pays once one is met).

    Lost Expedition (§7.1): search progress and revealed search cards, and the
    available sled level each Explore in a priority region adds; Amundsen's Voyage
    (§9.5): wood and food in hand for the Gjøa Haven cabin, whose round nobody knows."""
    pv = state.pv
    b = F * seat
    if state.scenario == "lost-expedition" and not state.le_found:
        # a destination in a priority region: an Explore there will search
        at = _heading(state) or state.fleet
        here = LE_PRIORITY if state.region_of(at) in state.priority else 0.0
        return (
            LE_PROGRESS * state.le_progress
            + LE_REVEALED * len(state.search_rev)
            + LE_SLED * available_sled_level(state, seat)
            + here
        )
    if state.scenario == "amundsens-voyage" and not state.am_founded:
        ready = AV_READY if pv[b + WOOD] >= 1 else 0.0
        food = min(pv[b + FOOD], 2 * state.crew_count(seat))
        return ready + AV_FOOD * food
    return 0.0


def solo_survival(state: State, seat: int, left: int) -> float:
    """Solo: the projected prestige at the passage (:mod:`.planner`) and the risk that
    it reaches 0 first — the way nearly every solo game is lost."""
    b = F * seat
    pv = state.pv
    o = planner.outlook(state, seat, left)
    value = SOLO_MARGIN * (min(max(o.margin(), SOLO_MARGIN_FLOOR), SOLO_MARGIN_CAP) - pv[b + PP])
    risk = 1.0 / (1.0 + math.exp((o.pp - SOLO_RISK_MID) / SOLO_RISK_WIDTH))
    value -= LOST_PENALTY * risk
    value -= TOWING_DANGER * max(0, left - pv[b + FUEL])
    for track, level in (
        (state.content.health, pv[b + HEALTH]),
        (state.content.morale, pv[b + MORALE]),
    ):
        value -= ZONE_COST.get(track.effects.get(level, ""), 0.0)
    # A lone ship has nobody to lend dynamite or fuel: none left at the next
    # Boarding (no leader) or the next Voyage phase (no icebreaking, no fuel) loses.
    if pv[b + DYN] < 1 and not state.final_voyage:
        value -= SOLO_EMPTY
    if pv[b + FUEL] < 1 and left > 0:
        value -= SOLO_EMPTY / 2
    return value


def attrition_cost(effects: dict[int, str], level: int, rounds: int) -> tuple[float, int]:
    """Expected cost of ``rounds`` more attritions (−1 each) from ``level`` with
    nothing gained back, and the deaths among them: a death each round the
    track would reach 0, the zone's cost each round spent in it."""
    cost = 0.0
    deaths = 0
    for k in range(1, rounds + 1):
        at = level - k
        if at <= 0:
            cost += DEATH_COST
            deaths += 1
        else:
            cost += ZONE_COST.get(effects.get(at, ""), 0.0)
    return cost, deaths


def terminal_value(state: State, seat: int) -> float:
    """The value of a finished game: its score, minus the penalty when everyone lost
    (solo: a win is worth ``SOLO_WIN``)."""
    if state.scenario is not None:
        # A lost solo game must rate below every position still in play (whose
        # heuristic counts missing objectives and the risk of losing), or a search
        # would lose at once to escape a bad outlook; a later loss is a little better.
        return SOLO_WIN if state.won else SOLO_LOSS + SOLO_LOSS_ROUND * state.round
    base = float(state.scores()[seat])
    return base - LOST_PENALTY if state.lost else base
