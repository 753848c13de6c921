"""Stosstruppen: the engine against the independent reference model
(tests/reference/stosstruppen.py) over seeded random games in both scenarios.

At every step both must agree on the player to move, the legal moves (as
notation), the chance outcomes and their probabilities, and at the end on the
returns. The engine's actions are drawn by a seeded RNG and applied to the
reference by their notation.
"""
from __future__ import annotations

import os
import random
import sys

import pytest

import ardsearch
from ardsearch.games.stosstruppen import SPEC

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import stosstruppen as ref  # noqa: E402

GAMES = 220
TURNS = (8, 2, 3)   # full games and short ones (more games, more variety per second)


def play(seed, scenario, turns):
    game = ardsearch.Game(SPEC, {"scenario": scenario, "turns": turns})
    state = game.new_initial_state(seed=seed)
    model = ref.State(scenario, turns)
    rng = random.Random(seed)
    steps = 0
    while True:
        cp = state.current_player()
        mp = model.current_player()
        where = f"{scenario} seed {seed} step {steps}"
        if cp == ardsearch.TERMINAL:
            assert mp == "terminal", f"{where}: engine ended, reference did not"
            assert state.returns() == model.returns(), where
            return steps
        if cp == ardsearch.CHANCE:
            assert mp == "chance", f"{where}: reference to move {mp}"
            outcomes = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
            expected = model.chances()
            assert set(outcomes) == set(expected), f"{where}: outcomes {outcomes} vs {expected}"
            for k, p in outcomes.items():
                assert abs(p - float(expected[k])) < 1e-9, f"{where}: {k} {p} vs {expected[k]}"
            action = state.sample_chance()
        else:
            assert mp == cp, f"{where}: player {cp} vs reference {mp}"
            moves = state.legal_actions()
            names = [state.action_to_string(a) for a in moves]
            expected = model.legal()
            assert set(names) == expected, (f"{where}: engine only {sorted(set(names) - expected)[:8]}, "
                                            f"reference only {sorted(expected - set(names))[:8]}")
            # rarely end a phase at once, so that the game reaches contact
            if len(moves) > 1 and rng.random() < 0.85:
                action = rng.choice([a for a, n in zip(moves, names) if n != "done"])
            else:
                action = rng.choice(moves)
        note = state.action_to_string(action)
        state.apply_action(action)
        model.apply(note)
        steps += 1


@pytest.mark.parametrize("scenario", ["kaiserschlacht", "villers"])
def test_random_games_match_reference(scenario):
    for seed in range(GAMES // 2):
        play(seed, scenario, TURNS[seed % len(TURNS)])
