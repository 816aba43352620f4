"""One game at the table: the live state over the stored log, and what each seat sees.

One :class:`LiveGame` per game in this process holds the current state (rebuilt by
replaying the log on first use), recent events in words, the undo stack, the score
log and the WebSocket subscribers.  The same ``publish_*`` methods run live and when
the log is replayed, so both end in the same state.

What a seat sees is encoded to JSON once per change of the game and shared by every
subscriber of that seat and every HTTP read (:meth:`LiveGame.encoded`); only the seat
to move gets its legal actions.  A WebSocket gets the recent events in full once,
then with each push only the events after the previous push (``events_since``), or
the full list again after an undo.

Undo: the seat to move may take back its own actions of the current turn, one at a
time, back to the last action that revealed hidden information (the game's
``reveals_hidden``) or changed the turn.  An undo is a log row of its own (kind
"undo"); ``version`` is the number of log rows, undos included, so stale-version
checks keep working.  A takeover and a hand-back (kinds "takeover" / "handback",
events ``AutopilotOn`` / ``AutopilotOff``) are rows of their own too and clear the
undo stack.

The table knows a game only through its spec (``get_game(record.game)``).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import time
from collections import deque
from dataclasses import dataclass, field
from datetime import UTC
from typing import Any

import orjson

from erebus.core import events as common
from erebus.core.barrier import is_barrier
from erebus.core.game import GameSpec
from erebus.games import get_game
from erebus.server.errors import ApiError
from erebus.server.storage import ChatEntry, GameRecord, SeatInfo, hash_token

RECENT_EVENTS = 60
CHAT_HISTORY = 100  # chat lines kept in memory and sent to a (re)connecting client
AUTOPILOT_ROWS = frozenset({"takeover", "handback"})
#: The key of the game's own options (``spec.parse_options``) in a game's stored
#: options, beside the table's (time, clock, autopilot); absent when there are none.
GAME_OPTIONS = "game"


def _dumps(obj: Any) -> str:
    """Compact JSON, as Starlette's ``send_json`` and FastAPI's responses write it.

    orjson writes the same text ~10x faster than the standard library (a state
    payload: ~4 µs instead of ~40 µs, and every change of a game encodes one per
    seat); anything it refuses (an integer beyond 64 bits) goes the slow way."""
    try:
        return orjson.dumps(obj).decode()
    except TypeError:
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def iso_utc(t: Any) -> str:
    """An aware (or naive UTC) datetime as ISO 8601 UTC, to the millisecond."""
    if t.tzinfo is not None:
        t = t.astimezone(UTC).replace(tzinfo=None)
    return str(t.isoformat(timespec="milliseconds")) + "Z"


def chat_message(entry: ChatEntry) -> dict[str, Any]:
    """A chat line as every message shape carries it: ``version`` (the game's version
    when it was posted, None for lines older than revision 0004) and ``time``."""
    return {
        "type": "chat",
        "seat": entry.seat,
        "name": entry.name,
        "text": entry.text,
        "version": entry.version,
        "time": iso_utc(entry.created),
    }


#: The JSON of legal actions seen lately, by (class, action): the same few hundred
#: actions recur in every game (an action is an immutable value, a NamedTuple in
#: both games), and writing one costs a few µs each push.  Bounded; cleared when full.
_ACTION_JSON: dict[tuple[type, Any], orjson.Fragment] = {}
ACTION_JSON_MAX = 50_000


def _action_json(action: Any) -> Any:
    """``action.to_json()`` as already encoded JSON (an ``orjson.Fragment``, which
    orjson writes as is): the same bytes, memoised by value."""
    key = (type(action), action)
    try:
        hit = _ACTION_JSON.get(key)
    except TypeError:  # an unhashable action: no memo
        return action.to_json()
    if hit is None:
        if len(_ACTION_JSON) >= ACTION_JSON_MAX:
            _ACTION_JSON.clear()
        hit = _ACTION_JSON[key] = orjson.Fragment(orjson.dumps(action.to_json()))
    return hit


def _article(word: str) -> str:
    return "An" if word[:1].lower() in "aeiou" else "A"


def hints_default(kinds: list[str]) -> bool:
    """Hints are on by default when at most one seat is a person (every other seat a
    bot): no other person at the table is played against with help."""
    return sum(1 for k in kinds if k == "human") <= 1


@dataclass(eq=False)
class Subscriber:
    """One WebSocket watching a game.  ``queue`` holds what to send in order: a
    message, or None for "the state changed"; ``sent_key`` is the
    :meth:`LiveGame.push_key` of the last state sent, ``sending`` is set while a
    state is on its way (see ``erebus.server.app._send_state``)."""

    seat: int | None
    queue: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)
    sent_version: int | None = None  # the version of the last state sent to it
    sent_key: tuple[Any, ...] | None = None
    sending: bool = False

    def only_states_queued(self) -> bool:
        """Nothing but state notices waits: a fresh state may overtake them."""
        return all(m is None for m in self.queue._queue)  # type: ignore[attr-defined]


@dataclass
class LiveGame:
    record: GameRecord
    state: Any
    version: int
    events: deque[dict[str, Any]]
    names: list[str]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    rematch_id: str | None = None
    # (log index, state before, events before) of the current turn's undoable actions
    undo_stack: list[tuple[int, Any, deque[dict[str, Any]]]] = field(default_factory=list)
    autopilot: set[int] = field(default_factory=set)  # human seats a bot plays for
    joined: set[int] = field(default_factory=set)  # human seats whose player ever came
    # The game's takeover grace (None: a bot never plays for an absent player).
    takeover_grace_s: float | None = None
    conns: dict[int, int] = field(default_factory=dict)  # open WebSockets per seat
    last_seen: dict[int, float] = field(default_factory=dict)  # time.monotonic()
    # Scores at the end of each round, for the end-of-game chart (the event list is
    # capped).  Never rolled back: an action that ends a round cannot be undone.
    score_rounds: list[dict[str, Any]] = field(default_factory=list)
    # (version, seat, delta, reason) of every score change, for the breakdown.
    score_log: list[tuple[int, int, int, str]] = field(default_factory=list)
    move_started: float = field(default_factory=time.monotonic)
    watch_task: asyncio.Task[None] | None = None
    # The newest chat lines (stored in the database), oldest first.
    chat: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=CHAT_HISTORY))
    # The version at which ``events`` was last rolled back (an undo): a client that saw
    # an older version needs the whole list again, not the events after its version.
    events_reset: int = 0
    # Serialized payloads per (seat, events_since) for the current ``_cache_key``: every
    # subscriber of a seat and every HTTP read share one encoding.
    _cache: dict[tuple[int | None, int | None], tuple[str, str]] = field(default_factory=dict)
    _cache_key: tuple[Any, ...] = ()
    # What every seat's payload shares for the current ``_cache_key`` (``_payload``).
    _shared: dict[str, Any] = field(default_factory=dict)
    # The game's spec (``get_game(record.game)``), set when the game is loaded.
    spec: GameSpec | None = None
    # A cluster (erebus.server.replicas): the id of the newest chat row held, and the
    # other processes' open WebSockets per seat (counted in ``conns`` too).
    chat_id: int = 0
    remote_conns: dict[int, int] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def game(self) -> GameSpec:
        """The spec of this table's game: the server knows a game only through it."""
        if self.spec is None:
            self.spec = get_game(self.record.game)
        return self.spec

    @property
    def game_options(self) -> dict[str, Any]:
        """The game's own options (``spec.parse_options``'s result), as created."""
        return dict(self.record.options.get(GAME_OPTIONS, {}))

    def seat_of(self, token: str | None) -> int | None:
        """The seat this token holds; ``None`` for no token; ApiError 403 for a bad one."""
        if token is None or token == "":
            return None
        h = hash_token(token)
        for s in self.record.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return s.seat
        raise ApiError(403, "this token holds no seat in this game")

    @property
    def hints(self) -> bool:
        """Whether the seat to move may ask for a hint: the host's ``options.hints``
        (games created before the option: its default, :func:`hints_default`)."""
        value = self.record.options.get("hints")
        if value is None:
            return hints_default([s.kind for s in self.record.seats])
        return bool(value)

    def is_bot_turn(self) -> bool:
        cur = self.state.current_player
        return cur is not None and (self.record.seats[cur].kind == "bot" or cur in self.autopilot)

    def events_after(self, since: int | None) -> tuple[list[dict[str, Any]], int | None]:
        """(events, events_since): the events newer than version ``since`` if a client
        that has every event up to ``since`` can append them to its list, else all the
        recent events and None (replace your list)."""
        ev = self.events
        if since is None or not self.events_reset <= since <= self.version:
            return list(ev), None
        if len(ev) == ev.maxlen and ev[0]["version"] > since:
            return list(ev), None  # some of the events after ``since`` were dropped
        out = []
        for e in reversed(ev):
            if e["version"] <= since:
                break
            out.append(e)
        out.reverse()
        return out, since

    def payload(self, seat: int | None, since: int | None = None) -> dict[str, Any]:
        """What a seat (None: a spectator) sees.  ``since``: the version of the last
        payload this client got, whose events it keeps (see :meth:`events_after`)."""
        return self._payload(seat, since, None)

    def _payload(
        self, seat: int | None, since: int | None, shared: dict[str, Any] | None
    ) -> dict[str, Any]:
        """:meth:`payload`; with ``shared`` (for :meth:`encoded` only): the fields
        that are the same for every seat come from (and go into) it, once per
        change, and each legal action is its memoised JSON (:func:`_action_json`)."""
        st = self.state
        spec = self.game
        mine = seat is not None and st.current_player == seat and not st.is_over
        legal = st.legal_actions() if mine else []
        events, events_since = self.events_after(since)
        common: dict[str, Any]
        if shared is None:
            common = self._common()
            legal_json: list[Any] = [a.to_json() for a in legal]
        else:
            if "common" not in shared:
                shared["common"] = self._common()
            common = shared["common"]
            legal_json = [_action_json(a) for a in legal]
        return {
            "id": self.id,
            "game": self.record.game,
            "version": self.version,
            "seat": seat,
            "seeded": common["seeded"],
            "options": common["options"],
            "game_options": common["game_options"],
            "web_board": spec.web_board,
            "view": self._view(seat, shared),
            "legal_actions": legal_json,
            "legal_costs": (
                spec.action_costs(st, legal)
                if spec.action_costs
                else [spec.action_cost(st, a) for a in legal]
                if spec.action_cost
                else [None] * len(legal)
            ),
            "current_player": st.current_player,
            "is_over": common["is_over"],
            "scores": common["scores"],
            "ranking": common["ranking"],
            "players": common["players"],
            "events": events,
            "events_since": events_since,
            "rematch": self.rematch_id,
            "score_rounds": common["score_rounds"],
            "score_sources": common["score_sources"],
            "can_undo": mine and bool(self.undo_stack),
            "clock_s": common["clock_s"],
        }

    def _view(self, seat: int | None, shared: dict[str, Any] | None) -> dict[str, Any]:
        """The game's ``wire_view`` of the state for ``seat``; in :meth:`encoded`, with
        the spec's ``wire_view_shared`` where it has one, which builds the parts of a
        view the same for every seat once per state (a dict in ``shared`` that holds
        the state it is for, so it is never used for another)."""
        st = self.state
        spec = self.game
        if shared is None or spec.wire_view_shared is None:
            return spec.wire_view(st, seat)
        hit = shared.get("view")
        if hit is None or hit[0] is not st:
            hit = shared["view"] = (st, {})
        return spec.wire_view_shared(st, seat, hit[1])

    def _common(self) -> dict[str, Any]:
        """The fields of :meth:`payload` that do not depend on the seat."""
        st = self.state
        opts = self.record.options
        return {
            "seeded": bool(opts.get("seeded", False)),
            "options": {
                "takeover_grace_s": self.takeover_grace_s,
                "clock_s": opts.get("clock_s"),
                "autopilot_level": opts.get("autopilot_level", "medium"),
                "hints": self.hints,
            },
            "game_options": self.game_options,
            "is_over": st.is_over,
            "scores": st.scores(),
            "ranking": st.ranking() if st.is_over else None,
            "players": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "level": s.level,
                    "name": self.names[s.seat],
                    "named": s.name is not None,
                    "autopilot": s.seat in self.autopilot,
                    "connected": self.conns.get(s.seat, 0) > 0,
                    "joined": s.seat in self.joined,
                }
                for s in self.record.seats
            ],
            "score_rounds": list(self.score_rounds),
            "score_sources": self.score_sources(),
            "clock_s": opts.get("clock_s"),
        }

    def push_key(self) -> tuple[Any, ...]:
        """Changes whenever a state must be pushed: the version (state, events,
        scores, undo, takeovers), the seats the autopilot plays and the rematch.
        Who is connected is not in it: that goes out as a ``presence`` message."""
        return (self.version, tuple(sorted(self.autopilot)), self.rematch_id)

    def local_conns(self) -> dict[int, int]:
        """This process's open WebSockets per seat (``conns`` counts the other
        processes' too, in a cluster: ``remote_conns``)."""
        return {s: n - self.remote_conns.get(s, 0) for s, n in self.conns.items()}

    def presence_key(self) -> tuple[Any, ...]:
        """Changes when a player connects, joins or leaves."""
        return (tuple(s for s, n in sorted(self.conns.items()) if n), len(self.joined))

    def presence(self) -> dict[str, Any]:
        """The WebSocket message sent when a player connects, joins or leaves (a
        state is not pushed for that; every payload carries the same fields)."""
        return {
            "type": "presence",
            "players": [
                {
                    "seat": s.seat,
                    "connected": self.conns.get(s.seat, 0) > 0,
                    "joined": s.seat in self.joined,
                }
                for s in self.record.seats
            ],
        }

    def encoded(self, seat: int | None, since: int | None = None) -> tuple[str, str]:
        """(``payload(seat, since)`` as JSON, the same as a WebSocket ``state`` message),
        built once per change of the game and shared.  The key (:meth:`push_key` and
        :meth:`presence_key`) holds everything a payload depends on besides its
        arguments."""
        key = (*self.push_key(), self.presence_key())
        if key != self._cache_key:
            self._cache.clear()
            self._shared = {}
            self._cache_key = key
        out = self._cache.get((seat, since))
        if out is None:
            try:
                body = orjson.dumps(self._payload(seat, since, self._shared)).decode()
            except TypeError:  # e.g. an integer beyond 64 bits: the plain payload, slowly
                body = _dumps(self.payload(seat, since))
            out = (body, '{"type":"state",' + body[1:])
            self._cache[seat, since] = out
        return out

    def add_events(self, version: int, events: list[Any]) -> None:
        for e in events:
            # The event's own fields let clients translate and chart it.
            self.events.append({**e.to_json(), "version": version, "text": e.text(self.names)})

    def publish_action(self, seat: int, kind: str, new: Any, events: list[Any]) -> None:
        """Make ``new`` (the state after log row ``self.version``) current.  The same code
        runs live and when the log is replayed, so both end in the same state."""
        before = (self.version, self.state, self.events.copy())
        self.state = new
        self.version += 1
        self.add_events(self.version, events)
        self._record_round_scores(new, events)
        self.score_log += [
            (self.version, e.seat, e.delta, e.reason)
            for e in events
            if isinstance(e, common.ScoreChanged)
        ]
        self.move_started = time.monotonic()
        if kind == "action" and not is_barrier(self.game, seat, new, events):
            self.undo_stack.append(before)
        else:
            self.undo_stack.clear()

    def score_sources(self) -> list[dict[str, int]]:
        """Per seat, points by reason (the ``ScoreChanged`` reasons), whole game."""
        out: list[dict[str, int]] = [{} for _ in range(self.record.players)]
        for _, seat, delta, reason in self.score_log:
            out[seat][reason] = out[seat].get(reason, 0) + delta
        return out

    def _record_round_scores(self, new: Any, events: list[Any]) -> None:
        """Append the scores as they stood at each ``RoundEnded`` among ``events``."""
        scores = list(new.scores())
        found = []
        for e in reversed(events):
            if isinstance(e, common.ScoreChanged):
                scores[e.seat] -= e.delta
            elif isinstance(e, common.RoundEnded):
                found.append({"round": e.round, "scores": scores[:]})
        self.score_rounds.extend(reversed(found))

    def publish_undo(self, seat: int, undoes: int) -> None:
        """Take back the newest undoable action (log row ``undoes``)."""
        if not self.undo_stack or self.undo_stack[-1][0] != undoes:
            raise ValueError(f"action {undoes} of game {self.id} cannot be undone")
        kept, self.state, self.events = self.undo_stack.pop()
        self.score_log = [x for x in self.score_log if x[0] <= kept]
        self.version += 1
        self.events_reset = self.version
        self.move_started = time.monotonic()
        self.events.append(
            {
                "type": "Undone",
                "seat": seat,
                "undone": undoes + 1,
                "version": self.version,
                "text": f"{self.names[seat]} takes back a move.",
            }
        )

    def publish_autopilot(self, seat: int, kind: str, data: dict[str, Any]) -> None:
        """Log row ``kind`` "takeover" (``data``: reason, level) or "handback" for
        ``seat``: the autopilot starts or stops playing it.  Live and on replay."""
        self.version += 1
        self.undo_stack.clear()  # the bot's or the player's moves are not the other's to undo
        name = self.names[seat]
        if kind == "takeover":
            level = str(data.get("level") or "medium")
            self.autopilot.add(seat)
            event = {
                "type": "AutopilotOn",
                "seat": seat,
                "level": level,
                "reason": str(data.get("reason") or "away"),
                "version": self.version,
                "text": f"{_article(level)} {level} bot plays for {name}.",
            }
        elif kind == "handback":
            self.autopilot.discard(seat)
            self.move_started = time.monotonic()  # a fresh clock
            event = {
                "type": "AutopilotOff",
                "seat": seat,
                "version": self.version,
                "text": f"{name} is back and plays again.",
            }
        else:
            raise ValueError(f"unknown autopilot row {kind!r}")
        self.events.append(event)

    def notify(self, message: dict[str, Any] | None = None) -> None:
        """Tell every subscriber: ``None`` = the state changed (each builds its own view)."""
        for sub in list(self.subscribers):
            sub.queue.put_nowait(message)


def seat_names(seats: list[SeatInfo]) -> list[str]:
    """The name each seat goes by: the host's choice, else "Player n" / "Bot n (level)"."""
    out = []
    for s in seats:
        if s.kind == "bot":
            out.append(f"Bot {s.seat + 1} ({s.level})")
        else:
            out.append(s.name or f"Player {s.seat + 1}")
    return out
