"""Through Ice and Snow on a real ``erebus serve`` killed with SIGKILL mid-game: the
game's options come back with its setup and every seat sees the same game, which then
plays on to its end."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from iceandsnow_helpers import EASY, GAME, HUMAN, SPEC, pick

GAMES = [
    (
        [HUMAN, HUMAN, EASY],
        {
            "modes": ["survival", "shelters"],
            "upgrades": "all",
            "extra_events": True,
            "towing_pp": "per_fuel",
            "passing": "forced",
        },
    ),
    ([HUMAN], {"scenario": "magnetic-north-pole", "modes": ["dual_species"]}),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Served:
    """``erebus serve`` in a subprocess on one SQLite file, started again at will."""

    def __init__(self, tmp: Path) -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.cmd = [sys.executable, "-m", "erebus.cli", "serve", "--port", str(self.port)]
        self.cmd += ["--db", f"sqlite:///{tmp}/erebus.db", "--api-rate", "0"]
        self.cmd += ["--create-per-minute", "0"]
        self.tmp = tmp
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop("DATABASE_URL", None)
        self.proc = subprocess.Popen(
            self.cmd, env=env, cwd=self.tmp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        for _ in range(400):
            try:
                httpx.get(f"{self.base}/api/catalog", timeout=0.5)
                return
            except httpx.HTTPError:
                time.sleep(0.05)
        self.kill()
        raise AssertionError("the server did not start")

    def kill(self) -> str:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        return self.proc.communicate()[0].decode(errors="replace")

    def get(self, gid: str, token: str | None = None) -> Any:
        r = httpx.get(f"{self.base}/api/games/{gid}" + (f"?token={token}" if token else ""))
        assert r.status_code == 200, r.text
        return r.json()

    def post(self, path: str, body: Any) -> httpx.Response:
        return httpx.post(self.base + path, json=body, timeout=10)


def _humans_turn(srv: Served, gid: str, humans: dict[int, str]) -> Any:
    end = time.monotonic() + 30
    while True:
        g = srv.get(gid)
        if g["is_over"] or g["current_player"] in humans:
            return g
        assert time.monotonic() < end, "the bot did not move"
        time.sleep(0.01)


def _play(srv: Served, gid: str, humans: dict[int, str], rng: random.Random, n: int) -> Any:
    """``n`` random human actions (an undo where one is allowed, once), bots between."""
    undone = False
    for _ in range(n):
        g = _humans_turn(srv, gid, humans)
        if g["is_over"]:
            return g
        tok = humans[g["current_player"]]
        mine = srv.get(gid, tok)
        if mine["can_undo"] and not undone:
            r = srv.post(f"/api/games/{gid}/undo?token={tok}", {"version": mine["version"]})
            assert r.status_code == 200, r.text
            undone = True
            continue
        body = {"version": mine["version"], "action": pick(rng, mine["legal_actions"])}
        r = srv.post(f"/api/games/{gid}/actions?token={tok}", body)
        assert r.status_code == 200, r.text
    return _humans_turn(srv, gid, humans)


def test_sigkill_keeps_the_options_and_the_game(tmp_path: Path) -> None:
    srv = Served(tmp_path)
    srv.start()
    made = []
    try:
        for i, (seats, opts) in enumerate(GAMES):
            body = {"game": GAME, "players": len(seats), "seats": seats, "game_options": opts}
            r = srv.post("/api/games", {**body, "seed": 40 + i})
            assert r.status_code == 201, r.text
            g = r.json()
            humans = {s["seat"]: s["token"] for s in g["seats"] if s["token"]}
            rng = random.Random(i)
            spectator = _play(srv, g["id"], humans, rng, 14)
            assert not spectator["is_over"], "the game should still be in progress"
            seen = {s: srv.get(g["id"], t) for s, t in humans.items()}
            made.append((g["id"], len(seats), opts, humans, rng, spectator, seen))
    finally:
        out = srv.kill()
    assert "erebus is running at http://127.0.0.1:" in out
    for _gid, _n, _opts, humans, *_ in made:
        assert not any(t in out for t in humans.values())  # tokens never reach the log
    srv.start()
    try:
        for gid, n, opts, humans, rng, spectator, seen in made:
            again = srv.get(gid)
            assert again == spectator
            assert again["game_options"] == SPEC.parse_options(n, opts)
            for s, t in humans.items():
                assert srv.get(gid, t) == seen[s]
            final = _play(srv, gid, humans, rng, 3000)
            assert final["is_over"] and final["game_options"] == again["game_options"]
            steps = httpx.get(f"{srv.base}/api/games/{gid}/replay").json()["steps"]
            last = httpx.get(f"{srv.base}/api/games/{gid}/replay/{steps}").json()
            assert last["view"] == final["view"] and last["scores"] == final["scores"]
    finally:
        srv.kill()
