# Included by _engine.pyx: applying a move (activations, card draws, combat
# resolution, the turn's end and the game's), the chance nodes, the returns
# and the hand-set evaluation the features build on.

# ----------------------------------------------------------------- apply ----
cdef void end_turn(MState *s) noexcept nogil:
    """Germans win at the end of any turn with enough exits (errata); US at the end of the last."""
    s.card = NONE
    s.acts_left = 0
    s.stack_mask = 0
    s.card_fresh = 0
    clear_attack(s)
    if s.exits >= S_EXITS:
        s.winner = 0
        s.phase = PH_OVER
    elif s.turn >= S_TURNS:
        s.winner = 1
        s.phase = PH_OVER
    else:
        s.turn += 1
        reset_deck(s)
        s.drawn = 0
        s.air_used = 0
        s.interdict = NONE
        s.phase = PH_DRAW

cdef inline void clear_attack(MState *s) noexcept nogil:
    s.firer[0] = NONE
    s.firer[1] = NONE
    s.target = NONE
    s.strike = ST_GROUND

cdef int check_decided(MState *s) noexcept nogil:
    """Ends the game at once when it is decided: no US units left (German
    win, rules), or no German units left to act (design choice: the result
    can no longer change). Returns 1 if over."""
    cdef int u, g = 0, us = 0
    for u in range(NSIDE):
        if s.loc[u] == LOC_RESERVE or on_map(s.loc[u]):
            g += 1
    for u in range(NSIDE, NU):
        if s.loc[u] != LOC_DEAD:
            us += 1
    if us == 0:
        s.winner = 0
    elif g == 0:
        s.winner = 0 if s.exits >= S_EXITS else 1
    else:
        return 0
    s.phase = PH_OVER
    s.card = NONE
    s.acts_left = 0
    s.stack_mask = 0
    s.card_fresh = 0
    clear_attack(s)
    return 1

cdef inline int card_over(const MState *s) noexcept nogil:
    if card_rank(s.card) <= 10:
        return s.acts_left == 0
    return not s.card_fresh and s.stack_mask == 0

cdef void next_card(MState *s) noexcept nogil:
    """The current activation card is used up: draw again, or end the turn if the deck is out."""
    s.card = NONE
    s.acts_left = 0
    s.stack_mask = 0
    s.card_fresh = 0
    if deck_total(s) == 0:
        end_turn(s)
    else:
        s.phase = PH_DRAW

cdef void after_use(MState *s) noexcept nogil:
    if check_decided(s):
        return
    if card_over(s):
        next_card(s)
    else:
        s.phase = PH_ACT

cdef void end_card_now(MState *s) noexcept nogil:
    s.acts_left = 0
    s.stack_mask = 0
    s.card_fresh = 0

cdef void draw_activation(MState *s, int c) noexcept nogil:
    cdef int side, r
    if c == JOKER:
        if s.drawn == 3:
            end_turn(s)
        else:
            s.deck[JOKER] = 0          # ignored: set aside, draw again
            if deck_total(s) == 0:
                end_turn(s)
        return
    s.deck[c] -= 1
    side = c & 1
    r = card_rank(c)
    s.drawn |= 1 << side
    s.active = side
    s.card = c
    s.card_fresh = 1
    s.stack_mask = 0
    s.acts_left = (r + 1) // 2 if r <= 10 else 0
    s.phase = PH_ACT

cdef void resolve(MState *s, int rank) noexcept nogil:
    cdef int t = s.target, th = s.loc[t], a = s.firer[0], b = s.firer[1]
    cdef int ai = U_KIND[t] != 0, modified = rank, strength, i, u, adjacent
    if s.strike == ST_GROUND:
        strength = unit_value(s, a, ai)
        if b != NONE:
            strength += unit_value(s, b, ai)
        adjacent = DIST[s.loc[a]][th] == 1 and (b == NONE or DIST[s.loc[b]][th] == 1)
        if adjacent:
            modified -= 1
        if not ai and (a == TIGER or b == TIGER):
            modified -= 1
        modified += T_MOD[th]
        if side_of(a) == 0 and (interdicted(s, s.loc[a]) or (b != NONE and interdicted(s, s.loc[b]))):
            modified += 1
    else:
        strength = 4 if s.strike == ST_AIR else 3
        if s.strike_variant:
            adjacent = 0
            for i in range(6):
                if NEIGH[th][i] != NONE:
                    for u in range(NSIDE):
                        if s.loc[u] == NEIGH[th][i]:
                            adjacent = 1
            if not adjacent:
                modified += T_MOD[th]
    if modified <= strength:
        if (s.reduced >> t) & 1:
            s.loc[t] = LOC_DEAD
            s.reduced &= ~(<uint32_t>1 << t)
            s.stack_mask &= ~(<uint32_t>1 << t)
        else:
            s.reduced |= <uint32_t>1 << t
    clear_attack(s)
    after_use(s)

cdef void draw_combat(MState *s, int c) noexcept nogil:
    if c == JOKER:
        if s.drawn == 3:
            end_turn(s)            # the attack misses (design choice) and the turn ends
        else:
            s.deck[JOKER] = 0
            if deck_total(s) == 0:
                end_turn(s)
        return
    s.deck[c] -= 1
    if card_rank(c) >= 11:
        s.phase = PH_REDRAW
    else:
        resolve(s, card_rank(c))

cdef void use_units(MState *s, int a, int b) noexcept nogil:
    """Spends the card's activations for a (and b) acting together (called
    before a move changes their hexes). The Tiger joining a German unit in
    its hex rides free: on a number card the pair costs one activation, on a
    face card only the partner's activation in the stack is used, so the
    Tiger keeps its own whether it rides before or after acting alone. On a
    fresh face card (one unit, no stack named) the mask is empty, so the fire
    ends the card once resolved."""
    cdef int ride = b != NONE and fire_cost(s, a, b) == 1
    if card_rank(s.card) <= 10:
        s.acts_left -= fire_cost(s, a, b)
    elif ride:
        s.stack_mask &= ~(<uint32_t>1 << (b if a == TIGER else a))
    else:
        s.stack_mask &= ~(<uint32_t>1 << a)
        if b != NONE:
            s.stack_mask &= ~(<uint32_t>1 << b)
    s.card_fresh = 0

cdef void m_apply(void *state, ard_action action) noexcept nogil:
    cdef MState *s = <MState *>state
    cdef int a = action, k, h, m, d, u, fs, side
    if a == ARD_HIDDEN_OUTCOME:
        return
    if s.phase == PH_DRAW:
        draw_activation(s, a)
    elif s.phase == PH_COMBAT:
        draw_combat(s, a)
    elif a == A_REDRAW:
        s.phase = PH_COMBAT
    elif a == A_MISS:
        clear_attack(s)
        after_use(s)
    elif a == A_PASS:
        next_card(s)
    elif a < A_SETUP:
        h = a - A_STACK
        side = s.active
        s.stack_mask = 0
        for u in range(side * NSIDE, side * NSIDE + NSIDE):
            if s.loc[u] == h:
                s.stack_mask |= <uint32_t>1 << u
        s.card_fresh = 0
    elif a < A_AIRI:
        k = (a - A_SETUP) // NHEX
        s.loc[NSIDE + k] = (a - A_SETUP) % NHEX
        s.setup_left -= 1
        if s.setup_left == 0:
            s.phase = PH_DRAW
    elif a < A_AIR:
        s.air_used = 1
        s.interdict = a - A_AIRI
        end_card_now(s)
        next_card(s)
    elif a < A_MOVE:
        s.air_used = 1
        s.strike = ST_AIR if a < A_OBA else ST_OBA
        s.target = (a - A_AIR) % NSIDE
        s.firer[0] = NONE
        s.firer[1] = NONE
        end_card_now(s)
        s.phase = PH_COMBAT
    elif a < A_FIRE:
        m = (a - A_MOVE) // NDEST
        d = (a - A_MOVE) % NDEST
        u = MOVER_UNIT[m]
        if card_rank(s.card) > 10 and s.card_fresh:
            end_card_now(s)          # face card, one unit: it entered or moved (with the Tiger riding)
        else:
            use_units(s, u, TIGER if MOVER_TIGER[m] else NONE)
        if d == NHEX:
            s.loc[u] = LOC_EXITED
            s.exits += 1
            if MOVER_TIGER[m]:
                s.loc[TIGER] = LOC_EXITED
                s.exits += 1
                s.stack_mask &= ~(<uint32_t>1 << TIGER)   # off the map: its own activation is lost
        else:
            s.loc[u] = d
            if MOVER_TIGER[m]:
                s.loc[TIGER] = d
        after_use(s)
    else:
        fs = (a - A_FIRE) // NSIDE
        s.firer[0] = FSET_A[fs]
        s.firer[1] = FSET_B[fs]
        s.target = (1 - s.active) * NSIDE + (a - A_FIRE) % NSIDE
        s.strike = ST_GROUND
        use_units(s, FSET_A[fs], FSET_B[fs])
        s.phase = PH_COMBAT

# ---------------------------------------------------------------- chance ----
cdef int m_chance_outcomes(const void *state, ard_action *out, double *probs) noexcept nogil:
    cdef const MState *s = <const MState *>state
    cdef int i, n = 0, total = deck_total(s)
    if (s.phase != PH_DRAW and s.phase != PH_COMBAT) or total == 0:
        return 0
    for i in range(NCLASS):
        if s.deck[i]:
            out[n] = i
            probs[n] = <double>s.deck[i] / total
            n += 1
    return n

cdef ard_action m_sample_chance(const void *state, ard_rng *rng) noexcept nogil:
    cdef const MState *s = <const MState *>state
    cdef int i, total = deck_total(s), x
    if total == 0:
        return 0
    x = <int>ard_rng_below(rng, total)
    for i in range(NCLASS):
        x -= s.deck[i]
        if x < 0:
            return i
    return JOKER

# ------------------------------------------------------ returns, evaluate ----
cdef void m_returns(const void *state, double *out) noexcept nogil:
    cdef const MState *s = <const MState *>state
    ard_returns_for_winner(s.winner if s.phase == PH_OVER else -1, out)

cdef double m_evaluate_classic(const void *state, int player) noexcept nogil:
    """The hand-set evaluation (now the feature "classic", _features.pxi).
    German prospects: exits (5 win), westward progress of German units
    weighted by their strength, material on both sides, and time left; a
    smooth squash to [-1, 1]. From `player`'s point of view."""
    cdef const MState *s = <const MState *>state
    cdef double g = 0.0, progress, mat_g = 0.0, mat_u = 0.0, strength, turns_left, x
    cdef int u, h
    if s.phase == PH_OVER:
        x = 1.0 if s.winner == 0 else -1.0
        return x if player == 0 else -x
    turns_left = S_TURNS - s.turn + 1.0
    for u in range(NSIDE):
        h = s.loc[u]
        if h == LOC_DEAD or h == LOC_EXITED:
            continue
        strength = 0.6 if (s.reduced >> u) & 1 else 1.0
        if u == TIGER:
            strength *= 0.7          # the Tiger counts for an exit like any unit
        mat_g += strength
        if on_map(h):
            progress = (COLS - hex_col(h)) / (COLS - 1.0)
            g += 0.45 * strength * progress * progress * (0.5 + 0.5 * min(1.0, turns_left / 3.0))
    for u in range(NSIDE, NU):
        if s.loc[u] != LOC_DEAD:
            mat_u += 0.6 if (s.reduced >> u) & 1 else 1.0
    x = s.exits + g + 0.25 * (mat_g - 0.8 * mat_u) - S_EXITS * 0.55 - 0.15 * turns_left * 0.0
    # few German units left to exit: the US is safe
    if mat_g + s.exits < S_EXITS:
        x -= 2.0
    x = x / 2.0
    x = x / (1.0 + fabs(x))
    if x > 0.99:
        x = 0.99
    if x < -0.99:
        x = -0.99
    return x if player == 0 else -x
