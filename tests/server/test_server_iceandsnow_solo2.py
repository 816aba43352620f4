"""The Myths & Legends solo scenarios over the server: Mysterious Epidemic and Amundsen's
Voyage offered by the catalog for one seat, created, and played to the end over HTTP
and the WebSocket with random legal actions (test_server_iceandsnow's driver); the
stored game replays to the same view; no payload of any version holds the disease or
treatment deck's order; and every reason text the scenarios give is one the browser
words (test_web_iceandsnow_log's rule)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from iceandsnow_helpers import HUMAN, SPEC, create, get, record, states_by_version, tokens
from server_helpers import make_client
from test_server_iceandsnow import _finish
from test_web_iceandsnow_log import CONTENT, _worded

SCENARIOS = ("mysterious-epidemic", "amundsens-voyage")


def test_the_catalog_offers_both_for_one_seat(sqlite_url: str) -> None:
    with make_client(sqlite_url) as c:
        games = {g["game"]: g for g in c.get("/api/catalog").json()["games"]}
        opt = next(o for o in games["iceandsnow"]["options"] if o["key"] == "scenario")
        assert set(SCENARIOS) <= set(opt["choices"]) and opt["players"] == [1], opt


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("seed", [3, 8])
def test_a_whole_game_over_http_and_websocket(sqlite_url: str, scenario: str, seed: int) -> None:
    rng = random.Random(seed)
    with make_client(sqlite_url) as c:
        g = create(c, [HUMAN], {"scenario": scenario}, seed=seed)
        gid, humans = g["id"], tokens(g)
        assert get(c, gid)["game_options"]["scenario"] == scenario
        final, got = _finish(c, gid, humans, rng)
        assert final["is_over"]
        assert not [m for m in got if m.get("type") == "error"], got
        view = final["view"]
        sc = view["map"]["scenario"]
        assert sc["id"] == scenario and view["outcome"] in ("won", "lost")
        rec = record(c, gid)
        replayed = SPEC.replay(1, rec.seed, rec.actions, rec.options["game"])
        assert SPEC.wire_view(replayed, None) == view
        # no version's view holds a deck's order (the engine's own lists, top first)
        for st in states_by_version(rec):
            sj = st.to_json()
            text = json.dumps(SPEC.wire_view(st, 0))
            for deck in ("ep_dis_deck", "ep_tr_deck"):
                cards = sj.get(deck) or []
                if len(cards) > 1 and cards != sorted(cards):
                    assert json.dumps(cards)[1:-1] not in text, (deck, cards)
        for m in got:
            if m.get("type") == "state" and "ep_dis_deck" in json.dumps(m):
                raise AssertionError("a payload names the engine's disease deck")


def test_every_reason_of_the_scenarios_is_worded() -> None:
    names = {e["name"] for e in CONTENT["cards"]["events"]} | {
        u["name"] for u in CONTENT["cards"]["upgrades"]
    }
    unknown: set[str] = set()
    for scenario in SCENARIOS:
        for seed in range(4):
            st = SPEC.new_game(1, seed, SPEC.parse_options(1, {"scenario": scenario}))
            rng = random.Random(seed)
            for _ in range(1500):
                if st.is_over:
                    break
                legal = st.legal_actions()
                treats = [a for a in legal if a.kind == "treat"]
                for e in st.apply(rng.choice(treats or legal)):
                    j: dict[str, Any] = e.to_json()
                    r = j.get("reason")
                    if isinstance(r, str) and j["type"] != "GameOver" and not _worded(r, names):
                        unknown.add(f"{j['type']}: {r}")
    assert not unknown, sorted(unknown)
