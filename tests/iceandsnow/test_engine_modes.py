"""Modes and solo scenarios on hand-built positions (kit)."""

from __future__ import annotations

from erebus.games.iceandsnow import kit
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.events import CompassDrawn, FleetMoved
from erebus.games.iceandsnow.state import POLE

MNP = {"scenario": "magnetic-north-pole"}
LE = {"scenario": "lost-expedition"}


def test_mnp_setup_choices() -> None:
    from erebus.games.iceandsnow import new_game

    st = new_game(1, 2, MNP)
    assert st.pending == "section"
    st.apply(Action("section", side="B"))
    assert st.pending == "start"
    starts = [a.to for a in st.legal_actions()]
    assert len(starts) == 2
    st.apply(st.legal_actions()[1])
    assert st.fleet == starts[1]
    assert st.round == 1 and st.pending == "destination"
    assert st.player(0)["fuel"] == 8 and st.player(0)["dynamite"] == 9


def test_mnp_compass_is_magnetised_in_central_west() -> None:
    st = kit.game(1, 3, MNP)
    kit.set_player(st, 0, pp=30, health=6, morale=6, fuel=10)
    kit.set_fleet(st, "peel_sound")
    st.compass = ["W", "W", "N", "S", POLE, "E"]
    st.compass_disc = []
    kit.start_round(st, leader=0)
    assert st.magnetised
    # West from Peel Sound: the farthest west of its neighbours, chosen by the card
    here = st.tables.anchors["peel_sound"]
    assert st.dest is not None and st.tables.anchors[st.dest].x < here.x
    assert st.compass_disc == ["W"]
    assert st.pending == "voyage"


def test_mnp_hire_blocked_and_research_replaces_discover() -> None:
    st = kit.game(1, 3, MNP)
    kit.set_player(st, 0, health=6, morale=6)
    kit.start_action_phase(st, leader=0)
    spaces = {a.space for a in st.legal_actions() if a.kind == "take"}
    assert "hire_inuk" not in spaces
    assert "discover" in spaces  # Magnetic Research on the Discover space
    before = len(st.compass)
    a = next(a for a in st.legal_actions() if a.space == "discover")
    ev = st.apply(a)
    assert any(isinstance(e, CompassDrawn) for e in ev)
    assert len(st.compass) in (before, before - 1)


def test_lost_expedition_search() -> None:
    st = kit.game(1, 5, LE)
    region = st.priority[0]
    anchor = next(a for a, x in st.tables.anchors.items() if x.region == region)
    kit.set_fleet(st, anchor)
    kit.set_player(st, 0, sled=3, dogs=4, health=6, morale=4, pp=10)
    st.le_progress = 4
    st.search = ["search_2", "search_1", "search_3"]
    kit.start_action_phase(st, leader=0)
    a = next(a for a in st.legal_actions() if a.space == "explore")
    st.apply(a)
    # available sled level 2 (sled 3, 4 dogs): progress 4 -> 5, excess 1 reveals a card
    assert st.le_progress == 5
    assert st.search_rev == ["search_2"]
    assert not st.le_found
    assert st.player(0)["pp"] == 10  # no PP gained in solo play


def test_lost_expedition_found_gives_rescued_sailors() -> None:
    st = kit.game(1, 5, LE)
    region = st.priority[0]
    anchor = next(a for a, x in st.tables.anchors.items() if x.region == region)
    kit.set_fleet(st, anchor)
    kit.set_player(st, 0, sled=3, dogs=6, health=6, morale=4)
    st.le_progress = 5
    st.search = ["search_1", "search_2"]
    kit.start_action_phase(st, leader=0)
    st.apply(next(a for a in st.legal_actions() if a.space == "explore"))
    assert st.le_found
    assert st.fed_count(0) == st.crew_count(0) + 4


def test_survival_deposit() -> None:
    st = kit.game(2, 3, {"modes": ["survival"]})
    for s in (0, 1):
        kit.set_player(st, s, health=6, morale=6, wood=2, dynamite=1, rifles=0, dogs=3)
    kit.start_action_phase(st, leader=0)
    sleds = [a for a in st.legal_actions() if a.space == "improve_sled"]
    assert sleds and all(a.deposit is not None for a in sleds)
    a = next(a for a in sleds if a.deposit == "dynamite")
    st.apply(a)
    assert st.player(0)["dynamite"] == 0 and st.player(0)["wood"] == 1
    # the carpenter column is paid for this round: no deposit for seat 1
    cabins = [a for a in st.legal_actions() if a.space == "build_cabin"]
    assert cabins and all(a.deposit is None for a in cabins)
    # and the deposit can be collected from the carpenter warehouse
    collects = [a for a in st.legal_actions() if a.space == "collect_carpenter"]
    assert any(a.take == (1, 0, 0, 0) for a in collects)


def test_shelter_doubles_ice_fishing() -> None:
    st = kit.game(2, 3, {"modes": ["shelters"]})
    kit.set_player(st, 0, health=6, morale=6, inuit=1, food=10)
    kit.start_action_phase(st, leader=0)
    shelter = next(a for a in st.legal_actions() if a.space == "build_shelter")
    st.apply(shelter)
    assert st.player(0)["food"] == 12
    st.apply(Action("pass"))
    assert not any(a.space == "build_shelter" for a in st.legal_actions())
    fish = next(
        a for a in st.legal_actions() if a.space == "ice_fishing" and a.crew == (0, 0, 1, 0, 0)
    )
    st.apply(fish)
    assert st.player(0)["food"] == 14


def test_event_25_compass_moves_the_fleet() -> None:
    st = kit.game(3, 4, {"extra_events": True})
    for s in range(3):
        kit.set_player(st, s, health=6, morale=6)
    kit.start_round(st, leader=0)
    kit.next_event(st, "open", 25)
    st.apply(st.legal_actions()[0])  # destination
    while st.pending == "section":
        st.apply(st.legal_actions()[0])
    st.apply(Action("voyage", voyage="open"))
    while st.pending == "discard":
        st.apply(st.legal_actions()[0])
    if st.pending == "compass":
        assert st.current_player == 1
        moves = [a for a in st.legal_actions() if a.to is not None]
        assert Action("compass", to=None) in st.legal_actions()
        if moves:
            ev = st.apply(moves[0])
            assert any(isinstance(e, FleetMoved) for e in ev)
            assert st.fleet == moves[0].to


def test_final_round_and_final_voyage() -> None:
    from erebus.games.iceandsnow.events import CartographyRevealed, GameOver, ScoreChanged

    st = kit.game(2, 7)
    for s in (0, 1):
        kit.set_player(st, s, health=6, morale=6, fuel=6, food=40, dynamite=3, pp=10)
    kit.set_fleet(st, "lands_end")  # a blue anchor of West side A
    kit.start_action_phase(st, leader=0)
    assert st.is_final_round
    spaces = {a.space for a in st.legal_actions()}
    assert {"trace_map", "document_methods", "lab_research", "vow_captain"} <= spaces
    lab = next(a for a in st.legal_actions() if a.space == "lab_research")
    st.apply(lab)
    assert st.player(0)["pp"] == 17
    while st.pending == "action":
        st.apply(Action("pass"))
    while st.pending in ("eat", "discard", "infirmary"):
        st.apply(st.legal_actions()[0])
    # the final voyage: destination is the final anchor, open sea only, no event
    assert st.pending == "destination"
    leader = st.current_player
    assert leader is not None
    to = st.legal_actions()[0].to
    assert to is not None and st.tables.anchors[to].final_pp == 6
    events = st.apply(st.legal_actions()[0])
    while not st.is_over:
        events += st.apply(st.legal_actions()[0])
    assert st.outcome == "finished"
    assert any(isinstance(e, ScoreChanged) and e.reason == "final anchor point" for e in events)
    assert sum(isinstance(e, CartographyRevealed) for e in events) == 2
    assert isinstance(events[-1], GameOver)
