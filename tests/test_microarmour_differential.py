"""Micro Armour: the engine against the pure-Python reference model
(tests/reference/microarmour.py) over seeded random games.

At every step both must agree on the structured state (to_dict), on the legal
moves in notation, and on the chance outcomes with their exact probabilities.
Most games start with the armies close (deployment=close) and run a few turns,
so random play reaches fire, opportunity and covering fire, losses, the hidden
break-point cards and recovery; a few play the scenario's full 12 turns.
"""
from __future__ import annotations

import os
import random
import sys

import pytest

import ardsearch
from ardsearch.games.microarmour import SPEC

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import microarmour as ref  # noqa: E402

SIDE_PARAMS = ("german_cohesion", "soviet_cohesion")


def make_ref(params):
    return ref.Ref(turns=params.get("turns"), determination=params.get("determination", 35),
                   cohesion=[params.get(k, d) for k, d in zip(SIDE_PARAMS, (15, 12))],
                   quality=[params.get("german_quality", 1), params.get("soviet_quality", 0)],
                   deployment=params.get("deployment", "edges"))


def play_both(params, seed):
    game = ardsearch.Game(SPEC, params)
    state = game.new_initial_state(seed=seed)
    model = make_ref(params)
    rng = random.Random(seed)
    steps = 0
    while True:
        d = state.to_dict()
        assert d == model.to_dict(), f"seed {seed} step {steps}: states differ"
        if state.is_terminal():
            assert model.current() == "terminal"
            assert state.returns() == model.returns()
            return steps
        if state.is_chance_node():
            got = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
            want = model.chances()
            assert set(got) == set(want), f"seed {seed} step {steps}: outcomes {got} vs {want}"
            for k in got:
                assert abs(got[k] - float(want[k])) < 1e-12, f"seed {seed} step {steps}: P({k})"
            a = state.apply_random_chance()
        else:
            got = sorted(state.action_to_string(a) for a in state.legal_actions())
            assert got == sorted(model.legal()), f"seed {seed} step {steps}: legal moves differ"
            a = rng.choice(state.legal_actions())
            state.apply_action(a)
        model.apply(state.history_strings()[-1])
        steps += 1


CLOSE = [({"deployment": "close", "turns": 3}, seed) for seed in range(560)]
VARIED = [({"deployment": "close", "turns": 4, "german_cohesion": 11 + seed % 8, "soviet_cohesion": 10 + seed % 9,
            "german_quality": seed % 6 - 2, "determination": 20 + seed % 30}, 1000 + seed) for seed in range(36)]
FULL = [({}, 2000 + seed) for seed in range(4)]


@pytest.mark.parametrize("params,seed", CLOSE + VARIED + FULL)
def test_engine_matches_reference(params, seed):
    play_both(params, seed)
