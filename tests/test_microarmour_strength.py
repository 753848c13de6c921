"""Micro Armour: the evaluation is good enough that the one-ply greedy bot
beats random play clearly (seeded games, seats alternating)."""
from __future__ import annotations

import pytest

import ardsearch
from ardsearch.bots import HeuristicBot, RandomBot
from ardsearch.match import play_game
from ardsearch.games.microarmour import SPEC


@pytest.mark.parametrize("deployment,scenario", [("edges", "introductory"), ("close", "introductory"),
                                                 ("edges", "barrage")])
def test_greedy_beats_random(deployment, scenario):
    game = ardsearch.Game(SPEC, {"deployment": deployment, "scenario": scenario})
    wins = 0
    for seed in range(10):
        seat = seed % 2
        bots = [None, None]
        bots[seat] = HeuristicBot(game, seed=seed)
        bots[1 - seat] = RandomBot(game, seed=seed)
        wins += play_game(game, bots, seed=seed).returns[seat] > 0
    assert wins >= 8, f"greedy won only {wins} of 10"


def test_ismcts_is_the_mcts_search():
    """Issue 12 asks that "`mcts`/`ismcts` beat `greedy` clearly in every
    scenario"; bench/README.md reports one figure for both because in Micro
    Armour they are the same search: `mcts` is information-set MCTS here (the
    game has hidden information) and bots/ismcts.toml `[games.microarmour]`
    gives `ismcts` the mcts shape. Pinned on the meeting scenario: with the
    same seed and budget both presets choose the same move at every one of
    its decisions along a seeded game, so a change to either table that
    splits them shows here (and the shared figures must then be re-measured)."""
    game = ardsearch.Game(SPEC, {"scenario": "meeting"})
    mcts = ardsearch.load_bot("mcts", game, simulations=200, time_limit=None, seed=3)
    ismcts = ardsearch.load_bot("ismcts", game, simulations=200, time_limit=None, seed=3)
    assert mcts.shape == ismcts.shape and mcts.ismcts and ismcts.ismcts
    state = game.new_initial_state(seed=5)
    decisions = 0
    while decisions < 12 and not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance()
            continue
        move = mcts.step(state)
        assert ismcts.step(state) == move, f"decision {decisions}: mcts and ismcts differ"
        state.apply_action(move)
        decisions += 1
    assert decisions == 12
