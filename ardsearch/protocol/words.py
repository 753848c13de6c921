"""Moves as protocol words.

The protocol separates words by spaces, but the notation of some games has
spaces in it (Mortain's `stack 1104`, Micro Armour's `posture pz4a move`).
On the wire each space inside a move is written `~`, a character no game's
notation uses: `stack~1104`, `posture~pz4a~move`. Everything the engine
reads as a move goes through from_word, everything it writes through word;
the client does the same on its side, so the Python API keeps the games'
own notation.
"""
from __future__ import annotations

SPACE = "~"


def to_word(notation: str) -> str:
    """A move's notation as one protocol word."""
    return notation.replace(" ", SPACE)


def from_word(word: str) -> str:
    """A protocol word back to the game's notation."""
    return word.replace(SPACE, " ")


def word(state, action) -> str:
    """The notation of `action` in `state`, as one protocol word."""
    return to_word(state.action_to_string(action))
