"""Hidden information in Through Ice and Snow: nothing a seat (or a spectator) receives
shows more than the table does — GET states, WebSocket pushes and their events, the chat
history, the replay of a game in progress, the answers to rejected actions and to
``/check``.

Whole games (1–4 seats, bots in some) are played with random legal actions while every
seat and a spectator listen.  Afterwards the full state of every version is rebuilt from
the stored log, and each message is checked against what its reader must not know at
that version (:mod:`iceandsnow_helpers`): other seats' investor and cartography cards,
the cards never dealt, the order of every hidden pile.  Each view of a game in progress
is also compared with the view of a *different* full state that the reader cannot tell
apart (the engine's determinization of the reader's view: every hidden card dealt anew)
— equal views mean the view depends on nothing hidden, whatever its field names."""

from __future__ import annotations

import contextlib
import random
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from iceandsnow_helpers import (
    EASY,
    HUMAN,
    SPEC,
    create,
    deck_orders,
    get,
    leaks,
    pick,
    record,
    recv_until,
    secret_ids,
    secret_words,
    states_by_version,
    tokens,
    wait_humans,
)
from server_helpers import make_client

MEDIUM = {"kind": "bot", "level": "medium"}
GAMES = [
    ([HUMAN], {"scenario": "lost-expedition"}),
    ([HUMAN], {"scenario": "magnetic-north-pole"}),
    ([HUMAN, HUMAN], {}),
    ([HUMAN, EASY, HUMAN], {"modes": ["survival", "dual_species"], "upgrades": "all"}),
    ([HUMAN, HUMAN, MEDIUM, HUMAN], {"extra_events": True, "modes": ["shelters"]}),
]


class Seen:
    """Every message a reader got, with the version of the game when it got it."""

    def __init__(self) -> None:
        self.items: list[tuple[int | None, int, str, Any, set[str]]] = []

    def add(
        self, reader: int | None, version: int, what: str, msg: Any, sent: set[str] = frozenset()
    ) -> None:
        """``sent``: ids the reader itself put in the request (an answer may echo them)."""
        self.items.append((reader, version, what, msg, set(sent)))


def _probe_answers(
    c: TestClient, gid: str, token: str, version: int, ids: list[str], kind: str
) -> list[tuple[str, str, str]]:
    """(id, rejection of the action, /check's reason) for ``kind`` with each of ``ids``."""
    out = []
    for card in ids:
        action = {"type": kind, "card": card}
        r = c.post(
            f"/api/games/{gid}/actions?token={token}", json={"version": version, "action": action}
        )
        assert r.status_code == 400, r.text
        chk = c.post(f"/api/games/{gid}/check?token={token}", json={"action": action})
        assert chk.status_code == 200 and chk.json()["legal"] is False, chk.text
        out.append((card, r.json()["detail"], chk.json()["reason"]))
    return out


def _same_answer(answers: list[tuple[str, str, str]]) -> None:
    """Every probe got the same words, its own id aside: the answer tells a seat
    nothing about which hidden card it named."""
    masked = {(d.replace(card, "<card>"), r.replace(card, "<card>")) for card, d, r in answers}
    assert len(masked) == 1, answers


def _probe(
    c: TestClient, gid: str, seat: int, token: str, version: int, seen: Seen, known: list[Any]
) -> None:
    """Rejected actions naming hidden cards: another seat's dealt investor or cartography
    card against one nobody was dealt, and the top of the hunting deck against a card
    further down.  The answers must not tell them apart, nor show anything else."""
    state = states_by_version(record(c, gid), known)[version]
    sj = state.to_json()
    others = [s for s in range(sj["n"]) if s != seat]
    probes: list[tuple[str, list[str]]] = []
    inv = [x for s in others for x in sj["inv_opts"][s] if x in secret_ids(state, seat)]
    if inv and sj["inv_pool"]:
        probes.append(("choose_investor", [inv[0], sj["inv_pool"][0]]))
    car = [x for s in others for x in sj["carto_opts"][s]]
    if car and sj["carto_pool"]:
        probes.append(("choose_cartography", [car[0], sj["carto_pool"][0]]))
    if len(sj["hu_deck"]) >= 2:
        probes.append(("eat", [sj["hu_deck"][0], sj["hu_deck"][-1]]))
    if len(sj["sp_deck"]) >= 2:
        probes.append(("eat", [sj["sp_deck"][0], sj["sp_deck"][-1]]))
    legal = get(c, gid, token)["legal_actions"]
    for kind, ids in probes:
        if any(a["type"] == kind and a.get("card") in ids for a in legal):
            continue  # (the seat's own choice: not a probe)
        answers = _probe_answers(c, gid, token, version, ids, kind)
        _same_answer(answers)
        for card, detail, reason in answers:
            seen.add(seat, version, f"rejected {kind}", {"detail": detail}, {card})
            seen.add(seat, version, f"check {kind}", {"reason": reason}, {card})


def _play_and_listen(c: TestClient, seats: list[dict[str, Any]], opts: dict[str, Any]) -> Any:
    rng = random.Random(len(seats) * 7 + len(opts))
    g = create(c, seats, opts, seed=rng.randrange(10_000))
    gid, humans = g["id"], tokens(g)
    seen = Seen()
    known: list[Any] = []  # the full states so far, by version
    step = 0
    with contextlib.ExitStack() as stack:
        sockets: dict[int | None, Any] = {
            s: stack.enter_context(c.websocket_connect(f"/ws/games/{gid}?token={t}"))
            for s, t in humans.items()
        }
        sockets[None] = stack.enter_context(c.websocket_connect(f"/ws/games/{gid}"))
        got: dict[int | None, list[Any]] = {r: [] for r in sockets}
        while True:
            public = wait_humans(c, gid, humans)
            v = public["version"]
            seen.add(None, v, "GET", public)
            for reader, ws in sockets.items():
                start = len(got[reader])
                recv_until(ws, v, got[reader], errors_ok=True)
                for msg in got[reader][start:]:
                    seen.add(reader, msg.get("version", v), f"ws {msg.get('type')}", msg)
            if public["is_over"]:
                break
            for s, t in humans.items():
                seen.add(s, v, "GET", get(c, gid, t))
            seat = public["current_player"]
            tok = humans[seat]
            mine = get(c, gid, tok)
            if step % 5 == 0:  # the replay of a game in progress answers 409 and no more
                for path in ("replay", "replay/0", f"replay/{max(v - 1, 0)}"):
                    r = c.get(f"/api/games/{gid}/{path}")
                    assert r.status_code == 409, r.text
                    seen.add(None, v, f"GET {path}", r.json())
                r = c.post(f"/api/games/{gid}/actions?token={tok}", json={"version": v})
                assert r.status_code == 400, r.text
                seen.add(seat, v, "malformed action", r.json())
            if step % 3 == 0:
                _probe(c, gid, seat, tok, v, seen, known)
            if step % 11 == 0:
                ws = sockets[seat]
                ws.send_json({"type": "chat", "text": f"step {step}"})
                ws.send_json({"type": "action", "version": v, "action": {"type": "eat"}})
            action = pick(rng, mine["legal_actions"])
            chk = c.post(f"/api/games/{gid}/check?token={tok}", json={"action": action})
            assert chk.json() == {"legal": True}, chk.text
            r = c.post(
                f"/api/games/{gid}/actions?token={tok}", json={"version": v, "action": action}
            )
            assert r.status_code == 200, r.text
            seen.add(seat, r.json()["version"], "POST action", r.json())
            stale = c.post(
                f"/api/games/{gid}/actions?token={tok}", json={"version": v, "action": action}
            )
            assert stale.status_code in (403, 409), stale.text
            seen.add(seat, r.json()["version"], "stale action", stale.json())
            step += 1
        chat = c.get(f"/api/games/{gid}/chat").json()
        seen.add(None, public["version"], "GET chat", chat)
        assert chat["chat"], "the game had chat lines"
    return gid, seen, public


@pytest.mark.parametrize(
    ("seats", "opts"), GAMES, ids=[f"{len(s)}p-{'-'.join(map(str, o.values()))}" for s, o in GAMES]
)
def test_no_message_shows_a_secret(
    sqlite_url: str, seats: list[dict[str, Any]], opts: dict[str, Any]
) -> None:
    with make_client(sqlite_url) as c:
        gid, seen, final = _play_and_listen(c, seats, opts)
        rec = record(c, gid)
    states = states_by_version(rec)
    assert final["is_over"] and len(states) == final["version"] + 1
    problems = []
    checked_views: set[tuple[int | None, int]] = set()
    for reader, version, what, msg, sent in seen.items:
        state = states[version]
        words = secret_words(state, reader) - sent
        found = leaks(msg, words, deck_orders(state))
        if found:
            problems.append(f"seat {reader} v{version} {what}: {found}")
        # (once the game is over every cartography card is shown: no twin then)
        if (
            isinstance(msg, dict)
            and "view" in msg
            and not state.is_over
            and (reader, version) not in checked_views
        ):
            checked_views.add((reader, version))
            twin = SPEC.determinize(state.view(reader), version * 7919 + 1)
            other = SPEC.wire_view(twin, reader)
            if msg["view"] != other:
                diff = [k for k in msg["view"] if msg["view"][k] != other.get(k)]
                problems.append(f"seat {reader} v{version} {what}: the view depends on {diff}")
            if msg.get("legal_actions"):
                assert msg["legal_actions"] == [a.to_json() for a in twin.legal_actions()]
    assert not problems, "\n".join(problems[:20])
    whats = {what for _, _, what, _, _ in seen.items}
    every = {"GET", "ws state", "ws chat_history", "ws chat", "ws error", "POST action", "GET chat"}
    assert every | {"GET replay", "stale action", "malformed action"} <= whats, whats
    if len(seats) > 1:
        assert any(re.match(r"(rejected|check) ", w) for w in whats), whats


def test_the_checks_find_a_leak() -> None:
    """The checks are not vacuous: the full state shows every secret they look for, and
    a view that showed another seat's cartography card would differ from its twin's."""
    state = SPEC.new_game(3, 5, {})
    rng = random.Random(2)
    for _ in range(7):  # into the setup choices: some kept, some still offered
        state.apply(pick(rng, state.legal_actions()))
    full = state.to_json()
    words, orders = secret_words(state, 0), deck_orders(state)
    assert words and orders
    found = set(leaks(full, words, orders))
    assert {w for w in words if w in secret_ids(state, 0)} <= found
    assert any(f.startswith("deck order") for f in found)
    assert leaks(state.view(0), words, orders) == []
    twin = SPEC.determinize(state.view(0), 1)
    peek = lambda st: {**SPEC.wire_view(st, 0), "peek": st.to_json()["carto"]}  # noqa: E731
    assert peek(state) != peek(twin)
    assert SPEC.wire_view(state, 0) == SPEC.wire_view(twin, 0)
