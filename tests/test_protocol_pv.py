"""Every pv the engine prints is a line of play the mover can know.

docs/protocol.md, go: "`pv` (the expected line in notation, playable move by
move on the view of the side to move: it ends before the first event that
player cannot see, a hidden chance outcome or a hidden decision of the
opponent, so it never holds a `?`; always last)".

For every game, over seeded positions taken from random games, every pv of
every info line must apply move by move on the mover's view, hold no `?`, and
(with hidden information) be playable in full by at least one determinization
of that view, that is by some real game the mover cannot tell apart from its
own.
"""
from __future__ import annotations

import random

import pytest

from test_protocol_helpers import InProcess, require_search

GAMES = ["ardennes", "microarmour", "mortain", "stosstruppen", "undaunted"]
POSITIONS = 8
DETERMINIZATIONS = 200


def positions(name: str, count: int, seed: int):
    """(seed, full state at a decision node) pairs from seeded random games."""
    import ardsearch
    from ardsearch.random_walk import random_walk

    game = ardsearch.load_game(name)
    rng = random.Random(seed)
    found = []
    k = 0
    while len(found) < count and k < 10 * count:
        k += 1
        state = random_walk(game.new_initial_state(seed=k), rng.randrange(0, 200), rng)
        while not state.is_terminal() and state.is_chance_node():
            state.apply_random_chance()
        if not state.is_terminal() and len(state.legal_actions()) > 1:
            found.append((k, state))
    return found


def split_line(view, words: list[str]) -> list[str] | None:
    """The pv's words as notation (a space inside a move travels as `~`),
    played on `view` as they are read. None: a word that is no legal event
    here (the pv does not apply)."""
    from ardsearch.protocol.words import from_word

    tokens = []
    for word in words:
        text = from_word(word)
        try:
            action = view.string_to_action(text)
        except ValueError:
            return None
        if action not in view.legal_actions():
            return None
        view.apply_action(action)
        tokens.append(text)
    return tokens


def playable_by_a_determinization(state, player: int, tokens: list[str]) -> bool:
    for seed in range(DETERMINIZATIONS):
        world = state.resample_from_infostate(player, seed)
        try:
            for t in tokens:
                world.apply(t)
        except ValueError:
            continue
        return True
    return False


@pytest.mark.parametrize("algorithm", ["auto", "expectimax"])
@pytest.mark.parametrize("name", GAMES)
def test_every_pv_is_playable_on_the_movers_view(name, algorithm):
    require_search()
    import ardsearch
    from ardsearch.protocol.words import to_word

    hidden = ardsearch.load_game(name).hidden_information
    e = InProcess()
    e.run(f"newgame {name}", f"setoption name Algorithm value {algorithm}")
    checked = 0
    for i, (seed, state) in enumerate(positions(name, POSITIONS, seed=11)):
        mover = state.current_player()
        # the mover's view, or (every other position) the full history: the
        # engine reduces it to the mover's view itself
        history = state.masked_history(mover) if hidden and i % 2 == 0 else state.history_strings()
        e.run(f"position startpos seed {seed} moves " + " ".join(to_word(h) for h in history))
        out = e.run("go nodes 200")
        assert out[-1].startswith("bestmove "), out
        view = state.view(mover) if hidden else state.clone()
        for line in out:
            if not (line.startswith("info depth") and " pv " in line):
                continue
            words = line.split(" pv ", 1)[1].split()
            assert "?" not in words, f"{name} seed {seed}: pv holds an unseen event: {line}"
            tokens = split_line(view.clone(), words)
            assert tokens, f"{name} seed {seed}: pv does not apply on the mover's view: {line}"
            if hidden:
                assert playable_by_a_determinization(state, mover, tokens), \
                    f"{name} seed {seed}: no game consistent with the mover's view plays this pv: {line}"
            checked += 1
    assert checked >= POSITIONS // 2
