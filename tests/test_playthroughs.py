"""Golden playthroughs: every tests/playthroughs/<game>.txt must regenerate exactly.

Each file records on its first line the arguments of tests/gen_playthrough.py
that wrote it; the game is replayed in memory with the same seed and
parameters and compared line by line.
"""
from __future__ import annotations

import difflib
import glob
import os
import shlex
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_playthrough  # noqa: E402

FILES = sorted(glob.glob(os.path.join(gen_playthrough.PLAYTHROUGH_DIR, "*.txt")))


def _args(path):
    with open(path) as f:
        first = f.readline()
    prefix = "# args: "
    assert first.startswith(prefix), f"{path}: first line must be '{prefix}<game> --seed N ...'"
    words = shlex.split(first[len(prefix):])
    game, seed, params, plies = words[0], 0, "", None
    for i, w in enumerate(words):
        if w == "--seed":
            seed = int(words[i + 1])
        elif w == "--params":
            params = words[i + 1]
        elif w == "--plies":
            plies = int(words[i + 1])
    return game, seed, params, plies


@pytest.mark.parametrize("path", FILES, ids=[os.path.basename(p) for p in FILES])
def test_playthrough_unchanged(path):
    game, seed, params, plies = _args(path)
    try:
        import ardsearch
        ardsearch.load_game(game)
    except Exception as e:  # pragma: no cover - only while an engine is missing
        pytest.skip(f"{game} engine not available: {e}")
    with open(path) as f:
        want = f.read()
    name = os.path.basename(path)[:-len(".txt")]
    got = gen_playthrough.playthrough(game, seed, params, plies, name)
    if got != want:
        diff = list(difflib.unified_diff(want.splitlines(), got.splitlines(),
                                         f"{os.path.basename(path)} (file)", "regenerated",
                                         lineterm="", n=2))
        shown = "\n".join(diff[:60]) + ("\n..." if len(diff) > 60 else "")
        rerun = want.splitlines()[2].lstrip("# ")       # the file's own command, --plies and --name included
        pytest.fail(f"the {game} playthrough changed.\n{shown}\n"
                    f"If the change is intended, rerun `{rerun}` and review the diff.")
