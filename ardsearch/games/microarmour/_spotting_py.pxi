# Included by _pyside.pxi's module (after it): the Python side of hidden set-up, dummies,
# spotting, weather and night (RULES.md "Hidden set-up and spotting", "Weather and night",
# "Structured state"): parameters, to_dict / from_dict keys. Nothing here is called by the search.
from ardsearch.games.microarmour import _data_hidden as _dh

WEATHER_PARAM = ("scenario",) + _dh.WEATHER_NAMES
GROUND_PARAM = ("scenario",) + _dh.GROUNDS
NIGHT_PARAM = ("scenario", "day", "night")


cdef int _pack_weather(vals, MaParams *prm) except -1:
    """The weather, ground and night parameters ("scenario": the scenario file's)."""
    for key, choices in (("weather", WEATHER_PARAM), ("ground", GROUND_PARAM), ("night", NIGHT_PARAM)):
        if vals.get(key, "scenario") not in choices:
            raise ValueError(f"parameter {key}={vals.get(key)!r}: expected one of {', '.join(choices)}")
    w, gr, n = (WEATHER_PARAM.index(vals.get("weather", "scenario")), GROUND_PARAM.index(vals.get("ground", "scenario")),
                NIGHT_PARAM.index(vals.get("night", "scenario")))
    prm.weather = NONE if w == 0 else w - 1
    prm.ground = NONE if gr == 0 else gr - 1
    prm.night = NONE if n == 0 else n - 1
    if prm.deploy == 1 and SC_HIDMASK[prm.scn]:
        raise ValueError(f"parameter deployment=close: the {vals['scenario']} scenario sets stands up hidden in "
                         f"chosen cover (use deployment=edges)")
    return 0


cdef bint _masked(const MaState *s, int g):
    """A marker the viewer of this view has not spotted: its content is not theirs to see."""
    return (s.hid >> g) & 1 and s.viewer == 1 - (g >> 4)


cdef dict _stand_hidden_keys(const MaState *s, int g):
    return {"hidden": bool((s.hid >> g) & 1), "dummy": None if _masked(s, g) else bool((s.dummy >> g) & 1),
            "spotted": bool((s.spot_due >> g) & 1)}


cdef dict _weather_dict(const MaState *s):
    return {"weather": _dh.WEATHER_NAMES[s.weather % NWEATHER], "ground": _dh.GROUNDS[s.ground % NGROUND],
            "night": bool(s.night), "sighting": s.sight, "sighting_turn": s.sight_turn,
            # flares (_weather.pxi): left per side, burning this turn, decided this turn; the night's loss
            "flares": [flares_of(s, p) for p in range(2)],
            "flare": [bool((s.flare_bits >> p) & 1) for p in range(2)],
            "flare_decided": [bool((s.flare_bits >> (2 + p)) & 1) for p in range(2)],
            "night_loss": [night_lost_of(s, p) for p in range(2)]}


cdef int _weather_from(d, MaState *s) except -1:
    w = d.get("conditions")
    if w is None:
        return 0
    if not isinstance(w, dict):
        raise ValueError("conditions: expected a dict with weather, ground, night, sighting, sighting_turn")
    s.weather = _choice(w.get("weather", _dh.WEATHER_NAMES[s.weather]), _dh.WEATHER_NAMES, "conditions.weather")
    s.ground = _choice(w.get("ground", _dh.GROUNDS[s.ground]), _dh.GROUNDS, "conditions.ground")
    s.night = 1 if w.get("night", bool(s.night)) else 0
    s.sight = _int_in(w.get("sighting", s.sight), 0, MAX_SIGHT, "conditions.sighting")
    s.sight_turn = _int_in(w.get("sighting_turn", s.sight_turn), 0, 50, "conditions.sighting_turn")
    _flares_from(w, s)
    return 0


cdef int _flares_from(w, MaState *s) except -1:
    """conditions.flares / flare / flare_decided / night_loss (defaults: the game's start)."""
    night = bool(s.night)
    left, lit, dec, loss = (w.get("flares", [flares_of(s, p) if night else 0 for p in range(2)]),
                            w.get("flare", [False, False]), w.get("flare_decided", [False, False]),
                            w.get("night_loss", [night_lost_of(s, p) if night else 0 for p in range(2)]))
    for key, v in (("flares", left), ("flare", lit), ("flare_decided", dec), ("night_loss", loss)):
        if not isinstance(v, list) or len(v) != 2:
            raise ValueError(f"conditions.{key}={v!r}: expected a list of two values (German, Soviet)")
    s.flares_left = 0
    s.flare_bits = 0
    s.night_lost = 0
    for p in range(2):
        s.flares_left |= _int_in(left[p], 0, 15, f"conditions.flares[{p}]") << (4 * p)
        s.night_lost |= _int_in(loss[p], 0, 15, f"conditions.night_loss[{p}]") << (4 * p)
        s.flare_bits |= (1 << p if lit[p] else 0) | (4 << p if dec[p] else 0)
    return 0


cdef bint _stand_type_ok(MaState *s, int g, sd, key) except -1:
    """from_dict: a marker slot may hold any type its side's markers hold ("?" in a view)."""
    cdef int p = g >> 4
    t = sd.get("type")
    if t is None or not (SC_HIDMASK[s.scn] >> g) & 1:
        return False
    keys = [WEAPONS[SC_START[s.scn][h].type]["key"] for h in range(p * 16, p * 16 + 16)
            if (SC_HIDMASK[s.scn] >> h) & 1]
    if t != "?" and t not in keys:
        raise ValueError(f"{key}.type={t!r}: marker {sd['id']} holds one of {', '.join(sorted(set(keys)))}")
    if t != "?":
        s.st[g].type = [w["key"] for w in WEAPONS].index(t)
    return True


cdef int _hidden_from(d, MaState *s, set seen) except -1:
    """from_dict: the markers' hidden and dummy keys; a marker slot not listed is a
    removed dummy; a view's unspotted enemy markers get the canonical deal back."""
    cdef int g
    s.hid = 0
    s.dummy = 0
    s.spot_due = 0
    for sd in d.get("stands", []):
        g = _IDS.index(sd["id"])
        if sd.get("spotted", False):
            s.spot_due |= <uint32_t>1 << g
        if sd.get("hidden", False):
            if not (SC_HIDMASK[s.scn] >> g) & 1:
                raise ValueError(f"stands: {sd['id']!r} hidden=true: not a hidden set-up stand of this scenario")
            s.hid |= <uint32_t>1 << g
        if sd.get("dummy", False):
            s.dummy |= <uint32_t>1 << g
            s.st[g].type = SC_DUMMY_TYPE[s.scn][g >> 4]
    for g in range(NSLOT):
        if (SC_HIDMASK[s.scn] >> g) & 1 and g not in seen:
            memset(&s.st[g], 0, sizeof(Stand))
            s.st[g].type = NONE
    if s.viewer >= 0:
        hidden_observe(s, s.viewer)
    return 0


# ----------------------------------------------------------------- test helpers
def _spot_update(raw):
    """The state after the spotting that follows every action (spot_update) and the
    showing of what the spotted markers are, for tests of hand-built positions."""
    cdef MaState s
    load_state(raw, &s)
    spot_update(&s)
    while s.spot_due:
        shown_apply(&s, A_SHOWN + content_of(&s, reveal_slot(&s)))
    return state_bytes(&s)


def _move_cost(raw, sid, int x, int y):
    """move_cost(): half-MP for stand `sid` to enter (x, y) on this state's ground."""
    cdef MaState s
    load_state(raw, &s)
    return move_cost(&s, SC_IDS[s.scn].index(sid), x, y)
