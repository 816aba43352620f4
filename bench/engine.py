"""Run the engine benchmarks: ``python bench/engine.py [--quick] [--game northwest]``."""

from __future__ import annotations

import argparse

from erebus.bench.engine import main

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="northwest")
    parser.add_argument("--quick", action="store_true", help="shorter runs, noisier figures")
    args = parser.parse_args()
    main(game=args.game, quick=args.quick)
