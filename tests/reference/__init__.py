"""Independent pure-Python reference models of the games' rules.

Each module here is written from the game's rules contract
(shared/games/<name>.md) alone, never from the engine's code, so that the
differential tests compare two independent readings of the same rules.
"""
import copy


def play_random(model, player, chances, legal, rng) -> int:
    """Plays `model` to its end with uniformly random decisions and chance
    outcomes drawn by their probabilities; returns the number of events.
    player() gives "chance", "terminal" or a player; chances() maps outcome
    to probability; legal() lists the moves; model.apply(event) plays one.
    (Used by bench/ to time each reference model the same way.)"""
    n = 0
    while (who := player()) != "terminal":
        if who == "chance":
            table = chances()
            keys = sorted(table)
            event = rng.choices(keys, [float(table[k]) for k in keys])[0]
        else:
            event = rng.choice(sorted(legal()))
        model.apply(event)
        n += 1
    return n


def perft(model, depth) -> int:
    """Leaves `depth` events below a notation-speaking model state (player()
    giving "chance", "terminal" or a player; chances(); legal(); apply();
    clone() when the model has one, else a deep copy): chance nodes are
    expanded over all their outcomes and a terminal state counts 1, as the
    engine's perft does."""
    who = model.player()
    if depth == 0 or who == "terminal":
        return 1
    moves = list(model.chances()) if who == "chance" else model.legal()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = model.clone() if hasattr(model, "clone") else copy.deepcopy(model)
        child.apply(move)
        total += perft(child, depth - 1)
    return total
