"""Hints and reviews at the web table (``GET /api/games/{id}/hint`` and ``/review``).

Both are the hard bot's opinion (:mod:`erebus.bots.analysis`) and run where the bots
think (``_offload``: the bot pool, or threads in "inline" mode), never on the event
loop, queued fairly with the game's bot moves.

* A **hint** is for the seat to move only, when the game allows hints (the host's
  lobby option ``options.hints``; by default on when every other seat is a bot).  The
  worker gets the seat's *view* only and a seed made of public facts (the game id and
  the version), so the hint never depends on hidden information and asking twice
  gives the same answer (cached per version; at most ``Settings.hints_per_minute``
  computed per seat a minute, 429 beyond).
* A **review** rates every effective move of a finished game (the replay's steps)
  against the hard bot's best choice from the mover's view.  It is computed once,
  in chunks of moves (its progress shows meanwhile: 202 with ``done``/``total``), and
  kept in memory for the last ``REVIEW_CACHE`` games asked for.
"""

from __future__ import annotations

import asyncio
import logging
import time
from abc import abstractmethod
from collections import OrderedDict, deque
from typing import Any

from erebus.bots import analysis
from erebus.server.base import ServiceBase
from erebus.server.errors import ApiError
from erebus.server.settings import Settings
from erebus.server.storage import Storage
from erebus.server.table import GAME_OPTIONS, LiveGame, hints_default

log = logging.getLogger("erebus.server")
__all__ = ["Advice", "hint_from_view", "hints_default"]

REVIEW_CACHE = 16  # finished games whose reviews stay in memory
HINT_CACHE = 256  # (game, seat, version) hints kept


def hint_from_view(game: str, view: Any, seed: int, iterations: int) -> dict[str, Any]:
    """Worker entry point: the hint for the seat of ``view`` (a world built from it)."""
    from erebus.bots.base import determinize
    from erebus.games import get_game

    world = determinize(get_game(game), view, seed)
    return analysis.hint(world, seed, iterations)


class _Review:
    """A review being computed or done."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.moves: list[dict[str, Any]] = []
        self.result: dict[str, Any] | None = None
        self.error: str | None = None
        self.task: asyncio.Task[None] | None = None


class Advice(ServiceBase):
    def __init__(self, storage: Storage, settings: Settings | None = None) -> None:
        super().__init__(storage, settings)
        self._hints: OrderedDict[tuple[str, int, int], dict[str, Any]] = OrderedDict()
        self._hint_times: dict[tuple[str, int], deque[float]] = {}
        self._reviews: OrderedDict[str, _Review] = OrderedDict()

    def _review_tasks(self) -> list[asyncio.Task[None]]:
        """The reviews being computed (cancelled when the service closes)."""
        return [j.task for j in self._reviews.values() if j.task and not j.task.done()]

    @abstractmethod
    async def _offload(self, key: str, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` where the bots think: the bot runner's."""

    # --------------------------------------------------------------- hints

    def _rate_hint(self, key: tuple[str, int]) -> None:
        per_minute = self.settings.hints_per_minute
        if per_minute <= 0:
            return
        now = time.monotonic()
        times = self._hint_times.setdefault(key, deque())
        while times and times[0] < now - 60.0:
            times.popleft()
        if len(times) >= per_minute:
            raise ApiError(429, f"at most {per_minute} hints a minute; try again soon")
        times.append(now)

    async def hint(self, live: LiveGame, seat: int | None) -> dict[str, Any]:
        """The hard bot's suggestion for ``seat``, which must be the seat to move."""
        if seat is None:
            raise ApiError(403, "a seat token is needed for a hint")
        if not live.hints:
            raise ApiError(403, "hints are off in this game (the host's choice)")
        if live.state.is_over:
            raise ApiError(409, "the game is over: see its review instead")
        if live.state.current_player != seat:
            raise ApiError(409, "a hint is for the seat to move: it is not your turn")
        version = live.version
        key = (live.id, seat, version)
        cached = self._hints.get(key)
        if cached is None:
            self._rate_hint((live.id, seat))
            view = live.state.view(seat)
            seed = analysis.public_seed(live.id, version)
            cached = await self._offload(
                live.id,
                hint_from_view,
                live.record.game,
                view,
                seed,
                self.settings.hint_iterations,
            )
            self._hints[key] = cached
            while len(self._hints) > HINT_CACHE:
                self._hints.popitem(last=False)
        return {**cached, "version": version}

    # ------------------------------------------------------------- reviews

    async def review(self, live: LiveGame) -> tuple[int, dict[str, Any]]:
        """(200, the review) once it is computed; (202, its progress) meanwhile (the
        first request starts it)."""
        if not live.state.is_over:
            raise ApiError(409, "the game is still in progress; its review opens when it is over")
        job = self._reviews.get(live.id)
        if job is None or job.error is not None:
            record = await asyncio.to_thread(self.storage.load_game, live.id)
            if record is None:
                raise ApiError(404, "no such game")
            from erebus.server.replay import moves

            actions = [a for _, a in moves(record)]
            job = _Review(len(actions))
            self._reviews[live.id] = job
            while len(self._reviews) > REVIEW_CACHE:
                old_id, old = next(iter(self._reviews.items()))
                if old.result is None and old.error is None:
                    break  # never drop one being computed
                self._reviews.pop(old_id)
            job.task = asyncio.get_running_loop().create_task(
                self._run_review(live, record.players, record.seed, actions, job)
            )
        self._reviews.move_to_end(live.id)
        if job.result is not None:
            return 200, job.result
        if job.error is not None:
            raise ApiError(409, f"the review failed: {job.error}")
        return 202, {"status": "running", "done": len(job.moves), "total": job.total}

    async def _run_review(
        self, live: LiveGame, players: int, seed: int, actions: list[Any], job: _Review
    ) -> None:
        options = live.record.options.get(GAME_OPTIONS)
        iterations = self.settings.review_iterations
        try:
            for start in range(0, len(actions), analysis.REVIEW_CHUNK):
                part = await self._offload(
                    live.id,
                    analysis.review_moves,
                    live.record.game,
                    players,
                    seed,
                    actions,
                    options,
                    live.id,
                    iterations,
                    start,
                    start + analysis.REVIEW_CHUNK,
                )
                job.moves.extend(part)
            result = await asyncio.to_thread(
                analysis.assemble,
                live.record.game,
                players,
                seed,
                actions,
                options,
                job.moves,
                iterations,
            )
            result["id"] = live.id
            result["names"] = list(live.names)
            job.result = result
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("review failed in game %s", live.id)
            job.error = str(exc) or type(exc).__name__

    async def wait_review(self, game_id: str) -> None:
        """Until the review of ``game_id`` (if started) is done (tests)."""
        job = self._reviews.get(game_id)
        if job is not None and job.task is not None:
            await asyncio.shield(job.task)
