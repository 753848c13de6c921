"""Stosstruppen perft: leaf counts at depths 1..2 (chance outcomes are plies,
each leaf counts 1) pinned in tests/data/stosstruppen.perft. The counts were
computed with the reference model (tests/reference/stosstruppen.py); run this
file as a script to regenerate them:  python tests/test_stosstruppen_perft.py
"""
from __future__ import annotations

import os
import random
import sys

import pytest

import ardsearch
from ardsearch.games.stosstruppen import SPEC

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from reference import stosstruppen as ref  # noqa: E402
from reference import perft as reference_perft  # noqa: E402

PERFT_FILE = os.path.join(HERE, "data", "stosstruppen.perft")


def read_lines():
    out = []
    if not os.path.exists(PERFT_FILE):
        return out
    with open(PERFT_FILE) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                scenario, moves, depth, count = (x.strip() for x in line.split("|"))
                out.append((scenario, [m.strip() for m in moves.split(",") if m.strip()],
                            int(depth), int(count)))
    return out


def engine_state(scenario, moves):
    s = ardsearch.Game(SPEC, {"scenario": scenario}).new_initial_state(seed=0)
    for m in moves:
        s.apply(m)
    return s


def model_state(scenario, moves):
    m = ref.State(scenario)
    for note in moves:
        m.apply(note)
    return m


@pytest.mark.parametrize("line", read_lines(), ids=lambda l: f"{l[0]}-{len(l[1])}-d{l[2]}")
def test_engine_perft_matches_pinned_counts(line):
    scenario, moves, depth, count = line
    assert ardsearch._core.perft(engine_state(scenario, moves), depth) == count


def test_reference_agrees_at_depth_one():
    for scenario, moves, depth, count in read_lines():
        if depth == 1:
            assert reference_perft(model_state(scenario, moves), 1) == count


def generate():
    """Positions: each scenario's start, and points along seeded random walks."""
    lines = []
    for scenario in ("kaiserschlacht", "villers"):
        for seed, plies in ((0, 0), (0, 1), (1, 3), (2, 12), (3, 40), (4, 90), (5, 160)):
            s = ardsearch.Game(SPEC, {"scenario": scenario}).new_initial_state(seed=0)
            rng = random.Random(seed)
            notes = []
            for _ in range(plies):
                if s.is_terminal():
                    break
                a = s.sample_chance() if s.is_chance_node() else rng.choice(s.legal_actions())
                notes.append(s.action_to_string(a))
                s.apply_action(a)
            m = model_state(scenario, notes)
            for depth in (1, 2):
                lines.append(f"{scenario} | {', '.join(notes)} | {depth} | {reference_perft(m, depth)}")
    with open(PERFT_FILE, "w") as f:
        f.write("# Stosstruppen perft counts, computed with tests/reference/stosstruppen.py\n"
                "# (python tests/test_stosstruppen_perft.py). Chance outcomes are plies; each leaf counts 1.\n"
                "# scenario | moves from new_initial_state(seed=0), notation, comma-separated | depth | count\n")
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    generate()
