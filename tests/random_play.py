"""Seeded random play shared by the evaluation tests of several games."""
import random


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
