"""The pure-Python reference model of a game, registered as an OpenSpiel
Python game: what a user would write instead of ardsearch.

The reference models live in tests/reference/<name>.py (they exist to check
the C engines); this wraps one in the usual pyspiel.Game / pyspiel.State
subclasses, as OpenSpiel's own Python games are written, and registers it as
``pyref_<name>``. Only what MCTS needs is provided (no observations).
"""
from __future__ import annotations

import copy
import importlib
import inspect
import os
import sys

import pyspiel

_TESTS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests")
PREFIX = "pyref_"
_CLASSES: dict = {}


def reference_factory(ard_game):
    """A zero-argument function making a fresh reference state with the
    game's parameters, or None when the game has no usable reference model.

    Two shapes of model are understood: a game class with
    new_initial_state() whose states speak dense action numbers
    (legal_actions, chance_outcomes, apply, current_player, clone), or a
    state class speaking the game's notation (legal() and chances() giving
    move texts, player() giving 'chance' / 'terminal' / 0 / 1, apply(text)),
    which is numbered here the way a user would: by position in the sorted
    list of moves. A module-level new_model(game) making such a state from
    the game's parameters is used first when the module has one."""
    if _TESTS not in sys.path:
        sys.path.insert(0, _TESTS)
    try:
        ref = importlib.import_module(f"reference.{ard_game.name}")
    except ImportError:
        return None
    if hasattr(ref, "new_model"):
        ref.new_model(ard_game)  # validates the parameters once
        return lambda: NumberedModel(ref.new_model(ard_game))
    for obj in vars(ref).values():
        if not (isinstance(obj, type) and obj.__module__ == ref.__name__):
            continue
        numbered = hasattr(obj, "new_initial_state")
        if not numbered and not all(hasattr(obj, m) for m in ("legal", "chances", "player", "apply")):
            continue
        accepted = inspect.signature(obj).parameters
        if any(p.kind == p.POSITIONAL_ONLY or (p.default is p.empty and p.kind == p.POSITIONAL_OR_KEYWORD)
               for p in accepted.values()):
            continue  # needs arguments we cannot derive from the game's parameters
        kwargs = {k: v for k, v in ard_game.params.items() if k in accepted}
        try:
            if numbered:
                return obj(**kwargs).new_initial_state
            obj(**kwargs)  # validates the parameters once
        except (TypeError, ValueError):
            continue
        return lambda cls=obj, kw=kwargs: NumberedModel(cls(**kw))
    return None


class NumberedModel:
    """A notation-speaking model state behind dense action numbers: action i
    is the i-th move (or chance outcome) in sorted order at this state."""

    __slots__ = ("s", "_moves")

    def __init__(self, s, moves=None):
        self.s = s
        self._moves = moves  # sorted moves of this state, computed once

    def _sorted(self):
        if self._moves is None:
            self._moves = sorted(self.s.chances()) if self.s.player() == "chance" else \
                sorted(self.s.legal())
        return self._moves

    def is_terminal(self):
        return self.s.player() == "terminal"

    def is_chance_node(self):
        return self.s.player() == "chance"

    def current_player(self):
        return self.s.player()

    def legal_actions(self):
        return list(range(len(self._sorted())))

    def chance_outcomes(self):
        chances = self.s.chances()
        return [(i, chances[c]) for i, c in enumerate(self._sorted())]

    def apply(self, action, check=False):
        move = self._sorted()[action]
        self._moves = None
        self.s.apply(move)

    def returns(self):
        return self.s.returns()

    def clone(self):
        return NumberedModel(copy.deepcopy(self.s), self._moves)

    def __str__(self):
        return repr(self.s)


def follow(model_state, ard_state):
    """Plays the events of ardsearch state `ard_state` on a fresh model state
    (numbers for a numbered model, notation for a NumberedModel); returns it."""
    for action, text in zip(ard_state.history(), ard_state.history_strings()):
        if isinstance(model_state, NumberedModel):
            action = model_state._sorted().index(text)
        model_state.apply(action)
    return model_state


class _Held:
    """Holds a reference state so that pyspiel's clone (a deepcopy of the
    state's attributes) uses the model's own clone(), as a user would."""

    __slots__ = ("s",)

    def __init__(self, s):
        self.s = s

    def __deepcopy__(self, memo):
        return _Held(self.s.clone())


class ReferenceState(pyspiel.State):
    def __init__(self, game, ref_state):
        super().__init__(game)
        self.held = _Held(ref_state)

    def current_player(self):
        s = self.held.s
        if s.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if s.is_chance_node():
            return pyspiel.PlayerId.CHANCE
        return s.current_player()

    def _legal_actions(self, player):
        return sorted(self.held.s.legal_actions())

    def chance_outcomes(self):
        return [(a, float(p)) for a, p in self.held.s.chance_outcomes()]

    def _apply_action(self, action):
        apply = self.held.s.apply
        try:
            apply(int(action), check=False)  # OpenSpiel does not re-check legality either
        except TypeError:
            apply(int(action))

    def _action_to_string(self, player, action):
        return str(action)

    def is_terminal(self):
        return self.held.s.is_terminal()

    def returns(self):
        return [float(r) for r in self.held.s.returns()]

    def __str__(self):
        return str(self.held.s)


def register(ard_game):
    """Registers the reference model of `ard_game` (with its parameters) as
    pyspiel game ``pyref_<name>`` and returns the loaded pyspiel game, or
    None when there is no reference model."""
    factory = reference_factory(ard_game)
    if factory is None:
        return None
    name = PREFIX + ard_game.name
    key = (name, tuple(sorted(ard_game.params.items())))
    if key in _CLASSES:
        return _CLASSES[key]()
    Type = pyspiel.GameType
    game_type = Type(
        short_name=name, long_name=f"reference model of {ard_game.name} (pure Python)",
        dynamics=Type.Dynamics.SEQUENTIAL,
        chance_mode=(Type.ChanceMode.EXPLICIT_STOCHASTIC if ard_game.has_chance
                     else Type.ChanceMode.DETERMINISTIC),
        information=(Type.Information.IMPERFECT_INFORMATION if ard_game.hidden_information
                     else Type.Information.PERFECT_INFORMATION),
        utility=Type.Utility.ZERO_SUM, reward_model=Type.RewardModel.TERMINAL,
        max_num_players=2, min_num_players=2,
        provides_information_state_string=False, provides_information_state_tensor=False,
        provides_observation_string=False, provides_observation_tensor=False,
        parameter_specification={})
    info = pyspiel.GameInfo(
        num_distinct_actions=ard_game.num_actions,
        max_chance_outcomes=ard_game.num_actions if ard_game.has_chance else 0,
        num_players=2, min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
        max_game_length=ard_game.max_game_length)

    # A class, not a closure: pyspiel releases its creators after the
    # interpreter has gone, which only a class survives (see integrations.openspiel).
    def __init__(self, params=None):
        pyspiel.Game.__init__(self, game_type, info, {})

    def new_initial_state(self):
        return ReferenceState(self, factory())

    cls = type(f"ReferenceGame_{ard_game.name}", (pyspiel.Game,),
               {"__init__": __init__, "new_initial_state": new_initial_state, "__module__": __name__})
    if name not in pyspiel.registered_names():
        pyspiel.register_game(game_type, cls)
    _CLASSES[key] = cls
    return cls()
