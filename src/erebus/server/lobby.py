"""The lobby: new games, rematches and a player's list of games, and the checks of
what a host asks for (seats, names, the table's options, the game's own options).

Whatever a client sends gets a 400 with a clear message before anything is stored.
The game's own options are the spec's to check (``spec.parse_options``) and are
stored beside the table's under ``GAME_OPTIONS``.  A rematch is a new game with the
same seats: the same people keep their tokens and names, bots keep their levels.
"""

from __future__ import annotations

import asyncio
import secrets
import unicodedata
from typing import Any

from erebus.bots import LEVELS
from erebus.games import GAMES, get_game
from erebus.server.base import ServiceBase
from erebus.server.errors import ApiError
from erebus.server.storage import SeatInfo, hash_token
from erebus.server.table import GAME_OPTIONS, LiveGame, hints_default

CLOCK_MAX_S = 24 * 3600.0
GRACE_MIN_S, GRACE_MAX_S = 10.0, 7 * 24 * 3600.0  # options.takeover_grace_s, when not null
NAME_MAX = 24  # characters of a seat's name

# Characters a name may not hold: control characters, lone surrogates, line breaks.
_BAD_NAME_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})


def catalog() -> list[dict[str, Any]]:
    """The games a host may create, with each game's options as its spec describes
    them (``GameSpec.options``): the lobby draws its choices from this, so the
    browser holds no copy of any engine's options.  ``GET /api/catalog``."""
    out = []
    for name in GAMES:
        spec = get_game(name)
        out.append(
            {
                "game": spec.name,
                "title": spec.title,
                "min_players": spec.min_players,
                "max_players": spec.max_players,
                "web_board": spec.web_board,
                "options": [o.to_json() for o in spec.options],
            }
        )
    return out


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


def _parse_table_options(options: dict[str, Any], default_time_s: float) -> dict[str, Any]:
    """The table's options as stored (``time_s``, ``clock_s``, ``autopilot_level``),
    checked; the takeover grace is :func:`_parse_grace`'s."""
    time_s = options.get("time_s", default_time_s)
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
    return {
        "time_s": float(time_s),
        "clock_s": None if clock_s is None else float(clock_s),
        "autopilot_level": autopilot_level,
    }


def _new_seats(
    seat_kinds: list[tuple[str, str | None, str | None]], rematch_of: LiveGame | None
) -> tuple[list[str | None], list[SeatInfo]]:
    """(token per seat, the seats to store): a fresh token per human seat, except in a
    rematch, where the same people keep their tokens and names (token None)."""
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
    return tokens, seats


class Lobby(ServiceBase):
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
        table = _parse_table_options(options, self.settings.hard_time_s)
        hints = options.get("hints")
        if hints is None:
            hints = hints_default([k for k, _, _ in seat_kinds])
        elif not isinstance(hints, bool):
            raise ApiError(400, "options.hints must be true, false or null (the default)")
        opts: dict[str, Any] = {
            "time_s": table["time_s"],
            "bot_seed": secrets.randbits(31),
            "clock_s": table["clock_s"],
            "autopilot_level": table["autopilot_level"],
            "seeded": seeded,
            "hints": hints,
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
        tokens, seats = _new_seats(seat_kinds, rematch_of)
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
                        "hints": live.record.options.get("hints"),
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
                if self.cluster.shared:
                    self.cluster.changed(live.id)
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
