"""Difficulty levels: presets a person chooses, from beginner to strongest.

A level is a bot preset (bots/level-N.toml, algorithm "level") defined by
search settings only, so it keeps its meaning when an evaluation's weights
change:

- a base preset (`base`, "mcts" unless the level says otherwise) whose
  settings and [games.<name>] tables it takes as they are;
- a smaller budget (`simulations`, `time_limit`) replacing the base's;
- for one game, other search settings of the base (a [games.<name>] table
  of the level file: rollout_depth, normalize, eval_children, ...), where a
  low budget wants another search shape than the base's (Stand at Mortain),
  or the level's budget, noise and root_margin for that game (Stosstruppen,
  where a larger budget did not make a level stronger and the one-ply band
  a root move must be within sets the strength);
- controlled move noise: among the root moves the search visited whose
  value is within `max_loss` of the best one's, the move is drawn with
  probability proportional to visits ** (1 / temperature) (temperature 0:
  the search's own choice). A proven win is always played and a proven loss
  never chosen by noise, so a weak level plays a move its own search
  rated close to the best, never an illegal or absurd one.

The strongest level sets nothing but `base = "mcts"`: it is the bare `mcts`
preset, so "the defaults are the best play" holds by construction.

Each level file carries its measured Elo per game in an [elo] table (the
ladder of bench/README.md, anchored at `random` = 0, made by
`python -m bench.ladder`). `for_elo(game, elo)` turns a wanted Elo into
settings, interpolating between the two levels around it: the protocol's
LimitStrength / Elo options use it. The tables are keyed by game name, so
they hold for every parameter of a game: Stand at Mortain's were measured on
`mortain(setup=historical)` (the game's default until session 41) and serve
its default US setup phase too, where the levels play the historical setup
from the game's book (so a level playing the US sets up as in the measured
games); so do the per-game settings of [games.mortain].
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from ardsearch.bots import (Bot, _MASK64, _check_decision, _integer, _number, _off_or, _preset,
                            list_bots, load_bot)

__all__ = ["Level", "LevelBot", "levels", "level_names", "find_level", "for_elo", "elo_range",
           "not_stronger", "not_stronger_by_game", "pick_move", "NOISE_KEYS", "DIAL_KEYS"]

# Settings a level adds to its base preset's.
NOISE_KEYS = ("temperature", "max_loss")

# Search settings that are strength dials rather than shapes: between two
# levels for_elo interpolates them linearly, as it does the noise. root_margin
# is the one-ply band a level may choose from (Stosstruppen's levels differ by
# it; bench/README.md, "Stosstruppen: levels by the one-ply band").
DIAL_KEYS = ("root_margin",)


@dataclass(frozen=True)
class Level:
    """One level as its preset file states it."""
    preset: str                 # the preset name, "level-3"
    number: int                 # 1 = weakest
    title: str                  # what a person reads: "club"
    description: str
    base: str                   # the preset it weakens
    params: dict                # budget and noise settings, all games
    games: dict                 # game name -> settings for that game only
    elo: dict = field(default_factory=dict)   # game name -> measured Elo (random = 0)

    def settings(self, game_name: str) -> dict:
        """The level's settings for one game: its [params], then its [games.<name>] table."""
        return {**self.params, **self.games.get(game_name, {})}

    @property
    def label(self) -> str:
        return f"{self.preset} ({self.title})"


def _read(preset: str) -> Level:
    data, algorithm, params = _preset(preset)
    where = f"bot preset {preset!r}"
    number = data.get("level")
    title = data.get("title")
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise ValueError(f"{where}: `level` must be a whole number >= 1 (1 = weakest), got {number!r}")
    if not isinstance(title, str) or not title.strip():
        raise ValueError(f"{where}: `title` must be a name a person reads, such as \"club\", got {title!r}")
    base = params.get("base", "mcts")
    elo = data.get("elo", {})
    if not isinstance(elo, dict) or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in elo.values()):
        raise ValueError(f"{where}: [elo] must map game names to measured Elo numbers, got {elo!r}")
    games = data.get("games", {})
    if not isinstance(games, dict) or not all(isinstance(v, dict) for v in games.values()):
        raise ValueError(f"{where}: [games.<name>] must be tables of settings")
    return Level(preset=preset, number=number, title=title.strip(),
                 description=str(data.get("description", "")), base=base,
                 params={k: v for k, v in params.items() if k != "base"},
                 games=games, elo={k: float(v) for k, v in elo.items()})


def levels() -> list[Level]:
    """Every level of the roster (presets with algorithm "level"), weakest first."""
    found = []
    for name in list_bots():
        data, algorithm, _ = _preset(name)
        if algorithm == "level":
            found.append(_read(name))
    found.sort(key=lambda lv: lv.number)
    numbers = [lv.number for lv in found]
    if len(set(numbers)) != len(numbers):
        raise ValueError(f"two level presets share a level number: {numbers}; give each its own")
    return found


def level_names() -> list[str]:
    """The level presets, weakest first."""
    return [lv.preset for lv in levels()]


def find_level(text: str) -> Level:
    """A level by preset name ("level-3"), title ("club", any case) or number ("3")."""
    key = str(text).strip().lower()
    for lv in levels():
        if key in (lv.preset, lv.title.lower(), str(lv.number)):
            return lv
    shown = ", ".join(f"{lv.preset} ({lv.title})" for lv in levels())
    raise ValueError(f"unknown level {text!r}: choose one of {shown}, by name, title or number")


# ---------------------------------------------------------------- the noise

def pick_move(actions, visits, values, proven, best, temperature: float, max_loss: float, rng) -> int:
    """The move a level plays from one search's root figures.

    actions, visits, values, proven: parallel lists (proven: +1 won, -1
    lost, None unknown, for the mover); best: the search's own choice.
    Temperature 0 (or a proven win for `best`) returns `best`. Otherwise the
    candidates are the visited moves not proven lost whose value is within
    max_loss of best's, drawn with weight visits ** (1 / temperature)."""
    if temperature <= 0.0 or best not in actions:
        return best
    i_best = actions.index(best)
    if proven[i_best] is not None and proven[i_best] > 0:
        return best
    floor = values[i_best] - max_loss
    candidates = [(a, n) for a, n, v, p in zip(actions, visits, values, proven)
                  if n > 0 and v >= floor and not (p is not None and p < 0)]
    if len(candidates) <= 1:
        return best
    top = max(n for _, n in candidates)
    # visits scaled by the largest first, so a small temperature cannot overflow
    weights = [(n / top) ** (1.0 / temperature) for _, n in candidates]
    return rng.choices([a for a, _ in candidates], weights=weights)[0]


def _figures(info: dict):
    """(actions, visits, values, proven) lists from a bot's analysis, in the order of info["actions"]."""
    notes = list(info.get("values", {}))
    actions = list(info.get("actions") or [])
    if len(notes) != len(actions):
        return None
    visits = [int(info.get("visits", {}).get(n, 0)) for n in notes]
    values = [float(info["values"][n]) for n in notes]
    proven = [info.get("proven_values", {}).get(n) for n in notes]
    return actions, visits, values, proven


# ---------------------------------------------------------------- the bot

def _forwarded(name: str) -> property:
    """A LevelBot attribute that is its base search's (self.inner) own."""
    def get(self):
        return getattr(self.inner, name)

    def set(self, value):
        if not hasattr(self.inner, name):
            raise AttributeError(f"bot {self.name!r}: its base {self.base!r} has no setting {name!r}")
        setattr(self.inner, name, value)
    return property(get, set, doc=f"The base search's {name}.")


class LevelBot(Bot):
    """A difficulty level: the base preset's bot with the level's budget,
    and the level's move noise drawn from its own seeded RNG."""

    def __init__(self, game, base="mcts", simulations=None, time_limit=None, temperature=0.0,
                 max_loss=0.0, seed=0, name=None, **search):
        super().__init__(game, seed, name)
        who = self.name
        self.temperature = _number(who, "temperature", temperature, 0.0)
        self.max_loss = _number(who, "max_loss", max_loss, 0.0, 2.0)
        over = {}
        if simulations is not None:
            over["simulations"] = (None if _off_or(simulations) else
                                   _integer(who, "simulations", simulations, 1))
        if time_limit is not None:
            over["time_limit"] = (None if _off_or(time_limit) else
                                  _number(who, "time_limit", time_limit, 0.0, low_open=True,
                                          what="seconds > 0 (0: no time limit, the budget alone)"))
        if base == who or str(base).startswith("level-"):
            raise ValueError(f"bot {who!r}: base must be a search preset such as 'mcts', got {base!r}")
        self.base = base
        # Any other setting (a [games.<name>] table's rollout_depth, eval_children, ...) is
        # the base search's own: a low budget can want another search shape in one game
        # (Mortain). The base's load_bot checks it and names the valid ones.
        self.search = dict(search)
        self.inner = load_bot(base, self.game, seed=self.seed, **search, **over)
        self._rng = random.Random(self.seed & _MASK64)

    def reset(self):
        self.inner.reset()
        self._rng = random.Random(self.seed & _MASK64)

    # The base search's budget and clock, read and set through the level, so
    # a tournament's limits (nodes, movetime, tc, depth, clock) and a match's
    # --clock reach a level as they reach its base preset; the level keeps its
    # move noise. One the base lacks (expectimax has no simulations) is an
    # AttributeError, so hasattr(level, name) says whether the limit applies.
    simulations = _forwarded("simulations")
    nodes = _forwarded("nodes")
    time_limit = _forwarded("time_limit")
    depth = _forwarded("depth")
    clock = _forwarded("clock")

    def stop(self):
        self.inner.stop()

    def progress(self):
        return self.inner.progress()

    def play(self, state):
        _check_decision(state, self.name)
        best, info = self.inner.play(state)
        if info is None:
            return best, None
        info = self._noisy(info)
        return info["best"], info

    def analyze(self, state):
        return self._noisy(self.inner.analyze(state))

    def _noisy(self, info: dict) -> dict:
        figures = _figures(info)
        if figures is None or self.temperature <= 0.0:
            return info
        actions, visits, values, proven = figures
        chosen = pick_move(actions, visits, values, proven, info["best"], self.temperature,
                           self.max_loss, self._rng)
        if chosen == info["best"]:
            return info
        out = dict(info)
        note = actions.index(chosen)
        out["search_best"] = info["best"]
        out["best"] = chosen
        out["move"] = list(info["values"])[note]
        out["pv"] = [out["move"]]
        out["pv_actions"] = [chosen]
        return out


# ---------------------------------------------------------------- Elo -> settings

def _ladder(game_name: str) -> list[tuple[float, Level]]:
    """(Elo, level) for every level measured in this game, weakest first; an
    Elo below an earlier level's (a noisy measurement) is raised to it, so
    the map from Elo to level is monotone."""
    out, top = [], -math.inf
    for lv in levels():
        if game_name in lv.elo:
            top = max(top, lv.elo[game_name])
            out.append((top, lv))
    return out


def not_stronger(game_name: str, ranked: list[Level] | None = None) -> dict[str, str]:
    """The levels measured no stronger in this game than a weaker level:
    {preset: the weaker level's preset with the highest measured Elo}. Where
    more simulations buy little (Micro Armour's levels above level-3) the
    ladder's steps are within their error, and a person choosing a level
    by its name should be told so. `ranked`: the
    levels weakest first (default: the roster's)."""
    out, best = {}, None
    for lv in ranked if ranked is not None else levels():
        e = lv.elo.get(game_name)
        if e is None:
            continue
        if best is not None and e <= best[0]:
            out[lv.preset] = best[1]
        elif best is None or e > best[0]:
            best = (e, lv.preset)
    return out


def not_stronger_by_game(ranked: list[Level]) -> dict[str, dict[str, str]]:
    """not_stronger() for every game some level of `ranked` has an Elo in:
    {game: {preset: weaker preset}}, what `ardsearch list` and the web
    catalogue mark."""
    return {g: not_stronger(g, ranked) for g in {g for lv in ranked for g in lv.elo}}


def elo_range(game_name: str) -> tuple[float, float] | None:
    """(lowest, highest) measured level Elo in a game, or None if none is measured."""
    ladder = _ladder(game_name)
    if not ladder:
        return None
    return ladder[0][0], ladder[-1][0]


def for_elo(game_name: str, elo: float) -> dict:
    """Search settings that play at about `elo` in this game: the level's
    own when `elo` is a level's measured Elo, else between the two levels
    around it (simulations geometrically, temperature, max_loss and the
    DIAL_KEYS linearly). ValueError when `elo` is outside the measured levels' range.
    Returns {"base", "simulations", "time_limit", "temperature", "max_loss",
    "search": the level's other search settings for this game (its
    [games.<name>] table's rollout_depth, eval_children, ...; the nearer
    level's between two), "near": the nearest level's preset}."""
    ladder = _ladder(game_name)
    if not ladder:
        raise ValueError(f"no level has a measured Elo in {game_name}: choose a level by name "
                         f"(bots/level-*.toml) or run `python -m bench.ladder {game_name}`")
    low, high = ladder[0][0], ladder[-1][0]
    if not low <= elo <= high:
        raise ValueError(f"Elo {elo:g} is outside {game_name}'s measured levels: choose from "
                         f"{low:.0f} ({ladder[0][1].label}) to {high:.0f} ({ladder[-1][1].label})")
    near = min(ladder, key=lambda e: abs(e[0] - elo))[1]
    for (e0, a), (e1, b) in zip(ladder, ladder[1:]):
        if e0 <= elo <= e1:
            break
    else:
        (e0, a), (e1, b) = ladder[-1], ladder[-1]
    t = 0.0 if e1 <= e0 else (elo - e0) / (e1 - e0)
    sa, sb = _resolved(a, game_name), _resolved(b, game_name)
    if t <= 0.0 or sa["base"] != sb["base"]:
        out = sa if t < 0.5 else sb
    elif t >= 1.0:
        out = sb
    else:
        # a search shape (on/off settings) cannot be interpolated: the nearer level's;
        # a dial both levels hold (own or their base's) can
        out = {"base": sa["base"], "search": dict((sa if t < 0.5 else sb)["search"])}
        da, db = _dials(a, game_name), _dials(b, game_name)
        for key in DIAL_KEYS:
            if da[key] is not None and db[key] is not None:
                out["search"][key] = (1 - t) * da[key] + t * db[key]
        ns, nb = sa["simulations"], sb["simulations"]
        out["simulations"] = (None if ns is None or nb is None else
                              max(1, round(math.exp((1 - t) * math.log(ns) + t * math.log(nb)))))
        out["time_limit"] = sb["time_limit"]
        for key in NOISE_KEYS:
            out[key] = (1 - t) * sa[key] + t * sb[key]
    return {**out, "near": near.preset}


def _own_and_base(level: Level, game_name: str) -> tuple[dict, dict]:
    """(the level's settings for a game, its base preset's settings for that game)."""
    data, _, params = _preset(level.base)
    return level.settings(game_name), {**params, **data.get("games", {}).get(game_name, {})}


def _resolved(level: Level, game_name: str) -> dict:
    """A level's budget and noise for a game, budget from its base where the level gives none."""
    own, base = _own_and_base(level, game_name)
    pick = lambda key: own[key] if key in own else base.get(key)  # noqa: E731
    return {"base": level.base, "simulations": pick("simulations"), "time_limit": pick("time_limit"),
            "temperature": float(own.get("temperature", 0.0)), "max_loss": float(own.get("max_loss", 0.0)),
            "search": {k: v for k, v in own.items() if k not in ("simulations", "time_limit") + NOISE_KEYS}}


def _dials(level: Level, game_name: str) -> dict:
    """A level's DIAL_KEYS for a game, its own or else its base's (None where neither sets one)."""
    own, base = _own_and_base(level, game_name)
    return {k: own[k] if k in own else base.get(k) for k in DIAL_KEYS}
