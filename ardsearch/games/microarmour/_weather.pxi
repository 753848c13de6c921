# Micro Armour engine: weather and night (RULES.md "Weather and night"): the turn's
# maximum sighting distance rolled at the start of a turn, the ground's terrain changes
# (snow, deep snow, frost) and the night's cohesion loss. The weather, ground and night
# are scenario keys (and game parameters that override them), read by _data_hidden.py.
# Included by _engine.pyx (one module, split by concern).

def install_weather_charts(charts):
    """The ground's terrain changes (digest: "Snow makes clear terrain Rough 1, and deep
    snow also doubles MP costs. Extreme cold freezes water to Rough 1")."""
    names = [t["name"] for t in charts["terrain"]]
    clear, rough, stream = names.index("clear"), names.index("rough"), names.index("stream")
    for gnd in range(NGROUND):
        for t in range(MAXTERRAIN):
            GROUND_TER[gnd][t] = t
    GROUND_TER[1][clear] = rough
    GROUND_TER[2][clear] = rough
    GROUND_TER[3][stream] = rough


def install_weather(int k, sc):
    """The scenario's weather, ground and night, and the sighting roll's
    distribution for every weather by day and night on its board."""
    from ardsearch.games.microarmour import _data_hidden
    SC_WEATHER[k], SC_GROUND[k], SC_NIGHT[k] = sc["weather"], sc["ground"], 1 if sc["night"] else 0
    for p in range(2):
        SC_NIGHT_LOSS[k][p] = sc["night_loss"][p]
    for w in range(NWEATHER):
        for n in range(2):
            dist = _data_hidden.sight_distribution(w, n == 1, CHARTS_NIGHT_MAX, sc["sighting"])
            SIGHT_ROLL[k][w][n] = dist is not None
            for v in range(MAX_SIGHT + 1):
                SIGHT_P[k][w][n][v] = dist[v] if dist is not None else 0.0


cdef inline bint sight_rolls(const MaState *s) noexcept nogil:
    return SIGHT_ROLL[s.scn][s.weather][s.night]

cdef inline bint sight_due(const MaState *s) noexcept nogil:
    """Digest: sighting "rolled at the start of the turn": before initiative."""
    return s.phase == PH_INIT and s.sight_turn != s.turn and sight_rolls(s)

cdef int sight_outcomes(const MaState *s, ard_action *a, double *pr) noexcept nogil:
    cdef int v, n = 0
    for v in range(MAX_SIGHT + 1):
        if SIGHT_P[s.scn][s.weather][s.night][v] > 0.0:
            a[n] = A_SIGHT + v
            pr[n] = SIGHT_P[s.scn][s.weather][s.night][v]
            n += 1
    return n

cdef void sight_apply(MaState *s, ard_action action) noexcept nogil:
    s.sight = <uint8_t>(action - A_SIGHT)
    s.sight_turn = s.turn

cdef void weather_init(MaState *s, const MaParams *prm) noexcept nogil:
    """Weather, ground and night from the parameters (NONE: the scenario's); the
    board's sighting until a roll; at night the force cohesion loss left after
    flares (never below 5, the lowest level the game takes)."""
    cdef int p
    s.weather = prm.weather if prm.weather < NWEATHER else SC_WEATHER[s.scn]
    s.ground = prm.ground if prm.ground < NGROUND else SC_GROUND[s.scn]
    s.night = prm.night if prm.night <= 1 else SC_NIGHT[s.scn]
    s.sight = SC_SIGHT[s.scn]
    if s.night:
        for p in range(2):
            s.coh[p] = s.coh[p] - SC_NIGHT_LOSS[s.scn][p] if s.coh[p] - SC_NIGHT_LOSS[s.scn][p] >= 5 else 5

cdef inline int ground_cost(const MaState *s, int c) noexcept nogil:
    """Deep snow doubles MP costs (digest)."""
    return 2 * c if s.ground == 2 else c

cdef int weather_validate(const MaState *s) noexcept nogil:
    if s.weather >= NWEATHER or s.ground >= NGROUND or s.night > 1:
        return 1
    if s.hid_reserved[0] or s.hid_reserved[1] or s.hid_reserved[2]:
        return 1
    if s.sight > MAX_SIGHT or s.sight_turn > s.turn:
        return 1
    if not sight_rolls(s):
        return s.sight != SC_SIGHT[s.scn] or s.sight_turn != 0
    if s.phase != PH_INIT and s.phase != PH_OVER and s.sight_turn != s.turn:
        return 1
    if s.sight_turn == 0:
        return s.sight != SC_SIGHT[s.scn] or s.turn != 1 or s.phase != PH_INIT
    return SIGHT_P[s.scn][s.weather][s.night][s.sight] <= 0.0
