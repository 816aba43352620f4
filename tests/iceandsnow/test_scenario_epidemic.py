"""The Mysterious Epidemic solo scenario (Myths & Legends, reference §9.4, seed
l. 1345–1431) with the readings EP1–EP8 of docs/iceandsnow-decisions.md.

Positions are built with the kit; the rules run through ``apply`` and the flow's
own steps (``kit.start_action_phase`` runs the end of the Voyage phase)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from erebus.bots import make_bot
from erebus.games import iceandsnow as game
from erebus.games.iceandsnow import kit, spec
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.epidemic import EpidemicState
from erebus.games.iceandsnow.events import (
    CrewIll,
    DiseaseRevealed,
    GameOver,
    ScoreChanged,
    TreatmentRevealed,
)
from erebus.games.iceandsnow.layout import INF, INUIT, PAWNS, SAILORS
from erebus.games.iceandsnow.state import State
from iceandsnow.datakit import broken
from iceandsnow.rulekit import of_type, take, takes
from iceandsnow.test_invariants import run_game
from support.bots import play_legal
from support.whole_game import fuzz_settings

EP = {"scenario": "mysterious-epidemic"}
SCEN = game.default_content().scenarios["mysterious-epidemic"]
CAPTAIN = (1, 0, 0, 0, 0)


def epidemic(seed: int = 1, tile: int = 4) -> EpidemicState:
    """A game past the set-up decision (tile ``tile`` chosen), at round 1's destination."""
    st = game.new_game(1, seed, EP)
    assert isinstance(st, EpidemicState)
    st.apply(Action("choose_upgrade", tile=tile))
    assert st.pending == "destination"
    return st


def voyage_end(st: State, disease: str | None = None) -> list[Any]:
    """Run the end of the Voyage phase (``disease``: the top disease card)."""
    if disease is not None:
        st.ep_dis_deck.remove(disease)
        st.ep_dis_deck.insert(0, disease)
    st.decisions = []
    st.step = "action"
    st.phase = "flow"
    ev: list[Any] = []
    st._run(ev)
    st._legal = None
    return ev


def make_ill(st: State, card: str, crew: tuple[int, int, int, int]) -> None:
    st.ep_dis_deck.remove(card)
    st.ep_ill.append([card, *crew])
    st._legal = None


# ------------------------------------------------------------------------ set-up


def test_setup_follows_the_seed() -> None:
    st = game.new_game(1, 3, EP)
    assert st.options["modes"] == ["survival"]  # Survival is compulsory
    p = st.player(0)
    assert (p["dynamite"], p["wood"], p["rifles"]) == (7, 4, 2)
    assert sorted(st.ev_coastal) == [13, 14, 15, 16, 18, 19, 21, 22, 23, 24]
    assert sorted(st.ev_open) == [1, 2, 3, 4, 5, 6, 7, 8, 11, 12]
    assert st.investor == [None] and st.inv_opts == [[]] and st.carto_opts == [[]]
    assert sorted(st.ep_dis_deck) == ["D1", "D2", "D3", "D4", "D5", "D6"]
    assert sorted(st.ep_tr_deck) == ["T1", "T2", "T3", "T4", "T5", "T6"]
    assert st.ep_settlement in {"settlement_1", "settlement_2", "settlement_3"}
    # the set-up decision: any tile, free, on the leftmost space (EP3)
    assert st.pending == "choose_upgrade"
    assert [a.tile for a in st.legal_actions()] == list(range(1, 12))[: len(st.legal_actions())]
    ev = st.apply(Action("choose_upgrade", tile=5))
    assert st.upgrades[0] == [5] and st.player(0)["wood"] == 4
    assert not of_type(ev, ScoreChanged)


def test_the_shipped_data_has_the_seed_values() -> None:
    assert SCEN["start"] == {"dynamite": 7, "wood": 4, "rifles": 2}  # seed l. 1361
    assert SCEN["blocked_spaces"] == ["hire_inuk"]  # l. 1363
    assert SCEN["decks"] == {  # l. 1365-1369
        "coastal": [13, 14, 15, 16, 18, 19, 21, 22, 23, 24],
        "open": [1, 2, 3, 4, 5, 6, 7, 8, 11, 12],
    }
    assert len(SCEN["settlements"]) == 3 and len(SCEN["diseases"]) == 6  # l. 1355
    assert len(SCEN["treatments"]) == 6


def test_settlement_cards_are_drawn_at_random() -> None:
    seen = {game.new_game(1, s, EP).ep_settlement for s in range(30)}
    assert seen == {"settlement_1", "settlement_2", "settlement_3"}


def test_hire_an_inuk_is_blocked() -> None:
    st = epidemic()
    kit.start_action_phase(st, leader=0)
    while st.pending != "action":
        st.apply(st.legal_actions()[0])
    assert not takes(st, "hire_inuk")
    assert takes(st, "explore")


def test_east_and_every_new_section_get_their_inuit() -> None:
    st = epidemic(seed=2)
    card = next(c for c in SCEN["settlements"] if c["id"] == st.ep_settlement)
    east = card["anchors"]["east"]["A"]
    assert st.ep_inuit == east  # East at set-up (EP2)
    pool = st.inuit_pool
    assert pool == 15 - len(east)
    st.dest = "croker_bay"  # a section edge: Central East comes next
    st.phase = "section"
    st._legal = None
    st.apply(Action("section", side="B"))
    want = card["anchors"]["central_east"]["B"]
    assert st.ep_inuit[-len(want) :] == want and st.inuit_pool == pool - len(want)


# ------------------------------------------------------------------ falling ill


def test_the_other_reading_leaves_east_without_inuit() -> None:
    st = game.new_game(1, 2, {**EP, "epidemic_east": "empty"})
    assert st.ep_inuit == [] and st.inuit_pool == 15
    with pytest.raises(ValueError, match="needs the mysterious-epidemic scenario"):
        game.new_game(1, 2, {"scenario": "lost-expedition", "epidemic_east": "empty"})


def test_the_disease_card_names_the_officer_who_falls_ill() -> None:
    st = epidemic()
    ev = voyage_end(st, "D1")  # captain
    assert of_type(ev, DiseaseRevealed)[0].officer == "captain"
    assert st.ep_ill == [["D1", 1, 0, 0, 0]]
    assert st.avail_crew(0)[0] == 0
    assert not takes(st, "explore")  # Explore needs the captain
    assert st.pending == "action"


def test_an_officer_already_ill_makes_two_crew_fall_ill() -> None:
    st = epidemic()
    make_ill(st, "D1", (1, 0, 0, 0))
    voyage_end(st, "D2")  # the captain again
    assert st.pending == "fall_ill"
    opts = [a.crew for a in st.legal_actions()]
    assert opts and all(sum(c) == 2 and c[0] == 0 and c[4] == 0 for c in opts)  # never an Inuk
    st.apply(Action("fall_ill", crew=(0, 1, 0, 1, 0)))
    assert st.ep_ill == [["D1", 1, 0, 0, 0], ["D2", 0, 1, 0, 1]]
    assert st.avail_crew(0)[:4] == (0, 0, 1, 2)


def test_inuit_never_fall_ill() -> None:
    st = epidemic()
    kit.set_player(st, 0, inuit=2, sailors=0)
    make_ill(st, "D1", (1, 0, 0, 0))
    make_ill(st, "D3", (0, 1, 0, 0))
    voyage_end(st, "D2")  # captain ill already: only the scientist is left to fall ill
    assert st.pending == "action"
    assert st.ep_ill[-1] == ["D2", 0, 0, 1, 0]
    assert st.avail_crew(0)[4] == 2


def test_an_officer_in_the_infirmary_moves_onto_the_card() -> None:
    st = epidemic()
    st.pv[INF + 2] = 1
    voyage_end(st, "D5")  # scientist
    assert st.pv[INF + 2] == 0 and st.ep_ill == [["D5", 0, 0, 1, 0]]
    assert st.avail_crew(0)[2] == 0


# ------------------------------------------------------------ consulting the Inuit


def test_a_mapped_settlement_gives_its_inuk_and_a_treatment_instead_of_a_disease() -> None:
    st = epidemic()
    anchor = st.ep_inuit[0]
    kit.set_fleet(st, anchor)
    st.mapped = [st.region_of(anchor)]
    top = st.ep_tr_deck[0]
    ev = voyage_end(st, "D1")
    assert not of_type(ev, DiseaseRevealed) and not st.ep_ill
    assert of_type(ev, TreatmentRevealed)[0].card == top and st.ep_treat == [top]
    assert anchor not in st.ep_inuit
    assert st.pv[INUIT] == 1 and st.pv[PAWNS] == 1
    assert st.avail_crew(0)[4] == 1  # usable this turn


def test_an_unmapped_settlement_does_not_help() -> None:
    st = epidemic()
    anchor = st.ep_inuit[0]
    kit.set_fleet(st, anchor)
    st.mapped = []
    ev = voyage_end(st, "D1")
    assert of_type(ev, DiseaseRevealed) and anchor in st.ep_inuit and not st.ep_treat


# ------------------------------------------------------------------- treatments


def _action_phase_with(st: State, treatment: str) -> None:
    st.ep_tr_deck.remove(treatment)
    st.ep_treat.append(treatment)
    st._legal = None


def test_an_explore_of_enough_pp_this_round_heals_two() -> None:
    st = epidemic()
    voyage_end(st, "D5")  # the scientist falls ill
    kit.set_player(st, 0, sled=2, dogs=4, sailors=3)  # Explore = 7 PP (not gained: solo)
    _action_phase_with(st, "T3")  # heal 1: Explore 5+; heal 2: char + hare
    assert not [a for a in st.legal_actions() if a.kind == "treat"]
    ev = take(st, "explore", crew=(1, 0, 0, 1, 0))
    assert not [e for e in of_type(ev, ScoreChanged) if e.delta > 0]  # no PP gained
    treats = [a for a in st.legal_actions() if a.kind == "treat"]
    assert treats == [Action("treat", card="T3", tile=1, crew=(0, 0, 1, 0, 0))]
    ev = st.apply(treats[0])
    assert of_type(ev, CrewIll)[0].ill is False
    assert st.ep_ill == [] and st.ep_dis_disc == ["D5"]  # the empty card is discarded
    assert st.ep_treat == [] and st.ep_tr_disc == ["T3"]
    assert st.avail_crew(0)[2] == 1 and st.pending == "action"  # no turn used


def test_a_species_requirement_discards_the_species_card() -> None:
    st = epidemic()
    make_ill(st, "D1", (1, 0, 0, 0))
    make_ill(st, "D3", (0, 1, 0, 1))
    kit.start_action_phase(st, leader=0)
    while st.pending != "action":
        st.apply(st.legal_actions()[0])
    st.ep_ill = [["D1", 1, 0, 0, 0], ["D3", 0, 1, 0, 1]]
    kit.set_player(st, 0, species=["arctic_char_1", "arctic_hare_1", "caribou_1"])
    _action_phase_with(st, "T3")
    treats = [a for a in st.legal_actions() if a.kind == "treat"]
    assert {a.tile for a in treats} == {2} and all(sum(a.crew) == 2 for a in treats)
    st.apply(Action("treat", card="T3", tile=2, crew=(1, 0, 0, 1, 0)))
    assert st.species[0] == ["caribou_1"] and "arctic_char_1" in st.sp_disc
    assert st.ep_ill == [["D3", 0, 1, 0, 0]]  # the captain's card is gone, D3 keeps one


def test_a_cabin_lowering_enough_food_meets_the_requirement() -> None:
    st = epidemic()
    voyage_end(st, "D5")
    _action_phase_with(st, "T4")  # heal 1: cabin 3+
    take(st, "build_cabin", crew=(0, 1, 0, 1, 0), food=2)
    assert not [a for a in st.legal_actions() if a.kind == "treat"]
    st.mnp_cabin = 3  # a second cabin this round would be the same
    st._legal = None
    assert [a.tile for a in st.legal_actions() if a.kind == "treat"] == [1]


def test_the_decks_reshuffle_their_discard_piles() -> None:
    st = epidemic()
    st.ep_dis_disc, st.ep_dis_deck = st.ep_dis_deck, []
    ev = voyage_end(st)
    assert of_type(ev, DiseaseRevealed) and len(st.ep_dis_deck) == 5 and not st.ep_dis_disc


def test_no_disease_card_left_means_nobody_falls_ill() -> None:
    st = epidemic()
    for card in list(st.ep_dis_deck):
        make_ill(st, card, (0, 0, 0, 0))
    kit.set_player(st, 0, sailors=6)
    assert not of_type(voyage_end(st), DiseaseRevealed)


# --------------------------------------------------------------- winning, losing


def test_losing_when_every_non_inuk_crew_member_is_ill_at_the_end_of_boarding() -> None:
    st = epidemic()
    kit.set_player(st, 0, sailors=1, inuit=1)
    st.ep_ill = [["D1", 1, 0, 0, 0], ["D3", 0, 1, 0, 1], ["D5", 0, 0, 1, 0]]
    for d in ("D1", "D3", "D5"):
        st.ep_dis_deck.remove(d)
    ev = kit.start_boarding(st)
    assert st.is_over and st.outcome == "lost" and of_type(ev, GameOver)
    assert "ill" in st.reason


def test_one_healthy_crew_member_is_enough() -> None:
    st = epidemic()
    kit.set_player(st, 0, sailors=1)
    st.ep_ill = [["D1", 1, 0, 0, 0], ["D3", 0, 1, 0, 1]]
    for d in ("D1", "D3"):
        st.ep_dis_deck.remove(d)
    kit.start_boarding(st)
    assert not st.is_over


def test_zero_pp_loses() -> None:
    st = epidemic()
    kit.set_player(st, 0, pp=1, food=0, sailors=0, dogs=0)
    kit.start_boarding(st)  # hunger: PP lost
    assert st.is_over and st.outcome == "lost" and "prestige" in st.reason


def test_completing_the_passage_wins() -> None:
    st = epidemic()
    final = next(a for a in st.tables.anchors.values() if a.final_pp is not None)
    kit.set_fleet(st, final.id)
    st.step, st.phase, st.voyage = "final", "flow", "open"
    st._run([])
    assert st.is_over and st.outcome == "won" and st.scores() == [10]


def test_ill_sailors_are_lost_after_the_healthy_free_ones() -> None:
    st = epidemic()
    kit.set_player(st, 0, sailors=2)
    st.ep_ill = [["D3", 0, 0, 0, 1]]
    st.ep_dis_deck.remove("D3")
    ev: list[Any] = []
    st._lose_sailor(0, "test", ev)
    assert st.pv[SAILORS] == 1 and st.ep_ill == [["D3", 0, 0, 0, 1]]
    st._lose_sailor(0, "test", ev)
    assert st.pv[SAILORS] == 0 and st.ep_ill == [] and st.ep_dis_disc == ["D3"]


def test_ill_crew_are_fed() -> None:
    st = epidemic()
    st.ep_ill = [["D1", 1, 0, 0, 0]]
    st.ep_dis_deck.remove("D1")
    food = st.player(0)["food"]
    kit.start_boarding(st)
    assert st.player(0)["food"] == food - st.crew_count(0)


# ------------------------------------------------------------ hidden information


def test_the_decks_order_is_hidden_and_draws_are_reveals() -> None:
    st = epidemic()
    other = st.clone()
    other.ep_dis_deck.reverse()
    other.ep_tr_deck.reverse()
    assert st.view(0) == other.view(0)
    assert st.view(0)["ep_dis_deck"] == sorted(st.ep_dis_deck)
    ev = voyage_end(st)
    assert [e for e in ev if spec.reveals_hidden(e) and isinstance(e, DiseaseRevealed)]
    assert spec.reveals_hidden(TreatmentRevealed("T1"))
    world = game.determinize(json.loads(json.dumps(st.view(0))), 5)
    assert world.view(0) == st.view(0) and world.legal_actions() == st.legal_actions()


def test_json_round_trip_and_base_saves_without_the_fields() -> None:
    st = epidemic()
    voyage_end(st, "D1")
    d = st.to_json()
    back = State.from_json(json.loads(json.dumps(d)))
    assert isinstance(back, EpidemicState) and back.to_json() == d
    assert back.legal_actions() == st.legal_actions()
    base = game.new_game(2, 1).to_json()
    assert not [k for k in base if k.startswith(("ep_", "am_"))]


def test_a_damaged_save_is_refused() -> None:
    d = epidemic().to_json()
    d["ep_dis_deck"] = d["ep_dis_deck"][1:]
    with pytest.raises(ValueError, match="disease cards"):
        State.from_json(d)


# ------------------------------------------------------------------------- data


def test_broken_scenario_data_is_refused_at_load() -> None:
    def no_officer(raw: dict[str, Any]) -> None:
        raw["scenarios"]["mysterious-epidemic"]["diseases"][0]["officer"] = "cook"

    def bad_anchor(raw: dict[str, Any]) -> None:
        raw["scenarios"]["mysterious-epidemic"]["settlements"][0]["anchors"]["east"]["A"] = [
            "croker_bay"
        ]

    def bad_req(raw: dict[str, Any]) -> None:
        raw["scenarios"]["mysterious-epidemic"]["treatments"][0]["heal_1"] = {"pray": 1}

    def bad_tile(raw: dict[str, Any]) -> None:
        raw["scenarios"]["mysterious-epidemic"]["free_upgrade"]["recommended"] = [99]

    assert "not an upgrade tile" in broken(bad_tile)
    assert "must name an officer" in broken(no_officer)
    assert "start, final or shared" in broken(bad_anchor)
    assert "heal_1 must be one of" in broken(bad_req)


# ------------------------------------------------------------------ whole games


@pytest.mark.parametrize("seed", [0, 1])
def test_seeded_games_keep_every_invariant(seed: int) -> None:
    run_game(1, 500 + seed, EP, seed, view_every=2)


@pytest.mark.parametrize("module", ["inuit_myths", "legendary_expeditions"])
def test_seeded_games_with_a_module_keep_every_invariant(module: str) -> None:
    run_game(1, 510, {**EP, "modules": [module]}, 3, view_every=3)


@fuzz_settings(examples=10)
@given(seed=hs.integers(0, 2**32), policy=hs.integers(0, 2**16))
def test_random_games_keep_every_invariant(seed: int, policy: int) -> None:
    run_game(1, seed, EP, policy, view_every=4)


def test_random_games_reach_the_scenario_rules() -> None:
    seen: set[str] = set()
    for seed in range(12):
        st = game.new_game(1, seed, EP)
        rnd = random.Random(seed)
        while not st.is_over:
            legal = st.legal_actions()
            treats = [a for a in legal if a.kind == "treat"]
            a = treats[0] if treats else rnd.choice(legal)
            seen.add(a.kind)
            for e in st.apply(a):
                seen.add(type(e).__name__)
    assert {"fall_ill", "DiseaseRevealed", "CrewIll", "InuitSettled"} <= seen


@pytest.mark.parametrize("name", ["random", "greedy", "mcts"])
def test_bots_play_the_scenario_to_the_end(name: str) -> None:
    st = game.new_game(1, 7, EP)
    play_legal(st, [make_bot(name, seed=1, iterations=8)])
    assert st.outcome in ("won", "lost")


def test_the_browser_lists_treatments_apart_from_the_takes() -> None:
    from erebus.games.iceandsnow import wire, wire_decisions

    st = epidemic()
    voyage_end(st, "D5")
    _action_phase_with(st, "T3")
    st.mnp_explore = 5
    st._legal = None
    d = wire_decisions.decision(st, 0)
    assert d is not None
    assert {o["card"] for o in d["free"] if o["kind"] == "treat"} == {"T3"}
    takes_ = [a for a in st.legal_actions() if a.kind == "take"]
    assert d["takes"] == len(takes_) and d["can_pass"]
    scen = wire.wire_view(st, 0)["map"]["scenario"]
    assert [(e["card"], e["crew"]) for e in scen["diseases"]] == [
        ("D5", {"captain": 0, "carpenter": 0, "scientist": 1, "sailors": 0})
    ]
    assert [t["card"] for t in scen["treatments"]] == ["T3"]
    assert "ep_dis_deck" not in json.dumps(scen)
