"""What a game package gives the generic core besides its C vtable.

Each game package ``ardsearch/games/<name>/__init__.py`` defines ``SPEC``, a
:class:`GameSpec`. The C engine (vtable) does everything search needs; the
spec adds the Python-side pieces that are not hot: parameter declarations,
the structured state (to_dict / from_dict), the board text, and the
observation tensor. The core validates parameters generically from the
declarations, so games never hand-roll that.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended (``state.outcome()``), in the manner of
    python-chess's ``Board.outcome()``.

    winner: 0 or 1, or None for a draw; winner_name: that side's name as in
    ``to_dict()`` (``game.player_names``), or "draw"; reason: a short stable
    code, one set per game (each game's RULES.md, "How the game ends");
    sentence: what a person reads, with the facts ("5 German units exited by
    the end of turn 4")."""

    winner: Optional[int]
    winner_name: str
    reason: str
    sentence: str

    @classmethod
    def make(cls, spec: "GameSpec", winner: Optional[int], reason: str, sentence: str) -> "Outcome":
        name = "draw" if winner is None else spec.player_names[winner]
        return cls(winner, name, reason, sentence)

    def __str__(self) -> str:
        return self.sentence


@dataclass(frozen=True)
class Param:
    """One game parameter: ``load_game(name, <name>=value)``."""

    name: str
    type: type  # int, float, bool or str
    default: Any
    meaning: str
    choices: tuple | None = None  # allowed values, for str parameters
    min: float | None = None
    max: float | None = None
    # A default that depends on the other parameters (e.g. a scenario's own turn
    # limit): called with the values of the parameters that have no such hook.
    # `default` stays the value shown when nothing else is known.
    default_for: Optional[Callable[[dict], Any]] = field(default=None, compare=False)

    def default_in(self, values: dict) -> Any:
        """The value this parameter takes when not given, beside `values`."""
        return self.default if self.default_for is None else self.default_for(values)

    def coerce(self, value: Any) -> Any:
        """The value as this parameter's type, or ValueError saying what is allowed."""
        expected = self.describe()
        if self.type is bool:
            if isinstance(value, bool):
                v = value
            elif isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no"):
                v = value.lower() in ("true", "1", "yes")
            elif isinstance(value, int) and value in (0, 1):
                v = bool(value)
            else:
                raise ValueError(f"parameter {self.name}={value!r}: expected {expected}")
        elif self.type is int:
            try:
                if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                    raise ValueError
                v = int(value)
            except (TypeError, ValueError):
                raise ValueError(f"parameter {self.name}={value!r}: expected {expected}") from None
        elif self.type is float:
            try:
                v = float(value)
            except (TypeError, ValueError):
                raise ValueError(f"parameter {self.name}={value!r}: expected {expected}") from None
        else:
            v = str(value)
        if self.choices is not None and v not in self.choices:
            raise ValueError(f"parameter {self.name}={value!r}: expected {expected}")
        if self.min is not None and v < self.min or self.max is not None and v > self.max:
            raise ValueError(f"parameter {self.name}={value!r}: expected {expected}")
        return v

    def describe(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(str(c) for c in self.choices)
        if self.type is bool:
            return "true or false"
        kind = {int: "an integer", float: "a number"}.get(self.type, "a string")
        if self.min is not None and self.max is not None:
            return f"{kind} from {self.min:g} to {self.max:g}"
        return kind


@dataclass(frozen=True)
class GameSpec:
    """Everything the core needs to know about one game."""

    name: str                      # package name, e.g. "ardennes"
    title: str                     # "Clash of the Ardennes"
    capsule: Any                   # PyCapsule "ardsearch.game" holding the ard_game vtable
    params: tuple[Param, ...]
    # values (all params, validated, by name) -> the C parameters struct as bytes
    pack_params: Callable[[dict], bytes]
    # raw state bytes -> the structured state (schema in the game's RULES.md)
    to_dict: Callable[[bytes], dict]
    # (structured state, the game's parameters) -> raw state bytes; ValueError
    # naming the problem. The parameters fill in what the schema leaves out.
    from_dict: Callable[[dict, dict], bytes]
    # raw state bytes -> the board text (str(state))
    render: Callable[[bytes], str]
    # raw state bytes of a view of `player` -> numpy float32 array
    observation_tensor: Callable[[bytes, int], Any]
    observation_shape: tuple[int, ...]
    # optional one-line descriptions for `ardsearch show`
    summary: str = ""
    extra: dict = field(default_factory=dict)
    # the two sides, player 0 first: names as to_dict() writes them, and titles
    # as a person reads them
    player_names: tuple[str, str] = ("0", "1")
    player_titles: tuple[str, str] = ("Player 0", "Player 1")
    # the State at a terminal position -> its Outcome (RULES.md, "How the game ends")
    outcome: Optional[Callable[[Any], Outcome]] = None
    # the reason codes `outcome` can give, in the order RULES.md lists them
    outcome_reasons: tuple[str, ...] = ()
    # text that is not notation -> a sentence saying how to write that move in
    # this game's notation, or None; added to the InvalidMoveError (a game whose
    # rules file shows forms its notation writes as several moves)
    notation_hint: Optional[Callable[[str], Optional[str]]] = None
    # (structured state as to_dict() gives it, a move's exact notation that is
    # not legal there) -> one sentence saying why, or None when the game has
    # nothing sure to say; read only when a move is refused (ardsearch/_refusals.py),
    # which falls back to the legal moves of the same group if this is None or raises
    illegal_reason: Optional[Callable[[dict, str], Optional[str]]] = None
    # a decision state -> the notation of the move the game's book plays there,
    # or None: positions the searching bots play from data rather than search,
    # because their evaluation cannot tell the moves apart (Mortain's US setup
    # phase: the scenario's historical setup). ardsearch.bots reads it.
    book: Optional[Callable[[Any], Optional[str]]] = None

    def __post_init__(self):
        # A game whose evaluation is features reads its weights file now, when
        # its module is imported (ardsearch.evaluation; a bad file stops the import).
        from ardsearch import evaluation
        evaluation.install(self)

    @classmethod
    def from_engine(cls, engine, *, name, title, params, render, summary="", **more):
        """The spec of a game whose Cython engine module follows the usual
        layout: capsule(), pack_params, to_dict, from_dict, observation_tensor
        and OBSERVATION_SHAPE."""
        return cls(name=name, title=title, capsule=engine.capsule(), params=tuple(params),
                   pack_params=engine.pack_params, to_dict=engine.to_dict,
                   from_dict=engine.from_dict, render=render,
                   observation_tensor=engine.observation_tensor,
                   observation_shape=tuple(engine.OBSERVATION_SHAPE), summary=summary, **more)
