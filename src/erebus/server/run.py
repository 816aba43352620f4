"""``erebus serve``: the application under uvicorn."""

from __future__ import annotations

import gc
import os
import sys

from erebus.server.app import create_app, install_log_filter
from erebus.server.service import Settings
from erebus.server.storage import DatabaseInUse


def run_server(host: str, port: int, db_url: str | None = None) -> int:
    import uvicorn

    settings = Settings(bot_workers=max(1, min(4, (os.cpu_count() or 2) - 1)))
    try:
        app = create_app(db_url, settings)
    except DatabaseInUse as exc:  # another server holds the database: say so, no traceback
        print(f"erebus serve: {exc}", file=sys.stderr, flush=True)
        return 1
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws_max_size=64 * 1024,
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
