"""What the handshake says about each game: its name and a rules hash.

The hash identifies the rules and notation an engine plays, so a referee can
refuse to pair engines that disagree. It covers the game's RULES.md (kept true
to the code by the definition of done), the action space and state layout,
and the notation of every action, so a change of rules or notation changes it.
"""
from __future__ import annotations

import hashlib
from importlib import resources

_CACHE: dict[str, str] = {}


def rules_hash(name: str) -> str:
    """12 hex digits; raises if the game cannot be loaded."""
    if name in _CACHE:
        return _CACHE[name]
    import ardsearch

    game = ardsearch.load_game(name)
    h = hashlib.sha256()
    h.update(name.encode())
    try:
        h.update(resources.files(f"ardsearch.games.{name}").joinpath("RULES.md").read_bytes())
    except (OSError, ModuleNotFoundError):
        h.update(b"no RULES.md")
    h.update(f"{game.num_actions} {game.max_legal} {game.max_game_length} {game.state_size}".encode())
    state = game.new_initial_state(seed=0)
    for action in range(game.num_actions):
        try:
            h.update(state.action_to_string(action).encode() + b"\n")
        except ValueError:
            h.update(b"-\n")
    _CACHE[name] = h.hexdigest()[:12]
    return _CACHE[name]


def game_lines() -> list[str]:
    """One `game <name> <hash>` line per game that loads."""
    import ardsearch

    lines = []
    for name in ardsearch.list_games():
        try:
            lines.append(f"game {name} {rules_hash(name)}")
        except Exception:  # a game whose extension is not built is simply not offered
            continue
    return lines
