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

from .words import from_word

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
    # Per player: decisions made in the moves, and those of them that had a
    # choice (more than one legal action). The clock's horizon uses them.
    decisions: tuple[int, int] = (0, 0)
    choices: tuple[int, int] = (0, 0)


def _replay(state, moves) -> tuple[object, tuple[int, int], tuple[int, int]]:
    decisions, choices = [0, 0], [0, 0]
    for i, token in enumerate(moves):
        if state.is_terminal():
            raise PositionError("illegal-move", f"event {i + 1} '{token}': the game is already over", i)
        player = state.current_player()
        if player in (0, 1):
            decisions[player] += 1
            # an unseen decision ('?') is the opponent's: its choices are not known
            choices[player] += token != HIDDEN_TOKEN and len(state.legal_actions()) > 1
        try:
            state.apply(from_word(token))
        except ValueError as exc:
            raise PositionError("illegal-move", f"event {i + 1} '{token}': {exc}", i) from None
    return state, tuple(decisions), tuple(choices)


def build_position(game, seed: int, moves: list[str]) -> Position:
    """The position the line describes, or PositionError (the caller keeps
    its previous position)."""
    start = game.new_initial_state(seed=seed)
    if HIDDEN_TOKEN not in moves:
        state, decisions, choices = _replay(start, moves)
        return Position(state, None, seed, tuple(moves), decisions, choices)
    if not getattr(game, "hidden_information", False):
        raise PositionError("illegal-move", f"event {moves.index(HIDDEN_TOKEN) + 1} is '?' "
                            f"but {game.name} has no hidden information", moves.index(HIDDEN_TOKEN))
    best: PositionError | None = None
    for player in (0, 1):
        try:
            view, decisions, choices = _replay(start.view(player), moves)
        except PositionError as exc:
            # Report the failure of the reading that got furthest: that is
            # the seat the sender most likely meant.
            if best is None or exc.index > best.index:
                best = exc
            continue
        return Position(view, player, seed, tuple(moves), decisions, choices)
    assert best is not None
    message = best.args[0]
    if "'?'" in message or "does not see" in message:
        message += (" (a '?' stands for an event hidden from the engine's player; every event that "
                    "player saw must be given as it happened)")
    raise PositionError(best.code, message, best.index)
