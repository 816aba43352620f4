"""Through Ice and Snow at the table: every option set the engine takes (from the
catalog the lobby reads), the engine's word on bad ones, whole games for 1–4 seats over
HTTP and the WebSocket with random legal actions, and the options and the game kept
across a restart (SQLite, and PostgreSQL when EREBUS_TEST_POSTGRES_URL is set).
Undo: ``test_server_iceandsnow_undo.py``; hidden information:
``test_server_iceandsnow_hidden.py``."""

from __future__ import annotations

import contextlib
import itertools
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from iceandsnow_helpers import (
    EASY,
    GAME,
    HUMAN,
    SPEC,
    act,
    create,
    get,
    pick,
    record,
    recv_until,
    tokens,
    wait_humans,
)
from server_helpers import make_client

from erebus.games import GAMES, get_game

WS_SPACING_S = 0.06  # between two messages of one socket (the server allows 20 a second)
I18N = Path(__file__).resolve().parents[2] / "src" / "erebus" / "web" / "i18n"
LANGS = ("en", "hu", "it", "fr", "uk", "ja")


def _catalog(c: TestClient) -> dict[str, Any]:
    r = c.get("/api/catalog")
    assert r.status_code == 200, r.text
    return {g["game"]: g for g in r.json()["games"]}


def _option_sets(catalog: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """(players, game_options): every choice of every option of the catalog at each
    player count it belongs to, every combination of modes, both scenarios with modes."""
    ice = catalog[GAME]
    out: list[tuple[int, dict[str, Any]]] = []
    by_key = {o["key"]: o for o in ice["options"]}
    modes = by_key["modes"]["choices"]
    for n in (2, 3, 4):
        for k in range(len(modes) + 1):
            for combo in itertools.combinations(modes, k):
                out.append((n, {"modes": list(combo)}))
    for o in ice["options"]:
        counts = o["players"] or list(range(ice["min_players"], ice["max_players"] + 1))
        values: list[Any] = [True, False] if o["kind"] == "flag" else list(o["choices"])
        for n in counts:
            base: dict[str, Any] = {} if n > 1 else {"scenario": by_key["scenario"]["choices"][0]}
            if o["requires"]:  # a module's reading, with its module
                base[o["requires"][0]] = [o["requires"][1]]
            for v in values:
                if o["kind"] == "set":
                    if n not in o["choice_players"].get(v, [n]):
                        continue
                    v = [v]
                out.append((n, {**base, o["key"]: v}))
    scenarios = by_key["scenario"]["choices"]
    for scenario, ms in itertools.product(scenarios, ([], modes)):
        out.append((1, {"scenario": scenario, "modes": list(ms)}))
    everything = {
        "modes": list(modes),
        "upgrades": "all",
        "extra_events": True,
        "towing_pp": "per_fuel",
        "helm_tie": "include_leader",
        "passing": "forced",
    }
    out.append((4, everything))
    return out


def test_catalog_lists_both_games_with_the_engines_options(client: TestClient) -> None:
    catalog = _catalog(client)
    assert list(catalog) == list(GAMES)
    for name, g in catalog.items():
        spec = get_game(name)
        assert (g["title"], g["min_players"], g["max_players"]) == (
            spec.title,
            spec.min_players,
            spec.max_players,
        )
        assert g["web_board"] == spec.web_board
        assert g["options"] == [o.to_json() for o in spec.options]
    assert catalog["northwest"]["options"] == []
    ice = {o["key"]: o for o in catalog[GAME]["options"]}
    # The lobby's list is the engine's: every key parse_options knows with every module
    # the engine plays on, nothing else (Legendary Expeditions' "explorers": its
    # "random" choice; the API also takes one set letter per seat).
    every = SPEC.parse_options(2, {"modules": ice["modules"]["choices"]})
    assert set(ice) == set(every)
    for o in ice.values():  # a module's readings need their module
        if o["requires"]:
            key, module = o["requires"]
            assert module in ice[key]["choices"]
            if o["key"] != "explorers":  # stored always ("random"): old saves have it
                assert o["key"] not in SPEC.parse_options(2, None)
    assert ice["scenario"]["players"] == [1] and ice["scenario"]["default"] is None
    assert ice["modes"] == {
        "key": "modes",
        "kind": "set",
        "choices": ["survival", "shelters", "dual_species"],
        "default": [],
        "players": [],
        "requires": None,
        "choice_players": {},
    }
    for o in ice.values():  # each default is what the engine fills in
        for n in o["players"] or [2]:
            if o["default"] is not None:
                opts: dict[str, Any] = {} if n > 1 else {"scenario": ice["scenario"]["choices"][0]}
                if o["requires"]:
                    opts[o["requires"][0]] = [o["requires"][1]]
                assert SPEC.parse_options(n, opts)[o["key"]] == o["default"], o["key"]


def test_every_option_has_words_in_six_languages(client: TestClient) -> None:
    """The lobby names each game, option and choice and explains each option in a line:
    the keys exist in every language (their parity is test_web_i18n's)."""
    files = {lang: json.loads((I18N / f"{lang}.json").read_text("utf-8")) for lang in LANGS}
    catalog = _catalog(client)
    for name in ("northwest", GAME):  # the games of the package (the tests register more)
        g = catalog[name]
        keys = [f"game_name_{name}", f"game_help_{name}"]
        for o in g["options"]:
            keys += [f"gopt_{name}_{o['key']}", f"gopt_{name}_{o['key']}_help"]
            keys += [f"gopt_{name}_{o['key']}_{c}" for c in o["choices"]]
        for lang, strings in files.items():
            missing = [k for k in keys if not str(strings.get(k, "")).strip()]
            assert not missing, (lang, missing)
        for k in keys:  # translated, not English copies (short proper names aside)
            if len(files["en"][k]) > 24:
                assert files["hu"][k] != files["en"][k], k


def test_every_option_set_is_created_and_stored(db_url: str) -> None:
    with make_client(db_url) as c:
        sets = _option_sets(_catalog(c))
        assert len(sets) > 30
        made = []
        for i, (n, opts) in enumerate(sets):
            seats = [HUMAN] + [EASY] * (n - 1) if i % 2 else [HUMAN] * n
            g = create(c, seats, opts, seed=100 + i)
            state = get(c, g["id"])
            expected = SPEC.parse_options(n, opts)
            assert state["game"] == GAME and state["game_options"] == expected, opts
            made.append((g["id"], n, 100 + i, expected))
            rec = record(c, g["id"])
            assert rec.options["game"] == expected and rec.players == n
        # The options reach the engine: the first view is the engine's own game of that
        # seed and options (before any bot moved: a game whose first seat is a human).
        for gid, n, seed, expected in made[:12]:
            fresh = SPEC.new_game(n, seed, expected)
            payload = get(c, gid)
            if payload["version"] == 0:
                assert payload["view"] == SPEC.wire_view(fresh, None)
    with make_client(db_url) as c:  # a new app on the same database
        for gid, _n, _seed, expected in made:
            assert get(c, gid)["game_options"] == expected


BAD = [
    (2, {"mode": ["survival"]}),
    (2, {"modes": ["blizzard"]}),
    (2, {"modes": "survival"}),
    (2, {"upgrades": "some"}),
    (2, {"extra_events": "yes"}),
    (2, {"towing_pp": "per_ship"}),
    (2, {"helm_tie": 1}),
    (3, {"passing": None}),
    (2, {"scenario": "lost-expedition"}),
    (1, {}),
    (1, {"scenario": "amundsen"}),
    (4, {"scenario": "magnetic-north-pole"}),
    (2, ["survival"]),
    (2, "survival"),
]


@pytest.mark.parametrize(("players", "opts"), BAD, ids=[json.dumps(b[1]) for b in BAD])
def test_bad_options_get_the_engines_message(client: TestClient, players: int, opts: Any) -> None:
    with pytest.raises(ValueError) as exc:
        SPEC.parse_options(players, opts)
    body = {"game": GAME, "players": players, "seats": [HUMAN] * players, "game_options": opts}
    r = client.post("/api/games", json=body)
    assert r.status_code == 400, r.text
    assert r.json()["detail"] == f"game_options: {exc.value}"


def test_player_counts_and_solo_defaults(client: TestClient) -> None:
    for n in (0, 5):
        body = {"game": GAME, "players": n, "seats": [HUMAN] * max(n, 1)}
        r = client.post("/api/games", json=body)
        assert r.status_code == 400 and r.json()["detail"] == "players must be one of [1, 2, 3, 4]"
    solo = create(client, [HUMAN], {"scenario": "lost-expedition"})
    assert get(client, solo["id"])["game_options"]["modes"] == ["survival"]  # forced on
    r = client.post(
        "/api/games",
        json={"game": GAME, "players": 1, "seats": [EASY], "game_options": {"scenario": "x"}},
    )
    assert r.status_code == 400 and r.json()["detail"].startswith("game_options: ")


def _finish(c: TestClient, gid: str, humans: dict[int, str], rng: random.Random) -> Any:
    """Play the human seats with random legal actions until the game is over, one action
    in two over the seat's WebSocket; returns the final spectator payload and every
    message the sockets got."""
    got: list[Any] = []
    with contextlib.ExitStack() as stack:
        sockets = {
            s: stack.enter_context(c.websocket_connect(f"/ws/games/{gid}?token={t}"))
            for s, t in humans.items()
        }
        watcher = stack.enter_context(c.websocket_connect(f"/ws/games/{gid}"))
        sent = dict.fromkeys(humans, 0.0)  # when each socket last sent
        for _ in range(3000):
            g = wait_humans(c, gid, humans)
            if g["is_over"]:
                break
            seat = g["current_player"]
            mine = get(c, gid, humans[seat])
            action = pick(rng, mine["legal_actions"])
            if rng.random() < 0.5:
                # under the server's 20 messages a second per connection
                time.sleep(max(0.0, sent[seat] + WS_SPACING_S - time.monotonic()))
                sent[seat] = time.monotonic()
                sockets[seat].send_json(
                    {"type": "action", "version": mine["version"], "action": action}
                )
                recv_until(sockets[seat], mine["version"] + 1, got)
            else:
                assert (
                    act(c, gid, humans[seat], mine["version"], action)["version"]
                    > (mine["version"])
                )
        else:
            raise AssertionError("the game did not end")
        final = get(c, gid)
        for ws in (*sockets.values(), watcher):
            last = recv_until(ws, final["version"], got)
            assert last["is_over"] and last["scores"] == final["scores"]
    return final, got


WHOLE = [
    ([HUMAN], {"scenario": "lost-expedition"}),
    ([HUMAN], {"scenario": "magnetic-north-pole", "modes": ["shelters"]}),
    ([HUMAN, HUMAN], {}),
    ([HUMAN, EASY], {"modes": ["survival"], "upgrades": "all"}),
    ([HUMAN, {"kind": "bot", "level": "medium"}, HUMAN], {"modes": ["shelters", "dual_species"]}),
    ([EASY, HUMAN, EASY], {"extra_events": True, "passing": "forced"}),
    ([HUMAN, HUMAN, HUMAN, HUMAN], {"towing_pp": "per_fuel", "helm_tie": "include_leader"}),
    ([HUMAN, EASY, {"kind": "bot", "level": "hard"}, HUMAN], {"modes": ["survival"]}),
]


@pytest.mark.parametrize(
    ("seats", "opts"), WHOLE, ids=[f"{len(s)}p-{json.dumps(o)}" for s, o in WHOLE]
)
def test_whole_games_over_http_and_websocket(
    sqlite_url: str, seats: list[dict[str, Any]], opts: dict[str, Any]
) -> None:
    rng = random.Random(len(seats) * 31 + len(json.dumps(opts)))
    with make_client(sqlite_url) as c:
        g = create(c, seats, opts, seed=rng.randrange(1000))
        gid, humans = g["id"], tokens(g)
        final, got = _finish(c, gid, humans, rng)
        assert final["is_over"] and final["ranking"] is not None
        assert not [m for m in got if m.get("type") == "error"], got
        rec = record(c, gid)
        assert rec.status == "over"
        replayed = SPEC.replay(len(seats), rec.seed, rec.actions, rec.options["game"])
        assert replayed.is_over and replayed.scores() == final["scores"]
        assert SPEC.wire_view(replayed, None) == final["view"]
        # A finished game has its replay, step by step, ending where the game ended.
        index = c.get(f"/api/games/{gid}/replay").json()
        assert index["steps"] == len(rec.actions)
        last = c.get(f"/api/games/{gid}/replay/{index['steps']}").json()
        assert last["is_over"] and last["scores"] == final["scores"]
        assert last["view"] == final["view"]


def test_options_and_game_survive_a_restart(db_url: str) -> None:
    opts = {"modes": ["survival", "shelters"], "upgrades": "all", "towing_pp": "per_fuel"}
    rng = random.Random(7)
    with make_client(db_url) as c:
        g = create(c, [HUMAN, HUMAN, EASY], opts, seed=21)
        gid, humans = g["id"], tokens(g)
        for _ in range(12):
            cur = wait_humans(c, gid, humans)
            if cur["is_over"]:
                break
            seat = cur["current_player"]
            mine = get(c, gid, humans[seat])
            act(c, gid, humans[seat], mine["version"], pick(rng, mine["legal_actions"]))
        spectator = wait_humans(c, gid, humans)
        before = {s: get(c, gid, t) for s, t in humans.items()}
    with make_client(db_url) as c:
        assert get(c, gid) == spectator
        for s, t in humans.items():
            assert get(c, gid, t) == before[s]
        assert spectator["game_options"] == SPEC.parse_options(3, opts)
        final, _ = _finish(c, gid, humans, rng)
        assert final["is_over"] and final["game_options"] == spectator["game_options"]
        rematch = c.post(f"/api/games/{gid}/rematch?token={humans[0]}").json()
        assert get(c, rematch["id"])["game_options"] == spectator["game_options"]
