"""Clash of the Ardennes: pinned perft counts (tests/data/ardennes.perft).

The counts were computed with the reference model (tests/reference/ardennes.py)
and are checked here against both the engine (ardsearch._core.perft) and the
reference itself, so a change in either shows up as a count change.

Regenerate the file (only after a deliberate rules change):
    python tests/test_ardennes_perft.py --write
"""
from __future__ import annotations

import os
import random
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from reference import ardennes as ref  # noqa: E402

PERFT_FILE = os.path.join(HERE, "data", "ardennes.perft")

HEADER = """\
# Clash of the Ardennes perft counts, computed with tests/reference/ardennes.py.
#
# One line per count:   <params> <seed> <plies> <depth> <count>
#   params  comma-separated key=value game parameters ("-" for the defaults)
#   seed    seed of the random walk that reaches the start position
#   plies   number of random plies played from the initial state
#   depth   perft depth; count = leaves at that depth, chance nodes expanded
#           over all their outcomes, a terminal state counting 1
#
# Random walk: rng = random.Random(seed) (Python's Mersenne Twister); at each
# ply, moves = the chance outcome actions (increasing) at a chance node, else
# the legal actions (increasing) without `pass` (105) unless pass is the only
# one; play rng.choice(moves).
"""

# (params, seed, plies) of each start position; depths 1..3 of each are pinned.
POSITIONS = [
    ("-", 0, 0),
    ("first=allies", 0, 0),
    ("variant=basic,first=germans", 0, 2),
    ("road_length=16", 1, 40),
    ("road_length=8", 2, 60),
    ("variant=basic,road_length=12", 3, 30),
    ("road_length=16", 4, 120),
    ("road_length=10,first=germans", 5, 80),
    ("road_length=9,max_rounds=3", 6, 24),
]
DEPTHS = (1, 2, 3)


def parse_params(text):
    if text == "-":
        return {}
    params = {}
    for item in text.split(","):
        key, value = item.split("=")
        params[key] = int(value) if value.isdigit() else value
    return params


def walk(moves_of, apply, rng, plies):
    """The random walk of the file header over any model (given as functions)."""
    for _ in range(plies):
        moves = moves_of()
        if not moves:
            break  # terminal
        apply(rng.choice(moves))


def reference_start(params, seed, plies):
    state = ref.Ardennes(**params).new_initial_state()

    def moves_of():
        if state.is_terminal():
            return []
        if state.is_chance_node():
            return [a for a, _ in state.chance_outcomes()]
        legal = state.legal_actions()
        return legal[:-1] if len(legal) > 1 else legal

    walk(moves_of, state.apply, random.Random(seed), plies)
    return state


def engine_start(game, seed, plies):
    state = game.new_initial_state(seed=seed)

    def moves_of():
        if state.is_terminal():
            return []
        if state.is_chance_node():
            return [a for a, _ in state.chance_outcomes()]
        legal = list(state.legal_actions())
        return legal[:-1] if len(legal) > 1 else legal

    walk(moves_of, state.apply_action, random.Random(seed), plies)
    return state


def read_counts():
    rows = []
    with open(PERFT_FILE) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                p, seed, plies, depth, count = line.split()
                rows.append((p, int(seed), int(plies), int(depth), int(count)))
    return rows


def write_counts():
    lines = [HEADER]
    for p, seed, plies in POSITIONS:
        state = reference_start(parse_params(p), seed, plies)
        for depth in DEPTHS:
            lines.append(f"{p} {seed} {plies} {depth} {ref.perft(state, depth)}\n")
    with open(PERFT_FILE, "w") as f:
        f.writelines(lines)


ROWS = read_counts() if os.path.exists(PERFT_FILE) else []


def _id(row):
    return f"{row[0]}:s{row[1]}:p{row[2]}:d{row[3]}"


def test_perft_file_covers_all_positions():
    pinned = {(p, s, n) for p, s, n, _, _ in ROWS}
    assert pinned == set(POSITIONS), "tests/data/ardennes.perft is stale: rerun " \
        "`python tests/test_ardennes_perft.py --write` if the change was intended"


@pytest.mark.parametrize("row", ROWS, ids=[_id(r) for r in ROWS])
def test_reference_perft(row):
    p, seed, plies, depth, count = row
    state = reference_start(parse_params(p), seed, plies)
    assert ref.perft(state, depth) == count


@pytest.mark.parametrize("row", ROWS, ids=[_id(r) for r in ROWS])
def test_engine_perft(row):
    ardsearch = pytest.importorskip("ardsearch")
    from ardsearch import _core
    p, seed, plies, depth, count = row
    game = ardsearch.load_game("ardennes", **parse_params(p))
    state = engine_start(game, seed, plies)
    want = reference_start(parse_params(p), seed, plies)
    assert [int(a) for a in state.history()] == want.history, \
        "the engine's random walk left the reference's: see test_ardennes_differential"
    assert _core.perft(state, depth) == count


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(__doc__)
    write_counts()
    print(f"wrote {PERFT_FILE}")
