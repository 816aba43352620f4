"""Legendary Expeditions over the server: whole games with the module created through
the API (random explorers: every seat chooses over the wire; fixed sets: one letter
per seat, the documented API form) and played to the end over HTTP and the
WebSocket with random legal actions (test_server_iceandsnow's driver).  The stored
game replays to the same view; no state message any socket got shows its seat (or
the spectator) another seat's dealt pair, a boxed explorer or the card Kellett
looked at; every reason the module's games give is one the browser words; the
catalog offers the module and its ``explorers`` option once the module is
implemented (checked in a fresh interpreter, since the options are read at import).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from iceandsnow_helpers import HUMAN, SPEC, create, get, record, states_by_version, tokens
from server_helpers import make_client
from test_server_iceandsnow import _finish
from test_web_iceandsnow_log import CONTENT, _worded

from erebus.games.iceandsnow import legends
from iceandsnow.legendskit import enabled

MODULE = "legendary_expeditions"
SRC = Path(__file__).resolve().parents[2] / "src"


@pytest.fixture(autouse=True)
def _module_on() -> Any:
    with enabled():
        yield


def _hidden(st: Any, viewer: int | None) -> set[str]:
    """Explorer and ship names and Kellett's looked cards ``viewer`` may not see."""
    secret = set(st.ex_box)
    for s, pair in enumerate(st.ex_dealt):
        if s != viewer:
            secret |= set(pair)
    secret -= {k for k in st.explorer if k}
    out = {str(legends.sets()[k][f]) for k in secret for f in ("explorer", "ship")}
    for s in range(st.n):
        raw = st.ex_peek[s] if s != viewer else []
        for i in range(0, len(raw), 3):
            deck = st.sp_deck if raw[i] == "species" else st.hu_deck
            if deck and deck[0] == raw[i + 1]:
                out.add(f'"{raw[i + 1]}"')
    return out


GAMES = [
    (2, "random", 3),
    (3, "random", 8),
    (3, ["D", "H", "G"], 5),
    (2, ["F", "I"], 6),
]


@pytest.mark.parametrize(("players", "explorers", "seed"), GAMES)
def test_a_whole_game_over_http_and_websocket(
    sqlite_url: str, players: int, explorers: Any, seed: int
) -> None:
    rng = random.Random(seed)
    with make_client(sqlite_url) as c:
        g = create(c, [HUMAN] * players, {"modules": [MODULE], "explorers": explorers}, seed=seed)
        gid, humans = g["id"], tokens(g)
        opts = get(c, gid)["game_options"]
        assert opts["modules"] == [MODULE] and opts["explorers"] == explorers
        final, got = _finish(c, gid, humans, rng)
        assert final["is_over"]
        assert not [m for m in got if m.get("type") == "error"], got
        view = final["view"]
        assert [e["set"] for e in view["legends"]["seats"]] == [
            (explorers[s] if explorers != "random" else e["set"])
            for s, e in enumerate(view["legends"]["seats"])
        ]
        assert all(e["set"] for e in view["legends"]["seats"])
        rec = record(c, gid)
        replayed = SPEC.replay(players, rec.seed, rec.actions, rec.options["game"])
        assert SPEC.wire_view(replayed, None) == view
        states = states_by_version(rec)
        checked = 0
        for m in got:
            if m.get("type") != "state":
                continue
            st = states[m["version"]]
            seat = m["view"]["seat"]
            text = json.dumps(m, ensure_ascii=False)
            found = [w for w in _hidden(st, seat) if w in text]
            assert not found, (m["version"], seat, found)
            checked += 1
        assert checked > 20


def test_every_reason_of_the_module_is_worded() -> None:
    names = {e["name"] for e in CONTENT["cards"]["events"]} | {
        u["name"] for u in CONTENT["cards"]["upgrades"]
    }
    lg = CONTENT["modules"][MODULE]
    names |= {e["name"] for e in lg["events"]}
    names |= {s["explorer"] for s in lg["sets"]} | {s["ship"] for s in lg["sets"]}
    unknown: set[str] = set()
    for i, ex in enumerate((list("ABC"), list("DEF"), list("GHI"), list("JAD"))):
        for seed in range(2):
            opts = SPEC.parse_options(3, {"modules": [MODULE], "explorers": ex})
            st = SPEC.new_game(3, seed + 10 * i, opts)
            rng = random.Random(seed)
            for _ in range(2000):
                if st.is_over:
                    break
                for e in st.apply(rng.choice(st.legal_actions())):
                    j: dict[str, Any] = e.to_json()
                    r = j.get("reason")
                    if isinstance(r, str) and j["type"] != "GameOver" and not _worded(r, names):
                        unknown.add(f"{j['type']}: {r}")
    assert not unknown, sorted(unknown)


def test_the_catalog_offers_the_module_once_implemented() -> None:
    code = (
        "import json\n"
        "from erebus.games.iceandsnow import options\n"
        "options.IMPLEMENTED_MODULES = options.IMPLEMENTED_MODULES | {'legendary_expeditions'}\n"
        "import importlib\n"
        "saved = options.IMPLEMENTED_MODULES\n"
        "src = open(options.__file__).read().replace(\n"
        "    'IMPLEMENTED_MODULES: frozenset[str] = frozenset(', 'IMPLEMENTED_MODULES = _S or frozenset(')\n"
        "ns = {'_S': saved, '__name__': 'x'}\n"
        "exec(compile(src, options.__file__, 'exec'), ns)\n"
        "print(json.dumps([o.to_json() for o in ns['OPTIONS']]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(SRC)},
    ).stdout
    opts = {o["key"]: o for o in json.loads(out)}
    assert MODULE in opts["modules"]["choices"]
    ex = opts["explorers"]
    assert ex["choices"] == ["random"] and ex["default"] == "random"
    assert ex["requires"] == ["modules", MODULE]
    assert opts["collinson_special_pp"]["requires"] == ["modules", MODULE]
