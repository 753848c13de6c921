"""Undaunted: Normandy: the engine against the pure-Python reference model
(tests/reference/undaunted.py) over seeded random games, pinned perft counts,
and the golden playthrough's regeneration check."""
from __future__ import annotations

import os
import random
import sys

import pytest

from ardsearch.games import undaunted as U
from ardsearch.games.undaunted import _engine as E

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from reference import undaunted as ref  # noqa: E402
from reference import perft as reference_perft  # noqa: E402

GAMES_PER_SCENARIO = {1: 500, 2: 250, 3: 250}   # 1000 games in all (DESIGN.md)


def start(scenario, max_rounds):
    return E._init(U.pack_params({"scenario": scenario, "max_rounds": max_rounds}))


def play_both(scenario, seed, max_rounds=12):
    """One seeded random game through the engine and the model, compared at every step."""
    rng = random.Random(seed * 7919 + scenario)
    raw = start(scenario, max_rounds)
    model = ref.Undaunted(E.to_dict(raw))
    steps = 0
    while True:
        d = E.to_dict(raw)
        assert ref.engine_summary(d) == model.summary(), f"scenario {scenario} seed {seed} step {steps}"
        cp = E._current(raw)
        if cp == -4:
            assert model.current_player() == "terminal"
            return steps
        if cp == -1:
            outcomes = {E._to_string(raw, a): p for a, p in E._chance(raw)}
            expected = model.chance()
            assert outcomes.keys() == expected.keys(), (scenario, seed, steps)
            for k in expected:
                assert outcomes[k] == pytest.approx(expected[k], abs=1e-12)
            moves, weights = zip(*sorted(outcomes.items()))
            move = rng.choices(moves, weights)[0]
        else:
            assert model.current_player() == cp
            legal = sorted(E._to_string(raw, a) for a in E._legal(raw))
            assert legal == model.legal(), f"scenario {scenario} seed {seed} step {steps}"
            move = rng.choice(legal)
        raw = E._apply(raw, E._from_string(raw, move))
        model.apply(move)
        steps += 1


@pytest.mark.parametrize("scenario", sorted(GAMES_PER_SCENARIO))
def test_engine_matches_reference_model(scenario):
    for seed in range(GAMES_PER_SCENARIO[scenario]):
        play_both(scenario, seed)


def test_full_length_games_match():
    for seed in range(3):
        play_both(1, 1000 + seed, max_rounds=40)


# ---------------------------------------------------------------- perft
def perft_cases():
    path = os.path.join(HERE, "data", "undaunted.perft")
    with open(path) as f:
        for line in f:
            line = line.split("#")[0].strip()
            if line:
                scenario, moves, depth, count = (x.strip() for x in line.split("|"))
                yield int(scenario), moves.split(), int(depth), int(count)


def position_after(scenario, moves):
    from ardsearch._core import Game
    game = Game(U.SPEC, {"scenario": scenario})
    state = game.new_initial_state(seed=0)
    for m in moves:
        state.apply(m)
    return state


@pytest.mark.parametrize("scenario,moves,depth,count", list(perft_cases()))
def test_perft(scenario, moves, depth, count):
    from ardsearch._core import perft
    state = position_after(scenario, moves)
    assert perft(state, depth) == count
    if count <= 400:                    # the pinned counts agree with the reference model
        assert reference_perft(ref.Undaunted(state.to_dict()), depth) == count
