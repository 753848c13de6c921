# Included by _engine.pyx: the round's flow: reshuffles, draws, initiative bids, turns, attack
# rolls and casualties.

# ----------------------------------------------------------------- round flow
cdef void reshuffle(UState *s, int a) noexcept nogil:
    """The deck is empty: the whole hand is known to everyone (it is the rest
    of the pool), then the discard pile becomes the deck."""
    cdef int c
    cdef Army *ar = &s.army[a]
    for c in range(NCARD):
        if s.viewer == 1 - a:                       # a view: the pool is the unknown hand
            ar.hand[c] += ar.deck[c]
            ar.deck[c] = 0
        ar.known[c] = ar.hand[c]
    ar.unknown_hand = 0
    rec_reset(ar)
    for c in range(NCARD):
        s.army[a].deck[c] += s.army[a].discard[c]
        s.army[a].discard[c] = 0


cdef void start_round(UState *s) noexcept nogil:
    s.round += 1
    s.turn_index = 0
    s.army[0].bid = NONE
    s.army[1].bid = NONE
    if s.round > s.max_rounds:
        s.round = s.max_rounds
        finish_on_points(s, END_MAX_ROUNDS)
        return
    s.phase = PH_DEAL
    s.to_move = 0
    s.draws_pending = 4
    advance_draws(s)


cdef void advance_draws(UState *s) noexcept nogil:
    """Settles the drawing phases: refills an empty deck from the discard
    pile, skips impossible draws, and moves on when the draws are done."""
    while True:
        if s.draws_pending > 0:
            if deck_count(s, s.to_move) == 0:
                reshuffle(s, s.to_move)
            if deck_count(s, s.to_move) > 0:
                return
            s.draws_pending = 0
        if s.phase == PH_DEAL and s.to_move == 0:
            s.to_move = 1
            s.draws_pending = 4
            continue
        if s.phase == PH_DEAL:
            start_bids(s)
        else:
            s.phase = PH_TURN
        return


cdef void start_bids(UState *s) noexcept nogil:
    s.phase = PH_BID1
    s.to_move = s.initiative
    if hand_total(s, s.to_move) == 0:
        s.army[s.to_move].bid = NONE
        second_bid(s)


cdef void second_bid(UState *s) noexcept nogil:
    s.phase = PH_BID2
    s.to_move = 1 - s.initiative
    if hand_total(s, s.to_move) == 0:
        s.army[s.to_move].bid = NONE
        after_bids(s)


cdef void after_bids(UState *s) noexcept nogil:
    if s.army[s.initiative].bid != NONE:
        s.phase = PH_REVEAL
        s.to_move = s.initiative
    else:
        resolve_bids(s)


cdef inline int bid_value(int b) noexcept nogil:
    return UND_INITIATIVE[b] if b < NCARD else 0


cdef void resolve_bids(UState *s) noexcept nogil:
    cdef int h = s.initiative, o = 1 - s.initiative, a
    if bid_value(s.army[o].bid) > bid_value(s.army[h].bid):
        s.initiative = o
    for a in range(2):
        if s.army[a].bid < NCARD:
            s.army[a].discard[s.army[a].bid] += 1
        s.army[a].bid = NONE
    s.turn_index = 0
    s.to_move = s.initiative
    s.phase = PH_TURN


cdef void finish_turn(UState *s) noexcept nogil:
    s.turn_plays = 0
    if s.turn_index == 0:
        s.turn_index = 1
        s.to_move = 1 - s.initiative
        s.phase = PH_TURN
    else:
        start_round(s)


cdef void start_roll(UState *s, int army, int unit, int kind, int dice, int defence) noexcept nogil:
    s.phase = PH_ROLL
    s.roll_army = army
    s.roll_unit = unit
    s.roll_kind = kind
    s.roll_dice = dice
    s.roll_defence = defence if defence < 60 else 60


cdef void next_explode(UState *s) noexcept nogil:
    """The next token the Explode attacks, or back to the turn."""
    cdef int b, a, u, t
    if s.explode_queue == 0:
        s.phase = PH_TURN
        return
    b = lowbit(s.explode_queue)
    s.explode_queue &= ~(1u << b)
    a = b // NUNIT
    u = b % NUNIT
    t = s.army[a].token[u]
    start_roll(s, a, u, RK_CASUALTY, UND_EXPLODE_DICE, UND_DEFENCE[u] + cover_against(s, t, t, True))


cdef void remove_token(UState *s, int a, int u) noexcept nogil:
    s.army[a].token[u] = OFF
    s.army[a].suppressed &= ~(1 << u)
    if u == U_MORTAR:
        s.army[a].target = OFF


cdef int casualty_zone(const UState *s, int a, int c) noexcept nogil:
    """Where a full state takes a casualty of card c from: 0 hand, 1 discard, 2 deck, 3 token."""
    if s.army[a].hand[c] > 0:
        return 0
    if s.army[a].discard[c] > 0:
        return 1
    if s.army[a].deck[c] > 0:
        return 2
    return 3
