# Included by _engine.pyx: the vtable's play: init, whose decision it is, the legal
# actions, chance outcomes, applying one, the returns, and the hand-set
# ("classic") evaluation the features build on.

# ----------------------------------------------------------------- vtable functions
cdef void ard_init(void *state, const void *params, uint64_t seed) noexcept nogil:
    cdef ArdState *s = <ArdState *>state
    cdef const ArdParams *prm = <const ArdParams *>params
    cdef int p, t
    memset(s, 0, sizeof(ArdState))
    s.variant = prm.variant
    s.road_length = prm.road_length
    s.max_rounds = prm.max_rounds
    s.first_rule = prm.first
    s.viewer = -1
    s.round = 1
    s.ap = START_AP
    s.winner = WIN_NONE
    for p in range(2):
        for t in range(NTYPES):
            s.stock[p][t] = full_stock(s, t)
    if prm.first == 0:
        s.phase = PH_COIN
    else:
        s.phase = PH_DRAW1
        s.starter = prm.first - 1
        s.to_move = s.starter


cdef int ard_current_player(const void *state) noexcept nogil:
    cdef const ArdState *s = <const ArdState *>state
    if s.phase == PH_PLAY:
        return s.to_move
    if s.phase == PH_OVER:
        return ARD_TERMINAL
    return ARD_CHANCE


cdef int ard_legal_actions(const void *state, ard_action *out) noexcept nogil:
    cdef const ArdState *s = <const ArdState *>state
    cdef int p = s.to_move, o = 1 - p, n = 0, r, t, ln, ap = s.ap, road, depth, cost
    cdef int free_tiles[7]
    cdef int max_free = 0
    if s.phase != PH_PLAY:
        return 0
    for r in range(NROADS):
        free_tiles[r] = s.road_length - s.length[0][r] - s.length[1][r]
        if free_tiles[r] > max_free:
            max_free = free_tiles[r]
    if ap >= 1 and max_free > 0:
        for t in range(NTYPES):
            if s.stock[p][t] == 0 or (t >= U_GENERAL and not special_allowed(s, p)):
                continue
            ln = UNIT_LEN[t]
            if ln > max_free:
                continue
            for r in range(NROADS):
                if free_tiles[r] >= ln:
                    out[n] = A_PLACE + t * NROADS + r
                    n += 1
    if ap >= 2:
        for r in range(NROADS):
            if s.count[p][r] >= 2:
                out[n] = A_FRONT + r
                n += 1
        for r in range(NROADS):
            if s.count[p][r] > 0 and not (s.conquered[p] >> r) & 1:
                cost = 3 if (s.count[o][r] > 0 and free_tiles[r] == 0) else 2
                if ap >= cost:
                    out[n] = A_RETREAT + r
                    n += 1
    for r in range(NROADS):
        if can_clash(s, p, r):
            out[n] = A_ATTACK + r
            n += 1
    if s.variant == 0:
        if s.stock[p][U_CMDTANK] == 0 and find_unit(s, p, U_CMDTANK, &road, &depth):
            if flank_target(s, p, road, depth, road - 1) >= 0:
                out[n] = A_FLANK + 2 * road
                n += 1
            if flank_target(s, p, road, depth, road + 1) >= 0:
                out[n] = A_FLANK + 2 * road + 1
                n += 1
        if s.stock[p][U_MORTAR] == 0 and find_unit(s, p, U_MORTAR, &road, &depth):
            if mortar_target(s, p, road, depth) >= 0:
                out[n] = A_MORTAR + road
                n += 1
    out[n] = A_PASS
    return n + 1


cdef inline int drawer(const ArdState *s) noexcept nogil:
    """Whose objective card the current draw is."""
    return s.starter if s.phase == PH_DRAW1 else 1 - s.starter


cdef int ard_chance_outcomes(const void *state, ard_action *out_actions, double *out_probs) noexcept nogil:
    cdef const ArdState *s = <const ArdState *>state
    cdef int n = 0, k, other
    if s.phase == PH_COIN:
        out_actions[0] = A_FIRST
        out_actions[1] = A_FIRST + 1
        out_probs[0] = 0.5
        out_probs[1] = 0.5
        return 2
    if s.phase != PH_DRAW1 and s.phase != PH_DRAW2:
        return 0
    # The other player's card, when known here, is out of the deck. In a view
    # where it is unknown, every card is equally likely for this draw.
    other = s.objective[1 - drawer(s)]
    for k in range(1, NCARDS + 1):
        if k != other:
            out_actions[n] = A_OBJ + k - 1
            n += 1
    for k in range(n):
        out_probs[k] = 1.0 / n
    return n


cdef ard_action ard_sample_chance(const void *state, ard_rng *rng) noexcept nogil:
    cdef const ArdState *s = <const ArdState *>state
    cdef int k, other
    if s.phase == PH_COIN:
        return A_FIRST + <int>ard_rng_below(rng, 2)
    other = s.objective[1 - drawer(s)]
    if 1 <= other <= NCARDS:
        k = 1 + <int>ard_rng_below(rng, NCARDS - 1)
        if k >= other:
            k += 1
    else:
        k = 1 + <int>ard_rng_below(rng, NCARDS)
    return A_OBJ + k - 1


cdef void apply_chance(ArdState *s, ard_action action) noexcept nogil:
    cdef int d
    if s.phase == PH_COIN:
        s.starter = action - A_FIRST
        s.to_move = s.starter
        s.phase = PH_DRAW1
        return
    d = drawer(s)
    if action == ARD_HIDDEN_OUTCOME or (s.viewer >= 0 and s.viewer != d):
        s.objective[d] = CARD_UNKNOWN   # a view never holds the opponent's card
    else:
        s.objective[d] = action - A_OBJ + 1
    if s.phase == PH_DRAW1:
        s.phase = PH_DRAW2
    else:
        s.phase = PH_PLAY
        s.to_move = s.starter
        s.ap = START_AP


cdef void ard_apply(void *state, ard_action action) noexcept nogil:
    cdef ArdState *s = <ArdState *>state
    cdef int p = s.to_move, r, road, depth, target, idx
    if s.phase != PH_PLAY:
        if s.phase != PH_OVER:
            apply_chance(s, action)
        return
    if action == A_PASS:
        end_turn(s)
        return
    if action < A_FRONT:
        place_unit(s, p, action // NROADS, action % NROADS)
        if s.phase == PH_OVER:
            return
    elif action < A_RETREAT:
        rotate_line(s, p, action - A_FRONT)
    elif action < A_ATTACK:
        retreat_lead(s, p, action - A_RETREAT)
    elif action < A_FLANK:
        clash(s, p, action - A_ATTACK)
    elif action < A_MORTAR:
        r = (action - A_FLANK) // 2
        target = r - 1 if (action - A_FLANK) % 2 == 0 else r + 1
        if find_unit(s, p, U_CMDTANK, &road, &depth):
            idx = flank_target(s, p, road, depth, target)
            if idx >= 0:
                truncate_line(s, 1 - p, target, idx)
    else:
        if find_unit(s, p, U_MORTAR, &road, &depth):
            idx = mortar_target(s, p, road, depth)
            if idx >= 0:
                truncate_line(s, 1 - p, mortar_road(p, road), idx)
    if s.ap == 0 and not any_attack(s, p):
        end_turn(s)


cdef void ard_returns(const void *state, double *out) noexcept nogil:
    cdef const ArdState *s = <const ArdState *>state
    out[0] = 0.0
    out[1] = 0.0
    if s.phase == PH_OVER and (s.winner == 0 or s.winner == 1):
        out[s.winner] = 1.0
        out[1 - s.winner] = -1.0


cdef double objective_progress(const ArdState *s, int q, const double *prog) noexcept nogil:
    """Progress of q toward its objective card in [0, 1]: the mean squared share
    of the card's two roads q's lines hold (the last tiles of a road matter
    most). An unseen card counts as the average over the cards it can be."""
    cdef int card = s.objective[q], other = s.objective[1 - q], k, r, n = 0
    cdef double total = 0.0, v
    for k in range(1, NCARDS + 1):
        if (1 <= card <= NCARDS and k != card) or k == other:
            continue
        v = 0.0
        for r in range(NROADS):
            if (CARD_MASK[k] >> r) & 1:
                v += prog[r] * prog[r]
        total += v * 0.5
        n += 1
    return total / n if n else 0.0


cdef int clash_loss(const ArdState *s, int q, int r) noexcept nogil:
    """Tiles of q's line on road r that the enemy's clash there would remove
    now (0 if the enemy cannot attack on r)."""
    cdef int o = 1 - q, a, n, removed = 0, tiles = 0, t
    if not can_clash(s, o, r):
        return 0
    a = lead_unit(s, o, r)
    n = s.count[q][r]
    if BEATS[a][s.line[q][r][n - 1]] == 0:
        return UNIT_LEN[s.line[q][r][n - 1]]
    while n > 0 and BEATS[a][s.line[q][r][n - 1]] > 0:
        n -= 1
        t = s.line[q][r][n]
        tiles += UNIT_LEN[t]
        removed += 1
        if a == U_SPY and removed == 2:
            break
    return tiles


cdef double side_score(const ArdState *s, int q) noexcept nogil:
    """Unbounded position score of player q (not relative).

    A player has about 55 tiles of units for 7 roads of L tiles, so they can
    fill three roads at most: what counts is the lines on the roads they can
    win with (their objective roads and their three longest), held against
    the enemy's next clash. Units spread elsewhere are worth less than units
    kept in stock, which can still go where they are needed."""
    cdef int r, i, held, card = s.objective[q], t, nfocus
    cdef uint8_t focus = 0
    cdef double v[7]
    cdef double score = 0.0, best, stock_tiles = 0.0
    cdef int order[3]
    for r in range(NROADS):
        # a run of units the enemy's leading unit beats is as good as gone,
        # and a little worse (the enemy gains the road's tiles)
        held = s.length[q][r] - clash_loss(s, q, r)
        v[r] = (held - 0.3 * (s.length[q][r] - held)) / s.road_length
        if v[r] < 0:
            v[r] = 0
    # The longest lines, as many as the player's units can fill (three with
    # the special units on 16 tiles); without them (basic variant) the player
    # cannot hold three roads at once and plays for the objective card.
    nfocus = (55 if s.variant == 0 else 44) // s.road_length
    if nfocus > 3:
        nfocus = 3
    if nfocus < 3 and 1 <= card <= NCARDS:
        nfocus = 0
    for i in range(nfocus):
        order[i] = -1
        best = -1.0
        for r in range(NROADS):
            if not (focus >> r) & 1 and v[r] > best:
                best = v[r]
                order[i] = r
        focus |= 1 << order[i]
    if 1 <= card <= NCARDS:
        focus |= CARD_MASK[card]
        score += 0.45 * objective_progress(s, q, v)
    elif card == CARD_UNKNOWN:
        score += 0.2 * objective_progress(s, q, v)
    for r in range(NROADS):
        if (focus >> r) & 1:
            score += 0.25 * v[r] + 0.6 * v[r] * v[r]
        else:
            score += 0.03 * v[r]
    for t in range(NTYPES):
        stock_tiles += s.stock[q][t] * UNIT_LEN[t]
    score += 0.1 * stock_tiles / s.road_length
    score += 0.5 * POPCOUNT[s.conquered[q]]
    return score


cdef double ard_evaluate_classic(const void *state, int player) noexcept nogil:
    """The hand-set evaluation (now the feature "classic", _features.pxi)."""
    cdef const ArdState *s = <const ArdState *>state
    cdef double d, e
    if s.phase == PH_OVER:
        if s.winner == WIN_DRAW:
            return 0.0
        return 1.0 if s.winner == player else -1.0
    if s.phase != PH_PLAY:
        return 0.0
    d = side_score(s, player) - side_score(s, 1 - player)
    # squash to (-0.95, 0.95): never as good as a real win
    e = d / (1.0 + (d if d > 0 else -d))
    return 0.95 * e
