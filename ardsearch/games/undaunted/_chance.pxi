# Included by _engine.pyx: the vtable's chance: the posterior of a hidden hand, the chance
# outcomes with their probabilities, sampling one, and the returns.

# ----------------------------------------------------------------- vtable: chance
# ----------------------------------------------------------------- the posterior of a hidden hand
# RULES.md, Hidden information. On a view, the opponent's unknown hand U is
# what its hidden draws left there. Each record block k drew n_k cards from
# the deck of its time; a card type c takes g_kc of them. Every assignment
# of the pool's (distinguishable) cards to the draws that fits the record is
# equally likely, which weighs an allocation g by
#     prod_c base_c! / (base_c - S_c)! / prod_k g_kc!      (S_c = sum_k g_kc)
# where base_c = the pool's cards c plus those drawn and openly gone. The
# record asks S up to block k >= klo[k][c], == if pinned; U_c = S_c - klo[last][c].
# The sampler runs a dynamic programme over the card types whose state is
# the draws each block still has to place (at most TMAX states); types the
# record says nothing about are one aggregate (their choices among themselves
# are a uniform draw from their cards).
cdef struct Post:
    int m                       # blocks
    int n[6]                    # draws per block
    int stride[6]               # mixed-radix place of each block in a table index
    int T                       # table size: prod (n_k + 1)
    int ne                      # entries: constrained card types, then the aggregate
    int card[16]                # card type, -1 for the aggregate of the unconstrained types
    int base[16]
    int lo[96]                  # lo[e * 6 + k]
    int pin[16]                 # bit k: pinned after block k
    int last[16]                # lower bound after the last block (cards gone openly)
    int umin[16]                # query: at least this many in U
    int uzero[16]               # query: none in U


cdef int post_build(Post *p, const Army *ar, const int *umin, int uzero) noexcept nogil:
    """The problem for army ar of a view, with query constraints on U (umin per
    card, uzero a mask of cards U must not hold). 0 if a query is impossible."""
    cdef int k, c, e, t = 1, m = ar.kblocks, free_base = 0, lo, any_c, last
    p.m = m
    for k in range(m):
        p.n[k] = ar.kdraws[k]
        p.stride[k] = t
        t *= ar.kdraws[k] + 1
    p.T = t
    e = 0
    for c in range(NCARD):
        last = ar.klo[(m - 1) * NCARD + c] if m > 0 else 0
        if ar.deck[c] + last == 0:
            if umin[c] > 0:
                return 0
            continue
        any_c = umin[c] > 0 or (uzero >> c) & 1
        for k in range(m):
            if ar.klo[k * NCARD + c] > 0 or (ar.kpin[k] >> c) & 1:
                any_c = 1
        if not any_c:
            free_base += ar.deck[c]
            continue
        p.card[e] = c
        p.base[e] = ar.deck[c] + last
        p.pin[e] = 0
        for k in range(m):
            p.lo[e * 6 + k] = ar.klo[k * NCARD + c]
            if (ar.kpin[k] >> c) & 1:
                p.pin[e] |= 1 << k
        p.last[e] = last
        p.umin[e] = umin[c]
        p.uzero[e] = (uzero >> c) & 1
        e += 1
    if free_base > 0:
        p.card[e] = -1
        p.base[e] = free_base
        p.pin[e] = 0
        for k in range(m):
            p.lo[e * 6 + k] = 0
        p.last[e] = 0
        p.umin[e] = 0
        p.uzero[e] = 0
        e += 1
    p.ne = e
    return 1


cdef double post_weight(const Post *p, int e, int gi) noexcept nogil:
    """Weight of entry e taking the allocation with table index gi (0 if not allowed)."""
    cdef int k, g, i, total = 0, u
    cdef double w = 1.0
    for k in range(p.m):
        g = (gi // p.stride[k]) % (p.n[k] + 1)
        total += g
        for i in range(2, g + 1):
            w /= i
        if total < p.lo[e * 6 + k]:
            return 0.0
        if (p.pin[e] >> k) & 1 and total != p.lo[e * 6 + k]:
            return 0.0
    if total > p.base[e]:
        return 0.0
    u = total - p.last[e]
    if u < p.umin[e] or (p.uzero[e] and u != 0):
        return 0.0
    for i in range(total):
        w *= p.base[e] - i
    return w


cdef inline bint fits(const Post *p, int g, int r) noexcept nogil:
    """Allocation g fits in the remaining capacities r, digit by digit."""
    cdef int k
    for k in range(p.m):
        if (g // p.stride[k]) % (p.n[k] + 1) > (r // p.stride[k]) % (p.n[k] + 1):
            return False
    return True


cdef double post_solve(const Post *p, double *F, double *W) noexcept nogil:
    """Fills W[e*T + g] (weights) and F[e*T + r] (the partition function of
    entries e.. with capacities r left); returns Z = F[0*T + T-1]."""
    cdef int e, r, g, T = p.T
    cdef double tot
    for r in range(T):
        F[p.ne * T + r] = 0.0
    F[p.ne * T] = 1.0
    e = p.ne - 1
    while e >= 0:
        for g in range(T):
            W[e * T + g] = post_weight(p, e, g)
        for r in range(T):
            tot = 0.0
            for g in range(r + 1):
                if W[e * T + g] != 0.0 and F[(e + 1) * T + r - g] != 0.0 and fits(p, g, r):
                    tot += W[e * T + g] * F[(e + 1) * T + r - g]
            F[e * T + r] = tot
        e -= 1
    return F[T - 1]


cdef double hand_z(const Army *ar, const int *umin, int uzero) noexcept nogil:
    """Total weight of the unknown hands of army ar (a view's opponent) that fit
    the record and the query; hand_z(q) / hand_z(no query) is its probability."""
    cdef Post p
    cdef double F[17 * TMAX]
    cdef double W[16 * TMAX]
    if ar.kblocks == 0:
        return 0.0 if any_positive(umin) else 1.0
    if not post_build(&p, ar, umin, uzero):
        return 0.0
    return post_solve(&p, F, W)


cdef inline bint any_positive(const int *v) noexcept nogil:
    cdef int c
    for c in range(NCARD):
        if v[c] > 0:
            return True
    return False


cdef bint rec_plain(const Army *ar) noexcept nogil:
    """No inference recorded: the unknown hand is a uniform draw from the pool."""
    cdef int c
    if ar.kblocks > 1:
        return False
    if ar.kblocks == 1:
        if ar.kpin[0]:
            return False
        for c in range(NCARD):
            if ar.klo[c]:
                return False
    return True


cdef int draw_from_pool(Army *ar, ard_rng *rng) noexcept nogil:
    cdef int total = zone_sum(ar.deck), r, c
    if total <= 0:
        return -1
    r = ard_rng_below(rng, total)
    for c in range(NCARD):
        if r < ar.deck[c]:
            ar.deck[c] -= 1
            return c
        r -= ar.deck[c]
    return -1


cdef void hand_sample(Army *ar, const int *umin, ard_rng *rng) noexcept nogil:
    """Deals army ar's unknown hand (a view's opponent) from its posterior with
    the query lower bounds umin: moves the cards from the pool to `hand`."""
    cdef Post p
    cdef double F[17 * TMAX]
    cdef double W[16 * TMAX]
    cdef int e, g, r, k, c, total, free_n = 0, u, pick
    cdef double target, acc, w
    cdef int free_pool[15]
    u = ar.unknown_hand
    if u <= 0:
        return
    if (rec_plain(ar) and not any_positive(umin)) or not post_build(&p, ar, umin, 0) \
            or post_solve(&p, F, W) <= 0.0:
        # a uniform draw from the pool (exact without inferences; a fallback otherwise)
        for k in range(u):
            c = draw_from_pool(ar, rng)
            if c >= 0:
                ar.hand[c] += 1
        return
    for c in range(NCARD):
        free_pool[c] = 0
    r = p.T - 1
    for e in range(p.ne):
        target = ard_rng_double(rng) * F[e * p.T + r]
        acc = 0.0
        pick = -1
        for g in range(r + 1):
            w = W[e * p.T + g]
            if w != 0.0 and F[(e + 1) * p.T + r - g] != 0.0 and fits(&p, g, r):
                pick = g
                acc += w * F[(e + 1) * p.T + r - g]
                if acc > target:
                    break
        if pick < 0:
            break
        total = 0
        for k in range(p.m):
            total += (pick // p.stride[k]) % (p.n[k] + 1)
        r -= pick
        if p.card[e] >= 0:
            c = p.card[e]
            k = total - p.last[e]
            ar.hand[c] += k
            ar.deck[c] -= k
        else:
            free_n = total
    if free_n > 0:                                  # the aggregate: a uniform draw from its cards
        for c in range(NCARD):
            for e in range(p.ne):
                if p.card[e] == c:
                    break
            else:
                free_pool[c] = ar.deck[c]
        total = 0
        for c in range(NCARD):
            total += free_pool[c]
        for k in range(free_n):
            if total <= 0:
                break
            r = ard_rng_below(rng, total)
            for c in range(NCARD):
                if r < free_pool[c]:
                    free_pool[c] -= 1
                    ar.deck[c] -= 1
                    ar.hand[c] += 1
                    total -= 1
                    break
                r -= free_pool[c]


cdef double hand_holds(const UState *s, int a, int c) noexcept nogil:
    """Probability that a's hand holds a card c, as the view's owner knows it."""
    cdef const Army *ar = &s.army[a]
    cdef int umin[15]
    cdef double z
    if ar.hand[c] > 0:
        return 1.0
    if ar.unknown_hand == 0 or ar.deck[c] == 0:
        return 0.0
    memset(umin, 0, sizeof(umin))
    z = hand_z(ar, umin, 0)
    if z <= 0.0:
        return 0.0
    umin[c] = 1
    return hand_z(ar, umin, 0) / z


cdef double smallest_is(const UState *s, int a, int c, double z) noexcept nogil:
    """Probability that the smallest card of a's hand is c (z: hand_z without a query)."""
    cdef const Army *ar = &s.army[a]
    cdef int umin[15]
    cdef int x, zero = 0
    for x in range(c):
        if ar.hand[x] > 0:
            return 0.0
        zero |= 1 << x
    memset(umin, 0, sizeof(umin))
    if ar.hand[c] == 0:
        if ar.deck[c] == 0:
            return 0.0
        umin[c] = 1
    return hand_z(ar, umin, zero) / z


cdef int pool_outcomes(const UState *s, int a, int base, ard_action *out, double *probs) noexcept nogil:
    """One card from a's deck, each type with its share; on a view of a's
    opponent the deck is the pool less the unknown hand, in expectation."""
    cdef const Army *ar = &s.army[a]
    cdef int c, n = 0, k, total = zone_sum(ar.deck), u = ar.unknown_hand
    cdef int umin[15]
    cdef double z = 1.0, expect
    if u > 0:
        memset(umin, 0, sizeof(umin))
        z = hand_z(ar, umin, 0)
    for c in range(NCARD):
        if ar.deck[c] == 0:
            continue
        expect = 0.0                                # expected cards c in the unknown hand
        if u > 0 and z > 0.0:
            for k in range(1, ar.deck[c] + 1):
                umin[c] = k
                expect += hand_z(ar, umin, 0) / z
            umin[c] = 0
        if ar.deck[c] - expect > 1e-12:
            out[n] = base + c
            probs[n] = (ar.deck[c] - expect) / <double>(total - u)
            n += 1
    return n


cdef int und_chance_outcomes(const void *state, ard_action *out, double *probs) noexcept nogil:
    cdef const UState *s = <const UState *>state
    cdef const Army *ar
    cdef int a = s.to_move, n = 0, c, zone
    cdef int umin[15]
    cdef double q, ph, w, z, total
    if s.phase == PH_DEAL or s.phase == PH_CMD_DRAW:
        return pool_outcomes(s, a, A_DRAW, out, probs)
    if s.phase == PH_REVEAL:
        ar = &s.army[s.initiative]
        if ar.bid < NCARD:
            out[0] = A_REVEAL + ar.bid
            probs[0] = 1.0
            return 1
        # a view: the hidden bid is any card the hand may hold, each possible
        # bid of each possible hand counted once
        total = 0.0
        for c in range(NCARD):
            w = hand_holds(s, s.initiative, c)
            if w > 0.0:
                out[n] = A_REVEAL + c
                probs[n] = w
                total += w
                n += 1
        for c in range(n):
            probs[c] /= total
        return n
    if s.phase == PH_LEFTOVER:
        ar = &s.army[a]
        if ar.unknown_hand == 0:
            for c in range(NCARD):
                if ar.hand[c] > 0:
                    out[0] = A_REVEAL + c
                    probs[0] = 1.0
                    return 1
            return 0
        # a view: the full state reveals the smallest card; its chance is
        # the posterior weight of the hands whose smallest card it is
        memset(umin, 0, sizeof(umin))
        z = hand_z(ar, umin, 0)
        if z <= 0.0:
            return 0
        for c in range(NCARD):
            w = smallest_is(s, a, c, z)
            if w > 0.0:
                out[n] = A_REVEAL + c
                probs[n] = w
                n += 1
        return n
    if s.phase == PH_ROLL:
        q = hit_probability(s.roll_dice, s.roll_defence)
        out[0] = A_MISS
        probs[0] = 1.0 - q
        n = 1
        if q >= 1.0:
            n = 0
        if s.roll_kind == RK_SUPPRESS:
            out[n] = A_HIT
            probs[n] = q
            return n + 1
        ar = &s.army[s.roll_army]
        c = s.roll_unit + 1
        if ar.unknown_hand == 0:
            out[n] = A_HIT_HAND + casualty_zone(s, s.roll_army, c)
            probs[n] = q
            return n + 1
        ph = hand_holds(s, s.roll_army, c)
        if ph > 1.0 - 1e-12:
            ph = 1.0
        if ph < 1e-12:
            ph = 0.0
        if ph > 0:
            out[n] = A_HIT_HAND
            probs[n] = q * ph
            n += 1
        if ph < 1:
            zone = 1 if ar.discard[c] > 0 else 2 if ar.deck[c] > 0 else 3
            out[n] = A_HIT_HAND + zone
            probs[n] = q * (1 - ph)
            n += 1
        return n
    return 0


cdef ard_action und_sample_chance(const void *state, ard_rng *rng) noexcept nogil:
    cdef ard_action acts[16]
    cdef double probs[16]
    cdef int n = und_chance_outcomes(state, acts, probs)
    if n <= 0:
        return 0
    return acts[ard_rng_pick(rng, probs, n)]


cdef void und_returns(const void *state, double *out) noexcept nogil:
    cdef const UState *s = <const UState *>state
    ard_returns_for_winner(s.winner if s.phase == PH_OVER else -1, out)
