# Evaluation features (game ABI 2): evaluate() = tanh(W . f / 2), W from
# data/eval.toml (loaded at import into M_WEIGHTS). Each feature is measured
# for the Germans and negated for the US player, so evaluate(s, 0) =
# -evaluate(s, 1). RULES.md, "Evaluation", says what each is.

cdef enum:
    MFEAT = 10

cdef const char *M_FEATURE_NAMES[MFEAT]
M_FEATURE_NAMES[:] = [b"classic", b"exits", b"progress", b"front_runners", b"german_strength",
                      b"us_strength", b"exit_shortfall", b"exits_needed_per_turn", b"cards_tempo",
                      b"turns_left"]

# The hand-chosen defaults (classic alone: the evaluation as it was); the
# shipped data/eval.toml replaces them at import.
cdef double M_WEIGHTS[MFEAT]
M_WEIGHTS[:] = [1.0, 0, 0, 0, 0, 0, 0, 0, 0, 0]

# Activations a card class gives (class = (rank - 1) * 2 + colour): an ace 1,
# 2..10 half rounded up, a face card one unit or one stack (counted as 1.5 units).
cdef double CLASS_ACTS[NCLASS]
for _r in range(13):
    CLASS_ACTS[2 * _r] = CLASS_ACTS[2 * _r + 1] = (
        1.0 if _r == 0 else (_r + 2) // 2 if _r < 10 else 1.5)
CLASS_ACTS[JOKER] = 0.0


cdef inline double m_atanh2(double v) noexcept nogil:
    """2 * atanh(v), v clamped to [-0.999, 0.999]: the classic feature."""
    if v > 0.999:
        v = 0.999
    elif v < -0.999:
        v = -0.999
    return log((1.0 + v) / (1.0 - v))


cdef void m_features(const void *state, int player, double *f) noexcept nogil:
    cdef const MState *s = <const MState *>state
    cdef int u, h, i
    cdef double strength, prog, turns_left, sign = 1.0 if player == 0 else -1.0
    cdef double g_mat = 0.0, u_mat = 0.0, progress = 0.0, front = 0.0, tempo = 0.0, need
    for i in range(MFEAT):
        f[i] = 0.0
    turns_left = S_TURNS - s.turn + 1.0
    if turns_left < 1.0:
        turns_left = 1.0
    for u in range(NSIDE):
        h = s.loc[u]
        if h == LOC_DEAD or h == LOC_EXITED:
            continue
        strength = 0.6 if (s.reduced >> u) & 1 else 1.0
        g_mat += strength
        if on_map(h):
            prog = (COLS - hex_col(h)) / (COLS - 1.0)
            progress += strength * prog * prog
            if hex_col(h) <= 3:
                front += strength
    for u in range(NSIDE, NU):
        if s.loc[u] != LOC_DEAD:
            u_mat += 0.6 if (s.reduced >> u) & 1 else 1.0
    for i in range(JOKER):           # black classes are even: German activations
        tempo += s.deck[i] * CLASS_ACTS[i] * (1.0 if i % 2 == 0 else -1.0)
    need = S_EXITS - s.exits
    if need < 0:
        need = 0
    f[0] = m_atanh2(m_evaluate_classic(state, 0))
    f[1] = s.exits / <double>S_EXITS
    f[2] = progress / S_EXITS
    f[3] = front / S_EXITS
    f[4] = g_mat / NSIDE
    f[5] = -u_mat / NSIDE
    f[6] = -(need - g_mat if need > g_mat else 0.0)
    f[7] = -need / turns_left / S_EXITS
    f[8] = tempo / 50.0
    f[9] = turns_left / S_TURNS
    for i in range(MFEAT):
        f[i] *= sign


cdef double m_evaluate(const void *state, int player) noexcept nogil:
    cdef const MState *s = <const MState *>state
    cdef double f[MFEAT]
    cdef int i
    if s.phase == PH_OVER:
        return m_evaluate_classic(state, player)    # the result itself
    if ard_weight_alone(M_WEIGHTS, MFEAT, 0):    # classic alone (the shipped table)
        # the other features, a third of a search's time, would be multiplied
        # by 0: the same number without them (f[0] as m_features makes it)
        for i in range(MFEAT):
            f[i] = 0.0
        f[0] = m_atanh2(m_evaluate_classic(state, 0)) * (1.0 if player == 0 else -1.0)
        return ard_linear_value(M_WEIGHTS, f, MFEAT)
    m_features(state, player, f)
    return ard_linear_value(M_WEIGHTS, f, MFEAT)
