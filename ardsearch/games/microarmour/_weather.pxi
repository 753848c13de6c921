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
        SC_FLARES[k][p] = sc["flares"][p]
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
    board's sighting until a roll; at night the force cohesion loss (never below 5,
    the lowest level the game takes) and the flares each side has for the game."""
    cdef int p, lost
    s.weather = prm.weather if prm.weather < NWEATHER else SC_WEATHER[s.scn]
    s.ground = prm.ground if prm.ground < NGROUND else SC_GROUND[s.scn]
    s.night = prm.night if prm.night <= 1 else SC_NIGHT[s.scn]
    s.sight = SC_SIGHT[s.scn]
    s.flares_left = 0
    s.flare_bits = 0
    s.night_lost = 0
    if s.night:
        for p in range(2):
            lost = SC_NIGHT_LOSS[s.scn][p] if s.coh[p] - SC_NIGHT_LOSS[s.scn][p] >= 5 else s.coh[p] - 5
            if lost < 0:
                lost = 0
            s.coh[p] -= lost
            s.night_lost |= <uint8_t>(lost << (4 * p))
            s.flares_left |= <uint8_t>(SC_FLARES[s.scn][p] << (4 * p))


# ----------------------------------------------------------------- flares
# Digest, Weather: "At night, force cohesion drops by up to 4 (flares can offset
# this)". A side's flares (scenario data) are fired one a turn by its own decision
# at the start of a night turn, after the sighting roll and before initiative
# (German first): the flare gives the side back the cohesion the night took, for
# that turn (design: the digest gives no other flare effect).
cdef inline int flares_of(const MaState *s, int p) noexcept nogil:
    return (s.flares_left >> (4 * p)) & 15

cdef inline int night_lost_of(const MaState *s, int p) noexcept nogil:
    return (s.night_lost >> (4 * p)) & 15

cdef int flare_side(const MaState *s) noexcept nogil:
    """The side whose flare decision is due (N_FLARE), or -1: at night, in the
    initiative phase before the roll, a side with flares left that has not decided."""
    cdef int p
    if not s.night or s.phase != PH_INIT:
        return -1
    for p in range(2):
        if flares_of(s, p) and not (s.flare_bits >> (2 + p)) & 1:
            return p
    return -1

cdef void flare_apply(MaState *s, ard_action action) noexcept nogil:
    cdef int p = flare_side(s)
    if p < 0:
        return
    s.flare_bits |= <uint8_t>(4 << p)
    if action == A_FLARE:
        s.flares_left -= <uint8_t>(1 << (4 * p))
        s.flare_bits |= <uint8_t>(1 << p)
        s.coh[p] += night_lost_of(s, p)

cdef void flares_new_turn(MaState *s) noexcept nogil:
    """A new turn: a flare burns for the turn it was fired."""
    cdef int p
    for p in range(2):
        if (s.flare_bits >> p) & 1:
            s.coh[p] -= night_lost_of(s, p)
    s.flare_bits = 0

cdef int flares_validate(const MaState *s) noexcept nogil:
    """1 if the flare bytes are corrupt: flares or a night loss in a day game, more
    flares than the scenario gives or a loss above its own, a flare burning without its
    decision, decisions outside a night turn's start."""
    cdef int p
    if s.flare_bits & 0xF0:
        return 1
    if not s.night:
        return s.flares_left != 0 or s.flare_bits != 0 or s.night_lost != 0
    for p in range(2):
        if flares_of(s, p) > SC_FLARES[s.scn][p] or night_lost_of(s, p) > SC_NIGHT_LOSS[s.scn][p]:
            return 1
        if (s.flare_bits >> p) & 1 and not (s.flare_bits >> (2 + p)) & 1:
            return 1
        if (s.flare_bits >> p) & 1 and s.coh[p] - night_lost_of(s, p) < 5:
            return 1
    return 0

cdef inline int weather_move_mod(const MaState *s, int g) noexcept nogil:
    """Digest: "extreme heat or cold gives +2 to dismounted personnel movement rolls". Extreme
    cold is the ground `frozen`, extreme heat the ground `extreme_heat` (design: the ground is
    the scenario's standing condition, as frost is). Dismounted personnel (design): a personnel
    stand moving on foot (class F), not on horseback; cargo never rolls, vehicles are not
    personnel."""
    if s.ground < 3 or TY_DEF[s.st[g].type] != D_PERSONNEL or TY_CLASS[s.st[g].type] != 2 or is_mounted(s, g):
        return 0
    return 2

cdef inline int ground_cost(const MaState *s, int c) noexcept nogil:
    """Deep snow doubles MP costs (digest)."""
    return 2 * c if s.ground == 2 else c

cdef int weather_validate(const MaState *s) noexcept nogil:
    if s.weather >= NWEATHER or s.ground >= NGROUND or s.night > 1:
        return 1
    if flares_validate(s):
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
