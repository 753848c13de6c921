"""Every ardsearch game as an OpenSpiel game.

    import pyspiel
    from ardsearch.integrations import openspiel
    openspiel.register()                      # once per process
    game = pyspiel.load_game("ardsearch_ardennes(variant=basic)")
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 1.4, 1000, 100, True, 0, False)

The games are OpenSpiel *Python* games: each state holds an ardsearch State
and every OpenSpiel call goes to it, so OpenSpiel algorithms (MCTS, ISMCTS,
evaluate_bots, RL environments, CFR where the tree is small enough) run on
them unchanged, C++ algorithms through pyspiel's Python-game bridge.

Mapping (what OpenSpiel users should know):

- Game type: sequential, two players, zero-sum, terminal rewards; explicit
  chance when the game has chance (chance outcomes are action numbers of the
  same dense action space, so ``max_chance_outcomes == num_distinct_actions``);
  perfect or imperfect information as the game is.
- Parameters: the game's own (``game.spec.params``) with their defaults. A
  default that depends on other parameters (a Micro Armour scenario's own
  ``turns``, cohesion and quality) shows as ``-1000``, "the default": OpenSpiel
  hands every parameter to the game, so a plain default there would override
  the scenario's.
- Information state string: the player's number and the whole event history
  as that player saw it, in the game's notation, with ``?`` for an outcome
  hidden from the player (``State.masked_history``): perfect recall, exact.
  In a hidden-information game the player's observation string follows it:
  a state made by ``resample_from_infostate`` records the outcomes it
  invented as hidden, so only the observation tells the other player's
  information sets apart in it (in a real state it adds nothing new).
- Observation string and tensor: ``State.observation_string`` /
  ``State.observation_tensor`` of the player (what the player sees now).
- Information state tensor: given only for perfect-information games, where
  it is the observation tensor (the position decides everything). A hidden-
  information game offers none: an honest perfect-recall tensor would have
  to encode up to ``max_game_length`` events. Tabular algorithms key on the
  information state string instead; neural ones can use the observation.
- ``resample_from_infostate(player, sampler)``: a full state consistent
  with everything ``player`` has seen (the game's own determinization),
  seeded from ``sampler()``. Its OpenSpiel-side ``history()`` is empty: the
  hidden outcomes it invents are not part of any real history.
"""
from __future__ import annotations

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError("ardsearch.integrations.openspiel needs OpenSpiel: "
                      "pip install 'ardsearch[openspiel]' (or pip install open_spiel)") from e
import numpy as np

import ardsearch

PREFIX = "ardsearch_"

# ardsearch and OpenSpiel use the same numbers today; map them anyway so that a
# change on either side cannot silently turn a chance node into player -1.
_SPECIAL_PLAYERS = {
    ardsearch.CHANCE: int(pyspiel.PlayerId.CHANCE),
    ardsearch.TERMINAL: int(pyspiel.PlayerId.TERMINAL),
}


def short_name(name: str) -> str:
    """The OpenSpiel short name of an ardsearch game: ``ardsearch_<name>``."""
    return PREFIX + name


def game_type(ard_game) -> "pyspiel.GameType":
    """The OpenSpiel GameType of an ardsearch game (any parameters)."""
    hidden = ard_game.hidden_information
    Type = pyspiel.GameType
    return Type(
        short_name=short_name(ard_game.name),
        long_name=f"ardsearch {ard_game.spec.title}",
        dynamics=Type.Dynamics.SEQUENTIAL,
        chance_mode=(Type.ChanceMode.EXPLICIT_STOCHASTIC if ard_game.has_chance
                     else Type.ChanceMode.DETERMINISTIC),
        information=(Type.Information.IMPERFECT_INFORMATION if hidden
                     else Type.Information.PERFECT_INFORMATION),
        utility=Type.Utility.ZERO_SUM,
        reward_model=Type.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=not hidden,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={p.name: _offered_default(p) for p in ard_game.spec.params},
    )


# OpenSpiel fills in every parameter's default before it makes a game, so a
# default that depends on other parameters (Param.default_for) is offered as
# this marker and dropped again before the ardsearch game is made.
DEPENDENT_DEFAULT = -1000


def _offered_default(p):
    if p.default_for is None:
        return p.default
    if p.type is not int:
        raise TypeError(f"{p.name}: a parameter-dependent default is offered to OpenSpiel only for integers")
    return DEPENDENT_DEFAULT


def game_info(ard_game) -> "pyspiel.GameInfo":
    """Sizes and utilities of one parameterised ardsearch game, for OpenSpiel."""
    return pyspiel.GameInfo(
        num_distinct_actions=ard_game.num_actions,
        max_chance_outcomes=ard_game.num_actions if ard_game.has_chance else 0,
        num_players=2,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=ard_game.max_game_length,
    )


class OpenSpielGame(pyspiel.Game):
    """An ardsearch game seen through OpenSpiel's Game API.

    ``ard_game`` is the wrapped ``ardsearch.Game`` (its parameters fixed)."""

    def __init__(self, name: str, params: dict | None = None):
        params = {k: v for k, v in (params or {}).items() if v != DEPENDENT_DEFAULT}
        self.ard_game = ardsearch.load_game(name, **params)
        # OpenSpiel keeps every parameter, the defaults included, so that
        # str(game) reloads exactly this game.
        full = dict(self.ard_game.params)
        super().__init__(game_type(self.ard_game), game_info(self.ard_game), full)

    def new_initial_state(self) -> "OpenSpielState":
        return OpenSpielState(self, self.ard_game.new_initial_state(seed=0))

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"{short_name(self.ard_game.name)}: observer parameters are not "
                             f"supported, got {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        if iig_obs_type is not None and self.ard_game.hidden_information and \
                iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError(f"{short_name(self.ard_game.name)}: only single-player observations "
                             "(private_info=SINGLE_PLAYER) exist for a hidden-information game")
        if perfect_recall:
            return InformationStateObserver(self.ard_game)
        return ObservationObserver(self.ard_game)


class OpenSpielState(pyspiel.State):
    """An OpenSpiel state around one ardsearch State (``self.ard_state``).

    pyspiel clones a Python state by deep-copying its ``__dict__``, so the
    ardsearch state is the only attribute (its deepcopy is a struct copy)."""

    def __init__(self, game: OpenSpielGame, ard_state):
        super().__init__(game)
        self.ard_state = ard_state

    def current_player(self):
        p = self.ard_state.current_player()
        return p if p >= 0 else _SPECIAL_PLAYERS[p]

    def _legal_actions(self, player):
        return self.ard_state.legal_actions()  # ascending, as OpenSpiel requires

    def chance_outcomes(self):
        return self.ard_state.chance_outcomes()

    def _apply_action(self, action):
        self.ard_state.apply_action(int(action))

    def _action_to_string(self, player, action):
        try:
            return self.ard_state.action_to_string(int(action))
        except ValueError:  # not an action of this state: OpenSpiel still wants a label
            return f"action {int(action)}"

    def is_terminal(self):
        return self.ard_state.is_terminal()

    def returns(self):
        return self.ard_state.returns()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A full state consistent with what ``player_id`` has seen.

        ``probability_sampler`` is OpenSpiel's: a callable giving uniform
        floats in [0, 1), used here to seed the game's determinization (an
        int is taken as the seed itself)."""
        if callable(probability_sampler):
            seed = int(probability_sampler() * (1 << 53))
        else:
            seed = int(probability_sampler)
        full = self.ard_state.resample_from_infostate(int(player_id), seed)
        return OpenSpielState(self.get_game(), full)

    def __str__(self):
        return str(self.ard_state)

    def __deepcopy__(self, memo):  # Python-side copies (copy.deepcopy(state))
        return self.clone()


class ObservationObserver:
    """What a player sees now: the game's observation tensor and string."""

    def __init__(self, ard_game):
        self.tensor = np.zeros(int(np.prod(ard_game.observation_shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(ard_game.observation_shape)}

    def set_from(self, state, player):
        self.dict["observation"][...] = state.ard_state.observation_tensor(player)

    def string_from(self, state, player):
        return state.ard_state.observation_string(player)


class InformationStateObserver:
    """Perfect recall: the player's masked event history (string); the
    observation tensor only for perfect-information games (see module doc)."""

    def __init__(self, ard_game):
        self._observation = None
        self._hidden = ard_game.hidden_information
        self.tensor = None
        self.dict = {}
        if not self._hidden:
            self._observation = ObservationObserver(ard_game)
            self.tensor = self._observation.tensor
            self.dict = self._observation.dict

    def set_from(self, state, player):
        if self._observation is not None:
            self._observation.set_from(state, player)

    def string_from(self, state, player):
        ard_state = state.ard_state
        text = f"p{player}: " + " ".join(ard_state.masked_history(player))
        if self._hidden:
            text += "\n" + ard_state.observation_string(player)
        return text


_GAME_CLASSES: dict = {}


def game_class(name: str) -> type:
    """The OpenSpielGame subclass that pyspiel calls to make game `name`.

    pyspiel keeps its game creators until the C++ runtime exits, after the
    interpreter is gone. A class (whose __mro__ refers to itself) is never
    freed by that last release, where a plain closure would be freed without
    the GIL and abort the process at exit; so each game gets a class."""
    cls = _GAME_CLASSES.get(name)
    if cls is None:
        def __init__(self, params=None):
            OpenSpielGame.__init__(self, name, params)
        cls = type(f"OpenSpielGame_{name}", (OpenSpielGame,), {"__init__": __init__,
                                                                "__module__": __name__})
        _GAME_CLASSES[name] = cls
    return cls


def register(names=None) -> list[str]:
    """Registers ardsearch games with pyspiel (all by default) and returns
    their OpenSpiel short names. Calling it again is harmless."""
    names = ardsearch.list_games() if names is None else list(names)
    known = set(pyspiel.registered_names())
    registered = []
    for name in names:
        ard_game = ardsearch.load_game(name)  # ValueError for an unknown game
        if short_name(name) not in known:
            pyspiel.register_game(game_type(ard_game), game_class(name))
        registered.append(short_name(name))
    return registered


def load_game(name: str, **params) -> OpenSpielGame:
    """``pyspiel.load_game`` for an ardsearch game, registering it first."""
    register([name])
    return pyspiel.load_game(short_name(name), params) if params else \
        pyspiel.load_game(short_name(name))


__all__ = ["PREFIX", "OpenSpielGame", "OpenSpielState", "game_class", "game_info", "game_type",
           "load_game", "register", "short_name"]
