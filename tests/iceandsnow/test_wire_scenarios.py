"""The Myths & Legends solo scenarios in the wire view (wire_scenarios.py): Mysterious
Epidemic and Amundsen's Voyage.

Random games of both are viewed at every step by the seat and the spectator, as the
other wire tests do: plain JSON, the scenario's fields in every phase, decision options
exactly the legal actions (the treatments as free actions of the Action phase), the
disease and treatment decks' order in nobody's view (sizes only; a determinization
gives the same view), the ill crew and the black cylinders on the seat's board as the
engine counts them, the open sea refused with its reason.  Then the content file's
entries and the log's words for the scenarios' events and reasons."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from erebus.games.iceandsnow import SPEC, default_content, kit
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.amundsen import AmundsenState
from erebus.games.iceandsnow.epidemic import EpidemicState, requirement_met
from erebus.games.iceandsnow.state import State
from erebus.games.iceandsnow.wire import wire_view
from erebus.games.iceandsnow.wire_content import content_document
from erebus.games.iceandsnow.wire_decisions import MISSING
from iceandsnow.test_scenario_epidemic import _action_phase_with, epidemic, voyage_end
from iceandsnow.test_wire import MAP, SEAT, TOP, check_decision, check_secrets, small_json

EPIDEMIC = {
    "id", "objectives_missing", "settlement", "inuit", "diseases", "ill", "treatments",
    "disease_deck", "disease_discard", "treatment_deck", "treatment_discard",
    "best_explore", "best_cabin_food", "healthy_crew", "objectives",
}  # fmt: skip
AMUNDSEN = {
    "id", "objectives_missing", "explorer", "dogs_as", "cylinders", "health_limit",
    "morale_limit", "removal", "best_explore", "haven", "final_voyage_type", "objectives",
}  # fmt: skip
CREW = {"captain", "carpenter", "scientist", "sailors", "inuit"}
WEB = Path(__file__).resolve().parents[2] / "src" / "erebus" / "web"


def play(scenario: str, seed: int, options: dict[str, Any] | None = None) -> Iterator[State]:
    """Every state of a random game; a treatment is taken whenever one is offered
    (so the healing paths are seen), passing a little more often so rounds end."""
    st = SPEC.new_game(1, seed, {"scenario": scenario, **(options or {})})
    rng = random.Random(seed * 31 + len(scenario))
    yield st
    while not st.is_over:
        legal = st.legal_actions()
        treats = [a for a in legal if a.kind == "treat"]
        passes = [a for a in legal if a.kind == "pass"]
        if treats and rng.random() < 0.8:
            a = rng.choice(treats)
        elif passes and rng.random() < 0.15:
            a = passes[0]
        else:
            a = rng.choice(legal)
        st.apply(a)
        yield st


def _deck_hidden(deck: list[str], text: str) -> None:
    if len(deck) > 1:
        assert json.dumps(deck)[1:-1] not in text, deck


def check_epidemic(v: dict[str, Any], st: EpidemicState, text: str) -> None:
    sc = v["map"]["scenario"]
    assert set(sc) == EPIDEMIC
    assert sc["inuit"] == st.ep_inuit and sc["settlement"] == st.ep_settlement
    assert sc["disease_deck"] == len(st.ep_dis_deck)
    assert sc["treatment_deck"] == len(st.ep_tr_deck)
    assert sc["disease_discard"] == st.ep_dis_disc and sc["treatment_discard"] == st.ep_tr_disc
    _deck_hidden(st.ep_dis_deck, text)
    _deck_hidden(st.ep_tr_deck, text)
    ill = st.ill_crew(0)
    assert [
        sc["ill"][k] for k in ("captain", "carpenter", "scientist", "sailors", "inuit")
    ] == list(ill)
    assert [d["card"] for d in sc["diseases"]] == [e[0] for e in st.ep_ill]
    for d in sc["diseases"]:
        assert set(d) == {"card", "name", "officer", "crew"} and sum(d["crew"].values()) > 0
    table = st._treatments()
    for tc in sc["treatments"]:
        for n in (1, 2):
            r = tc[f"heal_{n}"]
            assert r["met"] == requirement_met(st, table[tc["card"]][f"heal_{n}"])
            assert r["kind"] in ("explore", "cabin_food", "species")
    assert [t["card"] for t in sc["treatments"]] == st.ep_treat
    assert sc["healthy_crew"] == st.healthy_non_inuit(0)
    assert {o["id"] for o in sc["objectives"]} == {"healthy_crew", "passage"}
    seat = v["seats"][0]
    assert seat["crew"]["ill"] == sc["ill"]
    # ill crew are not free
    avail = st.avail_crew(0)
    assert [seat["crew"]["free"][k] for k in ("captain", "carpenter", "scientist", "sailors")] == [
        max(0, x) for x in avail[:4]
    ]


def check_amundsen(v: dict[str, Any], st: AmundsenState) -> None:
    sc = v["map"]["scenario"]
    assert set(sc) == AMUNDSEN
    assert [sc["cylinders"][k] for k in ("health", "morale_right", "morale_left")] == [
        bool(x) for x in st.am_cyl
    ]
    assert sc["health_limit"] == st.track_limit("health")
    assert sc["morale_limit"] == st.track_limit("morale")
    assert sc["explorer"] == "J" and sc["dogs_as"] == 7
    seat = v["seats"][0]
    for track in ("health", "morale"):
        assert seat[track]["value"] <= seat[track]["limit"] == sc[f"{track}_limit"]
        lim, mx = seat[track]["limit"], seat[track]["max"]
        assert seat[track]["cylinders"] == list(range(lim + 1, mx + 1))
    assert len(seat["health"]["cylinders"]) == st.am_cyl[0]
    assert bool(seat["morale"]["cylinders"]) == bool(st.am_cyl[1] or st.am_cyl[2])
    hv = sc["haven"]
    assert hv["founded"] == st.am_founded and hv["food_needed"] == st.crew_count(0)
    assert (hv["revealed_round"] or 0) == st.am_haven
    assert {o["id"] for o in sc["objectives"]} == {"haven", "passage"}
    assert sc["objectives"][0]["met"] == st.am_founded


GAMES = [("mysterious-epidemic", s) for s in range(6)] + [("amundsens-voyage", s) for s in range(6)]


@pytest.mark.parametrize(("scenario", "seed"), GAMES)
def test_every_view_of_a_random_game(scenario: str, seed: int) -> None:
    kinds: set[str] = set()
    for step, st in enumerate(play(scenario, seed)):
        for seat in (None, 0):
            v = SPEC.wire_view(st, seat)
            small_json(v)
            assert json.loads(json.dumps(v)) == v
            # Amundsen's Voyage plays set J: Legendary Expeditions' own field (wire_legends)
            assert set(v) - {"legends"} == TOP and set(v["map"]) == MAP
            assert ("legends" in v) == isinstance(st, AmundsenState)
            for b in v["seats"]:
                extra = {"crew"} if isinstance(st, EpidemicState) else set()
                assert set(b) == SEAT | extra
            text = json.dumps(v)
            check_secrets(v, st, seat)
            if isinstance(st, EpidemicState):
                check_epidemic(v, st, text)
                assert set(v["seats"][0]["crew"]) >= {"ill", "free", "owned"}
            else:
                assert isinstance(st, AmundsenState)
                check_amundsen(v, st)
            if seat == 0 and not st.is_over:
                kinds |= check_decision(v, st)
                d = v["decision"]
                if d["kind"] == "action":
                    free = [a.to_json() for a in st.legal_actions() if a.kind == "treat"]
                    assert [f["action"] for f in d.get("free", [])] == free
                    for f in d.get("free", []):
                        assert f["requirement"]["met"] and f["heals"] in (1, 2)
                        kinds.add("treat")
                elif d["kind"] == "voyage" and isinstance(st, AmundsenState):
                    assert [o["voyage"] for o in d["options"]] == ["coastal"] or st.final_voyage
                    if not st.final_voyage:
                        assert [(m["voyage"], m["why"]) for m in d["missing"]] == [
                            ("open", "no_open_sea")
                        ]
                elif d["kind"] == "fall_ill":
                    assert all(sum(o["crew"].values()) == d["count"] for o in d["options"])
                    assert d["officer"] in ("captain", "carpenter", "scientist")
                elif d["kind"] == "choose_upgrade":
                    assert d["options"] and all("recommended" in o for o in d["options"])
            elif seat is None and not st.is_over:
                assert "options" not in v["decision"]
            if step % 7 == 0 and not st.is_over:  # a determinization gives the same view
                det = State.from_view(st.view(seat), seed=step + 1)
                assert wire_view(det, seat) == v
    if scenario == "mysterious-epidemic":
        assert "choose_upgrade" in kinds
    assert "action" in kinds and "voyage" in kinds


def test_the_games_reach_the_scenarios_paths() -> None:
    """Between them, the random games above fall ill, choose who, treat, reveal a
    treatment (the healing itself: the test below); and an Amundsen game removes a cylinder or sees Gjøa Haven's card."""
    seen: set[str] = set()
    for scenario, seed in GAMES:
        for st in play(scenario, seed):
            if isinstance(st, EpidemicState):
                if st.ep_ill:
                    seen.add("ill")
                if st.ep_treat:
                    seen.add("treatment")
                if st.pending == "fall_ill":
                    seen.add("fall_ill")
            elif isinstance(st, AmundsenState):
                if not all(st.am_cyl):
                    seen.add("cylinder")
                if st.am_haven:
                    seen.add("haven")
    assert {"ill", "treatment", "fall_ill"} <= seen, seen
    assert seen & {"cylinder", "haven"}, seen


def test_a_treatment_is_offered_with_its_cost_and_heals() -> None:
    st = epidemic()
    voyage_end(st, "D5")  # the scientist falls ill
    kit.set_player(st, 0, species=["arctic_char_1", "arctic_hare_1", "caribou_1"])
    _action_phase_with(st, "T3")  # heal 1: Explore 5+; heal 2: char + hare
    v = wire_view(st, 0)
    sc = v["map"]["scenario"]
    assert sc["diseases"] == [
        {
            "card": "D5",
            "name": "Snow blindness",
            "officer": "scientist",
            "crew": {"captain": 0, "carpenter": 0, "scientist": 1, "sailors": 0},
        }
    ]
    assert v["seats"][0]["crew"]["ill"]["scientist"] == 1
    assert v["seats"][0]["crew"]["free"]["scientist"] == 0
    (tc,) = sc["treatments"]
    assert tc["heal_1"] == {"kind": "explore", "met": False, "value": 5, "best": 0}
    assert tc["heal_2"]["met"] and tc["heal_2"]["discards"] == ["arctic_char_1", "arctic_hare_1"]
    d = v["decision"]
    assert d["kind"] == "action"
    (free,) = d["free"]
    assert free["kind"] == "treat" and free["heals"] == 2 and free["card"] == "T3"
    assert free["crew"]["scientist"] == 1 and free["discards"] == tc["heal_2"]["discards"]
    # the pass is still offered (the treatments come after it in the legal actions)
    assert d["can_pass"] and d["takes"] == len([a for a in st.legal_actions() if a.kind == "take"])
    st.apply(Action.from_json(free["action"]))
    v = wire_view(st, 0)
    sc = v["map"]["scenario"]
    assert sc["diseases"] == [] and sc["treatments"] == [] and sc["treatment_discard"] == ["T3"]
    assert sc["disease_discard"] == ["D5"] and v["seats"][0]["crew"]["ill"]["scientist"] == 0


def test_a_space_whose_officer_is_ill_says_so() -> None:
    st = epidemic()
    voyage_end(st, "D1")  # the captain falls ill
    why = {sp["id"]: sp["why_not"] for sp in wire_view(st, 0)["board"]["spaces"]}
    assert why["explore"] == why["exchange_captain"] == why["visit_inuit"] == "officer_ill"


def test_amundsen_refuses_the_open_sea_with_its_reason() -> None:
    st = SPEC.new_game(1, 3, {"scenario": "amundsens-voyage"})
    while st.pending != "voyage":
        st.apply(st.legal_actions()[0])
    d = wire_view(st, 0)["decision"]
    assert [o["voyage"] for o in d["options"]] == ["coastal"]
    assert d["missing"] == [{"voyage": "open", "fuel": 1, "why": "no_open_sea"}]
    seat = wire_view(st, 0)["seats"][0]
    assert seat["health"]["cylinders"] == [seat["health"]["max"]]
    assert seat["morale"]["cylinders"] == [seat["morale"]["max"] - 1, seat["morale"]["max"]]


def test_the_content_file_describes_both_scenarios() -> None:
    doc = content_document(default_content())
    ep = doc["scenarios"]["mysterious-epidemic"]
    assert len(ep["settlements"]) == 3 and len(ep["diseases"]) == 6 and len(ep["treatments"]) == 6
    assert {"heal_1", "heal_2"} <= set(ep["treatments"][0]) and ep["text"]
    assert "compass" not in ep  # not the Magnetic North Pole's fields
    am = doc["scenarios"]["amundsens-voyage"]
    assert am["explorer"] == "J" and am["explore_remove"] == {"right": 7, "left": 10}
    assert am["haven_card"]["number"] == 55 and am["text"]
    committed = json.loads((WEB / "iceandsnow-content.json").read_text(encoding="utf-8"))
    assert committed["scenarios"]["mysterious-epidemic"] == json.loads(json.dumps(ep))
    assert committed["scenarios"]["amundsens-voyage"] == json.loads(json.dumps(am))


def test_the_reasons_and_words_are_known() -> None:
    """Every reason key is in MISSING; every English word the browser needs exists, and
    the lobby explains both scenarios."""
    assert "no_open_sea" in MISSING
    en = json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))
    js = (WEB / "iceandsnow" / "solo2.js").read_text(encoding="utf-8")
    used = set(re.findall(r'"((?:is2|iact)_[a-z0-9_]+)"', js))
    used |= {f"isev_{k}" for k in re.findall(r'k\("([A-Za-z_]+)"', js)}
    assert used and not sorted(k for k in used if k not in en)
    for sid in ("mysterious-epidemic", "amundsens-voyage"):
        assert en[f"gopt_iceandsnow_scenario_{sid}"] and en[f"gopt_iceandsnow_scenario_{sid}_help"]


def test_the_terminal_shows_both_scenarios() -> None:
    """The terminal's map panel names the objectives, the disease and treatment cards or
    the cylinders and Gjøa Haven; its menus word the scenarios' actions; ill crew are
    not free there either."""
    from erebus.terminal import iceandsnow_screen as scr

    st = epidemic()
    voyage_end(st, "D5")
    kit.set_player(st, 0, species=["arctic_char_1", "arctic_hare_1"])
    _action_phase_with(st, "T3")
    text = scr.render_text(st, 0)
    assert "Mysterious Epidemic:" in text and "Snow blindness (D5): sci" in text
    assert "treatment Char and sorrel (T3)" in text and "(on disease cards)" in text
    assert scr.crew_state(st, 0)["free"][2] == 0
    (treat,) = [a for a in st.legal_actions() if a.kind == "treat"]
    assert scr.describe(st, treat).startswith("treat (Char and sorrel, heals 2): sci")
    for scenario, seed in (("mysterious-epidemic", 1), ("amundsens-voyage", 1)):
        for step, s in enumerate(play(scenario, seed)):
            for a in s.legal_actions():
                assert scr.describe(s, a) != str(a), a  # worded, not the raw action
            if step % 5 == 0:
                text = scr.render_text(s, 0)
                assert ("Amundsen's Voyage:" in text) == (scenario == "amundsens-voyage")
