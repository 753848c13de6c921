# Included by _engine.pyx: the state's hash and a seat's view of it (observe, determinize,
# viewer, action_visible).

cdef uint64_t ard_hash(const void *state) noexcept nogil:
    return ard_hash_bytes(state, sizeof(ArdState))


cdef void ard_observe(const void *state, int player, void *out_view) noexcept nogil:
    cdef ArdState *v = <ArdState *>out_view
    if out_view != state:
        memcpy(out_view, state, sizeof(ArdState))
    if v.objective[1 - player] != 0:
        v.objective[1 - player] = CARD_UNKNOWN
    v.viewer = player


cdef void ard_determinize(void *view, int player, ard_rng *rng) noexcept nogil:
    """Fill each unseen objective with a card uniformly drawn among those it can
    be: not the other player's card, and not a card whose two roads its owner
    already holds (the game would have ended)."""
    cdef ArdState *s = <ArdState *>view
    cdef int q, k, n
    cdef int cands[8]
    for q in range(2):
        if s.objective[q] != CARD_UNKNOWN:
            continue
        n = 0
        for k in range(1, NCARDS + 1):
            if k == s.objective[1 - q]:
                continue
            if s.phase >= PH_PLAY and (s.conquered[q] & CARD_MASK[k]) == CARD_MASK[k]:
                continue
            cands[n] = k
            n += 1
        s.objective[q] = cands[ard_rng_below(rng, n)]
    s.viewer = -1


cdef int ard_viewer(const void *state) noexcept nogil:
    return (<const ArdState *>state).viewer


cdef int ard_action_visible(const void *state, ard_action action, int player) noexcept nogil:
    cdef const ArdState *s = <const ArdState *>state
    if (s.phase == PH_DRAW1 or s.phase == PH_DRAW2) and (
            action == ARD_HIDDEN_OUTCOME or action >= A_OBJ):
        return 1 if player == drawer(s) else 0
    return 1
