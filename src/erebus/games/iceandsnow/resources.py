"""Changes of food, health, morale, fuel, resources, crew and PP (§3.4, §4.7).

Every change of a seat's numbers goes through these methods, so that each one
emits its event and applies the zones of its track: overflow above the maximum,
Death / Scurvy / Mutiny spaces, the food shortage steps, towing when fuel runs
out.  The decisions they raise (``discard``, ``infirmary``, ``eat``) are queued
in ``State.decisions``.
"""

from __future__ import annotations

import math
from functools import cache

from erebus.core.events import Event
from erebus.games.iceandsnow import legends_j, myths
from erebus.games.iceandsnow.actions import Crew, compositions
from erebus.games.iceandsnow.content import RESOURCES
from erebus.games.iceandsnow.events import (
    AttritionPenalty,
    CardTaken,
    CrewLost,
    CrewToInfirmary,
    FoodShortage,
    ResourceChanged,
    ScoreChanged,
    SpeciesDiscovered,
    SpeciesEaten,
    Towing,
    TrackChanged,
)
from erebus.games.iceandsnow.layout import (
    BADZONE,
    DOGS,
    FOOD,
    FUEL,
    HEALTH,
    HIRED,
    INF,
    INUIT,
    MORALE,
    PAWNS,
    PP,
    RES,
    SAILORS,
    SALOON,
    SLED,
    TOW,
    TREATMENT_ROOM,
    USED,
    F,
)
from erebus.games.iceandsnow.position import Position
from erebus.games.iceandsnow.towing import tow


class ResourceRules(Position):
    """Changes of a seat's numbers, each with its event and its track's zones."""

    __slots__ = ()

    def _gain(self, seat: int, what: str, v: int, reason: str, ev: list[Event]) -> None:
        """A gain of a resource, track or Inuk from a card (no space effects)."""
        if v == 0:
            return
        if what in RES:
            idx = RES[what]
            if what == "dogs":
                if v > 0 and self.explorer and legends_j.places_no_dogs(self, seat):  # type: ignore[arg-type]
                    return  # set J: Amundsen never places dogs
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
            if not myths.receive_pawns(self, seat, k, ev):  # type: ignore[arg-type]
                self.pv[b + PAWNS] += k
        else:
            self.pv[b + HIRED] += k

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
                self._penalty_applied(seat, "scurvy", ev)
                self._infirmary(seat, int(self.rules["scurvy_infirmary"]), True, ev)
        elif eff == "mutiny":
            if self.has_upgrade(seat, SALOON):
                ev.append(AttritionPenalty(seat, "mutiny (cancelled by the Saloon)"))
            else:
                ev.append(AttritionPenalty(seat, "mutiny"))
                self._penalty_applied(seat, "mutiny", ev)
                self._lower_food(seat, math.ceil(self.crew_count(seat) / 2), "mutiny", ev)
        if new == 0:
            self._set(seat, idx, 1, track, "reached 0", ev)
        if track == "health" and self.curse and self.curse[seat]:
            myths.curse_landed(self, seat, reason, ev, death_only=False)  # type: ignore[arg-type]

    def _penalty_applied(self, seat: int, kind: str, ev: list[Event]) -> None:
        """A Scurvy or Mutiny effect is applied to ``seat`` (not cancelled by an
        upgrade).  Nothing more in the base game; Walking on Ice raises guilt."""

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

    def _fuel_loss_all(
        self, v: int, reason: str, ev: list[Event], seats: list[int] | None = None
    ) -> None:
        """Every seat of ``seats`` (default: all, from the leader) loses ``v`` fuel; towing."""
        missing = [0] * self.n
        for s in self.order_from(self.leader) if seats is None else seats:
            missing[s] = max(0, v - self.p(s, FUEL))
            self._lower(s, "fuel", v, reason, ev, effect=False)
        if any(missing):
            self._towing(missing, ev)

    def _fuel_cost_solo(self, v: int, reason: str, ev: list[Event]) -> None:
        missing = max(0, v - self.p(0, FUEL))
        self._lower(0, "fuel", v, reason, ev, effect=False)
        if missing:
            self._towing([missing if s == 0 else 0 for s in range(self.n)], ev)


def infirmary_options(avail: Crew, count: int, allow_inuit: bool) -> list[Crew]:
    """Every crew composition of ``min(count, available)`` pawns (Inuit only if allowed)."""
    return list(infirmary_tuple(avail, count, allow_inuit))


@cache
def infirmary_tuple(avail: Crew, count: int, allow_inuit: bool) -> tuple[Crew, ...]:
    """:func:`infirmary_options` as a tuple, cached: the flow asks it again at every
    step while an infirmary decision waits (is anything left to choose?)."""
    a: Crew = avail if allow_inuit else (avail[0], avail[1], avail[2], avail[3], 0)
    k = min(count, sum(a))
    if k <= 0:
        return ()
    return tuple([c for c in compositions(a) if sum(c) == k])


def acquire_species(st: ResourceRules, seat: int, cid: str, ev: list[Event]) -> None:
    """A species card joins the seat's collection; the first of a species scores (§3.11)."""
    card = st.content.species[cid]
    st.species[seat].append(cid)
    ev.append(CardTaken(seat, cid, "species"))
    if card.species not in st.gained[seat]:
        st.gained[seat].append(card.species)
    if card.species not in st.discovered:
        st.discovered.append(card.species)
        ev.append(SpeciesDiscovered(seat, card.species))
        st._score(seat, int(st.rules["discover_pp"]), f"first {card.name}", ev)
