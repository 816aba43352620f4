"""Helpers for the Through Ice and Snow server tests: creating games, driving them with
random legal actions over HTTP and the WebSocket, rebuilding the full state of every
version from the stored log, and what each seat must never see.

The secrets come from the full state (``state.to_json()``) and the engine's own view
(:mod:`erebus.games.iceandsnow.hidden`), never from the wire view's field names, so the
checks hold whatever shape the browser's view takes.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from erebus.core.game import GameSpec
from erebus.games import get_game
from erebus.games.iceandsnow import wording
from erebus.server.storage import GameRecord

GAME = "iceandsnow"
SPEC: GameSpec = get_game(GAME)
HUMAN: dict[str, Any] = {"kind": "human"}
EASY: dict[str, Any] = {"kind": "bot", "level": "easy"}
#: Hidden piles whose order (and, for the boxes, whose contents) nobody knows.
ORDERED = ("sp_deck", "hu_deck", "ev_open", "ev_coastal", "compass", "search")
#: Everything that holds cards nobody has seen: a card leaving one of these was drawn.
PILES = (*ORDERED, "hu_box", "ev_box", "inv_pool", "carto_pool")


def create(
    c: TestClient,
    seats: list[dict[str, Any]],
    game_options: dict[str, Any] | None = None,
    seed: int | None = None,
) -> Any:
    body: dict[str, Any] = {"game": GAME, "players": len(seats), "seats": seats}
    if game_options is not None:
        body["game_options"] = game_options
    if seed is not None:
        body["seed"] = seed
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def tokens(created: Any) -> dict[int, str]:
    """Seat -> token of the human seats."""
    return {s["seat"]: s["token"] for s in created["seats"] if s["token"]}


def pick(rng: random.Random, legal: list[Any]) -> Any:
    """A random legal action, passing one time in ten when something else is possible
    (the games then reach the later reveals: compass cards, cartography at the end).
    ``legal``: the payload's action JSON, or the engine's actions in the same order
    (the same choice either way)."""
    rest = [a for a in legal if (a["type"] if isinstance(a, dict) else a.kind) != "pass"]
    return rng.choice(rest if rest and rng.random() < 0.9 else legal)


def get(c: TestClient, gid: str, token: str | None = None) -> Any:
    r = c.get(f"/api/games/{gid}" + (f"?token={token}" if token else ""))
    assert r.status_code == 200, r.text
    return r.json()


def act(c: TestClient, gid: str, token: str, version: int, action: Any) -> Any:
    r = c.post(
        f"/api/games/{gid}/actions?token={token}", json={"version": version, "action": action}
    )
    assert r.status_code == 200, r.text
    return r.json()


def undo(c: TestClient, gid: str, token: str, version: int) -> Any:
    return c.post(f"/api/games/{gid}/undo?token={token}", json={"version": version})


def wait_humans(c: TestClient, gid: str, humans: dict[int, str], timeout: float = 30.0) -> Any:
    """The spectator's payload once a human seat is to move or the game is over."""
    end = time.monotonic() + timeout
    while True:
        g = get(c, gid)
        if g["is_over"] or g["current_player"] in humans:
            return g
        assert time.monotonic() < end, "the bots did not move"
        time.sleep(0.003)


def recv_until(
    ws: WebSocketTestSession, version: int, into: list[Any], errors_ok: bool = False
) -> Any:
    """The newest state ``ws`` got once it has one of ``version`` or newer (reading on
    if it has not); every message read goes to ``into``.  An ``error`` message fails
    (it would mean no state is coming) unless ``errors_ok``."""
    last = getattr(ws, "erebus_last_state", None)
    if last is not None and last["version"] >= version:
        return last
    for _ in range(10_000):
        msg = ws.receive_json()
        into.append(msg)
        assert errors_ok or msg.get("type") != "error", msg
        if msg.get("type") == "state":
            ws.erebus_last_state = msg  # type: ignore[attr-defined]
            if msg["version"] >= version:
                return msg
    raise AssertionError(f"no state of version {version}")


def record(c: TestClient, gid: str) -> GameRecord:
    rec = c.app.state.storage.load_game(gid)  # type: ignore[attr-defined]
    assert rec is not None
    return rec


def game_options(rec: GameRecord) -> dict[str, Any] | None:
    opts: dict[str, Any] | None = rec.options.get("game")
    return opts


def states_by_version(rec: GameRecord, known: list[Any] | None = None) -> list[Any]:
    """``out[v]``: the full state at version ``v`` (after ``v`` log rows): an action row
    applies, an undo row returns to the state before the row it undoes, a takeover or
    hand-back changes nothing.  Independent of the server's own bookkeeping.
    ``known``: the list of an earlier call for the same game, extended in place."""
    out = known if known is not None else []
    if not out:
        out.append(SPEC.new_game(rec.players, rec.seed, game_options(rec)))
    for e in rec.log[len(out) - 1 :]:
        if e.kind == "undo":
            assert e.undoes is not None
            out.append(out[e.undoes])
        elif e.kind in ("takeover", "handback"):
            out.append(out[-1])
        else:
            new = out[-1].clone()
            new.apply(e.action)
            out.append(new)
    return out


def secret_ids(state: Any, viewer: int | None) -> set[str]:
    """The card ids ``viewer`` (None: a spectator) must not find in a payload of this
    state: every other seat's dealt investors (the kept one until the investors are
    revealed) and cartography cards (until the game is over), and the cards never dealt."""
    sj = state.to_json()
    out: set[str] = set()
    if sj["over"]:
        return out
    for s in range(sj["n"]):
        if s == viewer:
            continue
        for card in sj["inv_opts"][s]:
            if card != sj["investor"][s] or not sj["revealed"]:
                out.add(card)
        if sj["investor"][s] is not None and not sj["revealed"]:
            out.add(sj["investor"][s])
        out.update(sj["carto_opts"][s])
        if sj["carto"][s] is not None:
            out.add(sj["carto"][s])
    out.update(sj["inv_pool"])
    out.update(sj["carto_pool"])
    return out


def secret_words(state: Any, viewer: int | None) -> set[str]:
    """:func:`secret_ids` and the investors' names as the texts word them, but for the
    words a public thing shares (the investor "admiralty" and the region "admiralty",
    Admiralty Inlet): a payload may name the region."""
    ids = secret_ids(state, viewer)
    content = state.content
    regions = set(content.regions)
    region_names = [wording.region(r) for r in regions]
    names = {wording.investor(i) for i in ids if i in content.investors}
    return {i for i in ids if i not in regions} | {
        n for n in names if not any(n in r for r in region_names)
    }


def deck_orders(state: Any) -> list[list[Any]]:
    """The first three cards of every hidden pile whose order is not sorted (a sorted
    pile is indistinguishable from the public list of what it holds)."""
    sj = state.to_json()
    out = []
    for k in ORDERED:
        top = list(sj[k][:3])
        if len(top) >= 2 and top != sorted(top, key=str):
            out.append(top)
    return out


def _walk(obj: Any) -> Iterator[Any]:
    yield obj
    if isinstance(obj, dict):
        for v in obj.values():
            yield from _walk(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _walk(v)


_WORD = re.compile(r"\w+")


def leaks(payload: Any, words: set[str], orders: list[list[Any]]) -> list[str]:
    """What of ``words`` (as a string value, or inside any text) and of ``orders`` (as
    the start of any list) ``payload`` holds."""
    text = json.dumps(payload, ensure_ascii=False)
    # ids as whole words ("cartography_1" is not in "cartography_10"), names as text
    tokens = set(_WORD.findall(text))
    found = [w for w in sorted(words) if (w in tokens if _WORD.fullmatch(w) else w in text)]
    tops = [[str(x) for x in top] for top in orders]
    for node in _walk(payload):
        if isinstance(node, list) and len(node) >= 2 and not isinstance(node[0], dict | list):
            head = [str(x) for x in node[:3]]
            found += [f"deck order {top}" for top in tops if head[: len(top)] == top]
    return found


def drawn(before: Any, after: Any) -> list[str]:
    """The hidden piles a card left between two full states (a draw)."""
    b, a = before.to_json(), after.to_json()
    return [k for k in PILES if set(map(str, b[k])) - set(map(str, a[k]))]


def reveal_kinds(events: list[Any]) -> list[str]:
    """The kinds of reveal among engine events, by the spec's own ``reveals_hidden``
    (cards revealed are told apart by their deck)."""
    out = []
    for e in events:
        if SPEC.reveals_hidden(e):
            deck = getattr(e, "deck", None)
            out.append(type(e).__name__ + (f":{deck}" if deck else ""))
    return out
