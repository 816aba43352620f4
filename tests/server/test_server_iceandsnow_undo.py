"""Undo in Through Ice and Snow: a player takes back their own actions of this turn,
never past one that revealed something — an investor, a cartography card, an event
card, hunting or species cards, a compass card — or drew from a hidden pile.

The expectation of every action comes from a copy of the game played alongside with
the engine: the spec's ``reveals_hidden`` on its events, and the full states before and
after (a card that left a hidden pile was drawn, whatever the events say)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from iceandsnow_helpers import (
    HUMAN,
    SPEC,
    act,
    create,
    drawn,
    get,
    pick,
    reveal_kinds,
    tokens,
    undo,
)
from server_helpers import make_client
from test_server_ws import recv

from erebus.core.events import TURN_EVENTS

ALL_KINDS = {
    "InvestorRevealed",
    "CartographyRevealed",
    "EventRevealed",
    "CardsRevealed:hunting",
    "CardsRevealed:species",
    "CompassDrawn",
}


def _engine_game(players: int, opts: dict[str, Any], seed: int) -> tuple[set[str], int]:
    """(kinds of reveal, actions) of the game the test plays with ``seed``: the same
    random choices among the same legal actions, made with the engine alone."""
    st = SPEC.new_game(players, seed, opts)
    rng = random.Random(seed)
    kinds: set[str] = set()
    n = 0
    while not st.is_over and n < 2000:
        kinds.update(reveal_kinds(st.apply(pick(rng, st.legal_actions()))))
        n += 1
    return kinds, n


def _seed_with(players: int, opts: dict[str, Any], wanted: set[str]) -> int:
    """The first seed whose random game shows every kind of reveal in ``wanted``."""
    for seed in range(400):
        if wanted <= _engine_game(players, opts, seed)[0]:
            return seed
    raise AssertionError(f"no seed below 400 shows {wanted}")


CASES = [
    (2, {}, {"InvestorRevealed", "EventRevealed", "CardsRevealed:hunting"}),
    (3, {"modes": ["survival", "dual_species"]}, {"CardsRevealed:species"}),
    (2, {}, {"CartographyRevealed"}),
    (1, {"scenario": "magnetic-north-pole"}, {"CompassDrawn"}),
    (1, {"scenario": "lost-expedition"}, {"EventRevealed"}),
]


def _play_with_undo(c: TestClient, players: int, opts: dict[str, Any], seed: int) -> dict[str, int]:
    """Play the seeded game (every seat a person) with the engine's twin; after each
    action check the undo the rules allow or refuse, and take back and redo every
    action that may be undone.  Returns how often each kind of reveal was refused."""
    g = create(c, [HUMAN] * players, opts, seed=seed)
    gid, toks = g["id"], tokens(g)
    twin = SPEC.new_game(players, seed, opts)
    rng = random.Random(seed)
    refused: dict[str, int] = {}
    undone = 0
    while not twin.is_over:
        seat = twin.current_player
        before = get(c, gid, toks[seat])
        assert before["view"] == SPEC.wire_view(twin, seat)
        action = pick(rng, before["legal_actions"])
        prior = twin.clone()
        events = twin.apply(SPEC.action_from_json(action))
        kinds = reveal_kinds(events)
        piles = drawn(prior, twin)
        assert not piles or kinds, f"{action} drew from {piles} and revealed nothing"
        barrier = (
            twin.is_over
            or twin.current_player != seat
            or bool(kinds)
            or any(isinstance(e, TURN_EVENTS) for e in events)
        )
        after = act(c, gid, toks[seat], before["version"], action)
        assert after["view"] == SPEC.wire_view(twin, seat)
        assert after["can_undo"] == (not barrier), (action, kinds)
        r = undo(c, gid, toks[seat], after["version"])
        if barrier:
            mover = twin.current_player
            expected = 403 if not twin.is_over and mover != seat else 400
            assert r.status_code == expected, (action, kinds, r.text)
            if mover is not None and mover != seat and not twin.is_over:
                assert undo(c, gid, toks[mover], after["version"]).status_code == 400
            for k in kinds:
                refused[k] = refused.get(k, 0) + 1
            continue
        assert r.status_code == 200, (action, r.text)
        back = r.json()
        assert back["version"] == after["version"] + 1
        assert back["view"] == before["view"] and back["legal_actions"] == before["legal_actions"]
        assert back["events"][-1]["type"] == "Undone"
        again = act(c, gid, toks[seat], back["version"], action)
        assert again["view"] == after["view"] and again["can_undo"]
        undone += 1
    assert undone > 0
    return refused


@pytest.mark.parametrize(
    ("players", "opts", "wanted"), CASES, ids=[",".join(sorted(w)) for _, _, w in CASES]
)
def test_undo_until_a_reveal(
    sqlite_url: str, players: int, opts: dict[str, Any], wanted: set[str]
) -> None:
    seed = _seed_with(players, opts, wanted)
    with make_client(sqlite_url) as c:
        refused = _play_with_undo(c, players, opts, seed)
    assert wanted <= set(refused), refused


def test_the_cases_cover_every_kind_of_reveal() -> None:
    assert set().union(*(w for _, _, w in CASES)) == ALL_KINDS


def test_undo_refused_after_a_reveal_over_the_websocket(client: TestClient) -> None:
    """The setup's last choice reveals every investor: the socket's undo is refused."""
    g = create(client, [HUMAN, HUMAN], {}, seed=3)
    gid, toks = g["id"], tokens(g)
    rng = random.Random(0)
    for _ in range(20):
        seat = get(client, gid)["current_player"]
        with client.websocket_connect(f"/ws/games/{gid}?token={toks[seat]}") as ws:
            mine = recv(ws, "state")
            action = pick(rng, mine["legal_actions"])
            ws.send_json({"type": "action", "version": mine["version"], "action": action})
            state = recv(ws, "state")
            new = {e["type"] for e in state["events"] if e["version"] == state["version"]}
            if "InvestorRevealed" in new:
                assert not state["can_undo"]
                ws.send_json({"type": "undo", "version": state["version"]})
                err = recv(ws, "error")
                assert err["status"] == (400 if state["current_player"] == seat else 403)
                assert get(client, gid)["version"] == state["version"]  # nothing changed
                return
    raise AssertionError("no investor reveal in the setup")


def _mast_game() -> tuple[int, list[dict[str, Any]]]:
    """(seed, actions) of a two-player game (all upgrades) up to the leader's voyage
    choice with the Mast (upgrade 9) built: the tile is taken whenever it may be."""
    for seed in range(500):
        st = SPEC.new_game(2, seed, {"upgrades": "all"})
        rng = random.Random(seed)
        actions: list[dict[str, Any]] = []
        while not st.is_over and len(actions) < 400:
            legal = st.legal_actions()
            mast = [a for a in legal if a.kind == "take" and a.tile == 9]
            action = mast[0] if mast else rng.choice(legal)
            actions.append(action.to_json())
            st.apply(action)
            if action.kind == "voyage" and any(d[0] == "mast" for d in st.decisions):
                return seed, actions
    raise AssertionError("no game below seed 500 builds the Mast")


def test_undo_refused_after_the_mast_look(client: TestClient) -> None:
    """With the Mast the voyage's event card waits for the leader's pick of the top two:
    choosing the voyage shows the leader those two cards, so it cannot be taken back
    (else the leader could look at one deck and sail the other)."""
    seed, actions = _mast_game()
    g = create(client, [HUMAN, HUMAN], {"upgrades": "all"}, seed=seed)
    gid, toks = g["id"], tokens(g)
    for action in actions:
        cur = get(client, gid)
        seat = cur["current_player"]
        after = act(client, gid, toks[seat], cur["version"], action)
    assert action["type"] == "voyage" and after["current_player"] == seat
    new = [e["type"] for e in after["events"] if e["version"] == after["version"]]
    assert "EventCardsSeen" in new and not after["can_undo"]
    r = undo(client, gid, toks[seat], after["version"])
    assert r.status_code == 400, r.text
