"""``erebus serve``: the application under uvicorn."""

from __future__ import annotations

import dataclasses
import gc
import os
import sys
from typing import Any

from erebus.server.app import create_app, install_log_filter
from erebus.server.cluster import ClusterUnsupported
from erebus.server.guard import origins_from_env
from erebus.server.inputs import MAX_BODY
from erebus.server.settings import Settings
from erebus.server.storage import DatabaseInUse

ORIGINS_ENV = "EREBUS_ALLOWED_ORIGINS"
REDIS_ENV = "REDIS_URL"


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
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        # Messages up to MAX_BODY get an answer; up to 4x that an error message (the
        # socket stays); beyond, the WebSocket library closes with 1009 (too big)
        # before reading it all.
        ws_max_size=4 * MAX_BODY,
        log_level="info",
        access_log=True,  # request paths only: RedactTokens blanks the tokens out
    )
    server = uvicorn.Server(config)
    install_log_filter()
    # What exists now (modules, the app, the game tables) lives as long as the process:
    # keep it out of the collector's full passes, which would otherwise walk it every
    # few seconds under load, a pause of tens of milliseconds for every table.
    gc.collect()
    gc.freeze()
    # Fewer collector passes: each one stops every table, and under load the default
    # thresholds (700, 10, 10) bring a young pass every ~100 actions and an older,
    # slower one (ms to tens of ms) every few seconds.  Measured (bench server): a
    # lower p99 with these.
    gc.set_threshold(20_000, 20, 20)
    shown = "localhost" if host in ("0.0.0.0", "::") else host
    print(f"erebus is running at http://{shown}:{port}", flush=True)
    server.run()
    return 0
