"""Hidden set-up, dummies, spotting, weather and night (RULES.md "Hidden set-up
and spotting", "Weather and night"): the chart and scenario keys of this family,
validated on load with a one-line error naming file, key and reason. Called by
_data.py through small hooks; the engine copies the result into its tables."""
from __future__ import annotations

import os

# weather codes (the state's `weather` byte): name, the sighting dice (count, sides) or None (no roll);
# PERCENT: the board's sighting cut by 1D20 percent (digest: haze "(or by 1D20%)"), appended last so
# that the other codes keep their bytes
PERCENT = "1d20%"
WEATHER = (("clear", None), ("light_rain", (3, 6)), ("haze", (2, 8)), ("heavy_rain", (2, 6)),
           ("light_snow", (2, 6)), ("heavy_snow", (1, 6)), ("fog", (1, 6)), ("sandstorm", (1, 6)),
           ("haze_percent", PERCENT))
WEATHER_NAMES = tuple(w for w, _ in WEATHER)
# the ground (terrain changes): normal; snow (clear is Rough 1); deep snow (that, and MP costs
# doubled); frozen (extreme cold: streams are Rough 1); extreme_heat (no terrain change). Frozen and
# extreme_heat also give +2 to dismounted personnel movement rolls (_weather.pxi weather_move_mod)
GROUNDS = ("normal", "snow", "deep_snow", "frozen", "extreme_heat")
MAX_SIGHT = 60


def _fail(path, key, expected, got):
    raise ValueError(f"{os.path.basename(path)}: {key}: expected {expected}, got {got!r}")


def _int(path, table, key, lo, hi, default, name):
    v = table.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        _fail(path, name, f"an integer from {lo} to {hi}", v)
    return v


def load_spotting(path, d, terrain_names):
    """charts.toml [spotting] and [night]: the inches within which a stand in
    concealing terrain is spotted (design), the height level of a terrain (higher
    ground: +5" sighting a level, digest), the night sighting die and cohesion loss."""
    sp = d.get("spotting")
    if not isinstance(sp, dict):
        _fail(path, "spotting", "a table (concealed, level, per_level)", sp)
    out = {"concealed": [0] * len(terrain_names), "level": [0] * len(terrain_names),
           "per_level": _int(path, sp, "per_level", 0, 20, None, "spotting.per_level")}
    for key, lo, hi in (("concealed", 1, MAX_SIGHT), ("level", 0, 5)):
        t = sp.get(key)
        if not isinstance(t, dict):
            _fail(path, f"spotting.{key}", "a table of terrain names", t)
        for name, v in t.items():
            if name not in terrain_names:
                _fail(path, f"spotting.{key}.{name}", "a terrain name from [terrain]", name)
            out[key][terrain_names.index(name)] = _int(path, t, name, lo, hi, None, f"spotting.{key}.{name}")
    nt = d.get("night")
    if not isinstance(nt, dict):
        _fail(path, "night", "a table (sighting_max)", nt)
    out["night_max"] = _int(path, nt, "sighting_max", 1, 10, None, "night.sighting_max")
    for name in ("clear", "rough", "stream"):
        if name not in terrain_names:
            _fail(path, "terrain", f"a terrain named {name} (snow and frost change terrain to rough)", terrain_names)
    return out


def is_dummy(st):
    return st.get("type") == "dummy"


def stand_keys(path, k, st):
    """A [[stand]]'s hidden-set-up keys: hidden (set up secretly) and dummy (type = "dummy")."""
    hidden = st.get("hidden", False)
    if not isinstance(hidden, bool):
        _fail(path, k + ".hidden", "true or false (set up hidden)", hidden)
    if is_dummy(st) and not hidden:
        _fail(path, k + ".hidden", "true for a dummy stand (a dummy is a hidden marker)", hidden)
    if hidden and st.get("support", False):
        _fail(path, k + ".hidden", "false for a support stand", hidden)
    if hidden and "carried_by" in st:
        # design (RULES.md "Transport and hidden set-up"): a marker stands for one stand
        _fail(path, k + ".carried_by", "no carrier for a hidden stand or dummy (a marker stands for one "
              "stand; set cargo up shown, aboard a carrier that is shown)", st["carried_by"])
    return {"hidden": hidden, "dummy": is_dummy(st)}


def finish(path, d, out, charts, weapons):
    """After the stands: the hidden set-up checks and the weather keys."""
    names = [t["name"] for t in charts["terrain"]]
    sp = charts["spotting"]
    for p, per in enumerate(out["stands"]):
        reals = [s for s in per if s["hidden"] and not s["dummy"]]
        dummies = [s for s in per if s["dummy"]]
        if dummies and not reals:
            _fail(path, "stand", f"a real hidden stand beside the dummies of side {out['sides'][p]['key']}",
                  len(dummies))
        for s in per:
            if not s["hidden"]:
                continue
            k = f"stand {s['id']}"
            t = out["grid"][s["y"]][s["x"]]
            # digest: "Stands placed out of sight in blocking or concealing terrain may be recorded secretly"
            if not (charts["terrain"][t]["blocks_los"] or sp["concealed"][t]):
                _fail(path, k + ".at", "a square of blocking or concealing terrain (hidden set-up)", names[t])
            if s["dummy"]:
                s["type"] = reals[0]["type"]      # a dummy's placeholder: the side's first hidden type
            elif weapons[s["type"]]["role"] != "unit":
                _fail(path, k + ".hidden", "false for an HQ or GHQ (only units set up hidden)", True)
    w = d.get("weather", "clear")
    if w not in WEATHER_NAMES:
        _fail(path, "weather", "one of " + ", ".join(WEATHER_NAMES), w)
    g = d.get("ground", "normal")
    if g not in GROUNDS:
        _fail(path, "ground", "one of " + ", ".join(GROUNDS), g)
    night = d.get("night", False)
    if not isinstance(night, bool):
        _fail(path, "night", "true or false", night)
    out["weather"], out["ground"], out["night"] = WEATHER_NAMES.index(w), GROUNDS.index(g), night
    sides = d.get("side", {})
    out["night_loss"], out["flares"] = [], []
    for sd in out["sides"]:
        s = sides.get(sd["key"], {})
        # night_cohesion: what the night takes off the side's cohesion; flares: how many it may fire,
        # one a night turn, each giving the loss back for that turn (RULES.md, Weather and night). Both
        # apply only at night (the scenario's or the `night` parameter's).
        loss = _int(path, s, "night_cohesion", 0, 4, 0, f"side.{sd['key']}.night_cohesion")
        flares = _int(path, s, "flares", 0, 4, 0, f"side.{sd['key']}.flares")
        if flares and not loss:
            _fail(path, f"side.{sd['key']}.flares", "0 for a side the night costs no cohesion (night_cohesion 0)",
                  flares)
        if sd["cohesion"] - loss < 5:
            _fail(path, f"side.{sd['key']}.night_cohesion", "a loss leaving cohesion 5 or more", loss)
        out["night_loss"].append(loss)
        out["flares"].append(flares)


def sight_distribution(weather, night, night_max, board):
    """P(this turn's maximum sighting = n inches), n = 0..MAX_SIGHT: the
    weather's dice (digest), at night also 1D<night_max> (design), the lower of
    the two, never above the board's density sighting. None: no roll (clear day)."""
    dice = WEATHER[weather][1]
    if dice is None and not night:
        return None
    dist = [0.0] * (MAX_SIGHT + 1)
    if dice is None:
        dist[board] = 1.0
    elif dice == PERCENT:
        # haze's alternative: 1D20 percent off the board's sighting, rounded down, at least 1" (design)
        for r in range(1, 21):
            dist[max(1, board * (100 - r) // 100)] += 1 / 20
    else:
        cur = {0: 1.0}
        for _ in range(dice[0]):
            nxt = {}
            for v, pv in cur.items():
                for f in range(1, dice[1] + 1):
                    nxt[v + f] = nxt.get(v + f, 0.0) + pv / dice[1]
            cur = nxt
        for v, pv in cur.items():
            dist[min(v, board)] += pv
    if night:
        out = [0.0] * (MAX_SIGHT + 1)
        for v, pv in enumerate(dist):
            for n in range(1, night_max + 1):
                out[min(v, n)] += pv / night_max
        dist = out
    return dist
