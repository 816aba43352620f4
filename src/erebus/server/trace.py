"""An optional timeline of the server's work, for ``erebus bench server --trace-slow``.

Off unless ``$EREBUS_TRACE`` names a file when the server starts; then the event
loop's units of work are recorded as spans — a client message from its arrival to
its answer, a bot move, a state push, a commit, a sweep, a collection of the garbage
collector, a WAL checkpoint (on its own thread) — each with its wall-clock start and
end (``time.monotonic``, the clock the bench's clients use on the same machine) and
the CPU time of its thread (wall ≫ CPU: the process waited, for the disk or for a
core).  They are written to that file, one JSON array per line, when the server
stops.  The bench then tells, for its slowest round trips, what the server was doing
meanwhile.  Off, every hook is one ``is None`` test.
"""

from __future__ import annotations

import gc
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import orjson

ENV = "EREBUS_TRACE"


class Tracer:
    """Spans ``[kind, start, end, cpu, game, detail]``, kept in memory until :meth:`dump`."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.rows: list[list[Any]] = []
        self._lock = threading.Lock()  # the checkpoint thread adds rows too
        self._gc_start = (0.0, 0.0)
        gc.callbacks.append(self._gc)

    def add(self, kind: str, start: float, cpu0: float, game: str = "", detail: str = "") -> None:
        """A span that began at ``start`` (monotonic) with its thread's CPU at ``cpu0``."""
        row = [kind, start, time.monotonic(), time.thread_time() - cpu0, game, detail]
        with self._lock:
            self.rows.append(row)

    @contextmanager
    def span(self, kind: str, game: str = "", detail: str = "") -> Iterator[None]:
        start, cpu0 = time.monotonic(), time.thread_time()
        try:
            yield
        finally:
            self.add(kind, start, cpu0, game, detail)

    def _gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_start = (time.monotonic(), time.thread_time())
        else:
            self.add(
                "gc",
                *self._gc_start,
                detail=f"gen{info.get('generation')} collected {info.get('collected')}",
            )

    def dump(self) -> None:
        with self._lock:
            rows, self.rows = self.rows, []
        with open(self.path, "ab") as f:
            for r in rows:
                f.write(orjson.dumps(r) + b"\n")


def _from_env() -> Tracer | None:
    path = os.environ.get(ENV)
    return Tracer(path) if path else None


TRACER: Tracer | None = _from_env()


def now() -> tuple[float, float]:
    """(monotonic, this thread's CPU time): the start of a span for :meth:`Tracer.add`."""
    return time.monotonic(), time.thread_time()
