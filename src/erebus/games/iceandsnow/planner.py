"""A round-by-round outlook for solo play: will the crew survive to the passage?

The solo scenarios (§7, §9.4, §9.5) are lost the moment prestige reaches 0, and with
Survival the crew lose 1 health and 1 morale every Voyage phase while no PP can be
gained: two Deaths (−5 PP each, start 10 PP) end the game.  Bot trials showed that
this attrition, not the objectives, kills nearly every game (docs/iceandsnow-balance.md,
2026-12-02).  A one-ply heuristic that looks three rounds ahead "with nothing gained
back" cannot tell hiring an Inuk or taking a rifle (more health every later round)
from Ice Fishing now, so it never builds the hunting party that keeps health up.

:func:`outlook` projects the seat's health, morale and food over the Voyage phases
still to come (the shortest way home, :func:`heuristics.voyages_left`), with the
*expected* gain of each Action phase from its capacity:

* health and food from hunting: the mean over pairs of hunting cards of the deck of
  what the best hunts the seat could take would give (prey ≤ rifles, a scientist or
  an Inuk per hunt, two Hunt spaces), tabulated once per content;
* morale from Explore (+2) when the seat has a dog;
* food from Ice Fishing with the crew other actions leave (1 each).

Deaths are counted fractionally (the deficit below 1 after each attrition), so the
estimate moves smoothly with every point of health, and the projected PP (now −5 per
Death, − the food shortfall's price) is what :func:`heuristics.heuristic` turns into
the risk of losing.  Everything here reads public data and the seat's own board.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from erebus.games.iceandsnow.content import Content
from erebus.games.iceandsnow.layout import (
    DOGS,
    FOOD,
    HEALTH,
    HIRED,
    MORALE,
    PAWNS,
    PP,
    RIFLES,
    F,
)
from erebus.games.iceandsnow.state import State

DEATH_PP = 5  # rules.json "death_pp"
HUNT_SPACES = 2  # Hunt ×2 with 1–3 players (§4.6)
EXPLORE_MORALE = 2.0
EXPLORE_SHARE = 0.5  # how often the captain is free for Explore in a round
BUSY_CREW = 5  # crew a typical round spends on other actions than Ice Fishing
HUNT_SHARE = 0.4  # the scientist and Inuit have other work: not every round hunts
HUNGER_PP = 2.5  # PP per food missing at Feeding (dogs −2 PP, sailors −5 PP per 2 food)

BUFFER_HEALTH = 1.5  # PP-equivalent of a point of health left at the end
BUFFER_MORALE = 0.7
BUFFER_FOOD = 0.15

_HUNT: dict[tuple[int, int, int, int], tuple[float, float]] = {}


@dataclass(frozen=True)
class Outlook:
    """What the remaining rounds are expected to cost (fractional counts)."""

    deaths: float  # Deaths on health and morale together
    hunger: float  # food missing at the Feedings
    pp: float  # prestige at the end if nothing else happens
    health: float  # health when the passage is done
    morale: float
    food: float

    def margin(self) -> float:
        """Projected PP plus what is left for bad luck (health, morale, food at the end)."""
        return (
            self.pp
            + BUFFER_HEALTH * (self.health - 1.0)
            + BUFFER_MORALE * (self.morale - 1.0)
            + BUFFER_FOOD * self.food
        )


def hunt_gain(content: Content, rifles: int, hunters: int, crew: int) -> tuple[float, float]:
    """Expected (health, food) of one Action phase's hunting: two cards revealed from
    the deck, the seat takes the best ``min(hunters, 2)`` it can (prey ≤ ``rifles``,
    prey crew each, ``crew`` in all).  Cached per content and capacity."""
    rifles = min(rifles, 6)
    hunters = min(hunters, HUNT_SPACES)
    crew = min(crew, 10)
    key = (id(content), rifles, hunters, crew)
    hit = _HUNT.get(key)
    if hit is not None:
        return hit
    cards = [(h.prey, h.health, h.food) for h in content.hunting.values()]
    total_h = total_f = 0.0
    pairs = 0
    for a, b in combinations(cards, 2):
        pairs += 1
        best = (0.0, 0.0)
        options: list[tuple[tuple[int, int, int], ...]] = [(a,), (b,)]
        if hunters >= 2:
            options.append((a, b))
        for pick in options:
            if any(p > rifles for p, _, _ in pick) or sum(p for p, _, _ in pick) > crew:
                continue
            h = float(sum(x for _, x, _ in pick))
            f = float(sum(x for _, _, x in pick))
            if (h, f) > best:
                best = (h, f)
        total_h += best[0]
        total_f += best[1]
    out = (total_h / pairs, total_f / pairs) if pairs else (0.0, 0.0)
    _HUNT[key] = out
    return out


def outlook(state: State, seat: int, voyages: int) -> Outlook:
    """Project the seat's tracks over ``voyages`` more Voyage phases (each −1 health,
    −1 morale, then an Action phase except after the last) and a Feeding per round."""
    b = F * seat
    pv = state.pv
    content = state.content
    hmax = content.health.max
    mmax = content.morale.max
    hunters = 1 + pv[b + PAWNS] + pv[b + HIRED]  # the scientist and every Inuk
    crew = state.crew_count(seat) + pv[b + HIRED]
    g_health, g_food = hunt_gain(content, pv[b + RIFLES], hunters, crew)
    g_health *= HUNT_SHARE
    # Every crew member not busy elsewhere fishes its own food (+1 each), so a
    # mouth more is no loss by itself; a hunter more is a gain.
    g_food = g_food * HUNT_SHARE + max(0, crew - BUSY_CREW)
    g_morale = EXPLORE_MORALE * EXPLORE_SHARE if pv[b + DOGS] > 0 else 0.0
    mouths = state.fed_count(seat) + pv[b + HIRED]
    health = float(pv[b + HEALTH])
    morale = float(pv[b + MORALE])
    food = float(pv[b + FOOD])
    deaths = hunger = 0.0
    # The Feeding of the current round, when its Boarding is still to come.
    if state.phase == "action":
        food -= mouths
        if food < 0:
            hunger -= food
            food = 0.0
    for k in range(voyages):
        health -= 1.0
        morale -= 1.0
        if health < 1.0:
            deaths += 1.0 - health
            health = 1.0
        if morale < 1.0:
            deaths += 1.0 - morale
            morale = 1.0
        if k == voyages - 1:
            break  # the final voyage: no Action phase, no Feeding
        health = min(float(hmax), health + g_health)
        morale = min(float(mmax), morale + g_morale)
        food += g_food - mouths
        if food < 0:
            hunger -= food
            food = 0.0
    pp = pv[b + PP] - DEATH_PP * deaths - HUNGER_PP * hunger
    return Outlook(deaths, hunger, pp, health, morale, food)
