"""Evaluation weights kept as data: each game's ``data/eval.toml``.

A game whose evaluate() is a linear model over features (game ABI 2:
``evaluate = tanh(w . f / 2)``, so ``(evaluate + 1) / 2`` is the model's win
probability) keeps its weights in ``ardsearch/games/<game>/data/eval.toml``::

    [weights]            # one number for every feature the engine names, any order
    classic = 1.0
    material = 0.4

    [calibration.mcts]   # optional: a search's root value -> win probability,
    value = [-0.9, 0.0, 0.8]   # either a monotone table: root values (increasing,
    wp = [0.05, 0.4, 0.9]      # in [-1, 1]) and their probabilities (non-decreasing,
                               # in [0, 1]), linear between knots, flat outside
    # or a Platt fit: scale = 1.3, shift = 0.0 (wp = sigmoid(scale * logit((v+1)/2) + shift))

    [calibration.ismcts.seat.german]   # or one calibration per seat (every seat of the
    value = [-0.5, 0.5]                # game, by its player name), chosen by the side
    wp = [0.3, 0.8]                    # to move: each a table or a Platt fit as above
    [calibration.ismcts.seat.us]
    scale = 1.0
    shift = -0.4

    [calibration.expectimax]           # optional `params`: the calibration holds only for
    params = {scenario = 1}            # games with these parameters (the ones it was fitted
    value = [-0.5, 0.5]                # on); any other game reports (v + 1) / 2
    wp = [0.3, 0.8]

    [[calibration.greedy]]             # or several, one per scenario: an array of tables,
    params = {scenario = 1}            # each with its own `params` (and a table, a Platt
    scale = 1.2                        # fit or [calibration.greedy.seat.<name>] tables);
    shift = 0.0                        # a game uses the one whose params it has
    [[calibration.greedy]]
    params = {scenario = 2}
    value = [-0.5, 0.5]
    wp = [0.2, 0.7]

    [calibration.mcts.rounds.1]        # or one per band of rounds, named by its first
    scale = 0.9                        # round and chosen by the decision's round (each a
    shift = 0.0                        # table, a Platt fit or one per seat); a band holds
    [calibration.mcts.rounds.6.seat.us]  # up to the next one's first round
    scale = 1.4
    shift = 0.1
    [calibration.mcts.rounds.6.seat.german]
    scale = 1.5
    shift = -0.1

    [source]             # optional: how the file was made (ardsearch tune writes it)
    game = "ardennes"
    command = "ardsearch tune ardennes --games 400 --seed 1"

The file is read when the game's module is imported (GameSpec calls
install()), validated strictly, and written into the engine's static weights
table. A bad file stops the import with one line naming the file and the key.
A game with features but no file keeps the defaults compiled into its engine.
A game without features may have a file with no [weights]: its calibration.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field

import numpy as np

from ardsearch._toml import read_toml

__all__ = ["EvalFile", "EvalFileError", "load", "install", "loaded", "resolve_weights",
           "classic_weights", "calibrated_wp", "eval_path", "CALIBRATED_SEARCHES", "CalibrationTable",
           "SeatCalibration", "Scoped", "RoundCalibration", "round_of", "calibration_for"]

# The searches whose root values a [calibration.<name>] table may map.
CALIBRATED_SEARCHES = ("mcts", "ismcts", "expectimax", "greedy")
_PLATT_KEYS = ("scale", "shift")
_TABLE_KEYS = ("value", "wp")
_SEAT_KEY = "seat"
_ROUNDS_KEY = "rounds"
_PARAMS_KEY = "params"
_SECTIONS = ("weights", "calibration", "source")


class EvalFileError(ValueError):
    """An eval.toml that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class CalibrationTable:
    """A monotone piecewise-linear map of root value -> win probability:
    knots `values` (strictly increasing, in [-1, 1]) and `wps` (non-decreasing,
    in [0, 1]). Between two knots the probability is interpolated linearly;
    below the first knot it is wps[0] and above the last wps[-1] (a table fitted
    on games says nothing beyond the values it saw, so it does not extrapolate)."""

    values: tuple
    wps: tuple

    def __call__(self, v: float) -> float:
        xs, ys = self.values, self.wps
        if v <= xs[0]:
            return ys[0]
        if v >= xs[-1]:
            return ys[-1]
        lo, hi = 0, len(xs) - 1           # binary search: xs[lo] <= v < xs[hi]
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if xs[mid] <= v:
                lo = mid
            else:
                hi = mid
        t = (v - xs[lo]) / (xs[hi] - xs[lo])
        return ys[lo] + t * (ys[hi] - ys[lo])


@dataclass(frozen=True)
class SeatCalibration:
    """One calibration per seat ([calibration.<search>.seat.<player name>]),
    chosen by the side to move: `seats` are the game's player names in
    player order and `fits` the calibration of each (a CalibrationTable or a
    Platt (scale, shift)). Why: in some games the same root value means a
    different win rate for each side (Stand at Mortain: a value just above 0
    won 74% of the time for the Germans and 38% for the US; bench/README.md,
    "Calibration"), which no single monotone map of the value can follow."""

    seats: tuple
    fits: tuple

    def fit_for(self, player) -> object:
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < len(self.fits):
            raise ValueError(f"this win-probability calibration is by seat ({', '.join(self.seats)}): "
                             f"give the side to move as a player number 0-{len(self.fits) - 1}, "
                             f"got {player!r}")
        return self.fits[player]


@dataclass(frozen=True)
class RoundCalibration:
    """One calibration per band of rounds ([calibration.<search>.rounds.<first
    round>], each a table, a Platt fit or one per seat), chosen by the round
    of the decision: band i holds from round starts[i] up to the round before
    starts[i + 1] (the last to the end of the game; a round before the first
    band's start takes the first band). Why: the same root value is a surer
    thing late in a game than early (Undaunted's scenario 2: the Platt scale
    fitted per band rises from 0.6 in rounds 1-10 to 2.3 in rounds 21-30;
    bench/README.md, "Undaunted: scenario 2 by round"), which no map of the
    value alone follows."""

    starts: tuple
    fits: tuple

    def fit_for(self, game_round) -> object:
        if isinstance(game_round, bool) or not isinstance(game_round, int):
            raise ValueError(f"this win-probability calibration is by round (bands from rounds "
                             f"{', '.join(map(str, self.starts))}): give the decision's round as a "
                             f"whole number, got {game_round!r}")
        band = 0
        for i, start in enumerate(self.starts):
            if game_round >= start:
                band = i
        return self.fits[band]


@dataclass(frozen=True)
class Scoped:
    """A calibration that holds only for games with the parameters `params`
    (sorted (key, value) pairs): fitted on one scenario, it says nothing about
    another (Undaunted's scenario 1, where the second seat won 86% of the
    games, is not its scenario 2), so a game with other parameters reports
    the raw (v + 1) / 2."""

    params: tuple
    fit: object

    def applies_to(self, game_params) -> bool:
        if game_params is None:
            raise ValueError(f"this win-probability calibration holds for the game parameters "
                             f"{dict(self.params)} only: give the game's params to check them")
        return all(k in game_params and game_params[k] == v for k, v in self.params)


@dataclass(frozen=True)
class EvalFile:
    """One validated eval.toml."""

    path: str
    weights: np.ndarray                       # in the engine's feature order
    names: tuple[str, ...]                    # the engine's feature names
    calibration: dict = field(default_factory=dict)   # search -> (scale, shift), CalibrationTable
                                                      # or SeatCalibration
    source: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return dict(zip(self.names, (float(w) for w in self.weights)))


def eval_path(game_name: str) -> str:
    """Where a game's weights file lives (it may not exist)."""
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "games", game_name, "data", "eval.toml")


def _number(path, key, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise EvalFileError(f"{path}: {key} = {value!r} is not a finite number: write a number such as 0.5")
    return float(value)


def load(path: str, names, game_name: str | None = None, seats=None) -> EvalFile:
    """Read and validate the weights file at `path` for a game whose engine
    names the features `names` (in order) and the players `seats` (in
    order; needed only for a calibration by seat). Raises EvalFileError, one
    line naming the file and the key, for: unreadable or invalid TOML, an
    unknown section, a missing or unknown feature, a weight that is not a
    finite number, a bad calibration table (non-monotone knots, an unknown or
    missing seat), or a [source] game that is not `game_name`."""
    names = tuple(names)
    seats = None if seats is None else tuple(seats)
    data = read_toml(path, error=EvalFileError, what="evaluation weights file")
    for key in data:
        if key not in _SECTIONS:
            raise EvalFileError(f"{path}: unknown key {key!r} at the top level "
                                f"(expected the tables {', '.join(_SECTIONS)})")
        if not isinstance(data[key], dict):
            raise EvalFileError(f"{path}: {key} must be a table ([{key}])")
    source = data.get("source", {})
    owner = source.get("game")
    if owner is not None and game_name is not None and owner != game_name:
        raise EvalFileError(f"{path}: source.game = {owner!r}: this file is for {owner}, not {game_name}")
    given = data.get("weights")
    if given is None and not names:
        given = {}          # a game without features: the file holds only its calibration
    if given is None:
        raise EvalFileError(f"{path}: no [weights] table: give one number per feature "
                            f"({', '.join(names)})")
    for key in given:
        if key not in names:
            where = f" for {game_name}" if game_name else ""
            known = f"features: {', '.join(names)}" if names else "the game has no evaluation features"
            raise EvalFileError(f"{path}: weights.{key} is not a feature{where} ({known})")
    missing = [n for n in names if n not in given]
    if missing:
        raise EvalFileError(f"{path}: weights.{missing[0]} is missing: every feature needs a weight "
                            f"(missing: {', '.join(missing)})")
    weights = np.array([_number(path, f"weights.{n}", given[n]) for n in names], dtype=np.float64)
    calibration = {}
    for search, table in data.get("calibration", {}).items():
        key = f"calibration.{search}"
        if search not in CALIBRATED_SEARCHES:
            raise EvalFileError(f"{path}: {key} is not a search that reports a win probability "
                                f"(one of {', '.join(CALIBRATED_SEARCHES)})")
        if isinstance(table, list):
            calibration[search] = _scoped_set(path, key, table, seats, game_name)
        else:
            calibration[search] = _one_calibration(path, key, table, seats, game_name)
    return EvalFile(path=path, weights=weights, names=names, calibration=calibration, source=dict(source))


def _one_calibration(path, key, table, seats, game_name):
    """One [calibration.<search>]: a table or Platt fit, or one per seat;
    Scoped when it names the game `params` it holds for."""
    scope = None
    if isinstance(table, dict) and _PARAMS_KEY in table:
        table = dict(table)
        scope = _scope(path, key, table.pop(_PARAMS_KEY))
    if isinstance(table, dict) and _ROUNDS_KEY in table:
        fit = _round_calibration(path, key, table, seats, game_name)
    else:
        fit = _seat_or_one(path, key, table, seats, game_name)
    return fit if scope is None else Scoped(scope, fit)


def _seat_or_one(path, key, table, seats, game_name):
    """A calibration for both seats (a table or Platt fit) or one per seat."""
    if isinstance(table, dict) and _SEAT_KEY in table:
        return _seat_calibration(path, key, table, seats, game_name)
    return _calibration(path, key, table)


def _round_calibration(path, key, table, seats, game_name):
    """[calibration.<search>.rounds.<first round>] for each band of rounds:
    a RoundCalibration (each band's calibration validated as for the whole
    game). The bands are named by their first round, whole numbers from 0."""
    for k in table:
        if k != _ROUNDS_KEY:
            raise EvalFileError(f"{path}: {key}.{k} is not allowed beside {key}.{_ROUNDS_KEY}: give either "
                                f"one calibration for every round or one per band under {key}.{_ROUNDS_KEY}")
    bands = table[_ROUNDS_KEY]
    if not isinstance(bands, dict) or not bands:
        raise EvalFileError(f"{path}: {key}.{_ROUNDS_KEY} must be a table of one calibration per band of "
                            f"rounds, each named by its first round ([{key}.{_ROUNDS_KEY}.1], ...)")
    starts = []
    for name in bands:
        if not (name.isascii() and name.isdigit()):
            raise EvalFileError(f"{path}: {key}.{_ROUNDS_KEY}.{name} is not a round: name each band by "
                                f"its first round, a whole number such as {_ROUNDS_KEY}.1")
        starts.append(int(name))
    order = sorted(range(len(starts)), key=starts.__getitem__)
    names = list(bands)
    if len(set(starts)) != len(starts):
        raise EvalFileError(f"{path}: {key}.{_ROUNDS_KEY}: two bands start at the same round "
                            f"({', '.join(names)}): give each band once")
    fits = tuple(_seat_or_one(path, f"{key}.{_ROUNDS_KEY}.{names[i]}", bands[names[i]], seats, game_name)
                 for i in order)
    return RoundCalibration(tuple(starts[i] for i in order), fits)


def _scoped_set(path, key, entries, seats, game_name) -> tuple:
    """[[calibration.<search>]]: several calibrations of one search, each for
    the games with its own `params` (one per scenario: a root value means
    another win rate in another scenario). Every entry must name its params,
    and no two the same ones (which one would a game use?)."""
    if not entries:
        raise EvalFileError(f"{path}: {key} is an empty list: give at least one [[{key}]] with its params, "
                            f"or leave {key} out")
    fits = []
    for i, table in enumerate(entries):
        where = f"{key}[{i}]"
        if not isinstance(table, dict) or _PARAMS_KEY not in table:
            raise EvalFileError(f"{path}: {where} has no {_PARAMS_KEY}: each [[{key}]] holds for the games "
                                f"with its own parameters, such as params = {{scenario = 1}}")
        fit = _one_calibration(path, where, table, seats, game_name)
        if any(other.params == fit.params for other in fits):
            raise EvalFileError(f"{path}: {where}.{_PARAMS_KEY} = {dict(fit.params)} is given twice: give "
                                f"one calibration per set of parameters")
        fits.append(fit)
    return tuple(fits)


def _scope(path, key, params):
    """`params = {name = value, ...}`: the game parameters a calibration holds for."""
    if not isinstance(params, dict) or not params:
        raise EvalFileError(f"{path}: {key}.{_PARAMS_KEY} must be a table of game parameters, such as "
                            f"params = {{scenario = 1}}")
    for k, v in params.items():
        if isinstance(v, (dict, list)) or (isinstance(v, float) and not math.isfinite(v)):
            raise EvalFileError(f"{path}: {key}.{_PARAMS_KEY}.{k} = {v!r} is not a game parameter value: "
                                f"write a number, a word in quotes or true/false")
    return tuple(sorted(params.items()))


def _seat_calibration(path, key, table, seats, game_name):
    """[calibration.<search>.seat.<player name>] for every seat of the game:
    a SeatCalibration (each seat's table validated as _calibration does)."""
    for k in table:
        if k != _SEAT_KEY:
            raise EvalFileError(f"{path}: {key}.{k} is not allowed beside {key}.{_SEAT_KEY}: give either "
                                f"one calibration for both seats or one per seat under {key}.{_SEAT_KEY}")
    by_seat = table[_SEAT_KEY]
    if not isinstance(by_seat, dict):
        raise EvalFileError(f"{path}: {key}.{_SEAT_KEY} must be a table of one calibration per seat "
                            f"([{key}.{_SEAT_KEY}.<player name>])")
    if seats is None:
        raise EvalFileError(f"{path}: {key}.{_SEAT_KEY}: a calibration by seat can only be read for a known "
                            f"game (pass its player names to evaluation.load)")
    whose = f" of {game_name}" if game_name else ""
    for name in by_seat:
        if name not in seats:
            raise EvalFileError(f"{path}: {key}.{_SEAT_KEY}.{name} is not a seat{whose}: name each seat by "
                                f"its player name ({', '.join(seats)})")
    missing = [n for n in seats if n not in by_seat]
    if missing:
        raise EvalFileError(f"{path}: {key}.{_SEAT_KEY}.{missing[0]} is missing: a calibration by seat "
                            f"needs one for every seat{whose} ({', '.join(seats)})")
    return SeatCalibration(seats, tuple(_calibration(path, f"{key}.{_SEAT_KEY}.{n}", by_seat[n]) for n in seats))


def _calibration(path, key, table):
    """One [calibration.<search>] table, validated: a monotone table (value,
    wp) or a Platt fit (scale, shift)."""
    if not isinstance(table, dict):
        raise EvalFileError(f"{path}: {key} must be a table: value and wp lists (or scale and shift)")
    keys = _TABLE_KEYS if any(k in table for k in _TABLE_KEYS) else _PLATT_KEYS
    for k in table:
        if k not in keys:
            raise EvalFileError(f"{path}: {key}.{k} is not a calibration key here (a calibration has "
                                f"either value and wp, or scale and shift; this one has {', '.join(table)})")
    for k in keys:
        if k not in table:
            raise EvalFileError(f"{path}: {key}.{k} is missing (a calibration needs {' and '.join(keys)})")
    if keys == _PLATT_KEYS:
        scale = _number(path, f"{key}.scale", table["scale"])
        if scale <= 0:
            raise EvalFileError(f"{path}: {key}.scale = {scale!r} must be > 0 (a higher value must "
                                f"never mean a lower win probability)")
        return (scale, _number(path, f"{key}.shift", table["shift"]))
    lists = {}
    for k in _TABLE_KEYS:
        if not isinstance(table[k], list) or len(table[k]) < 2:
            raise EvalFileError(f"{path}: {key}.{k} must be a list of at least two numbers")
        lists[k] = [_number(path, f"{key}.{k}[{i}]", x) for i, x in enumerate(table[k])]
    xs, ys = lists["value"], lists["wp"]
    if len(xs) != len(ys):
        raise EvalFileError(f"{path}: {key}: value has {len(xs)} knots but wp has {len(ys)}: "
                            f"give one probability per value")
    for i, x in enumerate(xs):
        if not -1.0 <= x <= 1.0:
            raise EvalFileError(f"{path}: {key}.value[{i}] = {x!r} is outside [-1, 1] (root values are in [-1, 1])")
        if i and x <= xs[i - 1]:
            raise EvalFileError(f"{path}: {key}.value[{i}] = {x!r} is not above value[{i - 1}] = {xs[i - 1]!r}: "
                                f"the values must be strictly increasing")
    for i, y in enumerate(ys):
        if not 0.0 <= y <= 1.0:
            raise EvalFileError(f"{path}: {key}.wp[{i}] = {y!r} is outside [0, 1] (it is a probability)")
        if i and y < ys[i - 1]:
            raise EvalFileError(f"{path}: {key}.wp[{i}] = {y!r} is below wp[{i - 1}] = {ys[i - 1]!r}: the "
                                f"table must be monotone (a higher value never means a lower win probability)")
    return CalibrationTable(tuple(xs), tuple(ys))


# game name -> the EvalFile installed into its engine (absent: engine defaults)
_LOADED: dict[str, EvalFile] = {}


def install(spec) -> EvalFile | None:
    """Load the game's data/eval.toml into its engine's weights table (called
    once when the game's module builds its GameSpec). None if the game has
    no file. A game without features may still have one, holding only the
    calibration of its reported win probability (Micro Armour)."""
    from ardsearch import _core
    names = _core.engine_feature_names(spec.capsule)
    path = eval_path(spec.name)
    if not os.path.exists(path):
        return None
    ev = load(path, names, spec.name, spec.player_names)
    if names:
        _core.set_engine_weights(spec.capsule, ev.weights)
    _LOADED[spec.name] = ev
    return ev


def loaded(game_name: str) -> EvalFile | None:
    """The weights file installed for a game at import, if any."""
    return _LOADED.get(game_name)


def classic_weights(names) -> np.ndarray:
    """One-hot on the "classic" feature: the game's hand-set evaluation as it
    was before it became features."""
    names = tuple(names)
    if not names or names[0] != "classic":
        raise ValueError("the game's first feature is not 'classic' (its old evaluation)")
    w = np.zeros(len(names), dtype=np.float64)
    w[0] = 1.0
    return w


def resolve_weights(game, setting, who: str = "bot"):
    """A bot's `weights` setting as (numpy weights or None, EvalFile or None).

    None / "" / "default": the game's own weights (None: the search calls
    evaluate()); "classic": one-hot on the classic feature; anything else is
    the path of an eval.toml for this game (a relative path that names no
    file from the working directory is looked up in the game's folder:
    game_relative). ValueError with a clear reason
    for a game without features or a file for another game."""
    from ardsearch import _core
    if setting is None or (isinstance(setting, str) and setting.strip().lower() in ("", "default")):
        return None, None
    if not isinstance(setting, (str, os.PathLike)):
        raise ValueError(f"bot {who!r}: setting weights={setting!r} is not valid: expected \"classic\", "
                         f"\"default\" or the path of an eval.toml")
    names = _core.engine_feature_names(game.capsule)
    if not names:
        raise ValueError(f"bot {who!r}: setting weights={setting!r}: {game.name} has no evaluation "
                         f"features, so a bot cannot carry its own weights (leave weights unset)")
    text = os.fspath(setting)
    if text.strip().lower() == "classic":
        try:
            return classic_weights(names), None
        except ValueError as e:
            raise ValueError(f"bot {who!r}: setting weights='classic': {game.name}: {e}") from None
    path = game_relative(game.name, text)
    try:
        ev = load(path, names, game.name, game.player_names)
    except EvalFileError as e:
        raise ValueError(f"bot {who!r}: setting weights={text!r}: {e}") from None
    return ev.weights.copy(), ev


def game_relative(game_name: str, text: str) -> str:
    """A weights path as given, or, when it is relative and names no file from
    the working directory, the same path inside the game's folder
    (ardsearch/games/<game>/): a preset can then name its game's file
    ("data/<name>.toml") wherever the bot is started."""
    if os.path.isabs(text) or os.path.exists(text):
        return text
    inside = os.path.join(os.path.dirname(os.path.dirname(eval_path(game_name))), text)
    return inside if os.path.exists(inside) else text


def round_of(state) -> int | None:
    """The round (or turn) a state is in, as its structured state names it
    (`round` in Ardennes and Undaunted, `turn` in the others): the input a
    calibration by round reads. None for a state that names neither."""
    d = state.to_dict()
    r = d.get("round", d.get("turn"))
    return r if isinstance(r, int) and not isinstance(r, bool) else None


def calibration_for(table: dict, search: str, params: dict | None):
    """The calibration of `search` in `table` (an EvalFile's calibration)
    that holds for a game with the parameters `params`: the one given for
    every game, or of several Scoped ones the one whose params match (None if
    none does; ValueError if one is scoped and `params` is not given)."""
    fit = table.get(search)
    if isinstance(fit, Scoped):
        fit = (fit,)
    if isinstance(fit, tuple) and fit and isinstance(fit[0], Scoped):
        fit = next((one.fit for one in fit if one.applies_to(params)), None)
    return fit


def calibrated_wp(game_name: str, value: float, search: str, calibration: dict | None = None,
                  player: int | None = None, params: dict | None = None, game_round: int | None = None) -> float:
    """The win probability of a root value `value` in [-1, 1] reported by
    `search` ("mcts", "ismcts", "expectimax", "greedy") for the side to move
    `player`, mapped through the game's [calibration.<search>] when there is
    one (or the given `calibration` dict): a CalibrationTable is interpolated
    at v (linear between knots, flat outside them), a Platt fit (scale,
    shift) gives sigmoid(scale * logit((v + 1) / 2) + shift), a
    SeatCalibration applies the seat `player`'s own (ValueError if `player`
    is not given), a RoundCalibration the band of the round `game_round`
    (the decision's round, round_of(state); ValueError if not given); a
    Scoped one only if the game's `params` match its own (calibration_for).
    Without one, (v + 1) / 2. A proven result (v = -1 or 1 exactly) stays
    certain: 0 or 1."""
    v = min(1.0, max(-1.0, float(value)))
    p = (v + 1.0) / 2.0
    table = calibration if calibration is not None else (
        _LOADED[game_name].calibration if game_name in _LOADED else {})
    fit = calibration_for(table, search, params)
    if isinstance(fit, RoundCalibration):
        fit = fit.fit_for(game_round)
    if isinstance(fit, SeatCalibration):
        fit = fit.fit_for(player)
    if fit is None or p <= 0.0 or p >= 1.0:   # a proven result stays certain
        return p
    if isinstance(fit, CalibrationTable):
        return float(fit(v))
    scale, shift = fit
    z = scale * math.log(p / (1.0 - p)) + shift
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))
