"""Hidden information: what a seat may see (``view``), a full position
consistent with a view (``from_view``, a determinization) and dealing the
unknown cards anew (``resample_hidden``) for search bots.
"""

from __future__ import annotations

from typing import Any, Self

from erebus.core.rng import Rng
from erebus.games.iceandsnow import legends, legends_explorers
from erebus.games.iceandsnow.content import Content, default_content
from erebus.games.iceandsnow.serialization import FORMAT, Serialization


class HiddenInfo(Serialization):
    """Views per seat and determinizations for search bots."""

    __slots__ = ()

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
        if self.curse:  # Inuit Myths: the creature deck's order is hidden
            out["cr_deck"] = sorted(self.cr_deck)
        if self.maint:  # Walking on Ice: the walking deck's order is hidden
            out["walk_deck"] = sorted(self.walk_deck)
        if self.explorer:  # Legendary Expeditions: other seats' dealt pairs, the box
            out["explorers"] = legends.unknown_explorers(self, seat)
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
        if "cr_deck" in d:
            d["cr_deck"] = len(self.cr_deck)
        if "walk_deck" in d:
            d["walk_deck"] = len(self.walk_deck)
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
        if "ex_dealt" in d:  # the explorers dealt to another seat, the boxed ones
            legends.hide(self, d, seat)
        if "ex_peek" in d:  # Kellett's look at a deck's top card: his alone
            d["ex_peek"] = legends_explorers.view_peeks(self, seat)
        d["seat"] = seat
        return d

    @classmethod
    def from_view(cls, view: Any, seed: int, content: Content | None = None) -> Self:
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
            if "cr_deck" in pools:
                d["cr_deck"] = list(pools["cr_deck"])
            if "walk_deck" in pools:
                d["walk_deck"] = list(pools["walk_deck"])
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
        if "cr_deck" in pools:
            self.cr_deck = list(pools["cr_deck"])
            self._shuffle(self.cr_deck)
        if "walk_deck" in pools:
            self.walk_deck = list(pools["walk_deck"])
            self._shuffle(self.walk_deck)
        for dd in self.decisions:
            if dd[0] == "mast" and dd[2] is None:  # another seat's look at the top two
                deck = self.ev_open if self.voyage == "open" else self.ev_coastal
                dd[2], dd[3] = str(deck[0]), str(deck[1])
        if self.explorer:  # dealt explorers; the events of the sets in play in their decks
            legends.deal_hidden(self, pools, seat)
        if self.explorer:  # Kellett's known top cards stay on top
            legends_explorers.deal_peeks(self, seat)
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
        if self.explorer:  # another seat's dealt explorers, the boxed ones
            legends.forget(self, seat)
        if self.explorer:  # another seat's look at a top card is unknown
            self.ex_peek = legends_explorers.view_peeks(self, seat)
        self._deal_hidden(pools, seat)
        self._legal = None
