"""Seeded random play shared by the evaluation tests of several games."""
import random

from ardsearch.bots import HeuristicBot


def _positions(state, rng, every, plies, choose):
    """Non-terminal positions of one game from `state` (played on), one every
    `every` plies: chance outcomes drawn uniformly by rng, moves by choose."""
    out = []
    for ply in range(plies):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outs = state.chance_outcomes()
            state.apply_action(outs[rng.randrange(len(outs))][0])
        else:
            state.apply_action(choose(state))
        if ply % every == 0 and not state.is_terminal():
            out.append(state.clone())
    return out


def seeded_positions(state, seed, every, plies):
    """Non-terminal positions of one seeded random game from `state` (played on),
    one every `every` plies: chance outcomes and moves drawn uniformly by
    random.Random(seed)."""
    r = random.Random(seed)

    def uniform(st):
        acts = st.legal_actions()
        return acts[r.randrange(len(acts))]
    return _positions(state, r, every, plies, uniform)


def greedy_positions(game, seed, every=10, plies=3000):
    """Positions of one seeded game of greedy moves (one in five random), which
    gets further than random play: roads conquered, units off the map."""
    rng = random.Random(seed)
    bot = HeuristicBot(game, seed=seed)

    def mostly_greedy(st):
        return rng.choice(st.legal_actions()) if rng.random() < 0.2 else bot.analyze(st)["best"]
    return _positions(game.new_initial_state(seed=seed), rng, every, plies, mostly_greedy)
