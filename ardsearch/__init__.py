"""ardsearch: fast engines and AI opponents for tabletop wargames.

    import ardsearch
    game = ardsearch.load_game("ardennes", variant="standard")
    state = game.new_initial_state(seed=7)
    bot = ardsearch.MCTSBot(game, simulations=20000, seed=0)
"""
from __future__ import annotations

import re

from ardsearch._core import (CHANCE, HIDDEN, TERMINAL, Game, IllegalMoveError,
                             InvalidMoveError, State)
from ardsearch._spec import Outcome
from ardsearch.games import GAMES
from ardsearch.records import Record, RecordError, read_record

try:
    from ardsearch._version import version as __version__
except ImportError:  # running from a source tree without a build
    __version__ = "0.0.0+unknown"

__all__ = [
    "CHANCE", "HIDDEN", "TERMINAL", "Game", "State", "Outcome", "IllegalMoveError", "InvalidMoveError",
    "list_games", "load_game", "__version__", "Record", "RecordError", "read_record",
    "RandomBot", "HeuristicBot", "MCTSBot", "ISMCTSBot", "ExpectimaxBot", "load_bot", "list_bots",
]

_CALL = re.compile(r"^\s*([a-z_][a-z0-9_]*)\s*(?:\((.*)\))?\s*$")


def list_games() -> list[str]:
    """The names of the available games, sorted."""
    return sorted(GAMES)


def load_game(name: str, **params) -> Game:
    """A game by name with keyword parameters, or an OpenSpiel-style string
    ``"ardennes(variant=basic,road_length=12)"``. Unknown games, unknown
    parameters and bad values raise ValueError."""
    if not isinstance(name, str):
        raise ValueError(f"game name must be a string, got {name!r}")
    m = _CALL.match(name)
    if not m:
        raise ValueError(f"cannot read game {name!r}: expected name or name(key=value,...)")
    name, inner = m.group(1), m.group(2)
    if inner:
        for item in inner.split(","):
            if not item.strip():
                continue
            key, eq, value = item.partition("=")
            if not eq or not key.strip():
                raise ValueError(f"cannot read parameter {item.strip()!r}: expected key=value")
            if key.strip() in params:
                raise ValueError(f"parameter {key.strip()!r} given twice")
            params[key.strip()] = value.strip()
    from ardsearch.games import spec
    return Game(spec(name), params)


def __getattr__(attr):
    # Bots import the search extension; load them on first use.
    if attr in ("RandomBot", "HeuristicBot", "MCTSBot", "ISMCTSBot", "ExpectimaxBot",
                "load_bot", "list_bots"):
        from ardsearch import bots
        return getattr(bots, attr)
    raise AttributeError(f"module 'ardsearch' has no attribute {attr!r}")
