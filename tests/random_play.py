"""Seeded random play shared by the evaluation tests of several games."""
import random

from ardsearch.bots import HeuristicBot


def seeded_positions(state, seed, every, plies):
    """Non-terminal positions of one seeded random game from `state` (played on),
    one every `every` plies: chance outcomes and moves drawn uniformly by
    random.Random(seed)."""
    r = random.Random(seed)
    out = []
    for ply in range(plies):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outs = state.chance_outcomes()
            state.apply_action(outs[r.randrange(len(outs))][0])
        else:
            acts = state.legal_actions()
            state.apply_action(acts[r.randrange(len(acts))])
        if ply % every == 0 and not state.is_terminal():
            out.append(state.clone())
    return out


def greedy_positions(game, seed, every=10, plies=3000):
    """Positions of one seeded game of greedy moves (one in five random), which
    gets further than random play: roads conquered, units off the map."""
    rng = random.Random(seed)
    bot = HeuristicBot(game, seed=seed)
    state = game.new_initial_state(seed=seed)
    out = []
    for ply in range(plies):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            moves = state.legal_actions()
            state.apply_action(rng.choice(moves) if rng.random() < 0.2 else bot.analyze(state)["best"])
        if ply % every == 0 and not state.is_terminal():
            out.append(state.clone())
    return out
