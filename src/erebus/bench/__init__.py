"""Benchmarks behind ``erebus bench``: numbers printed, never asserted.

:mod:`erebus.bench.engine` (random playouts, ``legal_actions``, ``clone``: any game,
through its spec), :mod:`erebus.bench.compare` (``--compare``: next to OpenSpiel) and
:mod:`erebus.bench.server` (``erebus bench server``: one real web server under load).
"""

from erebus.bench.engine import main, mid_game_state, playout_policy, run

__all__ = ["main", "mid_game_state", "playout_policy", "run"]
