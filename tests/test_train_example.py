"""docs/examples/train_northwest.py runs: a few seconds of training, a couple of games.

Only that it runs and reports sane numbers (win rates in [0, 1]); whether it beats
the random bot takes minutes and is measured by hand (docs/rl-training.md).  Skips
without torch (the optional ``train`` extra; ``make test`` does not install it).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("torch", reason="the train extra (torch) is not installed")

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "train_northwest.py"


def test_training_example_runs_and_reports_win_rates() -> None:
    spec = importlib.util.spec_from_file_location("train_northwest", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    figures = module.main(["--minutes", "0.02", "--eval-games", "2", "--batch", "1"])
    assert 0.0 <= figures["before"] <= 1.0 and 0.0 <= figures["after"] <= 1.0
    assert figures["games"] >= 1
    agent, games = module.train(0.0)
    assert games == 0  # no time, no games: the untrained policy
    assert 0.0 <= module.evaluate(agent, 1, seed=5)[0] <= 1.0
