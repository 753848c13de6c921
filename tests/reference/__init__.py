"""Independent pure-Python reference models of the games' rules.

Each module here is written from the game's rules contract
(shared/games/<name>.md) alone, never from the engine's code, so that the
differential tests compare two independent readings of the same rules.
"""
