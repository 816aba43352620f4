"""The house rule of the game contract (issue 11), checked on the source:

* no consumer (server, bots, tournaments, RL, benchmarks, the terminal app) imports a
  game package or its internals — only ``erebus.games`` (the registry) and
  ``erebus.core`` (the contract); the exceptions are each game's own front-end
  modules: ``terminal/<game>.py`` and ``terminal/<game>_screen.py`` (its terminal UI
  and pictures);
* no consumer probes a spec, a module or a state with ``getattr``: what a game offers
  is a declared field of its ``GameSpec``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from erebus.games import GAMES

SRC = Path(__file__).resolve().parents[1] / "src" / "erebus"
CONSUMERS = ("server", "bots", "rl", "terminal", "bench", "tournament")
GAME_NAMES = ("northwest", "iceandsnow")
EXEMPT = {
    *(f"terminal/{g}.py" for g in GAME_NAMES),
    *(f"terminal/{g}_screen.py" for g in GAME_NAMES),
}
#: ``getattr`` on things that are no game: the asyncio loop's ready queue.
# bench/envs.py: the step profiler wraps the engine methods the game's RL encoding
# names (``RlEncoding.legal_parts``) on the state's class — named by the spec, no probe.
GETATTR_OK = {("server/botrunner.py", "loop"), ("bench/envs.py", "cls")}


def consumer_files() -> list[Path]:
    out: list[Path] = []
    for name in CONSUMERS:
        folder, module = SRC / name, SRC / f"{name}.py"
        if folder.is_dir():
            out += sorted(folder.rglob("*.py"))
        if module.is_file():
            out.append(module)
    out += sorted(SRC.glob("bench_*.py"))  # until the benchmarks are a package
    return out


def rel(path: Path) -> str:
    return path.relative_to(SRC).as_posix()


def test_the_scan_sees_every_consumer() -> None:
    names = {rel(p) for p in consumer_files()}
    assert {"server/service.py", "bots/mcts.py", "rl/env.py", "terminal/app.py"} <= names
    assert set(GAME_NAMES) <= set(GAMES)


def game_imports(tree: ast.AST) -> list[str]:
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            bad += [a.name for a in node.names if a.name.startswith("erebus.games.")]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith("erebus.games."):
                bad.append(node.module)
            elif node.module == "erebus.games":
                bad += [f"erebus.games.{a.name}" for a in node.names if a.name in GAMES]
    return bad


def getattr_probes(path: Path, tree: ast.AST) -> list[str]:
    bad = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "getattr"
            and node.args
        ):
            target = ast.unparse(node.args[0])
            if (rel(path), target) not in GETATTR_OK:
                bad.append(f"line {node.lineno}: getattr({target}, …)")
    return bad


@pytest.mark.parametrize("path", consumer_files(), ids=rel)
def test_consumers_speak_game_spec_only(path: Path) -> None:
    if rel(path) in EXEMPT:
        return
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert game_imports(tree) == [], f"{rel(path)} imports a game's internals"
    assert getattr_probes(path, tree) == [], f"{rel(path)} probes with getattr"


def test_the_rule_catches_what_it_forbids() -> None:
    tree = ast.parse(
        "from erebus.games.northwest.state import State\n"
        "from erebus.games import northwest, get_game\n"
        "import erebus.games.iceandsnow.encoding\n"
        "x = getattr(state, 'phase', None)\n"
    )
    assert game_imports(tree) == [
        "erebus.games.northwest.state",
        "erebus.games.northwest",
        "erebus.games.iceandsnow.encoding",
    ]
    assert getattr_probes(SRC / "bots" / "x.py", tree) == ["line 4: getattr(state, …)"]
