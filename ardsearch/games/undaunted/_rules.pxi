# Included by _engine.pyx: the vtable's play: whose decision it is, the legal actions and
# applying one.

# ----------------------------------------------------------------- vtable: play
cdef int und_current_player(const void *state) noexcept nogil:
    cdef const UState *s = <const UState *>state
    if s.phase == PH_OVER:
        return ARD_TERMINAL
    if (s.phase == PH_DEAL or s.phase == PH_REVEAL or s.phase == PH_ROLL or s.phase == PH_CMD_DRAW
            or s.phase == PH_LEFTOVER):
        return ARD_CHANCE
    return s.to_move


cdef int turn_actions(const UState *s, ard_action *out) noexcept nogil:
    cdef int a = s.to_move, o = 1 - s.to_move, n = 0, u, v, c, t, t1, t2, k, pos, b
    cdef const Army *me = &s.army[a]
    cdef const Army *op = &s.army[o]
    cdef uint32_t m, m2
    cdef bint ok
    out[n] = A_END
    n += 1
    if s.turn_plays >= MAX_PLAYS:
        return n
    for c in range(1, NCARD):
        if can_play(s, a, c):
            out[n] = A_SHELTER + c
            n += 1
    for u in range(NUNIT):
        if can_play(s, a, u + 1) and not is_ready(s, a, u):
            out[n] = A_RALLY + u
            n += 1
    for u in range(U_SCOUT):                        # Move 1 (mortar, mg, riflemen), Sneak 1 (sniper)
        if can_play(s, a, u + 1) and is_ready(s, a, u):
            m = s.adj[position(s, a, u)]
            while m:
                t = lowbit(m)
                m &= m - 1
                if u == U_SNIPER or has_marker(s, a, t):
                    out[n] = A_MOVE + u * MAXT + t
                    n += 1
    if can_play(s, a, C_GUIDE):                     # Advance 1: any ready token on the board
        for u in range(NUNIT):
            if me.token[u] != OFF and is_ready(s, a, u):
                m = s.adj[me.token[u]]
                while m:
                    t = lowbit(m)
                    m &= m - 1
                    if has_marker(s, a, t):
                        out[n] = A_ADVANCE + u * MAXT + t
                        n += 1
    for u in range(1, NUNIT):                       # Attack X
        if UND_DICE[u] and can_play(s, a, u + 1) and is_ready(s, a, u):
            for v in range(NUNIT):
                if op.token[v] != OFF:
                    out[n] = A_ATTACK + u * NUNIT + v
                    n += 1
    if can_play(s, a, C_MG) and is_ready(s, a, U_MG):
        for v in range(NUNIT):
            if op.token[v] != OFF:
                out[n] = A_SUPPRESS + v
                n += 1
    if can_play(s, a, C_MORTAR) and is_ready(s, a, U_MORTAR):
        if me.token[U_MORTAR] != OFF and me.target != OFF:
            out[n] = A_EXPLODE
            n += 1
        pos = position(s, a, U_MORTAR)
        for t in range(s.ntiles):
            if distance(s, pos, t) >= 3:
                out[n] = A_AIM + t
                n += 1
    for k in range(3):                              # Control
        u = U_RIF + k
        if can_play(s, a, u + 1) and is_ready(s, a, u):
            pos = position(s, a, u)
            ok = not (me.controlled >> pos) & 1
            for v in range(NUNIT):
                if op.token[v] == pos:
                    ok = False
            if ok:
                out[n] = A_CONTROL + k
                n += 1
    for k in range(3):                              # Conceal
        if can_play(s, a, C_SCOUT + k) and is_ready(s, a, U_SCOUT + k) and op.supply[C_FOG] > 0:
            out[n] = A_CONCEAL + k
            n += 1
    for k in range(3):                              # Reconnoitre
        if can_play(s, a, C_SCOUT + k) and is_ready(s, a, U_SCOUT + k) and can_play(s, a, C_FOG):
            out[n] = A_RECON + k
            n += 1
    if can_play(s, a, C_PSGT):                      # Command 2: draw 1 or 2
        c = deck_count(s, a) + zone_sum(me.discard)
        for k in range(1, 3):
            if k <= c:
                out[n] = A_COMMAND + k - 1
                n += 1
    for k in range(3):                              # Inspire 1 (own combat group, not Squad Leaders)
        if can_play(s, a, C_SL + k):
            for c in range(C_SL):
                if me.play[c] > 0 and UND_CG[c] == k + 1:
                    out[n] = A_INSPIRE + k * NCARD + c
                    n += 1
    for b in range(5):                              # Bolster X
        if can_play(s, a, UND_BOLSTER_CARD[b]):
            for c in range(NCARD):
                if me.supply[c] > 0 and (UND_BOLSTER_CG[b] == 0 or UND_CG[c] == UND_BOLSTER_CG[b]):
                    out[n] = A_BOLSTER + b
                    n += 1
                    break
    for k in range(3):                              # Scout 2: a path of one or two tiles
        u = U_SCOUT + k
        if can_play(s, a, u + 1) and is_ready(s, a, u):
            m = s.adj[position(s, a, u)]
            while m:
                t1 = lowbit(m)
                m &= m - 1
                m2 = s.adj[t1]
                while m2:
                    t2 = lowbit(m2)
                    m2 &= m2 - 1
                    out[n] = A_SCOUT + k * 1056 + t1 * 33 + t2
                    n += 1
                out[n] = A_SCOUT + k * 1056 + t1 * 33 + STOP
                n += 1
    return n


cdef int und_legal_actions(const void *state, ard_action *out) noexcept nogil:
    cdef const UState *s = <const UState *>state
    cdef int n = 0, c, a = s.to_move
    if s.phase == PH_BID1 or s.phase == PH_BID2:
        for c in range(NCARD):
            if can_play(s, a, c):
                out[n] = A_BID + c
                n += 1
        return n
    if s.phase == PH_TURN:
        return turn_actions(s, out)
    if s.phase == PH_BOLSTER:
        for c in range(s.bolster_min, NCARD):
            if s.army[a].supply[c] > 0 and (s.bolster_cg == 0 or UND_CG[c] == s.bolster_cg):
                out[n] = A_PICK + c
                n += 1
        out[n] = A_PICK_STOP
        return n + 1
    return 0


cdef void scout_tile(UState *s, int a, int t) noexcept nogil:
    """A Scout passes through or ends on t: a scouted marker and a Fog of War card."""
    cdef Army *ar = &s.army[a]
    if has_marker(s, a, t):
        return
    ar.scouted |= 1u << t
    if ar.supply[C_FOG] > 0:
        ar.supply[C_FOG] -= 1
        ar.discard[C_FOG] += 1


cdef void move_token(UState *s, int a, int u, int t) noexcept nogil:
    s.army[a].token[u] = t
    if u == U_MORTAR:
        s.army[a].target = OFF


cdef int card_of_action(int x) noexcept nogil:
    """The card a turn action plays (-1 for end)."""
    if x < A_SHELTER:
        return -1
    if x < A_RALLY:
        return x - A_SHELTER
    if x < A_MOVE:
        return x - A_RALLY + 1
    if x < A_ADVANCE:
        return (x - A_MOVE) // MAXT + 1
    if x < A_ATTACK:
        return C_GUIDE
    if x < A_SUPPRESS:
        return (x - A_ATTACK) // NUNIT + 1
    if x < A_EXPLODE:
        return C_MG
    if x < A_CONTROL:
        return C_MORTAR
    if x < A_CONCEAL:
        return C_RIF + x - A_CONTROL
    if x < A_RECON:
        return C_SCOUT + x - A_CONCEAL
    if x < A_COMMAND:
        return C_SCOUT + x - A_RECON
    if x < A_INSPIRE:
        return C_PSGT
    if x < A_BOLSTER:
        return C_SL + (x - A_INSPIRE) // NCARD
    if x < A_PICK:
        return UND_BOLSTER_CARD[x - A_BOLSTER]
    if x < A_SCOUT:
        return -1
    return C_SCOUT + (x - A_SCOUT) // 1056


cdef void apply_turn(UState *s, int x) noexcept nogil:
    cdef int a = s.to_move, o = 1 - s.to_move, c, u, t, v, k, t1, t2, from_t
    cdef Army *me = &s.army[a]
    if x == A_END:
        for c in range(NCARD):
            me.discard[c] += me.play[c]
            me.play[c] = 0
        if hand_total(s, a) > 0:
            s.phase = PH_LEFTOVER
        else:
            finish_turn(s)
        return
    c = card_of_action(x)
    if c < 0:
        return
    s.turn_plays += 1
    take_from_hand(s, a, c)
    rec_remove(me, c)
    if x < A_RALLY:                                 # Shelter: back to the supply, no token placed
        me.supply[c] += 1
        return
    me.play[c] += 1
    u = c - 1
    if 0 <= u < NUNIT and me.token[u] == OFF:       # a card's token enters at the spawn tile
        me.token[u] = me.spawn
    if x < A_MOVE:                                  # a suppressed unit only flips ready
        me.suppressed &= ~(1 << u)
        return
    if x < A_ADVANCE:
        move_token(s, a, u, (x - A_MOVE) % MAXT)
    elif x < A_ATTACK:
        move_token(s, a, (x - A_ADVANCE) // MAXT, (x - A_ADVANCE) % MAXT)
    elif x < A_SUPPRESS:
        v = (x - A_ATTACK) % NUNIT
        from_t = me.token[u]
        t = s.army[o].token[v]
        start_roll(s, o, v, RK_CASUALTY, UND_DICE[u],
                   UND_DEFENCE[v] + cover_against(s, t, from_t, False) + distance(s, from_t, t))
    elif x < A_EXPLODE:
        v = x - A_SUPPRESS
        from_t = me.token[U_MG]
        t = s.army[o].token[v]
        start_roll(s, o, v, RK_SUPPRESS, UND_SUPPRESS_DICE,
                   UND_DEFENCE[v] + cover_against(s, t, from_t, False) + distance(s, from_t, t))
    elif x == A_EXPLODE:
        s.explode_queue = 0
        for k in range(2):
            for v in range(NUNIT):
                if s.army[k].token[v] == me.target:
                    s.explode_queue |= 1u << (k * NUNIT + v)
        if s.explode_queue:
            next_explode(s)
    elif x < A_CONTROL:
        me.target = x - A_AIM
    elif x < A_CONCEAL:
        t = me.token[u]
        me.controlled |= 1u << t
        me.scouted &= ~(1u << t)
        if (s.army[o].controlled >> t) & 1:
            s.army[o].controlled &= ~(1u << t)
            s.army[o].scouted |= 1u << t
        check_end(s)
    elif x < A_RECON:
        if s.army[o].supply[C_FOG] > 0:
            s.army[o].supply[C_FOG] -= 1
            s.army[o].discard[C_FOG] += 1
    elif x < A_COMMAND:
        take_from_hand(s, a, C_FOG)
        rec_remove(me, C_FOG)
        me.removed[C_FOG] += 1
        s.phase = PH_CMD_DRAW
        s.draws_pending = 1
        advance_draws(s)
    elif x < A_INSPIRE:
        s.phase = PH_CMD_DRAW
        s.draws_pending = x - A_COMMAND + 1
        advance_draws(s)
    elif x < A_BOLSTER:
        k = (x - A_INSPIRE) % NCARD
        if me.play[k] > 0:                          # back to hand in sight of both
            me.play[k] -= 1
            me.hand[k] += 1
            me.known[k] += 1
    elif x < A_PICK:
        k = x - A_BOLSTER
        s.phase = PH_BOLSTER
        s.bolster_left = UND_BOLSTER_X[k]
        s.bolster_cg = UND_BOLSTER_CG[k]
        s.bolster_min = 0
    else:                                           # Scout 2
        k = (x - A_SCOUT) % 1056
        t1 = k // 33
        t2 = k % 33
        scout_tile(s, a, t1)
        me.token[u] = t1
        if t2 != STOP:
            scout_tile(s, a, t2)
            me.token[u] = t2


cdef void apply_hit(UState *s, int x) noexcept nogil:
    cdef int a = s.roll_army, u = s.roll_unit, c = s.roll_unit + 1
    cdef Army *ar = &s.army[a]
    if x == A_HIT:
        ar.suppressed |= 1 << u
    elif x == A_HIT_HAND:
        take_from_hand(s, a, c)
        rec_remove(ar, c)
        ar.removed[c] += 1
    elif x == A_HIT_DISCARD:                        # so the hand held none
        rec_exclude(ar, c)
        if ar.discard[c] > 0:
            ar.discard[c] -= 1
            ar.removed[c] += 1
    elif x == A_HIT_DECK:                           # so the hand held none
        rec_exclude(ar, c)
        if ar.deck[c] > 0:
            ar.deck[c] -= 1
            ar.removed[c] += 1
    elif x == A_HIT_TOKEN:
        remove_token(s, a, u)


cdef bint can_pick(const UState *s, int a) noexcept nogil:
    cdef int c
    for c in range(s.bolster_min, NCARD):
        if s.army[a].supply[c] > 0 and (s.bolster_cg == 0 or UND_CG[c] == s.bolster_cg):
            return True
    return False


cdef void und_apply(void *state, ard_action x) noexcept nogil:
    cdef UState *s = <UState *>state
    cdef int a = s.to_move, c, k
    cdef Army *me = &s.army[a]
    if s.phase == PH_OVER:
        return
    if s.phase == PH_DEAL or s.phase == PH_CMD_DRAW:
        if x == ARD_HIDDEN_OUTCOME:
            me.unknown_hand += 1
        elif 0 <= x < NCARD and me.deck[x] > 0:
            me.deck[x] -= 1
            me.hand[x] += 1
        rec_draw(me)                                # the opponent saw a draw, not the card
        s.draws_pending -= 1
        advance_draws(s)
    elif s.phase == PH_BID1 or s.phase == PH_BID2:
        if x == ARD_HIDDEN_OUTCOME:                 # a view: the card stays among the hand's
            me.bid = UNKNOWN
        else:
            c = x - A_BID
            take_from_hand(s, a, c)
            me.bid = c
            if s.phase == PH_BID2:                  # the second bid is seen at once
                rec_remove(me, c)
        if s.phase == PH_BID1:
            second_bid(s)
        else:
            after_bids(s)
    elif s.phase == PH_REVEAL:
        c = x - A_REVEAL
        if me.bid == UNKNOWN:
            take_from_hand(s, a, c)
        rec_remove(me, c)
        me.bid = c
        resolve_bids(s)
    elif s.phase == PH_TURN:
        apply_turn(s, x)
    elif s.phase == PH_ROLL:
        apply_hit(s, x)
        s.roll_army = 0
        s.roll_unit = 0
        s.roll_kind = 0
        s.roll_dice = 0
        s.roll_defence = 0
        next_explode(s)
        check_end(s)
    elif s.phase == PH_BOLSTER:
        if x == A_PICK_STOP:
            s.bolster_left = 0
        else:
            c = x - A_PICK
            me.supply[c] -= 1
            me.discard[c] += 1
            s.bolster_left -= 1
            s.bolster_min = c
            if not can_pick(s, a):                  # nothing left to take: the Bolster is over
                s.bolster_left = 0
        if s.bolster_left == 0:
            s.bolster_cg = 0
            s.bolster_min = 0
            s.phase = PH_TURN
    elif s.phase == PH_LEFTOVER:
        c = x - A_REVEAL
        for k in range(c):                          # the smallest card: none smaller in hand
            rec_exclude(me, k)
        take_from_hand(s, a, c)
        rec_remove(me, c)
        me.discard[c] += 1
        if hand_total(s, a) == 0:
            finish_turn(s)
