# Included by _engine.pyx: the state's hash and a seat's view of it (observe, determinize,
# viewer, action_visible).

cdef uint64_t und_hash(const void *state) noexcept nogil:
    """FNV-style mix of the state's bytes, eight at a time."""
    cdef const uint8_t *p = <const uint8_t *>state
    cdef uint64_t h = 0xcbf29ce484222325ULL, w
    cdef size_t i = 0
    while i + 8 <= sizeof(UState):
        memcpy(&w, p + i, 8)
        h = (h ^ w) * 0x100000001b3ULL
        h ^= h >> 32
        i += 8
    while i < sizeof(UState):
        h = (h ^ p[i]) * 0x100000001b3ULL
        i += 1
    return h ^ (h >> 29)


# ----------------------------------------------------------------- vtable: hidden information
cdef void und_observe(const void *state, int player, void *out_view) noexcept nogil:
    cdef UState tmp
    cdef int o = 1 - player, c, h
    cdef bint hidden_bid
    memcpy(&tmp, state, sizeof(UState))
    if tmp.viewer == -1 and 0 <= player <= 1:
        # the first bid stays secret from the second chooser until revealed:
        # its card counts as one of the hand's
        hidden_bid = o == tmp.initiative and (tmp.phase == PH_BID2 or tmp.phase == PH_REVEAL) \
            and tmp.army[o].bid < NCARD
        for c in range(NCARD):
            h = tmp.army[o].hand[c] + (1 if hidden_bid and tmp.army[o].bid == c else 0)
            h -= tmp.army[o].known[c]               # what the public record does not show
            if h > 0:
                tmp.army[o].deck[c] += h
                tmp.army[o].unknown_hand += h
            tmp.army[o].hand[c] = tmp.army[o].known[c]
        if hidden_bid:
            tmp.army[o].bid = UNKNOWN
        tmp.viewer = player
    memcpy(out_view, &tmp, sizeof(UState))


cdef void und_determinize(void *view, int player, ard_rng *rng) noexcept nogil:
    """Deals the opponent's unknown hand (and unseen bid) from the exact
    posterior of the public record (RULES.md, Hidden information)."""
    cdef UState *s = <UState *>view
    cdef int o = 1 - player, c, b
    cdef int umin[15]
    cdef double w[15]
    cdef double total, r, z
    cdef Army *ar
    if s.viewer == -1 or not 0 <= player <= 1:
        return
    ar = &s.army[o]
    memset(umin, 0, sizeof(umin))
    if ar.bid == UNKNOWN:
        # every possible bid of every possible hand is one assignment: the bid
        # is c with weight P(the hand holds a c)
        total = 0.0
        z = hand_z(ar, umin, 0)
        for c in range(NCARD):
            w[c] = 0.0
            if ar.hand[c] > 0:
                w[c] = 1.0
            elif ar.unknown_hand > 0 and ar.deck[c] > 0 and z > 0.0:
                umin[c] = 1
                w[c] = hand_z(ar, umin, 0) / z
                umin[c] = 0
            total += w[c]
        b = -1
        r = ard_rng_double(rng) * total
        for c in range(NCARD):
            if w[c] > 0.0:
                b = c
                r -= w[c]
                if r < 0.0:
                    break
        if b >= 0 and ar.hand[b] == 0:
            umin[b] = 1
        hand_sample(ar, umin, rng)
        if b >= 0 and ar.hand[b] > 0:
            ar.hand[b] -= 1
            ar.bid = b
        else:
            ar.bid = NONE
    else:
        hand_sample(ar, umin, rng)
    ar.unknown_hand = 0
    s.viewer = -1


cdef int und_viewer(const void *state) noexcept nogil:
    return (<const UState *>state).viewer


cdef int und_action_visible(const void *state, ard_action action, int player) noexcept nogil:
    cdef const UState *s = <const UState *>state
    if s.phase == PH_DEAL or s.phase == PH_CMD_DRAW or s.phase == PH_BID1:
        return 1 if s.to_move == player else 0
    return 1
