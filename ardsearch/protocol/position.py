"""Rebuilding a position from `position startpos [seed n] [moves ...]`.

Events are notation tokens; `?` is an event the engine's player did not see.
Without any `?` the moves replay on the full state. With one, the position is
the view of the one player p for whom every `?` is an event hidden from p:
the events replay on state.view(p), which takes `?` as the hidden outcome and
rejects a concrete token for anything p cannot know. So a position line can
never smuggle hidden information in, and the search only ever sees the view.
"""
from __future__ import annotations

from dataclasses import dataclass

HIDDEN_TOKEN = "?"


class PositionError(ValueError):
    def __init__(self, code: str, message: str, index: int = -1):
        super().__init__(message)
        self.code = code
        self.index = index  # how many events applied before the failure


@dataclass
class Position:
    state: object           # a full State, or a view State of `viewer`
    viewer: int | None      # None for a full state
    seed: int
    moves: tuple[str, ...]


def _replay(state, moves) -> object:
    for i, token in enumerate(moves):
        if state.is_terminal():
            raise PositionError("illegal-move", f"event {i + 1} '{token}': the game is already over", i)
        try:
            state.apply(token)
        except ValueError as exc:
            raise PositionError("illegal-move", f"event {i + 1} '{token}': {exc}", i) from None
    return state


def build_position(game, seed: int, moves: list[str]) -> Position:
    """The position the line describes, or PositionError (the caller keeps
    its previous position)."""
    start = game.new_initial_state(seed=seed)
    if HIDDEN_TOKEN not in moves:
        return Position(_replay(start, moves), None, seed, tuple(moves))
    if not getattr(game, "hidden_information", False):
        raise PositionError("illegal-move", f"event {moves.index(HIDDEN_TOKEN) + 1} is '?' "
                            f"but {game.name} has no hidden information", moves.index(HIDDEN_TOKEN))
    best: PositionError | None = None
    for player in (0, 1):
        try:
            view = _replay(start.view(player), moves)
        except PositionError as exc:
            # Report the failure of the reading that got furthest: that is
            # the seat the sender most likely meant.
            if best is None or exc.index > best.index:
                best = exc
            continue
        return Position(view, player, seed, tuple(moves))
    assert best is not None
    message = best.args[0]
    if "'?'" in message or "does not see" in message:
        message += (" (a '?' stands for an event hidden from the engine's player; every event that "
                    "player saw must be given as it happened)")
    raise PositionError(best.code, message, best.index)
