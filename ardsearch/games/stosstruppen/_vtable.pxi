# The ard_game functions: init, the move generator, chance, apply, returns,
# evaluate, hash, views, notation and validation; then the vtable itself.

cdef void st_init(void *state, const void *params, uint64_t seed) noexcept nogil:
    cdef StState *s = <StState *>state
    cdef const StParams *prm = <const StParams *>params
    cdef const Scn *sc
    cdef int p, i, k
    memset(s, 0, sizeof(StState))
    s.scenario = prm.scenario if prm.scenario < NSCN else 0
    sc = &SC[s.scenario]
    s.turns = prm.turns if 1 <= prm.turns <= 30 else sc.turns
    s.viewer = -1
    s.phase = PH_DRAW
    s.turn = 1
    s.winner = WIN_NONE
    for p in range(2):
        for i in range(UPS):
            k = p * UPS + i
            s.u[k].type = sc.utype[p][i]
            s.u[k].sq = sc.usq[p][i]
            if sc.utype[p][i] != NOTYPE and UT[sc.utype[p][i]].tank:
                s.u[k].tk = sc.ufacing[p][i] << TK_FACING_SHIFT
        for i in range(MPS):
            s.mk[p * MPS + i][0] = sc.mkind[p][i]
            s.mk[p * MPS + i][1] = NOSQ
    update_spotting(s)


cdef int st_current_player(const void *state) noexcept nogil:
    cdef const StState *s = <const StState *>state
    if s.phase == PH_OVER:
        return ARD_TERMINAL
    if s.phase == PH_DRAW or s.pend != P_NONE:
        return ARD_CHANCE
    return s.card // 4


cdef int st_legal_actions(const void *state, ard_action *out) noexcept nogil:
    cdef const StState *s = <const StState *>state
    cdef const Masks *mk = &SM[s.scenario]
    cdef int p = s.card // 4, n = 0, i, t, k
    cdef BB enemy, occupied, r0, rw, rt, seen
    if s.phase == PH_OVER or s.phase == PH_DRAW or s.pend != P_NONE:
        return 0
    if s.phase == PH_ADVANCE:
        out[0] = A_ADVANCE
        out[1] = A_STAY
        return 2
    if s.phase == PH_MOVE:
        unit_squares(s, 1 - p, &enemy, &occupied)
        for i in range(p * UPS, p * UPS + UPS):
            if not can_move(s, i):
                continue
            reach_sets(s, i, &enemy, &occupied, &r0, &rw, &rt)
            # to a free square, with no test, through wire or over a trench
            for k in range(BB_WORDS):
                r0.w[k] = (r0.w[k] | rw.w[k] | rt.w[k]) & ~occupied.w[k]
            n = bb_emit(&r0, A_MOVE + (i - p * UPS) * NSQ, out, n)
    elif s.phase == PH_FIRE:
        for i in range(p * UPS, p * UPS + UPS):
            if s.u[i].sq == NOSQ:
                continue
            for t in range((1 - p) * UPS, (1 - p) * UPS + UPS):
                if can_fire_at(s, i, t):
                    out[n] = A_FIRE + (i - p * UPS) * UPS + (t - (1 - p) * UPS)
                    n += 1
        if stock_marker(s, p, MK_BARRAGE_STOCK) >= 0:
            # a barrage or gas goes on any square some own unit sees
            bb_clear(&seen)
            for i in range(p * UPS, p * UPS + UPS):
                if s.u[i].sq < NSQ:
                    for k in range(BB_WORDS):
                        seen.w[k] |= mk.los[s.u[i].sq].w[k]
            for k in range(BB_WORDS):
                seen.w[k] &= mk.board.w[k]
            n = bb_emit(&seen, A_BARRAGE, out, n)
            n = bb_emit(&seen, A_GAS, out, n)
        if stock_marker(s, p, MK_CAS_STOCK) >= 0:
            n = bb_emit(&mk.board, A_CAS, out, n)
    elif s.phase == PH_ASSAULT:
        for i in range(p * UPS, p * UPS + UPS):
            for t in range((1 - p) * UPS, (1 - p) * UPS + UPS):
                if can_assault(s, i, t):
                    out[n] = A_ASSAULT + (i - p * UPS) * UPS + (t - (1 - p) * UPS)
                    n += 1
    elif s.phase == PH_RALLY:
        for i in range(p * UPS, p * UPS + UPS):
            if s.u[i].sq != NOSQ and (s.u[i].st & ST_STATUS):
                out[n] = A_RALLY
                n += 1
                break
    out[n] = A_DONE
    return n + 1


cdef inline int pass_fail(double p, ard_action *acts, double *probs) noexcept nogil:
    cdef int n = 0
    if p > 0.0:
        acts[n] = A_PASS
        probs[n] = p
        n += 1
    if p < 1.0:
        acts[n] = A_FAIL
        probs[n] = 1.0 - p
        n += 1
    return n


cdef int st_chance_outcomes(const void *state, ard_action *acts, double *probs) noexcept nogil:
    cdef const StState *s = <const StState *>state
    cdef int n = 0, c, left = 0, i, t, kind
    cdef double p, win, loss, tie
    if s.phase == PH_DRAW:
        for c in range(8):
            if not (s.drawn >> c) & 1:
                left += 1
        for c in range(8):
            if not (s.drawn >> c) & 1:
                acts[n] = A_CARD + c
                probs[n] = 1.0 / left
                n += 1
        return n
    if s.phase == PH_OVER:
        return 0
    i = s.pu
    t = s.pt
    if s.pend == P_HQTEST or s.pend == P_CROSS or s.pend == P_ADJ_MOVER:
        return pass_fail(morale_pass(s, side_of(i)), acts, probs)
    if s.pend == P_ADJ_ENEMY or s.pend == P_RALLY:
        return pass_fail(morale_pass(s, side_of(t)), acts, probs)
    if s.pend == P_FIRE:
        p = beat_prob(fire_die(s, i, t, s.pflags & PF_SECONDARY), fire_mod(s, i, t),
                      UT[s.u[t].type].armour if UT[s.u[t].type].tank else PV[scn(s).terrain[s.u[t].sq]])
        return attack_outcomes(s, t, p, acts, probs)
    if s.pend == P_ARRIVE:
        acts[0] = A_ARRIVE
        probs[0] = 2.0 / 6.0
        acts[1] = A_WAIT
        probs[1] = 4.0 / 6.0
        return 2
    if s.pend == P_AIRCRAFT:
        acts[0] = A_FIGHTER
        probs[0] = 0.5
        acts[1] = A_BOMBER
        probs[1] = 0.5
        return 2
    if s.pend == P_BLAST:
        kind = mk_kind(s, s.paux)
        p = beat_prob(blast_die(kind), 0,
                      UT[s.u[t].type].armour if UT[s.u[t].type].tank else PV[scn(s).terrain[s.u[t].sq]])
        return attack_outcomes(s, t, p, acts, probs)
    if s.pend == P_ASSAULT:
        assault_odds(s, i, t, &win, &loss, &tie)
        if win > 0.0:
            acts[n] = A_WIN
            probs[n] = win
            n += 1
        if loss > 0.0:
            acts[n] = A_LOSS
            probs[n] = loss
            n += 1
        if tie > 0.0:
            acts[n] = A_TIE
            probs[n] = tie
            n += 1
        return n
    return 0


cdef ard_action st_sample_chance(const void *state, ard_rng *rng) noexcept nogil:
    cdef ard_action acts[8]
    cdef double probs[8]
    cdef int n = st_chance_outcomes(state, acts, probs)
    if n <= 0:
        return -1
    return acts[ard_rng_pick(rng, probs, n)]


cdef void apply_chance(StState *s, ard_action a) noexcept nogil:
    cdef int pend = s.pend, i = s.pu, t = s.pt, j, m
    if s.phase == PH_DRAW:
        start_phase(s, a - A_CARD)
        return
    if pend == P_HQTEST:
        if a == A_PASS:
            s.pflags &= ~PF_HQ
            continue_move(s)
        else:
            s.pend = P_NONE
    elif pend == P_CROSS:
        if a == A_PASS:
            s.pflags &= ~PF_CROSS
            continue_move(s)
        elif s.pflags & PF_TRENCH:
            # a non-foot unit failing to cross a trench is stuck in it for the game
            s.u[i].st |= ST_STUCK
            arrive_at(s, i, s.paux)
        else:
            s.pend = P_NONE         # held at the wire; it may try again next Move
    elif pend == P_ADJ_MOVER:
        # Assault B: the mover tests, then each enemy unit next to the square
        # it arrived on (psq) tests, whether the mover stayed or fell back
        if a == A_FAIL:
            fall_back(s, i, -1)
        j = next_adjacent_enemy(s, i, s.psq, 0)
        if j >= 0:
            s.pend = P_ADJ_ENEMY
            s.pt = j
        else:
            s.pend = P_NONE
    elif pend == P_ADJ_ENEMY:
        if a == A_FAIL:
            fall_back(s, t, i)
        j = next_adjacent_enemy(s, i, s.psq, t + 1)
        if j >= 0:
            s.pt = j
        else:
            s.pend = P_NONE
    elif pend == P_FIRE:
        s.pend = P_NONE
        hit_unit(s, t, a, utype(s, i).artillery)
    elif pend == P_ARRIVE:
        m = s.paux
        if a == A_WAIT:
            test_markers_from(s, m + 1)
        elif mk_kind(s, m) == MK_CAS:
            s.pend = P_AIRCRAFT
        else:
            s.mk[m][0] = mk_kind(s, m)
            blast_from(s, 0)
    elif pend == P_AIRCRAFT:
        s.mk[s.paux][0] = MK_FIGHTER if a == A_FIGHTER else MK_BOMBER
        blast_from(s, 0)
    elif pend == P_BLAST:
        hit_unit(s, t, a, True)
        if s.phase != PH_OVER:
            blast_from(s, t + 1)
    elif pend == P_ASSAULT:
        s.pend = P_NONE
        if a == A_WIN:
            s.psq = s.u[t].sq
            s.pt = 0
            eliminate(s, t)
            if s.phase != PH_OVER:
                s.phase = PH_ADVANCE
        elif a == A_LOSS:
            eliminate(s, i)
    elif pend == P_RALLY:
        if a == A_PASS:
            s.u[t].st -= 1
        rally_from(s, t + 1)
    if s.phase == PH_OVER:
        s.pend = P_NONE
        s.pu = s.pt = s.psq = s.paux = s.pflags = 0
    elif s.pend == P_NONE and s.phase != PH_ADVANCE and s.phase != PH_DRAW:
        s.pu = s.pt = s.psq = s.paux = s.pflags = 0


cdef void st_apply(void *state, ard_action a) noexcept nogil:
    cdef StState *s = <StState *>state
    cdef int p = s.card // 4, i, t, m
    if s.phase == PH_OVER:
        return
    if s.phase == PH_DRAW or s.pend != P_NONE:
        apply_chance(s, a)
        return
    if s.phase == PH_ADVANCE:
        if a == A_ADVANCE:
            s.u[s.pu].sq = s.psq
            s.u[s.pu].st |= ST_SPOTTED
            update_spotting(s)
        s.phase = PH_ASSAULT
        s.pu = s.psq = 0
        return
    if a == A_DONE:
        end_phase(s)
    elif a == A_RALLY:
        rally_from(s, 0)
    elif a < A_FIRE:
        start_move(s, p * UPS + (a - A_MOVE) // NSQ, (a - A_MOVE) % NSQ)
        if s.pend == P_NONE:
            s.pu = s.psq = s.paux = s.pflags = 0
    elif a < A_ASSAULT:
        i = p * UPS + (a - A_FIRE) // UPS
        t = (1 - p) * UPS + (a - A_FIRE) % UPS
        s.pu = i
        s.pt = t
        s.pflags = 0
        if utype(s, i).tank:
            if tank_weapon(s, i, t) == 1:
                s.u[i].tk |= TK_MAIN_FIRED
            else:
                s.u[i].tk |= TK_SEC_FIRED
                s.pflags = PF_SECONDARY
        s.u[i].st |= ST_FIRED | ST_ACTED | ST_SPOTTED
        s.pend = P_FIRE
    elif a < A_BARRAGE:
        i = p * UPS + (a - A_ASSAULT) // UPS
        t = (1 - p) * UPS + (a - A_ASSAULT) % UPS
        s.u[i].st |= ST_ACTED
        s.pu = i
        s.pt = t
        s.pend = P_ASSAULT
    elif a < A_CAS:
        m = stock_marker(s, p, MK_BARRAGE_STOCK)
        s.mk[m][0] = MK_BARRAGE if a < A_GAS else MK_GAS
        s.mk[m][1] = (a - A_BARRAGE) % NSQ
    elif a < A_RALLY:
        m = stock_marker(s, p, MK_CAS_STOCK)
        s.mk[m][0] = MK_CAS
        s.mk[m][1] = a - A_CAS


cdef void st_returns(const void *state, double *out) noexcept nogil:
    cdef const StState *s = <const StState *>state
    out[0] = 0.0
    out[1] = 0.0
    if s.phase == PH_OVER and (s.winner == 0 or s.winner == 1):
        out[s.winner] = 1.0
        out[1 - s.winner] = -1.0


# ----------------------------------------------------------------- evaluate
include "_eval.pxi"


cdef uint64_t st_hash(const void *state) noexcept nogil:
    return ard_hash_bytes(state, sizeof(StState))


# ----------------------------------------------------------------- views (no hidden information)
cdef void st_observe(const void *state, int player, void *out_view) noexcept nogil:
    if out_view != state:
        memcpy(out_view, state, sizeof(StState))
    (<StState *>out_view).viewer = player


cdef void st_determinize(void *view, int player, ard_rng *rng) noexcept nogil:
    (<StState *>view).viewer = -1


cdef int st_viewer(const void *state) noexcept nogil:
    return (<const StState *>state).viewer


cdef int st_action_visible(const void *state, ard_action action, int player) noexcept nogil:
    return 1


# ----------------------------------------------------------------- notation
cdef const char *OUTCOME_NAMES[23]
_outcomes = [b"card:Gm", b"card:Gf", b"card:Ga", b"card:Gr", b"card:Bm", b"card:Bf", b"card:Ba",
             b"card:Br", b"pass", b"fail", b"hit", b"miss", b"hit:main", b"hit:sec", b"hit:immob",
             b"hit:kill", b"win", b"loss", b"tie", b"arrive", b"wait", b"fighter", b"bomber"]
for _k in range(23):
    OUTCOME_NAMES[_k] = _outcomes[_k]
cdef const char *WORD_NAMES[4]
_words = [b"rally", b"done", b"advance", b"stay"]
for _k in range(4):
    WORD_NAMES[_k] = _words[_k]


cdef int put_text(char *buf, int pos, const char *text) noexcept nogil:
    cdef int i = 0
    while text[i]:
        buf[pos] = text[i]
        pos += 1
        i += 1
    return pos


cdef int put_square(char *buf, int pos, int sq) noexcept nogil:
    cdef int row = sq // STRIDE + 1
    buf[pos] = c'a' + sq % STRIDE
    pos += 1
    if row >= 10:
        buf[pos] = c'1'
        pos += 1
    buf[pos] = c'0' + row % 10
    return pos + 1


cdef int put_unit(const StState *s, char *buf, int pos, int slot) noexcept nogil:
    """A unit is named by its square; an eliminated one as u<slot>."""
    if s != NULL and s.u[slot].sq != NOSQ:
        return put_square(buf, pos, s.u[slot].sq)
    buf[pos] = c'u'
    pos += 1
    if slot >= 10:
        buf[pos] = c'0' + slot // 10
        pos += 1
    buf[pos] = c'0' + slot % 10
    return pos + 1


cdef int st_action_to_string(const void *state, ard_action a, char *buf, int buflen) noexcept nogil:
    cdef const StState *s = <const StState *>state
    cdef char tmp[32]
    cdef int n = 0, p = s.card // 4 if s != NULL else 0, q = 1 - p, k
    if a == ARD_HIDDEN_OUTCOME:
        n = put_text(tmp, 0, b"?")
    elif a < 0 or a >= NUM_ACTIONS:
        return -1
    elif a < A_FIRE:
        n = put_unit(s, tmp, 0, p * UPS + (a - A_MOVE) // NSQ)
        tmp[n] = c'-'
        n = put_square(tmp, n + 1, (a - A_MOVE) % NSQ)
    elif a < A_BARRAGE:
        k = a - A_FIRE if a < A_ASSAULT else a - A_ASSAULT
        n = put_unit(s, tmp, 0, p * UPS + k // UPS)
        tmp[n] = c'x' if a < A_ASSAULT else c'@'
        n = put_unit(s, tmp, n + 1, q * UPS + k % UPS)
    elif a < A_RALLY:
        if a < A_GAS:
            n = put_text(tmp, 0, b"barrage ")
        elif a < A_CAS:
            n = put_text(tmp, 0, b"gas ")
        else:
            n = put_text(tmp, 0, b"cas ")
        n = put_square(tmp, n, (a - A_BARRAGE) % NSQ)
    elif a < A_CARD:
        n = put_text(tmp, 0, WORD_NAMES[a - A_RALLY])
    else:
        n = put_text(tmp, 0, OUTCOME_NAMES[a - A_CARD])
    if n >= buflen:
        return -1
    memcpy(buf, tmp, n)
    buf[n] = 0
    return n


cdef bint text_is(const char *t, int n, const char *word) noexcept nogil:
    cdef int i = 0
    while i < n and word[i] and t[i] == word[i]:
        i += 1
    return i == n and word[i] == 0


cdef int read_square(const char *t, int n, int *sq) noexcept nogil:
    """Reads a square like c3 or p12 at t; returns the characters used, 0 if none."""
    cdef int col, row, k = 1
    if n < 2 or t[0] < c'a' or t[0] > c'p' or t[1] < c'1' or t[1] > c'9':
        return 0
    col = t[0] - c'a'
    row = t[1] - c'0'
    if n >= 3 and c'0' <= t[2] <= c'9':
        row = row * 10 + t[2] - c'0'
        k = 2
    if row < 1 or row > 12:
        return 0
    sq[0] = (row - 1) * STRIDE + col
    return k + 1


cdef int read_unit(const StState *s, const char *t, int n, int side, int *slot) noexcept nogil:
    """Reads a unit of `side` (its square, or u<slot>); returns the characters used, 0 if none."""
    cdef int sq, k, i
    if n >= 2 and t[0] == c'u' and c'0' <= t[1] <= c'9':
        i = t[1] - c'0'
        k = 2
        if n >= 3 and c'0' <= t[2] <= c'9':
            i = i * 10 + t[2] - c'0'
            k = 3
        if i // UPS != side:
            return 0
        slot[0] = i
        return k
    k = read_square(t, n, &sq)
    if k == 0 or s == NULL:
        return 0
    for i in range(side * UPS, side * UPS + UPS):
        if s.u[i].sq == sq:
            slot[0] = i
            return k
    return 0


cdef int read_chance_alias(const StState *s, const char *q, int n) noexcept nogil:
    """The contract's chance names read where the engine writes others
    (RULES.md, Notation; read only, never written): `pass` / `fail` at an
    arrival test, and `d6=<k>` at an arrival test (5-6 arrive), an aircraft
    roll (1-3 fighter, 4-6 bomber) and a penetration of an undamaged tank
    (the anti-tank table, +bonus for the Schneider CA.1). Returns the action,
    -1 for a `d<n>=<k>` that names no outcome here (another die, k outside
    1..6, or a node with no such roll), -2 for text that is no alias."""
    cdef int die = 0, k = 0, i = 1, t
    if s != NULL and s.pend == P_ARRIVE:
        if text_is(q, n, b"pass"):
            return A_ARRIVE
        if text_is(q, n, b"fail"):
            return A_WAIT
    if n < 4 or q[0] != c'd' or not (c'0' <= q[1] <= c'9'):
        return -2
    while i < n and c'0' <= q[i] <= c'9' and i < 4:
        die = die * 10 + q[i] - c'0'
        i += 1
    if i >= n or q[i] != c'=' or i + 1 >= n or n - i - 1 > 2:
        return -2
    i += 1
    while i < n:
        if not (c'0' <= q[i] <= c'9'):
            return -2
        k = k * 10 + q[i] - c'0'
        i += 1
    if die != 6 or k < 1 or k > 6 or s == NULL or s.phase == PH_OVER:
        return -1
    if s.pend == P_ARRIVE:
        return A_ARRIVE if k >= 5 else A_WAIT
    if s.pend == P_AIRCRAFT:
        return A_FIGHTER if k <= 3 else A_BOMBER
    if s.pend == P_FIRE or s.pend == P_BLAST:
        t = s.pt
        if s.u[t].sq != NOSQ and UT[s.u[t].type].tank and not (s.u[t].tk & TK_DAMAGED):
            return table_outcome(k + UT[s.u[t].type].bonus)
    return -1


cdef ard_action st_string_to_action(const void *state, const char *text) noexcept nogil:
    cdef const StState *s = <const StState *>state
    cdef int start = 0, n = 0, k, u, t, sq, p = s.card // 4 if s != NULL else 0
    cdef const char *q
    while text[start] == c' ' or text[start] == c'\t':
        start += 1
    q = text + start
    while q[n]:
        n += 1
    while n > 0 and (q[n - 1] == c' ' or q[n - 1] == c'\t' or q[n - 1] == c'\n' or q[n - 1] == c'\r'):
        n -= 1
    if n == 0:
        return -1
    k = read_chance_alias(s, q, n)
    if k != -2:
        return k
    for k in range(23):
        if text_is(q, n, OUTCOME_NAMES[k]):
            return A_CARD + k
    for k in range(4):
        if text_is(q, n, WORD_NAMES[k]):
            return A_RALLY + k
    # markers: "barrage e7" (the contract's notation), or "barrage:e7" (written so until session 27)
    if n > 8 and text_is(q, 7, b"barrage") and (q[7] == c':' or q[7] == c' ') \
            and read_square(q + 8, n - 8, &sq) == n - 8:
        return A_BARRAGE + sq
    if n > 4 and text_is(q, 3, b"gas") and (q[3] == c':' or q[3] == c' ') \
            and read_square(q + 4, n - 4, &sq) == n - 4:
        return A_GAS + sq
    if n > 4 and text_is(q, 3, b"cas") and (q[3] == c':' or q[3] == c' ') \
            and read_square(q + 4, n - 4, &sq) == n - 4:
        return A_CAS + sq
    k = read_unit(s, q, n, p, &u)
    if k == 0 or k >= n:
        return -1
    if q[k] == c'-':
        if read_square(q + k + 1, n - k - 1, &sq) != n - k - 1:
            return -1
        return A_MOVE + (u - p * UPS) * NSQ + sq
    if q[k] == c'x' or q[k] == c'@':
        if read_unit(s, q + k + 1, n - k - 1, 1 - p, &t) != n - k - 1:
            return -1
        return (A_FIRE if q[k] == c'x' else A_ASSAULT) + (u - p * UPS) * UPS + (t - (1 - p) * UPS)
    return -1


# ----------------------------------------------------------------- validation
cdef inline int fail(char *msg, int msglen, const char *text) noexcept nogil:
    return ard_fail(msg, msglen, text)  # game.h


cdef inline bint on_board(const Scn *sc, int sq) noexcept nogil:
    return sq < NSQ and sq % STRIDE < sc.width and sq // STRIDE < sc.height


cdef int st_validate(const void *state, char *msg, int msglen) noexcept nogil:
    cdef const StState *s = <const StState *>state
    cdef const Scn *sc
    cdef const UType *ut
    cdef int p, i, k, m, kind, base, bits
    cdef uint8_t seen[192]
    if s.scenario >= NSCN:
        return fail(msg, msglen, b"scenario index is not a loaded scenario")
    sc = &SC[s.scenario]
    if s.turns < 1 or s.turns > 30:
        return fail(msg, msglen, b"turns is outside 1..30")
    if s.viewer < -1 or s.viewer > 1:
        return fail(msg, msglen, b"viewer is not -1, 0 or 1")
    if s.phase > PH_OVER:
        return fail(msg, msglen, b"phase is out of range")
    if s.turn < 1 or s.turn > s.turns:
        return fail(msg, msglen, b"turn is outside 1..turns")
    if s.reserved[0] or s.reserved[1]:
        return fail(msg, msglen, b"reserved bytes are not zero")
    if (s.winner != WIN_NONE) != (s.phase == PH_OVER) or s.winner < -1 or s.winner > 1:
        return fail(msg, msglen, b"winner does not match the phase")
    if s.card > 7:
        return fail(msg, msglen, b"card is outside 0..7")
    if PH_MOVE <= s.phase <= PH_ADVANCE:
        if not (s.drawn >> s.card) & 1:
            return fail(msg, msglen, b"the card in play has not been drawn")
        if (s.phase == PH_ADVANCE and s.card % 4 != 2) or (s.phase != PH_ADVANCE and s.phase != PH_MOVE + s.card % 4):
            return fail(msg, msglen, b"phase does not match the card in play")
    elif s.phase == PH_DRAW and s.card != 0:
        return fail(msg, msglen, b"a card in play outside a phase")
    if s.phase == PH_DRAW and s.drawn == 0xFF:
        return fail(msg, msglen, b"all cards drawn but the turn has not ended")
    # units
    memset(seen, 0, sizeof(seen))
    for p in range(2):
        for k in range(UPS):
            i = p * UPS + k
            if k >= sc.nunits[p]:
                if s.u[i].type != NOTYPE or s.u[i].sq != NOSQ or s.u[i].st or s.u[i].tk:
                    return fail(msg, msglen, b"an empty unit slot is not cleared")
                continue
            if s.u[i].type != sc.utype[p][k]:
                return fail(msg, msglen, b"a unit type differs from the scenario")
            ut = &UT[s.u[i].type]
            if s.u[i].sq == NOSQ:
                if s.u[i].st or s.u[i].tk:
                    return fail(msg, msglen, b"an eliminated unit has flags set")
                continue
            if not on_board(sc, s.u[i].sq):
                return fail(msg, msglen, b"a unit stands off the table")
            if seen[s.u[i].sq]:
                return fail(msg, msglen, b"two units on one square")
            seen[s.u[i].sq] = 1
            if (s.u[i].st & ST_STATUS) == 3 or s.u[i].st & 128:
                return fail(msg, msglen, b"a unit status is not normal, pinned or suppressed")
            if not ut.tank and s.u[i].tk:
                return fail(msg, msglen, b"tank flags on a unit that is not a tank")
            if not may_enter(sc, ut, s.u[i].sq) and not (
                    sc.terrain[s.u[i].sq] == T_TRENCH and not ut.foot):
                return fail(msg, msglen, b"a non-foot unit in buildings, marsh or a bunker")
            if (s.u[i].st & ST_STUCK) and (ut.foot or sc.terrain[s.u[i].sq] != T_TRENCH):
                return fail(msg, msglen, b"a unit stuck outside a trench or a foot unit stuck")
            if ut.tank and (s.u[i].tk & (TK_MAIN_OUT | TK_SEC_OUT | TK_IMMOB)) and not (s.u[i].tk & TK_DAMAGED):
                return fail(msg, msglen, b"a tank with damage but no hit taken")
        if p == sc.attacker and alive_count(s, p) == 0 and s.phase != PH_OVER:
            return fail(msg, msglen, b"the attacker has no units but the game goes on")
    # markers
    for m in range(8):
        kind = mk_kind(s, m)
        base = sc.mkind[m // MPS][m % MPS]
        if kind > MK_BOMBER:
            return fail(msg, msglen, b"marker kind is out of range")
        if kind == MK_NONE:
            if s.mk[m][0] or s.mk[m][1] != NOSQ:
                return fail(msg, msglen, b"a spent marker is not cleared")
            continue
        if base == MK_NONE:
            return fail(msg, msglen, b"a marker the scenario does not give")
        if (base == MK_BARRAGE_STOCK) != (kind in (MK_BARRAGE_STOCK, MK_BARRAGE, MK_GAS)):
            return fail(msg, msglen, b"a marker changed between barrage and CAS")
        if kind <= MK_CAS_STOCK:
            if s.mk[m][0] & MK_ARMED or s.mk[m][1] != NOSQ:
                return fail(msg, msglen, b"a marker in stock is placed or armed")
        elif not on_board(sc, s.mk[m][1]):
            return fail(msg, msglen, b"a placed marker is off the table")
        if kind >= MK_FIGHTER and not ((s.pend == P_BLAST or s.pend == P_AIRCRAFT) and s.paux == m):
            return fail(msg, msglen, b"an aircraft outside its attack")
        if kind >= MK_BARRAGE and s.mk[m][0] & MK_ARMED and kind >= MK_FIGHTER:
            return fail(msg, msglen, b"an arrived marker still armed")
    # the pending chance node
    p = s.card // 4
    if s.pend > P_LAST:
        return fail(msg, msglen, b"pending chance kind is out of range")
    if s.pend == P_NONE and s.phase != PH_ADVANCE and (s.pu or s.pt or s.psq or s.paux or s.pflags):
        return fail(msg, msglen, b"pending fields set without a pending chance node")
    if s.pend != P_NONE and not (PH_MOVE <= s.phase <= PH_RALLY):
        return fail(msg, msglen, b"a pending chance node outside a phase")
    if s.pu >= NUNITS or s.pt >= NUNITS:
        return fail(msg, msglen, b"pending unit slot out of range")
    if s.phase == PH_ADVANCE:
        if s.pend != P_NONE or side_of(s.pu) != p or s.u[s.pu].sq == NOSQ or not on_board(sc, s.psq) \
                or seen[s.psq] or s.pt or s.paux or s.pflags:
            return fail(msg, msglen, b"advance after an assault without a living winner and a free square")
    k = s.pend
    if k == P_HQTEST or k == P_CROSS or k == P_ADJ_MOVER or k == P_ADJ_ENEMY:
        if s.phase != PH_MOVE or side_of(s.pu) != p or s.u[s.pu].sq == NOSQ or not on_board(sc, s.psq):
            return fail(msg, msglen, b"a pending move test without a living mover")
        if k == P_HQTEST and not (s.pflags & PF_HQ):
            return fail(msg, msglen, b"a pending HQ test without its flag")
        if k == P_CROSS and (s.pflags & PF_HQ or not s.pflags & PF_CROSS):
            return fail(msg, msglen, b"a pending crossing test with wrong flags")
        if (k == P_HQTEST or k == P_CROSS) and (seen[s.psq] or (s.pflags & PF_TRENCH and (
                not on_board(sc, s.paux) or sc.terrain[s.paux] != T_TRENCH or seen[s.paux]))):
            return fail(msg, msglen, b"a pending move to an occupied square or without a free trench square")
        if k == P_ADJ_MOVER and (s.u[s.pu].sq != s.psq or next_adjacent_enemy(s, s.pu, s.psq, 0) < 0):
            return fail(msg, msglen, b"a pending test for moving next to the enemy with the mover off its "
                                     b"arrival square or no enemy adjacent")
        # the enemy units next to the arrival square (psq) test, the mover on it or fallen back from it
        if k == P_ADJ_ENEMY and (side_of(s.pt) == p or s.u[s.pt].sq == NOSQ
                                 or cheb(s.u[s.pt].sq, s.psq) != 1 or cheb(s.u[s.pu].sq, s.psq) > 1):
            return fail(msg, msglen, b"a pending enemy test without a living enemy next to the arrival square")
    elif k == P_FIRE or k == P_ASSAULT:
        if s.phase != (PH_FIRE if k == P_FIRE else PH_ASSAULT) or side_of(s.pu) != p or side_of(s.pt) == p \
                or s.u[s.pu].sq == NOSQ or s.u[s.pt].sq == NOSQ:
            return fail(msg, msglen, b"a pending attack without a living attacker and target")
        if k == P_FIRE and fire_die(s, s.pu, s.pt, s.pflags & PF_SECONDARY) == 0:
            return fail(msg, msglen, b"a pending fire with a weapon the unit lacks")
    elif k == P_ARRIVE or k == P_AIRCRAFT or k == P_BLAST:
        if s.phase != PH_FIRE or s.paux >= 8 or s.paux // MPS != p or mk_kind(s, s.paux) < MK_BARRAGE:
            return fail(msg, msglen, b"a pending barrage without a placed marker")
        if k == P_BLAST and (s.u[s.pt].sq == NOSQ or mk_kind(s, s.paux) == MK_CAS):
            return fail(msg, msglen, b"a pending barrage attack without a target")
        if k == P_AIRCRAFT and mk_kind(s, s.paux) != MK_CAS:
            return fail(msg, msglen, b"an aircraft roll for a marker that is not CAS")
    elif k == P_RALLY:
        if s.phase != PH_RALLY or side_of(s.pt) != p or s.u[s.pt].sq == NOSQ or not (s.u[s.pt].st & ST_STATUS):
            return fail(msg, msglen, b"a pending rally test without a pinned or suppressed unit")
    if msg != NULL and msglen > 0:
        msg[0] = 0
    return 0


# ----------------------------------------------------------------- the vtable
cdef ard_game ST_GAME
ST_GAME.name = "stosstruppen"
ST_GAME.abi_version = ARD_ABI_VERSION
ST_GAME.flags = ARD_FLAG_CHANCE
ST_GAME.state_size = sizeof(StState)
ST_GAME.params_size = sizeof(StParams)
ST_GAME.num_actions = NUM_ACTIONS
ST_GAME.max_legal = MAX_LEGAL
ST_GAME.max_game_length = MAX_GAME_LENGTH
ST_GAME.init = st_init
ST_GAME.validate = st_validate
ST_GAME.current_player = st_current_player
ST_GAME.legal_actions = st_legal_actions
ST_GAME.apply = st_apply
ST_GAME.chance_outcomes = st_chance_outcomes
ST_GAME.sample_chance = st_sample_chance
ST_GAME.returns = st_returns
ST_GAME.evaluate = st_evaluate
ST_GAME.hash = st_hash
ST_GAME.observe = st_observe
ST_GAME.determinize = st_determinize
ST_GAME.viewer = st_viewer
ST_GAME.action_visible = st_action_visible
ST_GAME.action_to_string = st_action_to_string
ST_GAME.string_to_action = st_string_to_action
ST_GAME.num_features = NFEAT
ST_GAME.feature_names = FEATURE_NAMES
ST_GAME.features = st_features
ST_GAME.weights = EVAL_W

STATE_SIZE = sizeof(StState)
PARAMS_SIZE = sizeof(StParams)
NUM_ACTIONS_PY = NUM_ACTIONS

cdef const char *CAPSULE_NAME = b"ardsearch.game"


def capsule():
    """The vtable as a PyCapsule named "ardsearch.game"."""
    return PyCapsule_New(&ST_GAME, CAPSULE_NAME, NULL)
