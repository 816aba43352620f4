"""The knobs of one server process (bots, the autopilot's default, hosting limits).

``erebus serve`` fills them from its flags (:mod:`erebus.server.run`); tests set them
directly.  Every part of the service reads them; none changes them."""

from __future__ import annotations

from dataclasses import dataclass


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
    # Hints and reviews (erebus.server.advice): search iterations of the hard bot.
    hint_iterations: int = 300
    review_iterations: int = 80
    hints_per_minute: int = 20  # hints computed per seat of a game a minute (0: no limit)
    # Several processes on one PostgreSQL database (erebus.server.cluster): the Redis
    # they share (``erebus serve`` reads $REDIS_URL).  None: this process alone.
    redis_url: str | None = None
