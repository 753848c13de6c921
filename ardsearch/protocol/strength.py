"""Playing weaker on purpose: the LimitStrength and Elo options, and a level
chosen as the Preset (docs/protocol.md, "Difficulty levels").

With `LimitStrength true` the engine plays at about the `Elo` option's
rating in the current game: the settings come from ardsearch.levels.for_elo
(the levels' measured Elo, anchored at `random` = 0, interpolated between
the two levels around it). A level preset (`Preset level-3`) plays as that
level. Either way the search is the level's base preset's with the level's
simulation cap, and the move is drawn with the level's noise from an RNG
seeded by the Seed option and the position's length, so the same position
and options give the same move.
"""
from __future__ import annotations

import math
import random

from ..match import derive_seed


class StrengthError(ValueError):
    """An Elo this game's levels cannot play (outside their measured range)."""


def check_elo(game, elo: int) -> None:
    """StrengthError unless `game`'s measured levels cover `elo` (no game: no check)."""
    from ..levels import for_elo
    if game is None:
        return
    try:
        for_elo(game.name, float(elo))
    except ValueError as exc:
        raise StrengthError(str(exc)) from None


def declared_elo_range() -> tuple[int, int]:
    """The Elo option's declared min and max: the lowest and highest measured
    level Elo over every game (each game checks its own range)."""
    import ardsearch
    from ..levels import elo_range
    lows, highs = [], []
    for name in ardsearch.list_games():
        r = elo_range(name)
        if r is not None:
            lows.append(r[0])
            highs.append(r[1])
    if not lows:
        return 0, 0
    return math.floor(min(lows)), math.ceil(max(highs))


def level_settings(game, settings: dict, preset) -> tuple[dict | None, str | None]:
    """(level settings or None, an info string or None) for this go.

    Level settings: {"base", "simulations", "time_limit", "temperature",
    "max_loss", "search", "near"}. A level Preset wins over LimitStrength. With
    LimitStrength and an Elo outside the game's measured range the Elo is
    held to the nearest end of it, and the info string says so."""
    from ..levels import DIAL_KEYS, elo_range, find_level, for_elo, _resolved
    if preset is not None and preset.get("algorithm") == "level":
        level = find_level(preset["name"])
        out = {**_resolved(level, game.name), "near": level.preset}
        return out, f"level {level.label}"
    if not settings.get("LimitStrength"):
        return None, None
    elo = float(settings.get("Elo", 0))
    span = elo_range(game.name)
    if span is None:
        return None, (f"LimitStrength: no level has a measured Elo in {game.name}; "
                      f"playing at full strength")
    note = ""
    if not span[0] <= elo <= span[1]:
        held = min(max(elo, span[0]), span[1])
        note = f" (Elo {elo:g} is outside {game.name}'s measured {span[0]:.0f}..{span[1]:.0f}: held to {held:.0f})"
        elo = held
    out = for_elo(game.name, elo)
    sims = out["simulations"]
    dials = "".join(f", {k} {out['search'][k]:.3f}" for k in DIAL_KEYS if k in out["search"])
    return out, (f"LimitStrength Elo {elo:.0f} in {game.name}: "
                 f"{'the base budget' if sims is None else f'{sims} simulations'}, temperature "
                 f"{out['temperature']:.2f}, max_loss {out['max_loss']:.3f}{dials} (nearest {out['near']}){note}")


def base_algorithm(game, base_preset: dict) -> str:
    """A level's search: its base preset's algorithm, MCTS becoming ISMCTS in
    a hidden-information game as MCTSBot's does (ismcts unset)."""
    algo = base_preset.get("algorithm", "mcts")
    if algo == "mcts" and base_preset.get("ismcts") is None and game.hidden_information:
        return "ismcts"
    return algo


def noisy_best(result: dict, best: int, level: dict, seed: int, state) -> int:
    """The move the level plays from the search's root figures (its own choice at temperature 0)."""
    from ..levels import pick_move
    temperature = float(level.get("temperature") or 0.0)
    actions = list(result.get("actions") or [])
    if temperature <= 0.0 or best not in actions:
        return best
    visits = list(result.get("visits") or [0] * len(actions))
    values = list(result.get("values") or [0.0] * len(actions))
    proven = list(result.get("proven_values") or [None] * len(actions))
    rng = random.Random(derive_seed(seed, len(state.history())))
    return pick_move(actions, visits, values, proven, best, temperature,
                     float(level.get("max_loss") or 0.0), rng)
