"""A bot pool's workers do not outlive the process that made them, even when it is
killed with SIGKILL (no shutdown runs then)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

CHILD = textwrap.dedent(
    """
    import os, sys
    from erebus.bots.base import BotSpec
    from erebus.bots.pool import BotPool
    from erebus.games import get_game

    pool = BotPool(workers=2)
    state = get_game("northwest").new_game(players=2, seed=1)
    pool.choose(BotSpec("random", 1, None, None), state)  # the workers are up
    print(" ".join(str(p) for p in pool._executor._processes), flush=True)
    sys.stdin.read()  # until the test kills us
    """
)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (exited, not yet reaped by its dead parent's adopter) counts as gone
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[-1][:1] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_exit_when_their_parent_is_killed() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        workers = [int(p) for p in proc.stdout.readline().split()]
        assert workers and all(_alive(p) for p in workers)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        deadline = time.monotonic() + 15
        while any(_alive(p) for p in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(_alive(p) for p in workers), "a bot worker outlived its parent"
    finally:
        if proc.poll() is None:
            proc.kill()
