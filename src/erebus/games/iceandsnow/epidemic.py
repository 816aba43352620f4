"""Mysterious Epidemic (Myths & Legends solo scenario, reference §9.4, seed l. 1345–1431).

A game with ``"scenario": "mysterious-epidemic"`` is an :class:`EpidemicState`.
The scenario's data (settlement, disease and treatment cards, decks, start
resources) is ``scenarios.json["mysterious-epidemic"]``; this class adds:

* **set-up** — the settlement card drawn at random, the disease and treatment
  decks shuffled (``ep_dis_deck``/``ep_tr_deck``, top first, hidden), and the
  ``choose_upgrade`` decision: one tile of the player's choice on the leftmost
  upgrade space, without paying wood (E3);
* **the Inuit settlements** — each new map section (East at set-up, E2) gets an
  Inuk pawn from the supply on each of its anchor points the card names
  (``ep_inuit``);
* **the end of the Voyage phase** (:meth:`_voyage_end`, before the Action phase):
  on a mapped anchor point with an Inuk the Inuk joins the crew (Inuit track
  +1) and the top treatment card is revealed; elsewhere the top disease card is
  revealed and its officer — or 2 crew of the player's choice (``fall_ill``)
  when that officer already is ill — go onto it (``ep_ill``: one
  ``[card, captain, carpenter, scientist, sailors]`` per card beside the board);
* **ill crew** are out of play (:meth:`avail_crew`) but still fed (E5);
* **treatments** — on each Action-phase turn, as a free action (``treat``, like
  Walking on Ice's ``open_can``), a treatment card beside the board whose
  requirement is met heals 1 or 2 ill crew (E1, E4);
* **the end of each Boarding phase** — without a healthy non-Inuk crew member the
  game is lost.

The PP rules (none gained, 0 or less loses) are the solo scenarios' own
(``resources._score``).  Decisions E1–E8 of docs/iceandsnow-decisions.md.
"""

from __future__ import annotations

from typing import Any

from erebus.core.events import Event
from erebus.games.iceandsnow import myths
from erebus.games.iceandsnow.actions import Action, Crew, compositions
from erebus.games.iceandsnow.events import (
    CrewIll,
    CrewLost,
    DiseaseRevealed,
    InuitSettled,
    ScenarioProgress,
    TreatmentRevealed,
    UpgradeBuilt,
)
from erebus.games.iceandsnow.layout import INF, INUIT, PAWNS, SAILORS, USED, F
from erebus.games.iceandsnow.state import State

SCENARIO = "mysterious-epidemic"
_OFFICER = {"captain": 0, "carpenter": 1, "scientist": 2}


def requirement_met(st: State, req: dict[str, Any], seat: int = 0) -> bool:
    """Is a treatment requirement met now?  Explore and Build a Cabin count the best
    such action of this round's Action phase (``mnp_explore``/``mnp_cabin``, E1)."""
    if "explore" in req:
        return st.mnp_explore >= int(req["explore"])
    if "cabin_food" in req:
        return st.mnp_cabin >= int(req["cabin_food"])
    return species_to_discard(st, req, seat) is not None


def species_to_discard(st: State, req: dict[str, Any], seat: int = 0) -> list[str] | None:
    """The species cards a ``species`` requirement discards: for each species shown,
    the held card of it with the least food (then health, then id; E4); ``None``
    when one is missing."""
    want = req.get("species")
    if not want:
        return None
    hand = list(st.species[seat])
    out: list[str] = []
    for sp in want:
        cards = sorted(
            (c for c in hand if st.content.species[c].species == sp),
            key=lambda c: (st.content.species[c].food, st.content.species[c].health, c),
        )
        if not cards:
            return None
        out.append(cards[0])
        hand.remove(cards[0])
    return out


class EpidemicState(State):
    """A game of the Mysterious Epidemic scenario (see the module docstring)."""

    __slots__ = ()

    # -- data ---------------------------------------------------------------------

    def _diseases(self) -> dict[str, dict[str, Any]]:
        return {d["id"]: d for d in self.scen()["diseases"]}

    def _treatments(self) -> dict[str, dict[str, Any]]:
        return {t["id"]: t for t in self.scen()["treatments"]}

    def _settlement_anchors(self, section: int, side: str) -> list[str]:
        card = next(c for c in self.scen()["settlements"] if c["id"] == self.ep_settlement)
        sid = self.content.sections[section].id
        return [str(a) for a in card["anchors"].get(sid, {}).get(side, [])]

    # -- set-up -------------------------------------------------------------------

    def _setup(self, ev: list[Event]) -> None:
        scen = self.scen()
        self.ep_inuit = []
        self.ep_ill = []
        self.ep_dis_disc = []
        self.ep_tr_disc = []
        self.ep_treat = []
        super()._setup(ev)
        cards = [c["id"] for c in scen["settlements"]]
        self.ep_settlement = cards[self._rand(len(cards))]
        ev.append(ScenarioProgress(f"Inuit settlement card {self.ep_settlement}", 1))
        self.ep_dis_deck = sorted(self._diseases())
        self._shuffle(self.ep_dis_deck)
        self.ep_tr_deck = sorted(self._treatments())
        self._shuffle(self.ep_tr_deck)
        if self.options.get("epidemic_east", "settled") == "settled":  # EP2
            self._settle(0, str(self.placed[0][1]), ev)
        if self.upgrade_choices():
            self.decisions.append(["choose_upgrade", 0])

    def upgrade_choices(self) -> list[int]:
        """The tiles the set-up may put on the leftmost space: every tile in play."""
        return [
            num
            for num in sorted(self.content.upgrades)
            if self.upgrade_in_game(num) and self.upg_left[num] > 0
        ]

    def _settle(self, section: int, side: str, ev: list[Event]) -> None:
        """Inuk pawns from the supply on the section's settlement anchor points."""
        placed: list[str] = []
        for a in self._settlement_anchors(section, side):
            if self.inuit_pool <= 0:
                break
            if a in self.ep_inuit or a not in self.tables.anchors:
                continue
            self.inuit_pool -= 1
            self.ep_inuit.append(a)
            placed.append(a)
        if placed:
            ev.append(InuitSettled(tuple(placed)))

    # -- ill crew -----------------------------------------------------------------

    def ill_crew(self, seat: int = 0) -> Crew:
        """The crew on disease cards, by kind (Inuit never fall ill)."""
        c = [0, 0, 0, 0]
        for card in self.ep_ill:
            for i in range(4):
                c[i] += int(card[1 + i])
        return (c[0], c[1], c[2], c[3], 0)

    def avail_crew(self, seat: int) -> Crew:
        a = super().avail_crew(seat)
        if not self.ep_ill:
            return a
        ill = self.ill_crew(seat)
        return (a[0] - ill[0], a[1] - ill[1], a[2] - ill[2], a[3] - ill[3], a[4])

    def healthy_non_inuit(self, seat: int = 0) -> int:
        """Crew other than Inuit neither in the infirmary nor on a disease card."""
        a = self.avail_crew(seat)
        b = F * seat
        placed = sum(self.pv[b + USED + i] for i in range(4))
        return sum(a[:4]) + placed

    def _fall_ill_options(self, seat: int) -> list[Crew]:
        """Every choice of min(2, healthy) non-Inuk crew (infirmary included, E6)."""
        ill = self.ill_crew(seat)
        b = F * seat
        elig: Crew = (
            1 - ill[0],
            1 - ill[1],
            1 - ill[2],
            self.pv[b + SAILORS] - ill[3],
            0,
        )
        k = min(2, sum(elig))
        return [c for c in compositions(elig) if sum(c) == k] if k > 0 else []

    def _sicken(self, seat: int, crew: Crew, card: str, ev: list[Event]) -> None:
        """``crew`` go onto disease card ``card`` (out of the infirmary if there)."""
        b = F * seat
        pv = self.pv
        for i in range(3):
            if crew[i] and pv[b + INF + i]:
                pv[b + INF + i] = 0
        if crew[3]:
            ill = self.ill_crew(seat)[3]
            free = pv[b + SAILORS] - pv[b + USED + 3] - pv[b + INF + 3] - ill
            from_inf = max(0, crew[3] - max(0, free))
            pv[b + INF + 3] -= min(from_inf, pv[b + INF + 3])
        entry = next((e for e in self.ep_ill if e[0] == card), None)
        if entry is None:
            entry = [card, 0, 0, 0, 0]
            self.ep_ill.append(entry)
        for i in range(4):
            entry[1 + i] += crew[i]
        ev.append(CrewIll(seat, crew, card, True))
        if not any(entry[1:]):
            self.ep_ill.remove(entry)
            self.ep_dis_disc.append(card)

    def _heal(self, seat: int, crew: Crew, card: str, ev: list[Event]) -> None:
        """``crew`` leave the disease cards (oldest card first); empty cards are discarded."""
        left = list(crew[:4])
        for entry in self.ep_ill:
            for i in range(4):
                k = min(left[i], int(entry[1 + i]))
                entry[1 + i] -= k
                left[i] -= k
        ev.append(CrewIll(seat, crew, card, False))
        for entry in [e for e in self.ep_ill if not any(e[1:])]:
            self.ep_ill.remove(entry)
            self.ep_dis_disc.append(str(entry[0]))

    def _lose_sailor(self, seat: int, reason: str, ev: list[Event]) -> bool:
        """A healthy free sailor first, then an ill one, then the base order (E7)."""
        b = F * seat
        pv = self.pv
        ill = self.ill_crew(seat)[3]
        healthy_free = pv[b + SAILORS] - pv[b + USED + 3] - pv[b + INF + 3] - ill
        if pv[b + SAILORS] <= 0 or healthy_free > 0 or ill <= 0:
            return super()._lose_sailor(seat, reason, ev)
        pv[b + SAILORS] -= 1
        for entry in reversed(self.ep_ill):
            if entry[4]:
                entry[4] -= 1
                if not any(entry[1:]):
                    self.ep_ill.remove(entry)
                    self.ep_dis_disc.append(str(entry[0]))
                break
        ev.append(CrewLost(seat, "sailor", reason))
        return True

    # -- the decks ----------------------------------------------------------------

    def _draw(self, deck: str, disc: str) -> str | None:
        """The top card; an empty deck reshuffles its discard pile first."""
        cards: list[str] = getattr(self, deck)
        if not cards:
            pile: list[str] = getattr(self, disc)
            cards = pile[:]
            setattr(self, disc, [])
            self._shuffle(cards)
            setattr(self, deck, cards)
        return cards.pop(0) if cards else None

    # -- the flow -----------------------------------------------------------------

    def _step_action(self, ev: list[Event]) -> None:
        self._voyage_end(ev)
        if self.over:
            return
        super()._step_action(ev)

    def _voyage_end(self, ev: list[Event]) -> None:
        """The end of the Voyage phase: consult the Inuit, or fall ill (§9.4)."""
        seat = 0
        if self.fleet in self.ep_inuit and self.region_of(self.fleet) in self.mapped:
            self.ep_inuit.remove(self.fleet)
            b = F * seat
            self._set(seat, INUIT, self.pv[b + INUIT] + 1, "inuit", "Inuit consulted", ev)
            if not myths.receive_pawns(self, seat, 1, ev):
                self.pv[b + PAWNS] += 1
            ev.append(ScenarioProgress("an Inuk joins the crew", 1))
            card = self._draw("ep_tr_deck", "ep_tr_disc")
            if card is not None:
                self.ep_treat.append(card)
                ev.append(TreatmentRevealed(card))
            return
        card = self._draw("ep_dis_deck", "ep_dis_disc")
        if card is None:  # every disease card is beside the board (E8)
            return
        officer = str(self._diseases()[card]["officer"])
        ev.append(DiseaseRevealed(card, officer))
        i = _OFFICER[officer]
        if not self.ill_crew(seat)[i]:
            crew = [0, 0, 0, 0, 0]
            crew[i] = 1
            self._sicken(seat, (crew[0], crew[1], crew[2], crew[3], crew[4]), card, ev)
            return
        opts = self._fall_ill_options(seat)
        if len(opts) == 1:
            self._sicken(seat, opts[0], card, ev)
        elif opts:
            self.decisions.append(["fall_ill", seat, card])
        else:
            self.ep_dis_disc.append(card)

    def _step_cleanup(self, ev: list[Event]) -> None:
        if self.healthy_non_inuit(0) < 1:
            self._lose("at the end of Boarding every crew member but the Inuit is ill", ev)
            return
        super()._step_cleanup(ev)

    def scenario_value(self, seat: int) -> float:
        """Ill crew cost a bot dearly (6 of them lose), treatments beside the board help."""
        ill = sum(self.ill_crew(seat))
        healthy = self.healthy_non_inuit(seat)
        return -6.0 * ill + 3.0 * len(self.ep_treat) - (40.0 if healthy <= 1 else 0.0)

    def objectives_missing(self) -> list[str]:
        """The healthy-crew objective loses at once; the passage is the other."""
        return []

    # -- decisions ----------------------------------------------------------------

    def _act(self, seat: int, a: Action, ev: list[Event]) -> None:
        if a.kind == "treat":
            self._treat(seat, a, ev)
            return
        placed = len(self.placed)
        super()._act(seat, a, ev)
        if a.kind == "section" and len(self.placed) > placed:
            idx, side = self.placed[-1]
            self._settle(int(idx), str(side), ev)

    def _compute_legal(self) -> list[Action]:
        out = super()._compute_legal()
        if not self.over and not self.decisions and self.phase == "action":
            assert self.current is not None
            out += self.treat_actions(self.current)
        return out

    def treat_actions(self, seat: int) -> list[Action]:
        """Each treatment card beside the board, each requirement met, each choice of
        the ill crew it heals (min(1 or 2, ill))."""
        ill = self.ill_crew(seat)
        if not self.ep_treat or not sum(ill):
            return []
        table = self._treatments()
        out: list[Action] = []
        for tid in self.ep_treat:
            t = table[tid]
            for heal in (1, 2):
                if not requirement_met(self, t[f"heal_{heal}"], seat):
                    continue
                k = min(heal, sum(ill))
                for c in compositions(ill):
                    if sum(c) == k:
                        out.append(Action("treat", card=tid, tile=heal, crew=c))
        return out

    def _treat(self, seat: int, a: Action, ev: list[Event]) -> None:
        assert a.card is not None and a.crew is not None and a.tile is not None
        req = self._treatments()[a.card][f"heal_{a.tile}"]
        for cid in species_to_discard(self, req, seat) or []:
            self.species[seat].remove(cid)
            self.sp_disc.append(cid)
            ev.append(ScenarioProgress(f"species card {cid} given for a treatment", 1))
        self.ep_treat.remove(a.card)
        self.ep_tr_disc.append(a.card)
        self._heal(seat, a.crew, a.card, ev)

    def _decision_actions(self, d: list[Any]) -> list[Action]:
        kind = d[0]
        if kind == "choose_upgrade":
            return [Action("choose_upgrade", tile=t) for t in self.upgrade_choices()]
        if kind == "fall_ill":
            return [Action("fall_ill", crew=c) for c in self._fall_ill_options(int(d[1]))]
        return super()._decision_actions(d)

    def _resolve(self, d: list[Any], a: Action, ev: list[Event]) -> None:
        kind, seat = d[0], int(d[1])
        if kind == "choose_upgrade":
            assert a.tile is not None
            self.upgrades[seat].insert(0, a.tile)
            self.upg_left[a.tile] -= 1
            ev.append(UpgradeBuilt(seat, a.tile, 1))
        elif kind == "fall_ill":
            assert a.crew is not None
            self._sicken(seat, a.crew, str(d[2]), ev)
        else:
            super()._resolve(d, a, ev)

    # -- hidden information -------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        """The disease and treatment decks' order is hidden: the view lists their
        cards sorted (which cards they hold is public: the others are in sight)."""
        d = super().view(seat)
        d["ep_dis_deck"] = sorted(self.ep_dis_deck)
        d["ep_tr_deck"] = sorted(self.ep_tr_deck)
        return d

    def _deal_hidden(self, pools: dict[str, Any], seat: int | None) -> None:
        super()._deal_hidden(pools, seat)
        self.ep_dis_deck = sorted(self.ep_dis_deck)
        self._shuffle(self.ep_dis_deck)
        self.ep_tr_deck = sorted(self.ep_tr_deck)
        self._shuffle(self.ep_tr_deck)

    def _consistency_problem(self) -> str | None:
        problem = super()._consistency_problem()
        if problem:
            return problem
        diseases, treatments = self._diseases(), self._treatments()
        for name in ("ep_dis_deck", "ep_dis_disc"):
            if any(x not in diseases for x in getattr(self, name)):
                return f"{name} holds an unknown disease card"
        for name in ("ep_tr_deck", "ep_tr_disc", "ep_treat"):
            if any(x not in treatments for x in getattr(self, name)):
                return f"{name} holds an unknown treatment card"
        for e in self.ep_ill:
            if len(e) != 5 or e[0] not in diseases or not all(type(x) is int for x in e[1:]):
                return "ep_ill is not [disease card, 4 counts]"
        ill = self.ill_crew(0)
        if any(x > 1 for x in ill[:3]) or ill[3] > self.pv[SAILORS]:
            return "more crew ill than on board"
        if any(x not in self.tables.anchors for x in self.ep_inuit):
            return "an Inuk pawn on an unknown anchor point"
        drawn = (str(d[2]) for d in self.decisions if d[0] == "fall_ill")  # being resolved
        cards = (*self.ep_dis_deck, *self.ep_dis_disc, *(e[0] for e in self.ep_ill), *drawn)
        if sorted(cards) != sorted(diseases):
            return "the disease cards are not all accounted for"
        tcards = (*self.ep_tr_deck, *self.ep_tr_disc, *self.ep_treat)
        if sorted(tcards) != sorted(treatments):
            return "the treatment cards are not all accounted for"
        return None
