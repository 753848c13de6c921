# Included by _engine.pyx: the vtable's init and validate (a state checked field by field, so
# that deserializing garbage is refused, never played).

# ----------------------------------------------------------------- vtable: init, validate
cdef void und_init(void *state, const void *params, uint64_t seed) noexcept nogil:
    cdef UState *s = <UState *>state
    memcpy(s, params, sizeof(UState))
    s.viewer = -1
    s.round = 0
    start_round(s)


cdef inline int fail(char *msg, int msglen, const char *text) noexcept nogil:
    return ard_fail(msg, msglen, text)  # game.h


cdef inline bint bid_in_hand(const UState *s, int a) noexcept nogil:
    """The first bid, chosen and not yet revealed: the public still counts its
    card as one of the hand's."""
    return a == s.initiative and (s.phase == PH_BID2 or s.phase == PH_REVEAL) and s.army[a].bid < NCARD


cdef int rec_check(const UState *s, int a, char *msg, int msglen) noexcept nogil:
    """The public record of a's hand: well formed and agreeing with the hand."""
    cdef const Army *ar = &s.army[a]
    cdef int k, c, drawn = 0, lo_sum, h, hidden = 0
    if ar.kblocks > MAXB or ar.kdirty > 1 or (ar.kblocks == 0 and ar.kdirty):
        return fail(msg, msglen, "hand record: kblocks must be 0..6 and kdirty 0/1 (0 when empty)")
    for k in range(MAXB):
        if ar.kpin[k] >> NCARD:
            return fail(msg, msglen, "hand record: pin bits beyond the 15 cards")
        lo_sum = 0
        for c in range(NCARD):
            lo_sum += ar.klo[k * NCARD + c]
            if k >= ar.kblocks and ar.klo[k * NCARD + c]:
                return fail(msg, msglen, "hand record: unused blocks must be zero")
            if 0 < k < ar.kblocks and ar.klo[k * NCARD + c] < ar.klo[(k - 1) * NCARD + c]:
                return fail(msg, msglen, "hand record: lower bounds must not decrease from block to block")
        if k >= ar.kblocks:
            if ar.kdraws[k] or ar.kpin[k]:
                return fail(msg, msglen, "hand record: unused blocks must be zero")
            continue
        if ar.kdraws[k] < 1:
            return fail(msg, msglen, "hand record: every block holds at least one draw")
        drawn += ar.kdraws[k]
        if lo_sum > drawn:
            return fail(msg, msglen, "hand record: more cards gone openly than drawn")
    if rec_table(ar) > TMAX:
        return fail(msg, msglen, "hand record: blocks too large (product of draws+1 above 128)")
    if ar.kblocks and rec_unknown(ar) < 1:
        return fail(msg, msglen, "hand record: blocks kept with no hidden card in hand")
    for c in range(NCARD):
        h = ar.hand[c] + (1 if bid_in_hand(s, a) and ar.bid == c else 0)
        if s.viewer == 1 - a:
            if ar.hand[c] != ar.known[c]:
                return fail(msg, msglen, "a view shows exactly the known cards of the opponent's hand")
        elif ar.known[c] > h:
            return fail(msg, msglen, "known cards must be in the hand")
        else:
            hidden += h - ar.known[c]
    if s.viewer == 1 - a:
        hidden = ar.unknown_hand
    if hidden != rec_unknown(ar):
        return fail(msg, msglen, "hand record: its hidden draws must be the hand's cards not known")
    return 0


cdef int und_validate(const void *state, char *msg, int msglen) noexcept nogil:
    cdef const UState *s = <const UState *>state
    cdef const Army *ar
    cdef int t, u, a, c, n, o
    cdef uint32_t inside
    if msg != NULL and msglen > 0:
        msg[0] = 0
    if s.ntiles < 1 or s.ntiles > MAXT:
        return fail(msg, msglen, "ntiles must be 1..32")
    inside = 0xFFFFFFFFu if s.ntiles == 32 else (1u << s.ntiles) - 1
    for t in range(MAXT):
        if t >= s.ntiles:
            if s.tile_name[t] or s.cover[t] or s.objective[t] or s.adj[t]:
                return fail(msg, msglen, "unused tile slots must be zero")
            continue
        if s.tile_name[t] < 2 or s.tile_name[t] > 37:
            return fail(msg, msglen, "tile names must be 1A..18B")
        for u in range(t):
            if s.tile_name[u] == s.tile_name[t]:
                return fail(msg, msglen, "a tile appears twice")
        if s.cover[t] > HILL or s.objective[t] > 9:
            return fail(msg, msglen, "tile cover must be 0..4 (4 hill) and objectives 0..9")
        if s.adj[t] & ~inside or (s.adj[t] >> t) & 1 or popcount32(s.adj[t]) > MAXDEG:
            return fail(msg, msglen, "adjacency must name board tiles, not the tile itself, at most 8")
        for u in range(s.ntiles):
            if ((s.adj[t] >> u) & 1) != ((s.adj[u] >> t) & 1):
                return fail(msg, msglen, "adjacency must be symmetric")
    if s.max_rounds < 1 or s.max_rounds > 100:
        return fail(msg, msglen, "max_rounds must be 1..100")
    if s.viewer < -1 or s.viewer > 1:
        return fail(msg, msglen, "viewer must be -1, 0 or 1")
    if s.phase > PH_OVER or s.to_move > 1 or s.initiative > 1 or s.turn_index > 1:
        return fail(msg, msglen, "phase, to_move, initiative or turn_index out of range")
    if s.turn_plays > MAX_PLAYS:
        return fail(msg, msglen, "turn_plays must be 0..60")
    if s.round < 1 or s.round > s.max_rounds:
        return fail(msg, msglen, "round must be 1..max_rounds")
    for a in range(2):
        ar = &s.army[a]
        for c in range(NCARD):                      # cards are conserved: bound each type's total
            if (ar.deck[c] + ar.hand[c] + ar.discard[c] + ar.play[c] + ar.supply[c] + ar.removed[c]
                    + (ar.bid == c)) > MAXCOUNT:
                return fail(msg, msglen, "more than 60 cards of one type in an army")
        for u in range(NUNIT):
            if ar.token[u] != OFF and ar.token[u] >= s.ntiles:
                return fail(msg, msglen, "a token is on no board tile")
            if (ar.suppressed >> u) & 1 and ar.token[u] == OFF:
                return fail(msg, msglen, "a token off the board cannot be suppressed")
        if ar.suppressed >> NUNIT:
            return fail(msg, msglen, "suppressed bits beyond the 9 units")
        if (ar.scouted | ar.controlled) & ~inside or ar.scouted & ar.controlled:
            return fail(msg, msglen, "markers must be on board tiles, scouted or controlled")
        if ar.spawn >= s.ntiles:
            return fail(msg, msglen, "spawn tile off the board")
        if ar.target != OFF and (ar.target >= s.ntiles or ar.token[U_MORTAR] == OFF):
            return fail(msg, msglen, "a Target marker needs its Mortar on the board")
        if ar.goal > G_IMMOBILIZE or (ar.goal == G_CAPTURE and ar.goal_points < 1):
            return fail(msg, msglen, "goal must be capture (points >= 1) or immobilize")
        if ar.unknown_hand and (s.viewer != 1 - a or ar.unknown_hand > zone_sum(ar.deck)):
            return fail(msg, msglen, "unknown cards in hand only in a view, for the opponent, within the pool")
        if rec_check(s, a, msg, msglen):
            return 1
        if ar.bid != NONE:
            if ar.bid == UNKNOWN:
                if s.viewer != 1 - a:
                    return fail(msg, msglen, "an unknown bid only in a view, for the opponent")
            elif ar.bid >= NCARD:
                return fail(msg, msglen, "bid must be a card")
            if not ((s.phase == PH_BID2 and a == s.initiative) or s.phase == PH_REVEAL):
                return fail(msg, msglen, "bids exist only while choosing initiative")
    if s.viewer == -1:
        pass
    elif s.army[s.viewer].unknown_hand or s.army[s.viewer].bid == UNKNOWN:
        return fail(msg, msglen, "a view knows its own hand")
    if s.phase == PH_OVER:
        if s.winner > 1 or s.end_reason < END_OBJECTIVES or s.end_reason > END_MAX_ROUNDS:
            return fail(msg, msglen, "a finished game needs a winner and an end reason")
        return 0
    if s.winner != NONE or s.end_reason != END_NONE:
        return fail(msg, msglen, "winner set before the end")
    if s.explode_queue and s.phase != PH_ROLL:
        return fail(msg, msglen, "explode queue outside a roll")
    if s.explode_queue >> (2 * NUNIT):
        return fail(msg, msglen, "explode queue beyond the 18 tokens")
    n = s.explode_queue
    while n:
        c = lowbit(n)
        if s.army[c // NUNIT].token[c % NUNIT] == OFF:
            return fail(msg, msglen, "explode queue names a token off the board")
        n &= n - 1
    if s.phase == PH_DEAL or s.phase == PH_CMD_DRAW:
        if s.draws_pending < 1 or s.draws_pending > 4 or deck_count(s, s.to_move) < 1:
            return fail(msg, msglen, "a draw needs 1..4 pending draws and a non-empty deck")
        if s.phase == PH_DEAL and s.turn_index != 0:
            return fail(msg, msglen, "round-start draws come before the turns")
    elif s.draws_pending:
        return fail(msg, msglen, "draws pending outside a draw")
    if s.phase == PH_BID1 or s.phase == PH_BID2:
        o = s.initiative if s.phase == PH_BID1 else 1 - s.initiative
        if s.to_move != o or hand_total(s, o) < 1:
            return fail(msg, msglen, "the bidder must be on move with a card in hand")
        if s.phase == PH_BID1 and (s.army[0].bid != NONE or s.army[1].bid != NONE):
            return fail(msg, msglen, "no bids before the first")
        if s.phase == PH_BID2 and s.army[o].bid != NONE:
            return fail(msg, msglen, "the second bidder has not chosen yet")
    if s.phase == PH_REVEAL:
        o = s.initiative
        if s.to_move != o or s.army[o].bid == NONE:
            return fail(msg, msglen, "a reveal needs the first bid")
        if s.army[o].bid == UNKNOWN and hand_total(s, o) < 1:
            return fail(msg, msglen, "an unknown bid needs a card in the hand")
    if s.phase == PH_ROLL:
        if (s.roll_army > 1 or s.roll_unit >= NUNIT or s.roll_kind > RK_SUPPRESS or s.roll_dice < 1
                or s.roll_dice > 4 or s.roll_defence < 1 or s.roll_defence > 60):
            return fail(msg, msglen, "roll fields out of range")
        if s.army[s.roll_army].token[s.roll_unit] == OFF:
            return fail(msg, msglen, "the attacked token is not on the board")
    elif s.roll_army or s.roll_unit or s.roll_kind or s.roll_dice or s.roll_defence:
        return fail(msg, msglen, "roll fields set outside a roll")
    if s.phase == PH_BOLSTER:
        if s.bolster_left < 1 or s.bolster_left > 3 or s.bolster_cg > 3 or s.bolster_min >= NCARD:
            return fail(msg, msglen, "bolster fields out of range")
    elif s.bolster_left or s.bolster_cg or s.bolster_min:
        return fail(msg, msglen, "bolster fields set outside a Bolster")
    if s.phase == PH_LEFTOVER and hand_total(s, s.to_move) < 1:
        return fail(msg, msglen, "a leftover reveal needs cards in hand")
    if s.phase == PH_TURN or s.phase == PH_BOLSTER or s.phase == PH_ROLL or s.phase == PH_CMD_DRAW \
            or s.phase == PH_LEFTOVER:
        if s.to_move != (s.initiative if s.turn_index == 0 else 1 - s.initiative):
            return fail(msg, msglen, "the player on turn must follow the initiative")
    return 0
