"""``erebus serve``: the application under uvicorn."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import logging
import os
import sys
import time
from collections.abc import AsyncIterator
from typing import Any

from erebus.server.app import create_app, install_log_filter
from erebus.server.cluster import ClusterUnsupported
from erebus.server.deflate import DeflateWebSocketProtocol
from erebus.server.guard import origins_from_env
from erebus.server.inputs import MAX_BODY
from erebus.server.settings import Settings
from erebus.server.storage import DatabaseInUse

ORIGINS_ENV = "EREBUS_ALLOWED_ORIGINS"
REDIS_ENV = "REDIS_URL"
GC_FREEZE_S = 1.0  # seconds between two freezes of the heap (see collect_rarely)
GC_FULL_S = 600.0  # seconds between two full collections, which free cyclic garbage
log = logging.getLogger("erebus.server")


async def collect_rarely(freeze_s: float = GC_FREEZE_S, full_s: float = GC_FULL_S) -> None:
    """The garbage collector's policy of the server process: freeze the heap every
    ``freeze_s`` (``gc.freeze``: what is alive now is no longer walked by the
    collector's passes) and collect in full every ``full_s``.

    Why: what a table keeps alive between two moves — its game state, a few hundred
    lists and tuples per table — is new to the collector after every move (a move
    makes a new state), so every young pass walks the current state of every table
    that moved since the last one: with 200 tables, 20,000–40,000 objects, 40–70 ms
    of a stopped event loop (and older passes up to 240 ms), while they free almost
    nothing (reference counting frees the old states; a bench of 30,000 moves left
    ~16,000 objects in cycles, most of them closed connections).  Freezing costs no
    walk, keeps the young generation small (it is emptied each time) and leaves
    the counting of references as it was; only garbage in reference cycles waits
    for the next full collection, which walks everything once (a pause, logged with
    its length, once every ``full_s``)."""
    last_full = time.monotonic()
    while True:
        await asyncio.sleep(freeze_s)
        if time.monotonic() - last_full < full_s:
            gc.freeze()
            continue
        start = time.monotonic()
        try:
            gc.unfreeze()
            freed = gc.collect()
        except Exception:  # e.g. a failing finalizer: the policy goes on
            log.exception("full garbage collection failed")
            freed = -1
        finally:
            gc.freeze()
        last_full = time.monotonic()
        log.info(
            "full garbage collection: %d objects freed in %.0f ms",
            freed,
            (last_full - start) * 1e3,
        )


def server_settings(allow_origins: list[str] | None = None, **limits: Any) -> Settings:
    """The settings of ``erebus serve``: bot workers for this machine, the origins
    of ``$EREBUS_ALLOWED_ORIGINS`` and ``--allow-origin``, the cluster's Redis of
    ``$REDIS_URL`` (unless given), and the limits given on the command line (None:
    the default of :class:`Settings`)."""
    origins = (*origins_from_env(os.environ.get(ORIGINS_ENV)), *(allow_origins or ()))
    given = {k: v for k, v in limits.items() if v is not None}
    names = {f.name for f in dataclasses.fields(Settings)}
    if "redis_url" not in given and os.environ.get(REDIS_ENV):
        given["redis_url"] = os.environ[REDIS_ENV]
    unknown = set(given) - names
    if unknown:
        raise TypeError(f"unknown settings: {', '.join(sorted(unknown))}")
    return Settings(
        bot_workers=max(1, min(4, (os.cpu_count() or 2) - 1)),
        allowed_origins=origins,
        **given,
    )


def run_server(
    host: str, port: int, db_url: str | None = None, settings: Settings | None = None
) -> int:
    import uvicorn

    try:
        app = create_app(db_url, settings or server_settings())
    except (
        DatabaseInUse,
        ClusterUnsupported,
    ) as exc:  # another server holds the database: say so, no traceback
        print(f"erebus serve: {exc}", file=sys.stderr, flush=True)
        return 1
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(a: Any) -> AsyncIterator[Any]:
        collector = asyncio.get_running_loop().create_task(collect_rarely())
        try:
            async with inner(a) as state:
                yield state
        finally:
            collector.cancel()

    app.router.lifespan_context = lifespan
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        # Messages up to MAX_BODY get an answer; up to 4x that an error message (the
        # socket stays); beyond, the WebSocket library closes with 1009 (too big)
        # before reading it all.
        ws_max_size=4 * MAX_BODY,
        ws=DeflateWebSocketProtocol,  # a window that reaches back to the previous state
        log_level="info",
        access_log=True,  # request paths only: RedactTokens blanks the tokens out
    )
    server = uvicorn.Server(config)
    install_log_filter()
    # What exists now (modules, the app) lives as long as the process: out of the
    # collector's passes from the start; then :func:`collect_rarely` freezes the heap
    # every second.  The thresholds are a safety net for a second with more than
    # 20,000 new objects (e.g. many games loaded at once).
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    shown = "localhost" if host in ("0.0.0.0", "::") else host
    print(f"erebus is running at http://{shown}:{port}", flush=True)
    server.run()
    return 0
