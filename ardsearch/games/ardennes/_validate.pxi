# Included by _engine.pyx: validate: a state checked field by field, so that
# deserializing garbage is refused, never played.

# ----------------------------------------------------------------- validation
cdef inline int fail(char *msg, int msglen, const char *text) noexcept nogil:
    return ard_fail(msg, msglen, text)  # game.h


cdef int ard_validate(const void *state, char *msg, int msglen) noexcept nogil:
    cdef const ArdState *s = <const ArdState *>state
    cdef int p, r, i, t, ln, specials, decided, on_board
    cdef int board[2][9]
    if s.variant > 1:
        return fail(msg, msglen, b"variant is not 0 (standard) or 1 (basic)")
    if s.road_length < MIN_L or s.road_length > MAX_L:
        return fail(msg, msglen, b"road_length is outside 8..24")
    if s.max_rounds < 1 or s.max_rounds > 1000:
        return fail(msg, msglen, b"max_rounds is outside 1..1000")
    if s.first_rule > 2:
        return fail(msg, msglen, b"first rule is not random, allies or germans")
    if s.viewer < -1 or s.viewer > 1:
        return fail(msg, msglen, b"viewer is not -1, 0 or 1")
    if s.phase > PH_OVER:
        return fail(msg, msglen, b"phase is out of range")
    if s.reserved != 0:
        return fail(msg, msglen, b"reserved byte is not zero")
    if s.starter > 1 or s.to_move > 1:
        return fail(msg, msglen, b"starter or player to move is not 0 or 1")
    if s.ap > START_AP:
        return fail(msg, msglen, b"action points exceed 4")
    if s.round < 1 or s.round > s.max_rounds:
        return fail(msg, msglen, b"round is outside 1..max_rounds")
    if s.winner < -1 or s.winner > 2 or (s.winner == WIN_NONE) != (s.phase != PH_OVER):
        return fail(msg, msglen, b"winner does not match the phase")
    if s.first_rule != 0 and s.phase != PH_COIN and s.starter != s.first_rule - 1:
        return fail(msg, msglen, b"starting player contradicts the first parameter")
    if s.phase == PH_COIN and (s.first_rule != 0 or s.starter != 0 or s.to_move != 0):
        return fail(msg, msglen, b"coin flip pending but the start is already decided")
    # objectives
    for p in range(2):
        if s.objective[p] > CARD_UNKNOWN:
            return fail(msg, msglen, b"objective card is outside 0..9")
        if s.objective[p] == CARD_UNKNOWN and (s.viewer < 0 or s.viewer == p):
            return fail(msg, msglen, b"unknown objective outside an opponent's view")
        if s.viewer >= 0 and s.viewer != p and 1 <= s.objective[p] <= NCARDS:
            return fail(msg, msglen, b"a view holds the opponent's objective card")
    if 1 <= s.objective[0] <= NCARDS and s.objective[0] == s.objective[1]:
        return fail(msg, msglen, b"both players hold the same objective card")
    for p in range(2):
        # drawn: starter's card from DRAW2 on, the other's from PLAY on
        if p == s.starter:
            decided = s.phase >= PH_DRAW2
        else:
            decided = s.phase >= PH_PLAY
        if s.phase == PH_COIN:
            decided = 0
        if decided != (s.objective[p] != 0):
            return fail(msg, msglen, b"objective cards drawn do not match the setup phase")
    if s.phase < PH_PLAY and (s.round != 1 or s.ap != START_AP or s.to_move != s.starter):
        return fail(msg, msglen, b"setup state with round, AP or player to move changed")
    # lines
    memset(board, 0, sizeof(board))
    for p in range(2):
        specials = 0
        if s.conquered[p] & 0x80:
            return fail(msg, msglen, b"conquered road mask has bit 8 set")
        for r in range(NROADS):
            if s.count[p][r] > MAXUNITS:
                return fail(msg, msglen, b"line holds more than 16 units")
            ln = 0
            for i in range(MAXUNITS):
                t = s.line[p][r][i]
                if i >= s.count[p][r]:
                    if t != 0:
                        return fail(msg, msglen, b"unused line slot is not zero")
                    continue
                if t >= NTYPES:
                    return fail(msg, msglen, b"unit code is not 0..8")
                ln += UNIT_LEN[t]
                board[p][t] += 1
                if t >= U_GENERAL:
                    specials += 1
            if ln != s.length[p][r]:
                return fail(msg, msglen, b"cached line length does not match its units")
            if ((s.conquered[p] >> r) & 1) != (ln == s.road_length):
                return fail(msg, msglen, b"conquered marker does not match a full line")
        if specials > 1:
            return fail(msg, msglen, b"more than one special unit of a player on the board")
        for t in range(NTYPES):
            if board[p][t] + s.stock[p][t] != full_stock(s, t):
                return fail(msg, msglen, b"units on board plus stock differ from the player's set")
    for r in range(NROADS):
        if s.length[0][r] + s.length[1][r] > s.road_length:
            return fail(msg, msglen, b"lines overlap or stick out past the end of a road")
    if s.phase < PH_PLAY:
        for p in range(2):
            for r in range(NROADS):
                if s.count[p][r]:
                    return fail(msg, msglen, b"units on the board during setup")
    if s.phase == PH_PLAY:
        for p in range(2):
            t = s.objective[p]
            if POPCOUNT[s.conquered[p]] >= 3 or (
                    1 <= t <= NCARDS and (s.conquered[p] & CARD_MASK[t]) == CARD_MASK[t]):
                return fail(msg, msglen, b"a player has already won but the game goes on")
        if s.ap == 0 and not any_attack(s, s.to_move):
            return fail(msg, msglen, b"no AP and no attack left but the turn has not ended")
    if msg != NULL and msglen > 0:
        msg[0] = 0
    return 0
