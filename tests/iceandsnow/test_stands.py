"""Who stands on which action space (``State.stands`` and the wire view's ``stands``):
the board shows it after a reload, so it must not depend on the log a client kept."""

from __future__ import annotations

import random

from erebus.games import get_game
from erebus.games.iceandsnow import events as ev

SPEC = get_game("iceandsnow")


def _play(players: int, seed: int, steps: int) -> tuple[object, list[list[object]]]:
    """A random game; also the placements seen in its CrewPlaced events this round."""
    st = SPEC.new_game(players, seed)
    rng = random.Random(seed)
    seen: list[list[object]] = []
    for _ in range(steps):
        if st.is_over:
            break
        for e in st.apply(rng.choice(st.legal_actions())):
            if isinstance(e, ev.CrewPlaced):
                seen.append([e.space, e.seat, *e.crew])
            elif isinstance(e, ev.RoundStarted):
                seen = []
    return st, seen


def test_stands_follow_the_crew_placed_this_round() -> None:
    checked = 0
    for seed in range(12):
        for steps in (40, 70, 110):
            st, seen = _play(3, seed, steps)
            if st.phase == "action":
                assert st.stands == seen
                view = SPEC.wire_view(st, None)
                spaces = view["board"]["spaces"] + view["board"]["extra_spaces"]
                shown = [
                    [sp["id"], s["seat"], *s["crew"].values()]
                    for sp in spaces
                    for s in sp["stands"]
                ]
                assert sorted(map(str, shown)) == sorted(map(str, seen))
                checked += 1
    assert checked > 5


def test_stands_survive_a_save_and_are_cleared_at_boarding() -> None:
    st = SPEC.new_game(2, 3)
    rng = random.Random(3)
    while not st.stands:
        st.apply(rng.choice(st.legal_actions()))
    again = SPEC.state_from_json(st.to_json())
    assert again.stands == st.stands and st.clone().stands == st.stands
    while st.phase == "action" and not st.is_over:
        st.apply(rng.choice(st.legal_actions()))
    assert st.stands == [] and "stands" not in st.to_json()


def test_a_save_without_stands_loads() -> None:
    st = SPEC.new_game(2, 4)
    d = st.to_json()
    d.pop("stands", None)
    assert SPEC.state_from_json(d).stands == []


def test_a_damaged_stand_is_refused() -> None:
    st = SPEC.new_game(2, 5)
    rng = random.Random(5)
    while not st.stands:
        st.apply(rng.choice(st.legal_actions()))
    d = st.to_json()
    d["stands"][0][1] = 7
    try:
        SPEC.state_from_json(d)
    except ValueError as exc:
        assert "action board" in str(exc)
    else:
        raise AssertionError("a crew of seat 7 was accepted")
