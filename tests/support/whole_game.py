"""Whole-game hypothesis runs: the settings both games' invariant tests use.

Games are derandomised (the same examples every run, so CI is repeatable) unless
``EREBUS_FUZZ`` is set, which gives a ten times longer, randomised run; a failing
example prints its blob so that it can be replayed.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

FUZZ = bool(os.environ.get("EREBUS_FUZZ"))


def fuzz_settings(examples: int) -> settings:
    """``examples`` whole games (ten times as many, randomised, with ``EREBUS_FUZZ``)."""
    return settings(
        max_examples=examples * (10 if FUZZ else 1),
        deadline=None,
        derandomize=not FUZZ,
        print_blob=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
