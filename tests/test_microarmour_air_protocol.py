"""Micro Armour airstrikes over the protocol: a bomb plot is a hidden
decision, sent as `?` to the other seat's engine, which still answers with a
legal move (RULES.md "Hidden information"; docs/protocol.md, position)."""
from __future__ import annotations

import random


from test_protocol_helpers import recording_engine

import ardsearch
from ardsearch.protocol.client import Limit


engine = recording_engine(timeout=30)


def at_the_second_plot():
    """The airstrike scenario, random play (seed 1) to the Ju 87's plot
    decision right after the Il-2's hidden one."""
    game = ardsearch.load_game("microarmour", scenario="airstrike", deployment="close")
    state = game.new_initial_state(seed=1)
    state.seed = 1
    rng = random.Random(1)
    while True:
        d = state.to_dict()
        strike = d["air"]["strike"]
        if strike and strike["step"] == "plot" and strike["aircraft"] == "ju87" \
                and state.history_strings()[-1].startswith(("plot", "pass")):
            return state
        if state.is_chance_node():
            state.apply_random_chance()
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_the_opponents_plot_is_sent_as_a_question_mark_and_the_answer_is_legal(engine):
    state = at_the_second_plot()
    german = 0
    assert state.current_player() == german
    assert state.masked_history(german)[-1] == "?"
    engine.sent = []
    result = engine.play(state, Limit(nodes=200))
    line = [s for s in engine.sent if s.startswith("position ")][-1].split()
    events = line[line.index("moves") + 1:]
    assert events[-1] == "?" and state.history_strings()[-1].startswith(("plot", "pass"))
    assert result.action in state.legal_actions()
    assert result.move.startswith(("plot", "pass"))
