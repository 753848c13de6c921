# Evaluation features (game ABI 2): evaluate() = tanh(W . f / 2), W from
# data/eval.toml (loaded at import into ARD_WEIGHTS). Every feature is "mine
# minus yours", so features(s, p) = -features(s, 1 - p) and
# evaluate(s, 0) = -evaluate(s, 1). RULES.md, "Evaluation", says what each is.

cdef enum:
    NFEAT = 9

cdef const char *ARD_FEATURE_NAMES[NFEAT]
ARD_FEATURE_NAMES[:] = [b"classic", b"roads", b"objective", b"three_roads", b"near_conquest",
                        b"threats", b"board_tiles", b"stock_tiles", b"tempo"]

# The hand-chosen defaults (classic alone: the evaluation as it was); the
# shipped data/eval.toml replaces them at import.
cdef double ARD_WEIGHTS[NFEAT]
ARD_WEIGHTS[:] = [1.0, 0, 0, 0, 0, 0, 0, 0, 0]


cdef inline double atanh_clamped(double v) noexcept nogil:
    """2 * atanh(v) with v clamped to [-0.999, 0.999]: the classic feature,
    so that tanh(classic / 2) gives the old evaluation back exactly."""
    if v > 0.999:
        v = 0.999
    elif v < -0.999:
        v = -0.999
    return log((1.0 + v) / (1.0 - v))


cdef void side_terms(const ArdState *s, int q, double *t) noexcept nogil:
    """Per-side terms of player q: t[0] objective progress, t[1] three-road
    progress, t[2] roads one placement from conquest, t[3] board tiles / L,
    t[4] stock tiles / L."""
    cdef double v[7]
    cdef double top[3]
    cdef int r, k, tt, free_tiles, held
    cdef double stock = 0.0, board = 0.0, x, near = 0.0
    for r in range(NROADS):
        held = s.length[q][r] - clash_loss(s, q, r)
        v[r] = held / <double>s.road_length
        if v[r] < 0:
            v[r] = 0
        if not (s.conquered[q] >> r) & 1 and not (s.conquered[1 - q] >> r) & 1:
            board += s.length[q][r]
            # one placement away: the free tiles fit a unit q still has
            free_tiles = s.road_length - s.length[q][r] - s.length[1 - q][r]
            if s.count[1 - q][r] == 0 and 0 < free_tiles <= 5:
                for tt in range(NTYPES):
                    if s.stock[q][tt] > 0 and UNIT_LEN[tt] == free_tiles:
                        near += 1.0
                        break
    top[0] = top[1] = top[2] = 0.0
    for r in range(NROADS):
        if (s.conquered[1 - q] >> r) & 1:
            continue
        x = 1.0 if (s.conquered[q] >> r) & 1 else v[r] * v[r]
        for k in range(3):
            if x > top[k]:
                x, top[k] = top[k], x
    for tt in range(NTYPES):
        stock += s.stock[q][tt] * UNIT_LEN[tt]
    t[0] = objective_progress(s, q, v)
    t[1] = top[0] + top[1] + top[2]
    t[2] = near
    t[3] = board / s.road_length
    t[4] = stock / s.road_length


cdef void features_w(const ArdState *s, int player, double *f, const double *w) noexcept nogil:
    """The features of s for player; with weights w, only those weighted (the
    rest are 0, so that w . f is the same number: a zero weight times a
    finite feature adds nothing to the sum)."""
    cdef double a[5]
    cdef double b[5]
    cdef int r, o = 1 - player
    cdef double threat = 0.0
    for r in range(NFEAT):
        f[r] = 0.0
    if ard_feature_wanted(w, 0):
        f[0] = atanh_clamped(ard_evaluate_classic(s, player))
    if s.phase != PH_PLAY and s.phase != PH_OVER:
        return                      # setup: nothing on the board yet
    # side_terms, the costliest, for the features made of it
    if (ard_feature_wanted(w, 2) or ard_feature_wanted(w, 3) or ard_feature_wanted(w, 4)
            or ard_feature_wanted(w, 6) or ard_feature_wanted(w, 7)):
        side_terms(s, player, a)
        side_terms(s, o, b)
        f[2] = a[0] - b[0]
        f[3] = a[1] - b[1]
        f[4] = a[2] - b[2]
        f[6] = a[3] - b[3]
        f[7] = a[4] - b[4]
    f[1] = POPCOUNT[s.conquered[player]] - POPCOUNT[s.conquered[o]]
    if ard_feature_wanted(w, 5):
        for r in range(NROADS):
            threat += clash_loss(s, o, r) - clash_loss(s, player, r)
        f[5] = threat / s.road_length
    if s.phase == PH_PLAY:
        f[8] = (s.ap if s.to_move == player else -<int>s.ap) / 4.0


cdef void ard_features(const void *state, int player, double *f) noexcept nogil:
    """Every feature (tuning and tests read them all)."""
    features_w(<const ArdState *>state, player, f, NULL)


cdef double ard_evaluate(const void *state, int player) noexcept nogil:
    cdef const ArdState *s = <const ArdState *>state
    cdef double f[NFEAT]
    if s.phase == PH_OVER:
        return ard_evaluate_classic(state, player)    # the result itself
    # only the weighted features: the shipped weights use classic alone, and
    # the others (side_terms twice, the threats) cost twice what it does
    features_w(s, player, f, ARD_WEIGHTS)
    return ard_linear_value(ARD_WEIGHTS, f, NFEAT)
