# Included by _engine.pyx: validate: a state checked field by field, so that
# deserializing garbage is refused, never played.

# -------------------------------------------------------------- validate ----
cdef inline int fail(char *msg, int msglen, const char *text) noexcept nogil:
    return ard_fail(msg, msglen, text)  # game.h

cdef int m_validate(const void *state, char *msg, int msglen) noexcept nogil:
    cdef const MState *s = <const MState *>state
    cdef int u, h, k, n, r, side, total, t
    cdef int count[2][NHEX]
    if s.viewer < -1 or s.viewer > 1:
        return fail(msg, msglen, "viewer must be -1, 0 or 1")
    if s.setup_free > 1 or s.strike_variant > 1:
        return fail(msg, msglen, "parameter bytes must be 0 or 1")
    if s.turn < 1 or s.turn > S_TURNS:
        return fail(msg, msglen, "turn out of range")
    if s.phase > PH_OVER:
        return fail(msg, msglen, "unknown phase")
    memset(count, 0, sizeof(count))
    n = 0
    for u in range(NU):
        h = s.loc[u]
        side = side_of(u)
        if on_map(h):
            if u != TIGER:
                count[side][h] += 1
            else:
                count[side][h] += 0
        elif h == LOC_EXITED:
            if side != 0:
                return fail(msg, msglen, "a US unit cannot exit")
            n += 1
        elif h != LOC_RESERVE and h != LOC_DEAD:
            return fail(msg, msglen, "unit location is not a hex, reserve, exited or eliminated")
        if (h == LOC_RESERVE or h == LOC_DEAD) and (s.reduced >> u) & 1:
            return fail(msg, msglen, "a unit in reserve or eliminated cannot be reduced")
        if side == 1 and h == LOC_RESERVE and not U_REINF[u] and s.phase != PH_SETUP:
            return fail(msg, msglen, "a non-reinforcement US unit is off the map after setup")
        if side == 1 and U_REINF[u] and on_map(h) and s.turn < S_REINF_TURN:
            return fail(msg, msglen, "a US reinforcement is on the map before its entry turn")
    if s.reduced >> NU:
        return fail(msg, msglen, "reduced bits beyond the last unit")
    for u in range(NU):
        h = s.loc[u]
        if on_map(h):
            if count[0][h] > 2 or count[1][h] > 2:
                return fail(msg, msglen, "more than 2 units in a hex")
            if enemy_in(s, side_of(u), h):
                return fail(msg, msglen, "German and US units share a hex")
    if n != s.exits:
        return fail(msg, msglen, "exits does not match the exited units")
    total = 0
    for k in range(NCLASS):
        if s.deck[k] > (1 if k == JOKER else 2):
            return fail(msg, msglen, "more cards of a class than the deck holds")
        total += s.deck[k]
    if s.drawn > 3 or s.air_used > 1 or s.card_fresh > 1 or s.active > 1:
        return fail(msg, msglen, "flag byte out of range")
    if s.interdict != NONE and (s.interdict >= NHEX or not s.air_used):
        return fail(msg, msglen, "interdiction without a valid hex or without the air marker used")
    if s.stack_mask >> NU:
        return fail(msg, msglen, "stack mask beyond the last unit")
    if s.phase == PH_OVER:
        if s.winner > 1:
            return fail(msg, msglen, "a finished game needs a winner")
        return 0
    if s.winner != NONE:
        return fail(msg, msglen, "winner set while the game is on")
    if s.phase == PH_SETUP:
        if not s.setup_free:
            return fail(msg, msglen, "setup phase with setup=historical")
        if s.turn != 1 or total != 53 or s.drawn:
            return fail(msg, msglen, "setup phase after play began")
        if s.reduced or s.air_used or s.exits:
            return fail(msg, msglen, "setup phase with a unit reduced, a unit exited or the air marker used")
        for u in range(NSIDE):
            if s.loc[u] != LOC_RESERVE:
                return fail(msg, msglen, "German units on the map during setup")
        k = 0
        for t in range(NSIDE):
            u = NSIDE + t
            if U_REINF[u]:
                if s.loc[u] != LOC_RESERVE:
                    return fail(msg, msglen, "a US reinforcement placed in the setup")
            elif s.loc[u] == LOC_RESERVE:
                k += 1
            elif not on_map(s.loc[u]) or hex_col(s.loc[u]) == S_FORBID:
                return fail(msg, msglen, "a placed US unit is not on an allowed hex (not the forbidden column)")
        if k == 0:
            return fail(msg, msglen, "setup phase with every US unit placed")
        if s.setup_left != k:
            return fail(msg, msglen, "setup_left does not match the US units still to place")
    elif s.setup_left != 0:
        return fail(msg, msglen, "setup_left must be 0 outside the setup phase")
    if s.phase == PH_DRAW or s.phase == PH_COMBAT:
        if total == 0:
            return fail(msg, msglen, "a card must be drawn but the deck is empty")
    if s.phase == PH_ACT or s.phase == PH_COMBAT or s.phase == PH_REDRAW:
        if s.card >= JOKER or (s.card & 1) != s.active or not ((s.drawn >> s.active) & 1):
            return fail(msg, msglen, "the current card does not match the acting side")
    elif s.card != NONE or s.acts_left or s.stack_mask or s.card_fresh:
        return fail(msg, msglen, "card fields set between cards")
    if s.phase == PH_ACT or s.phase == PH_COMBAT or s.phase == PH_REDRAW:
        r = card_rank(s.card)
        if r <= 10:
            if s.acts_left > (r + 1) // 2 or s.stack_mask:
                return fail(msg, msglen, "activations left exceed the card")
            if s.card_fresh and s.acts_left != (r + 1) // 2:
                return fail(msg, msglen, "a fresh card with activations spent")
            if s.phase == PH_ACT and s.acts_left == 0:
                return fail(msg, msglen, "acting on a used-up card")
        else:
            if s.acts_left:
                return fail(msg, msglen, "a face card has no counted activations")
            if s.card_fresh and s.stack_mask:
                return fail(msg, msglen, "a fresh face card has no stack yet")
            if s.phase == PH_ACT and not s.card_fresh and not s.stack_mask:
                return fail(msg, msglen, "acting on a used-up face card")
        for u in range(NU):
            if (s.stack_mask >> u) & 1 and (side_of(u) != s.active or not on_map(s.loc[u])):
                return fail(msg, msglen, "stack mask holds a unit that cannot act")
    if s.phase == PH_COMBAT or s.phase == PH_REDRAW:
        t = s.target
        if t >= NU or side_of(t) == s.active or not on_map(s.loc[t]):
            return fail(msg, msglen, "attack target is not an enemy unit on the map")
        if s.strike > ST_OBA:
            return fail(msg, msglen, "unknown strike kind")
        if s.strike == ST_GROUND:
            for k in range(2):
                u = s.firer[k]
                if u == NONE and k == 1:
                    continue
                if u >= NU or side_of(u) != s.active or not on_map(s.loc[u]):
                    return fail(msg, msglen, "firer is not an own unit on the map")
            if s.firer[0] == s.firer[1]:
                return fail(msg, msglen, "the same unit twice among the firers")
        elif s.active != 1 or not s.air_used or s.firer[0] != NONE or s.firer[1] != NONE:
            return fail(msg, msglen, "air/OBA strike fields inconsistent")
    elif s.firer[0] != NONE or s.firer[1] != NONE or s.target != NONE or s.strike:
        return fail(msg, msglen, "attack fields set with no attack pending")
    return 0
