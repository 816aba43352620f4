"""Event cards (§4.1 step 5, §4.6.5): the interpreter of their ``effect`` data.

A card's effect is a list of named primitives (:mod:`.effects`); this layer
runs them when the card is revealed (``reveal``) and when a seat takes an
action card (``take``).  No rule here names a card number: a new card is a new
entry in ``data/cards.json``.  What a card leaves behind lives in generic
fields: ``round_mods`` (round modifiers in force until the round ends),
``event_draw`` (a card the event drew for its taker) and the player table's
``POWER_HELD``/``POWER_DUE`` fields (powers of kept cards).
"""

from __future__ import annotations

from erebus.core.events import Event
from erebus.games.iceandsnow import legends
from erebus.games.iceandsnow.effects import POWERS, Op
from erebus.games.iceandsnow.events import CardsRevealed, EventRevealed
from erebus.games.iceandsnow.layout import FUEL, POWER_DUE, POWER_HELD, RES, F
from erebus.games.iceandsnow.resources import ResourceRules, acquire_species

assert len(POWERS) == POWER_DUE - POWER_HELD, "one player-table field per power"


class EventCardRules(ResourceRules):
    """Event-card resolution over the resource rules."""

    __slots__ = ()

    def _reveal_event(self, num: int, ev: list[Event]) -> None:
        card = self.content.events[num]
        ev.append(EventRevealed(num, card.name, card.kind))
        order = self.order_from(self.leader)
        shield = self._t.immune.get(num)
        if shield:  # Deck Upgrade (#13): its owner is not affected by this card
            order = [s for s in order if not shield.intersection(self.upgrades[s])]
        for op in card.effect.reveal:
            self._reveal_op(op, card.name, order, ev)
            if self.over:
                return

    def _reveal_op(self, op: Op, reason: str, order: list[int], ev: list[Event]) -> None:
        """One primitive of a revealed card, for every seat from the leader."""
        kind = op.op
        if kind == "each_gains":
            for s in order:
                for what, v in op["gains"].items():
                    self._gain(s, what, int(v), reason, ev)
        elif kind == "fleet_loses_fuel":
            self._fuel_loss_all(int(op["fuel"]), reason, ev, order)
        elif kind == "each_lowers":
            for s in order:
                self._lower(s, str(op["track"]), int(op["amount"]), reason, ev, effect=True)
                if self.over:
                    return
        elif kind == "each_discards":
            for s in order:
                for _ in range(int(op["count"])):
                    self._discard_choice(s, reason, ev)
        elif kind == "each_pays_or_fuel":
            res, amount, fuel = str(op["resource"]), int(op["amount"]), int(op["fuel"])
            missing = [0] * self.n
            for s in order:
                if self.p(s, RES[res]) > 0:
                    self._gain(s, res, -amount, reason, ev)
                else:
                    missing[s] = max(0, fuel - self.p(s, FUEL))
                    self._lower(s, "fuel", fuel, reason, ev, effect=False)
            if any(missing):
                self._towing(missing, ev)
        elif kind == "inuit_to_infirmary":
            for s in order:
                inuit = self.avail_crew(s)[4]
                if inuit:
                    self._to_infirmary(s, (0, 0, 0, 0, inuit), ev)
        elif kind == "to_infirmary":
            limits = op["if_at_most"].items()
            for s in order:
                if all(self.p(s, RES[r]) <= int(k) for r, k in limits):
                    self._infirmary(s, int(op["count"]), bool(op["allow_inuit"]), ev)
        elif kind == "feed_crew":
            per = int(op["food_per_crew"])
            for s in order:
                self._lower_food(s, per * self.crew_count(s), reason, ev)
                if self.over:
                    return
        elif kind == "compass_detour":
            if self.compass_options():
                self.decisions.append(["compass", (self.leader + 1) % self.n])
        elif kind == "round_modifier":
            name = str(op["modifier"])
            if name not in self.round_mods:
                self.round_mods = (*self.round_mods, name)
        elif kind == "draw_species":
            if self.sp_deck_draw() is not None:
                self.event_draw = self.sp_deck.pop(0)
                ev.append(CardsRevealed("species", (self.event_draw,)))
        elif legends.is_new_op(op):  # Legendary Expeditions' explorer events
            legends.reveal_op(self, op, reason, order, ev)
        else:  # pragma: no cover - the validator refuses unknown ops
            raise AssertionError(f"effect {kind!r} cannot be revealed")

    def event_takeable(self, seat: int | None = None) -> bool:
        """May a seat (``seat``, when its means matter) take this round's revealed
        event card now (an action card, not taken yet, with its drawn card if it
        needs one)?"""
        if self.event is None or self.event_taken:
            return False
        card = self.content.events[self.event]
        return card.kind == "action" and (self.event_draw is not None or not card.effect.needs_draw)

    def _take_event(self, seat: int, ev: list[Event]) -> None:
        """``seat`` takes the revealed action card: its ``take`` primitives."""
        num = self.event
        assert num is not None
        self.event_taken = True
        card = self.content.events[num]
        for op in card.effect.take:
            kind = op.op
            if legends.is_new_op(op):  # Legendary Expeditions' explorer events
                legends.take_op(self, seat, op, card.name, ev)
            elif kind == "taker_gains":
                for what, v in op["gains"].items():
                    self._gain(seat, what, int(v), card.name, ev)
            elif kind == "keep_card":
                self.pv[F * seat + POWER_DUE + POWERS.index(str(op["power"]))] = 1
            elif kind == "take_drawn":
                cid = self.event_draw
                assert cid is not None
                self.event_draw = None
                acquire_species(self, seat, cid, ev)
            else:  # pragma: no cover - the validator refuses unknown ops
                raise AssertionError(f"effect {kind!r} cannot be taken")

    def _grant_powers(self, seat: int, ev: list[Event]) -> None:
        """Boarding: a kept card taken this round joins the seat with its power
        and its Inuk (§4.6.5)."""
        b = F * seat
        for i, power in enumerate(POWERS):
            if self.pv[b + POWER_DUE + i]:
                self.pv[b + POWER_DUE + i] = 0
                self.pv[b + POWER_HELD + i] = 1
                num, op = self._t.powers[power]
                self._hire(seat, int(op["inuit"]), f"event {num}", ev, at_once=True)
        if self.module(legends.MODULE):
            legends.grant_powers(self, seat, ev)

    def _event_kept(self) -> bool:
        """Does this round's event card stay with its taker at Cleanup?"""
        return (
            self.event is not None
            and self.event_taken
            and self.content.events[self.event].effect.keeps
        )

    def sp_deck_draw(self) -> str | None:
        """The top species card, reshuffling the discards into an empty deck (R2)."""
        if not self.sp_deck and self.sp_disc:
            self.sp_deck, self.sp_disc = self.sp_disc, []
            self._shuffle(self.sp_deck)
        return self.sp_deck[0] if self.sp_deck else None

    def compass_options(self) -> list[str]:
        """The compass detour: anchors reachable along a route from the previous
        anchor, other than the destination, on sections already placed."""
        if self.prev_fleet is None:
            return []
        out = []
        for to, _ in self._t.routes_from(self.placed_key(), self.prev_fleet):
            if to != self.fleet and all(self._section_placed(i) for i in self._t.sections_of[to]):
                out.append(to)
        return out
