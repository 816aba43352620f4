"""Live games: the in-memory cache over the stored action log, seat tokens,
turns, bots and change notification.

One :class:`LiveGame` per game in this process holds the current state (rebuilt
by replaying the log on first use), recent events in words and the WebSocket
subscribers.  An action is checked on a copy, committed to the database (one
commit per action), and only then made visible and broadcast.

What a seat sees is encoded to JSON once per change of the game and shared by every
subscriber of that seat and every HTTP read (:meth:`LiveGame.encoded`); only the seat
to move gets its legal actions.  A WebSocket gets the recent events in full once,
then with each push only the events after the previous push (``events_since``), or
the full list again after an undo.  Easy (random) bots choose in this process: their
move depends only on the legal actions, and a worker process would cost more to
reach than the choice itself.

Chat: seated players post lines (at most ``CHAT_MAX`` characters); each is stored
(table ``chat``, revision 0003) before it is broadcast, and a (re)connecting
WebSocket first gets the newest ``CHAT_HISTORY`` lines.  Spectators read the chat
but do not post (their links are public, so posting would be anonymous).

Undo: the seat to move may take back its own actions of the current turn, one at a
time, back to the last action that revealed hidden information (a tile from the bag)
or changed the turn.  An undo is a log row of its own (kind "undo"); ``version`` is
the number of log rows, undos included, so stale-version checks keep working.

Seats and the autopilot: a human seat's player has *joined* once a WebSocket with the
seat's token opened or an action came with it (stored: ``seats.joined``).  A bot never
plays for a seat that has not joined: a game may wait for an invitee for days.  For a
joined seat, a bot (option ``autopilot_level``) takes over on its turn when (a) no
WebSocket of the player has been open for the game's ``takeover_grace_s`` (counted from
when they left or from when the turn began, whichever is later; ``None``: never), or
(b) the per-move clock (option ``clock_s``) ran out.  The player gets the seat back by
connecting, acting, undoing or sending ``resume``.  A takeover and a hand-back are log
rows of their own (kinds "takeover" / "handback", events ``AutopilotOn`` /
``AutopilotOff``): each adds one to ``version``, clears the undo stack and is replayed
after a restart like any other row.  One asyncio timer task per game (``_watch``).

A game whose stored log no longer replays is *damaged*: it answers 409 with the row
and the reason, remembered in memory so the log is not replayed on every request.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import json
import logging
import re
import secrets
import time
import unicodedata
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC
from typing import Any, TypeVar

import orjson

from erebus.bots import LEVELS
from erebus.bots.base import BotSpec
from erebus.bots.pool import IN_PROCESS, BotPool, FairQueue, choose_from_view, choose_now
from erebus.core import IllegalAction
from erebus.core import events as common
from erebus.core.barrier import is_barrier
from erebus.core.game import GameSpec
from erebus.games import get_game
from erebus.server.residency import Residency
from erebus.server.storage import (
    ChatEntry,
    DamagedRecord,
    GameRecord,
    SeatInfo,
    StaleVersion,
    Storage,
    hash_token,
)

T = TypeVar("T")

CLOCK_MAX_S = 24 * 3600.0
GRACE_MIN_S, GRACE_MAX_S = 10.0, 7 * 24 * 3600.0  # options.takeover_grace_s, when not null
NAME_MAX = 24  # characters of a seat's name
AUTOPILOT_ROWS = frozenset({"takeover", "handback"})
QUIET_SPINS = 20  # passes of the event loop a bot move waits at most for a quiet one
#: The key of the game's own options (``spec.parse_options``) in a game's stored
#: options, beside the table's (time, clock, autopilot); absent when there are none.
GAME_OPTIONS = "game"
GAME_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,32}")  # secrets.token_urlsafe's alphabet


log = logging.getLogger("erebus.server")

RECENT_EVENTS = 60
CHAT_MAX = 500  # characters per chat line
CHAT_HISTORY = 100  # chat lines kept in memory and sent to a (re)connecting client


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


def _article(word: str) -> str:
    return "An" if word[:1].lower() in "aeiou" else "A"


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Settings:
    # "process": a BotPool of worker processes; "inline": a thread of this process (tests).
    bot_mode: str = "process"
    bot_workers: int = 2
    hard_time_s: float = 1.0
    hard_iterations: int | None = None  # set (tests) for fast, reproducible hard bots
    bot_delay_s: float = 0.0  # pause before each bot move, so people can follow
    # The takeover grace of games whose creator did not choose one (create's
    # ``options.takeover_grace_s``): a joined human seat with no open WebSocket for
    # this long on its turn hands its turns to a bot (the autopilot) until the player
    # comes back.  Not bound by the option's limits (tests use fractions of a second).
    away_grace_s: float = 300.0
    # Hosting limits (erebus.server.guard, erebus.server.residency; README "Hosting").
    # 0 turns off max_think_s, create_per_minute, api_rate and max_live_games.
    max_think_s: float = 5.0  # a hard bot's think time per move, whatever options.time_s says
    create_per_minute: int = 20  # new games per client address
    api_rate: float = 30.0  # requests a second per client address on /api/* and /ws/*
    api_burst: int = 60  # ... with bursts of up to this many
    max_live_games: int = 2000  # games in progress in memory; more: 429 "the server is full"
    abandon_after_s: float = 3600.0  # no WebSocket open and no request: the bots stop
    evict_after_s: float = 60.0  # a finished game nobody watches leaves memory after this
    max_idle_games: int = 500  # games nobody watches kept in memory (least recent go first)
    allowed_origins: tuple[str, ...] = ()  # WebSocket Origins allowed besides this host


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
    # The game's spec (``get_game(record.game)``), set when the game is loaded.
    spec: GameSpec | None = None

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
        st = self.state
        spec = self.game
        mine = seat is not None and st.current_player == seat and not st.is_over
        legal = st.legal_actions() if mine else []
        events, events_since = self.events_after(since)
        opts = self.record.options
        legal = st.legal_actions() if mine else []
        return {
            "id": self.id,
            "game": self.record.game,
            "version": self.version,
            "seat": seat,
            "seeded": bool(opts.get("seeded", False)),
            "options": {
                "takeover_grace_s": self.takeover_grace_s,
                "clock_s": opts.get("clock_s"),
                "autopilot_level": opts.get("autopilot_level", "medium"),
            },
            "game_options": self.game_options,
            "web_board": spec.web_board,
            "view": spec.wire_view(st, seat),
            "legal_actions": [a.to_json() for a in legal],
            "legal_costs": (
                [spec.action_cost(st, a) for a in legal]
                if spec.action_cost
                else [None] * len(legal)
            ),
            "current_player": st.current_player,
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
            "events": events,
            "events_since": events_since,
            "rematch": self.rematch_id,
            "score_rounds": list(self.score_rounds),
            "score_sources": self.score_sources(),
            "can_undo": mine and bool(self.undo_stack),
            "clock_s": self.record.options.get("clock_s"),
        }

    def push_key(self) -> tuple[Any, ...]:
        """Changes whenever a state must be pushed: the version (state, events,
        scores, undo, takeovers), the seats the autopilot plays and the rematch.
        Who is connected is not in it: that goes out as a ``presence`` message."""
        return (self.version, tuple(sorted(self.autopilot)), self.rematch_id)

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
            self._cache_key = key
        out = self._cache.get((seat, since))
        if out is None:
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


def _names(seats: list[SeatInfo]) -> list[str]:
    out = []
    for s in seats:
        if s.kind == "bot":
            out.append(f"Bot {s.seat + 1} ({s.level})")
        else:
            out.append(s.name or f"Player {s.seat + 1}")
    return out


# Characters a name may not hold: control characters, lone surrogates, line breaks.
_BAD_NAME_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})


def _parse_name(i: int, name: Any) -> str | None:
    """A human seat's name as the host typed it (stripped), or None: the default."""
    if name is None:
        return None
    if not isinstance(name, str):
        raise ApiError(400, f"seat {i}: name must be a string")
    out: str = name.strip()
    if not 1 <= len(out) <= NAME_MAX:
        raise ApiError(400, f"seat {i}: name must have 1 to {NAME_MAX} characters")
    if any(unicodedata.category(ch) in _BAD_NAME_CATEGORIES for ch in out):
        raise ApiError(400, f"seat {i}: name must not contain control characters")
    return out


def _parse_seats(players: int, seats: Any) -> list[tuple[str, str | None, str | None]]:
    """(kind, level, name) per seat.  A bot seat's ``name`` is ignored: bots keep the
    generated one."""
    if seats is None:
        return [("human", None, None)] + [("bot", "medium", None)] * (players - 1)
    if not isinstance(seats, list) or len(seats) != players:
        raise ApiError(400, f"seats must be a list of {players} seats")
    out: list[tuple[str, str | None, str | None]] = []
    for i, s in enumerate(seats):
        if not isinstance(s, dict):
            raise ApiError(400, f"seat {i} must be an object")
        kind = s.get("kind")
        if kind == "human":
            out.append(("human", None, _parse_name(i, s.get("name"))))
        elif kind == "bot":
            level = s.get("level", "medium")
            if level not in LEVELS:
                raise ApiError(400, f"seat {i}: level must be one of {', '.join(LEVELS)}")
            out.append(("bot", level, None))
        else:
            raise ApiError(400, f"seat {i}: kind must be 'human' or 'bot'")
    return out


def _parse_grace(options: dict[str, Any]) -> float | None:
    """The host's ``options.takeover_grace_s`` (present in ``options``)."""
    grace = options["takeover_grace_s"]
    if grace is None:
        return None
    if (
        isinstance(grace, bool)
        or not isinstance(grace, int | float)
        or not GRACE_MIN_S <= grace <= GRACE_MAX_S
    ):
        raise ApiError(
            400,
            f"options.takeover_grace_s must be null (never) or seconds in "
            f"[{GRACE_MIN_S:g}, {GRACE_MAX_S:g}]",
        )
    return float(grace)


class GameService:
    def __init__(self, storage: Storage, settings: Settings | None = None) -> None:
        self.storage = storage
        self.settings = settings or Settings()
        self._games: dict[str, LiveGame] = {}
        self._load_lock = asyncio.Lock()
        # One bot at a time waits for a quiet moment of the event loop (see _quiet).
        self._bot_gate = asyncio.Lock()
        self._pool: BotPool | None = None
        self._fair = FairQueue(self.settings.bot_workers)  # inline bots (bot_mode "inline")
        st = self.settings
        self.residency = Residency(st.abandon_after_s, st.evict_after_s, st.max_idle_games)
        self._sweeper: asyncio.Task[None] | None = None
        self._closing = False
        # Games whose stored log does not replay: id -> the error they answer (409).
        self._damaged: dict[str, str] = {}
        # Writes: on the event loop where the storage says they are quick (SQLite: an
        # append to its log, ~0.2 ms, cheaper than two thread hops and the GIL
        # hand-overs they cost), else on a few threads of their own.
        self._writer: ThreadPoolExecutor | None = None
        if not storage.inline_writes:
            self._writer = ThreadPoolExecutor(4, thread_name_prefix="erebus-db")

    async def _write(self, fn: Callable[..., T], *args: Any) -> T:
        """Make a storage write; returns once it is committed."""
        if self._writer is None:
            return fn(*args)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._writer, functools.partial(fn, *args))

    # ---------------------------------------------------------- lifecycle

    async def close(self) -> None:
        self._closing = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        tasks = [g.bot_task for g in self._games.values() if g.bot_task]
        tasks += [g.watch_task for g in self._games.values() if g.watch_task]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t
        for g in self._games.values():
            g.notify({"type": "closing"})
        if self._pool is not None:
            await asyncio.to_thread(self._pool.close)
            self._pool = None
        if self._writer is not None:
            await asyncio.to_thread(self._writer.shutdown, True)

    # -------------------------------------------------------------- games

    async def create(self, body: Any, rematch_of: LiveGame | None = None) -> dict[str, Any]:
        if not isinstance(body, dict):
            raise ApiError(400, "the request body must be a JSON object")
        game = body.get("game", "northwest")
        try:
            spec = get_game(game)
        except ValueError as exc:
            raise ApiError(400, str(exc)) from exc
        players = body.get("players", 3)
        if isinstance(players, bool) or players not in spec.players:
            raise ApiError(400, f"players must be one of {list(spec.players)}")
        try:
            game_options = spec.parse_options(players, body.get("game_options"))
        except ValueError as exc:
            raise ApiError(400, f"game_options: {exc}") from exc
        seat_kinds = _parse_seats(players, body.get("seats"))
        seed = body.get("seed")
        seeded = seed is not None and rematch_of is None
        if seed is None:
            seed = secrets.randbits(62)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise ApiError(400, "seed must be an integer in 0..2^63-1")
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise ApiError(400, "options must be an object")
        time_s = options.get("time_s", self.settings.hard_time_s)
        if isinstance(time_s, bool) or not isinstance(time_s, int | float) or not 0 < time_s <= 30:
            raise ApiError(400, "options.time_s must be a number of seconds in (0, 30]")
        clock_s = options.get("clock_s")
        if clock_s is not None and (
            isinstance(clock_s, bool)
            or not isinstance(clock_s, int | float)
            or not 0 < clock_s <= CLOCK_MAX_S
        ):
            raise ApiError(400, "options.clock_s must be null or seconds per move in (0, 86400]")
        autopilot_level = options.get("autopilot_level", "medium")
        if autopilot_level not in LEVELS:
            raise ApiError(400, f"options.autopilot_level must be one of {', '.join(LEVELS)}")
        opts: dict[str, Any] = {
            "time_s": float(time_s),
            "bot_seed": secrets.randbits(31),
            "clock_s": None if clock_s is None else float(clock_s),
            "autopilot_level": autopilot_level,
            "seeded": seeded,
        }
        if game_options:
            opts[GAME_OPTIONS] = game_options
        # The host's grace is stored; without one the server's default applies
        # (``Settings.away_grace_s``, read when the game is loaded).
        if rematch_of is not None:
            if "takeover_grace_s" in rematch_of.record.options:
                opts["takeover_grace_s"] = rematch_of.record.options["takeover_grace_s"]
        elif "takeover_grace_s" in options:
            opts["takeover_grace_s"] = _parse_grace(options)
        game_id = secrets.token_urlsafe(9)
        tokens: list[str | None] = []
        seats: list[SeatInfo] = []
        for i, (kind, level, name) in enumerate(seat_kinds):
            if kind == "human":
                if rematch_of is not None and rematch_of.record.seats[i].kind == "human":
                    tokens.append(None)  # the same people keep their tokens and names
                    old = rematch_of.record.seats[i]
                    seats.append(SeatInfo(i, kind, None, old.token_hash, old.name))
                    continue
                tok = secrets.token_urlsafe(24)
                tokens.append(tok)
                seats.append(SeatInfo(i, kind, None, hash_token(tok), name))
            else:
                tokens.append(None)
                seats.append(SeatInfo(i, kind, level, None))
        await self._write(self.storage.create_game, game_id, game, players, seed, opts, seats)
        live = await self.get(game_id)
        self._kick_bots(live)
        return {
            "id": game_id,
            "seeded": seeded,
            "seats": [
                {
                    "seat": i,
                    "kind": seats[i].kind,
                    "level": seats[i].level,
                    "name": live.names[i],
                    "token": tok,
                    "url": f"/game/{game_id}?token={tok}" if tok else f"/game/{game_id}",
                }
                for i, tok in enumerate(tokens)
            ],
            "spectator_url": f"/game/{game_id}",
        }

    async def get(self, game_id: str) -> LiveGame:
        self._housekeeping()  # first: it may drop this very game, which then loads again
        live = self._games.get(game_id)
        if live is not None:
            self._touch(live)
            return live
        if game_id in self._damaged:
            raise ApiError(409, self._damaged[game_id])
        async with self._load_lock:
            live = self._games.get(game_id)
            if live is not None:
                return live
            if game_id in self._damaged:
                raise ApiError(409, self._damaged[game_id])
            try:
                live = await asyncio.to_thread(self._load, game_id)
            except DamagedRecord as exc:
                # Once: the same log would fail the same way on every request.
                message = f"{exc}; it cannot be loaded"
                self._damaged[game_id] = message
                log.error("%s", message)
                raise ApiError(409, message) from exc
            now = time.monotonic()
            live.move_started = now
            live.last_seen = {s.seat: now for s in live.record.seats if s.kind == "human"}
            self._games[game_id] = live
            self.residency.touch(game_id, now)
            self._rearm(live)
        self._kick_bots(live)  # e.g. the server stopped during a bot's turn
        return live

    def _load(self, game_id: str) -> LiveGame:
        if not GAME_ID_RE.fullmatch(game_id):
            raise ApiError(404, "no such game")
        record = self.storage.load_game(game_id)
        if record is None:
            raise ApiError(404, "no such game")
        spec = get_game(record.game)
        state = spec.new_game(record.players, record.seed, record.options.get(GAME_OPTIONS))
        names = _names(record.seats)
        live = LiveGame(record, state, 0, deque(maxlen=RECENT_EVENTS), names, spec=spec)
        live.joined = {s.seat for s in record.seats if s.kind == "human" and s.joined}
        opts = record.options
        grace = opts.get("takeover_grace_s", self.settings.away_grace_s)
        live.takeover_grace_s = None if grace is None else float(grace)
        if not record.log:  # a record without rows: the effective actions
            for a in record.actions:
                live.add_events(live.version + 1, state.apply(a))
                live.version += 1
        for e in record.log:
            try:
                if e.kind == "undo":
                    if e.undoes is None:
                        raise ValueError("an undo row names no action")
                    live.publish_undo(e.seat, e.undoes)
                elif e.kind in AUTOPILOT_ROWS:
                    if not (0 <= e.seat < len(names) and record.seats[e.seat].kind == "human"):
                        raise ValueError(f"seat {e.seat} is no human seat")
                    live.publish_autopilot(e.seat, e.kind, e.action)
                else:
                    new = live.state.clone()
                    events = new.apply(e.action)
                    live.publish_action(e.seat, e.kind, new, events)
            except Exception as exc:  # whatever the engine raises on a row it cannot take
                reason = str(exc) or type(exc).__name__
                raise DamagedRecord(game_id, e.index, reason) from exc
        live.rematch_id = record.rematch_id
        live.chat.extend(chat_message(c) for c in self.storage.recent_chat(game_id, CHAT_HISTORY))
        return live

    def _forget(self, game_id: str) -> None:
        """Drop the cache (another process wrote to this game); the log is reloaded."""
        live = self._games.pop(game_id, None)
        if live is not None:
            if live.watch_task is not None:
                live.watch_task.cancel()
            live.notify({"type": "error", "message": "the game changed elsewhere; reconnect"})

    # ------------------------------------------------------------ actions

    @staticmethod
    def _check_version(seat: int | None, version: Any, verb: str) -> int:
        """The seat of a player who may ``verb``, with a well-formed version."""
        if seat is None:
            raise ApiError(403, f"spectators cannot {verb}; use a seat's link")
        if isinstance(version, bool) or not isinstance(version, int):
            raise ApiError(400, "version must be an integer (the version you last saw)")
        return seat

    async def act(self, live: LiveGame, seat: int | None, version: Any, action: Any) -> None:
        """The seat's action, made with the version its player saw.  If the autopilot
        holds the seat, that version is checked first, then the hand-back is logged
        (one version more), then the action (the player gets the newest version)."""
        seat = self._check_version(seat, version, "act")
        await self._present(live, seat)
        async with live.lock:
            await self._check_and_hand_back(live, seat, version)
            if live.state.is_over:
                raise ApiError(403, "the game is over")
            if live.state.current_player != seat:
                raise ApiError(403, "it is not your turn")
            try:
                parsed = live.game.action_from_json(action)
            except ValueError as exc:
                raise ApiError(400, str(exc)) from exc
            await self._commit(live, seat, parsed)
        self._kick_bots(live)

    def check(self, live: LiveGame, seat: int | None, action: Any) -> dict[str, Any]:
        """Would ``action`` be legal for ``seat`` now?  The engine's answer, on a copy:
        the browser explains a spot that is not lit up with the rule it breaks."""
        if seat is None:
            raise ApiError(403, "spectators cannot act; use a seat's link")
        if live.state.is_over:
            raise ApiError(403, "the game is over")
        if live.state.current_player != seat:
            raise ApiError(403, "it is not your turn")
        try:
            parsed = live.game.action_from_json(action)
        except (ValueError, TypeError, KeyError) as exc:
            raise ApiError(400, f"malformed action: {exc}") from exc
        try:
            live.state.clone().apply(parsed)
        except ValueError as exc:  # IllegalAction is a ValueError
            return {"legal": False, "reason": str(exc)}
        return {"legal": True}

    async def undo(self, live: LiveGame, seat: int | None, version: Any) -> None:
        """Take back the newest action of the current turn (one per call)."""
        seat = self._check_version(seat, version, "undo")
        await self._present(live, seat)
        async with live.lock:
            await self._check_and_hand_back(live, seat, version)
            if live.state.is_over:
                raise ApiError(400, "nothing can be undone: the game is over")
            if live.state.current_player != seat:
                raise ApiError(403, "you can only undo during your own turn")
            if not live.undo_stack:
                raise ApiError(
                    400,
                    "nothing can be undone: only your own actions of this turn can be "
                    "taken back, and none made before a tile came from the bag",
                )
            undoes = live.undo_stack[-1][0]
            try:
                await self._write(
                    self.storage.append_action,
                    live.id,
                    live.version,
                    seat,
                    {},
                    False,
                    "undo",
                    undoes,
                )
            except StaleVersion as exc:
                self._forget(live.id)
                raise ApiError(409, "the game moved on; reload it") from exc
            live.publish_undo(seat, undoes)
            live.notify(None)
            self._rearm(live)
        self._kick_bots(live)

    async def _commit(
        self, live: LiveGame, seat: int, action: Any, kind: str = "action", push: bool = True
    ) -> None:
        """Apply on a copy, store, then publish.  Caller holds ``live.lock``.
        ``push=False``: the caller tells the subscribers later (a bot's turn)."""
        new = live.state.clone()
        try:
            events = new.apply(action)
        except ValueError as exc:  # IllegalAction is a ValueError
            raise ApiError(400, str(exc)) from exc
        try:
            await self._write(
                self.storage.append_action,
                live.id,
                live.version,
                seat,
                action.to_json(),
                bool(new.is_over),
                kind,
            )
        except StaleVersion as exc:
            self._forget(live.id)
            raise ApiError(409, "the game moved on; reload it") from exc
        live.publish_action(seat, kind, new, events)
        if push:
            live.notify(None)
        self._rearm(live)

    # ---------------------------------------------------------- autopilot

    async def _present(self, live: LiveGame, seat: int) -> None:
        """The seat's player is here (a WebSocket opened, or an action came with the
        token): they have joined (stored once), and were seen now."""
        if seat not in live.joined and live.record.seats[seat].kind == "human":
            await self._write(self.storage.set_joined, live.id, seat)
            live.joined.add(seat)
            live.notify(live.presence())
        live.last_seen[seat] = time.monotonic()

    async def _check_and_hand_back(self, live: LiveGame, seat: int, version: int) -> None:
        """Under the lock: the version the player saw must be current (else 409); the
        autopilot, if it holds the seat, hands it back either way (the player is
        here, and would otherwise race the bot)."""
        current = version == live.version
        await self._hand_back(live, seat)
        if not current:
            raise ApiError(409, f"stale version {version}; the game is at {live.version}")

    async def _log_autopilot(
        self, live: LiveGame, seat: int, kind: str, data: dict[str, Any]
    ) -> None:
        """Store a "takeover" / "handback" row, then publish it.  Caller holds the lock."""
        try:
            await self._write(
                self.storage.append_action, live.id, live.version, seat, data, False, kind
            )
        except StaleVersion as exc:
            self._forget(live.id)
            raise ApiError(409, "the game moved on; reload it") from exc
        live.publish_autopilot(seat, kind, data)
        live.notify(None)

    async def _hand_back(self, live: LiveGame, seat: int) -> None:
        """Under the lock: if the autopilot plays ``seat``, log the hand-back."""
        if seat in live.autopilot:
            await self._log_autopilot(live, seat, "handback", {})
            log.info("game %s: seat %d is back from the autopilot", live.id, seat)
        self._rearm(live)

    async def connected(self, live: LiveGame, seat: int | None) -> None:
        """A WebSocket with this seat's token opened: the player has joined and is
        back (the autopilot, if it holds the seat, hands it over)."""
        if seat is None:
            return
        live.conns[seat] = live.conns.get(seat, 0) + 1
        if live.conns[seat] == 1 and seat in live.joined:
            live.notify(live.presence())  # (a first join tells them in _present)
        try:
            await self._present(live, seat)
            async with live.lock:
                await self._hand_back(live, seat)
        except Exception:  # the connection works on; the next action says what is wrong
            log.exception("game %s: seat %d connected, but its hand-back failed", live.id, seat)

    def disconnected(self, live: LiveGame, seat: int | None) -> None:
        if seat is None:
            return
        live.conns[seat] = max(0, live.conns.get(seat, 0) - 1)
        if not live.conns[seat]:
            live.last_seen[seat] = time.monotonic()
            live.notify(live.presence())
            self._rearm(live)

    async def reclaim(self, live: LiveGame, seat: int) -> None:
        """The seat's player asks for the seat back (WebSocket ``resume``)."""
        await self._present(live, seat)
        async with live.lock:
            await self._hand_back(live, seat)

    def _deadline(self, live: LiveGame, seat: int) -> tuple[float, str] | None:
        """(when, reason "away" | "clock"): when the autopilot takes over ``seat``
        (whose turn it is), or None: never.  Never for a player who never joined."""
        if seat not in live.joined:
            return None
        out: list[tuple[float, str]] = []
        grace = live.takeover_grace_s
        if grace is not None and not live.conns.get(seat):
            left = max(live.last_seen.get(seat, live.move_started), live.move_started)
            out.append((left + grace, "away"))
        clock = live.record.options.get("clock_s")
        if clock:
            out.append((live.move_started + float(clock), "clock"))
        return min(out) if out else None

    def _rearm(self, live: LiveGame) -> None:
        """(Re)start the timer that hands the current human seat to the autopilot."""
        if live.watch_task is not None and live.watch_task is not asyncio.current_task():
            live.watch_task.cancel()
        live.watch_task = None
        cur = live.state.current_player
        if (
            self._closing
            or cur is None
            or live.state.is_over
            or live.record.seats[cur].kind != "human"
            or cur in live.autopilot
            or self._deadline(live, cur) is None
        ):
            return
        live.watch_task = asyncio.get_running_loop().create_task(self._watch(live, cur))

    def _due(self, live: LiveGame, seat: int) -> str | None:
        """The reason the autopilot should take ``seat`` over now, if it should."""
        if (
            self._closing
            or self._games.get(live.id) is not live
            or live.state.current_player != seat
            or live.state.is_over
            or seat in live.autopilot
        ):
            return None
        deadline = self._deadline(live, seat)
        if deadline is None or deadline[0] > time.monotonic():
            return None
        return deadline[1]

    async def _watch(self, live: LiveGame, seat: int) -> None:
        while True:
            deadline = self._deadline(live, seat)
            if deadline is None:
                return
            delay = deadline[0] - time.monotonic()
            if delay <= 0:
                break
            await asyncio.sleep(delay)  # the deadline may have moved meanwhile: look again
        if self._due(live, seat) is None:
            return
        async with live.lock:
            if live.watch_task is asyncio.current_task():
                live.watch_task = None  # done waiting: a rearm must not cancel the write
            reason = self._due(live, seat)  # the player may have come back meanwhile
            if reason is None:
                self._rearm(live)
                return
            level = str(live.record.options.get("autopilot_level", "medium"))
            try:
                await self._log_autopilot(
                    live, seat, "takeover", {"reason": reason, "level": level}
                )
            except ApiError:
                return
        log.info("game %s: the autopilot plays for seat %d (%s)", live.id, seat, reason)
        self._kick_bots(live)

    # --------------------------------------------------------------- bots

    def _kick_bots(self, live: LiveGame) -> None:
        if self._closing or not live.is_bot_turn() or self.residency.abandoned(live):
            return
        if live.bot_task is not None and not live.bot_task.done():
            return
        live.bot_task = asyncio.get_running_loop().create_task(self._run_bots(live))

    def _spec(self, live: LiveGame, seat: int) -> BotSpec:
        level = live.record.seats[seat].level or live.record.options.get(
            "autopilot_level", "medium"
        )
        name = LEVELS.get(level, level)
        seed = int(live.record.options.get("bot_seed", 0)) + seat
        if name == "mcts":
            if self.settings.hard_iterations is not None:
                return BotSpec(name, seed, None, self.settings.hard_iterations)
            t = float(live.record.options.get("time_s", self.settings.hard_time_s))
            if self.settings.max_think_s > 0:
                t = min(t, self.settings.max_think_s)  # one table cannot hog the workers
            return BotSpec(name, seed, t, None)
        return BotSpec(name, seed, None, None)

    async def _choose(self, spec: BotSpec, state: Any, salt: int, key: str = "") -> Any:
        if spec.name in IN_PROCESS:
            # The easy bot looks at the legal actions only: choosing here costs
            # microseconds, and ``choose_now`` makes the move a worker would.
            return choose_now(spec, state, salt)
        if self.settings.bot_mode == "inline":
            view = state.view(state.current_player)
            data = await self._fair.run(
                key, lambda: asyncio.to_thread(choose_from_view, spec, state.game, view, salt)
            )
            return get_game(state.game).action_from_json(data)
        if self._pool is None:
            self._pool = BotPool(self.settings.bot_workers)
        return await self._pool.choose_async(spec, state, salt, key=key)

    async def _quiet(self) -> None:
        """Wait (a little) until nothing else is ready to run on the event loop.

        Bot moves run at a lower priority than people's messages: an easy bot's move
        and its commit hold the loop for a moment, and a message arriving meanwhile
        would wait behind it.  One bot at a time (``_bot_gate``) yields until a pass
        of the loop finds no other callback ready (I/O is polled between two passes),
        at most ``QUIET_SPINS`` passes, so bots still move when the server is busy."""
        loop = asyncio.get_running_loop()
        ready = getattr(loop, "_ready", None)  # CPython's asyncio loop; else no wait
        async with self._bot_gate:
            for _ in range(QUIET_SPINS):
                await asyncio.sleep(0)
                if not ready:
                    return

    async def _run_bots(self, live: LiveGame) -> None:
        """Play the bots' consecutive moves.  Each move is committed on its own (and
        only then visible), but quick moves are pushed together: one state after the
        last of them (or before a slow choice or a pause), carrying all their events."""
        unpushed = False
        try:
            while (
                not self._closing
                and self._games.get(live.id) is live
                and live.is_bot_turn()
                and not self.residency.abandoned(live)
            ):
                seat = live.state.current_player
                assert seat is not None
                spec = self._spec(live, seat)
                if unpushed and (self.settings.bot_delay_s > 0 or spec.name != "random"):
                    live.notify(None)  # people should see each move of a slow turn
                    unpushed = False
                # Let the other tables run between two bot moves: an easy bot's move and
                # a SQLite commit need no await, so a whole bot turn would otherwise
                # hold the event loop.
                await asyncio.sleep(self.settings.bot_delay_s)
                await self._quiet()
                seat = live.state.current_player
                version = live.version
                if seat is None or not live.is_bot_turn():
                    break
                action = await self._choose(self._spec(live, seat), live.state, version, live.id)
                async with live.lock:
                    if (
                        live.version != version
                        or live.state.current_player != seat
                        or not live.is_bot_turn()  # the player came back
                    ):
                        continue
                    try:
                        await self._commit(live, seat, action, "bot", push=False)
                    except ApiError as exc:
                        log.error("bot move rejected in game %s: %s", live.id, exc.message)
                        return
                    unpushed = True
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot failure in game %s", live.id)
        finally:
            if unpushed:
                live.notify(None)

    async def wait_bots(self, live: LiveGame) -> None:
        """Until no bot is thinking (tests and shutdown)."""
        while live.bot_task is not None and not live.bot_task.done():
            await asyncio.shield(live.bot_task)

    # -------------------------------------------------------- residency

    def _touch(self, live: LiveGame) -> None:
        """Someone asks for this game: it is active (its bots resume if it was
        abandoned)."""
        was_abandoned = self.residency.abandoned(live)
        self.residency.touch(live.id)
        if was_abandoned:
            self._kick_bots(live)

    def _housekeeping(self) -> None:
        """On a request: a sweep now and then, and the timer that sweeps when no
        request comes (a finished game must leave memory even on a quiet server)."""
        if self._sweeper is None and not self._closing:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())
        self.sweep()

    async def _sweep_loop(self) -> None:
        period = max(0.05, min(30.0, self.settings.evict_after_s / 2))
        while not self._closing:
            await asyncio.sleep(period)
            try:
                self.sweep(force=True)
            except Exception:  # never let housekeeping die for good
                log.exception("sweeping the game cache failed")

    def watched(self, live: LiveGame) -> None:
        """A WebSocket to ``live`` opened or closed (the app calls this)."""
        self._touch(live)

    def sweep(self, now: float | None = None, force: bool = False) -> list[str]:
        """Drop finished and idle games from memory (:mod:`erebus.server.residency`);
        returns their ids.  Runs at most once a second unless ``force``."""
        now = time.monotonic() if now is None else now
        if not force and not self.residency.sweep_due(now):
            return []
        gone = self.residency.evictable(self._games, now)
        for gid in gone:
            self._forget(gid)
            self.residency.forget(gid)
        return gone

    def live_games(self) -> int:
        """Games in progress held in memory."""
        return sum(1 for g in self._games.values() if not g.state.is_over)

    def check_room(self) -> None:
        """Before a new game: ApiError 429 if ``Settings.max_live_games`` are in play."""
        cap = self.settings.max_live_games
        if cap <= 0 or self.live_games() < cap:
            return
        self.sweep(force=True)
        if self.live_games() >= cap:
            raise ApiError(429, f"the server is full ({cap} games in play); try again later")

    # ------------------------------------------------------------- others

    async def rematch(self, live: LiveGame, seat: int | None) -> dict[str, Any]:
        if seat is None:
            raise ApiError(403, "only a seated player can ask for a rematch")
        if not live.state.is_over:
            raise ApiError(409, "a rematch can only be asked for once the game is over")
        async with live.lock:
            if live.rematch_id is not None:
                new_id = live.rematch_id
            else:
                body = {
                    "game": live.record.game,
                    "players": live.record.players,
                    # Names, tokens and the takeover grace come from ``rematch_of``.
                    "seats": [
                        {"kind": s.kind, "level": s.level} if s.kind == "bot" else {"kind": "human"}
                        for s in live.record.seats
                    ],
                    "game_options": live.game_options,
                    "options": {
                        "time_s": live.record.options.get("time_s", 1.0),
                        "clock_s": live.record.options.get("clock_s"),
                        "autopilot_level": live.record.options.get("autopilot_level", "medium"),
                    },
                }
                created = await self.create(body, rematch_of=live)
                new_id = created["id"]
                if not await self._write(self.storage.set_rematch, live.id, new_id):
                    self._forget(live.id)
                    fresh = await self.get(live.id)
                    new_id = fresh.rematch_id or new_id
                live.rematch_id = new_id
                live.notify(None)
        new = await self.get(new_id)
        return {
            "id": new_id,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "level": s.level,
                    "name": new.names[s.seat],
                    "token": None,
                    "url": f"/game/{new_id}",
                }
                for s in new.record.seats
            ],
            "spectator_url": f"/game/{new_id}",
            "note": "every person keeps the token of the previous game",
        }

    async def my_games(self, tokens: list[str]) -> list[dict[str, Any]]:
        hashes = [hash_token(t) for t in tokens if t][:50]
        rows = await asyncio.to_thread(self.storage.games_for_tokens, hashes)
        return [
            {
                "id": g.id,
                "game": g.game,
                "players": g.players,
                "seat": seat,
                "status": g.status,
                "seeded": bool((g.options or {}).get("seeded", False)),
                "created": g.created.isoformat(),
                "rematch": g.rematch_id,
            }
            for g, seat in rows
        ]

    async def chat(self, live: LiveGame, seat: int | None, text: Any) -> None:
        """Store a chat line, then broadcast it.  Only seated players may chat;
        spectators read along (they get the history and every new line)."""
        if seat is None:
            raise ApiError(403, "spectators can read the chat but not write to it")
        if not isinstance(text, str) or not text.strip():
            raise ApiError(400, "chat text must be a non-empty string")
        text = text.strip()
        if len(text) > CHAT_MAX:
            raise ApiError(
                400, f"chat text is limited to {CHAT_MAX} characters (this one has {len(text)})"
            )
        entry = await self._write(
            self.storage.append_chat, live.id, seat, live.names[seat], text, live.version
        )
        msg = chat_message(entry)
        live.chat.append(msg)
        live.notify(msg)


__all__ = ["ApiError", "GameService", "IllegalAction", "LiveGame", "Settings"]
