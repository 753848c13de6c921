"""Micro Armour's hidden-information scenarios: the in-process bot and the
protocol engine are the same search. DESIGN.md, Conventions: "Determinism: the
same seed, parameters and thread count give the same game and the same bot
move"; the protocol searches each `go` afresh from the Seed option (0 unless
set; ardsearch/protocol/searcher.py), so an MCTSBot with seed 0 and
reuse_tree=False must choose what the engine chooses from the same view (the
engine rebuilds it from the masked history, `?` for what the seat did not
see). The tournament's in-process bots differ from engines only by design:
each game seeds them from the match seed and they keep their tree between
moves (bench/README.md, Micro Armour: the hidden scenarios' strength)."""
from __future__ import annotations

import random
import subprocess
import sys

import pytest

import ardsearch
from ardsearch.protocol.client import Engine, Limit


def decisions(scenario, seed, every, count):
    """Seeded random play of `scenario`: `count` decision states, one every
    `every` plies, each carrying its game seed (for the position line)."""
    game = ardsearch.load_game("microarmour", scenario=scenario)
    state = game.new_initial_state(seed=seed)
    state.seed = seed
    rng = random.Random(seed)
    out, ply = [], 0
    while len(out) < count and not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance()
            continue
        moves = state.legal_actions()
        ply += 1
        if ply % every == 0 and len(moves) > 1:
            keep = state.clone()
            keep.seed = seed
            out.append(keep)
        state.apply_action(rng.choice(moves))
    return game, out


@pytest.mark.parametrize("scenario", ["ambush", "outpost"])
def test_the_in_process_bot_and_the_engine_choose_the_same_move(scenario):
    game, states = decisions(scenario, 5, 37, 4)
    assert len(states) == 4
    engine = Engine.popen([sys.executable, "-m", "ardsearch.protocol"], timeout=60,
                          stderr=subprocess.DEVNULL)
    try:
        engine.new_game(game.name, **game.params)
        for state in states:
            bot = ardsearch.load_bot("mcts", game, seed=0, simulations=200, reuse_tree=False)
            mine = bot.analyze(state)["move"]
            theirs = engine.analyse(state, Limit(nodes=200), seed=state.seed)["bestmove"]
            assert mine == theirs, state.history_strings()[-5:]
    finally:
        engine.quit()
