# Included by _engine.pyx: the notation (RULES.md, Notation): action_to_string and
# string_to_action.

# ----------------------------------------------------------------- notation
cdef int tile_text(const UState *s, int t, char *buf, int buflen) noexcept nogil:
    if t >= s.ntiles:
        return snprintf(buf, buflen, "t%d", t)
    return snprintf(buf, buflen, "%d%c", s.tile_name[t] >> 1, 65 + (s.tile_name[t] & 1))


cdef int und_action_to_string(const void *state, ard_action x, char *buf, int buflen) noexcept nogil:
    cdef const UState *s = <const UState *>state
    cdef char t1[8]
    cdef char t2[8]
    cdef int c, u, k
    if x < 0 or x >= NUM_ACTIONS:
        return -1
    if x < A_REVEAL:
        return snprintf(buf, buflen, "draw:%s", UND_CARD_NAMES[x])
    if x < A_MISS:
        return snprintf(buf, buflen, "reveal:%s", UND_CARD_NAMES[x - A_REVEAL])
    if x == A_MISS:
        return snprintf(buf, buflen, "miss")
    if x == A_HIT:
        return snprintf(buf, buflen, "hit")
    if x < A_BID:
        return snprintf(buf, buflen, "hit:%s", UND_ZONE[x - A_HIT_HAND])
    if x < A_END:
        return snprintf(buf, buflen, "bid:%s", UND_CARD_NAMES[x - A_BID])
    if x == A_END:
        return snprintf(buf, buflen, "end")
    if x >= A_PICK and x < A_SCOUT:
        if x == A_PICK_STOP:
            return snprintf(buf, buflen, "bolster:stop")
        return snprintf(buf, buflen, "bolster:%s", UND_CARD_NAMES[x - A_PICK])
    c = card_of_action(x)
    if x < A_RALLY:
        return snprintf(buf, buflen, "%s:shelter", UND_CARD_NAMES[c])
    if x < A_MOVE:
        return snprintf(buf, buflen, "%s:rally", UND_CARD_NAMES[c])
    if x < A_ADVANCE:
        tile_text(s, (x - A_MOVE) % MAXT, t1, 8)
        return snprintf(buf, buflen, "%s:%s:%s", UND_CARD_NAMES[c],
                        "sneak" if c == C_SNIPER else "move", t1)
    if x < A_ATTACK:
        tile_text(s, (x - A_ADVANCE) % MAXT, t1, 8)
        return snprintf(buf, buflen, "guide:advance:%s,%s",
                        UND_CARD_NAMES[(x - A_ADVANCE) // MAXT + 1], t1)
    if x < A_SUPPRESS:
        return snprintf(buf, buflen, "%s:attack:%s", UND_CARD_NAMES[c],
                        UND_CARD_NAMES[(x - A_ATTACK) % NUNIT + 1])
    if x < A_EXPLODE:
        return snprintf(buf, buflen, "mg:suppress:%s", UND_CARD_NAMES[x - A_SUPPRESS + 1])
    if x == A_EXPLODE:
        return snprintf(buf, buflen, "mortar:explode")
    if x < A_CONTROL:
        tile_text(s, x - A_AIM, t1, 8)
        return snprintf(buf, buflen, "mortar:aim:%s", t1)
    if x < A_CONCEAL:
        return snprintf(buf, buflen, "%s:control", UND_CARD_NAMES[c])
    if x < A_RECON:
        return snprintf(buf, buflen, "%s:conceal", UND_CARD_NAMES[c])
    if x < A_COMMAND:
        return snprintf(buf, buflen, "%s:recon", UND_CARD_NAMES[c])
    if x < A_INSPIRE:
        return snprintf(buf, buflen, "psgt:command:%d", x - A_COMMAND + 1)
    if x < A_BOLSTER:
        return snprintf(buf, buflen, "%s:inspire:%s", UND_CARD_NAMES[c],
                        UND_CARD_NAMES[(x - A_INSPIRE) % NCARD])
    if x < A_PICK:
        return snprintf(buf, buflen, "%s:bolster", UND_CARD_NAMES[c])
    k = (x - A_SCOUT) % 1056
    tile_text(s, k // 33, t1, 8)
    if k % 33 == STOP:
        return snprintf(buf, buflen, "%s:scout:%s", UND_CARD_NAMES[c], t1)
    tile_text(s, k % 33, t2, 8)
    return snprintf(buf, buflen, "%s:scout:%s,%s", UND_CARD_NAMES[c], t1, t2)


cdef int parse_tile(const UState *s, const char *p, int n) noexcept nogil:
    cdef int num = 0, i, side, t
    if n < 2 or n > 3:
        return -1
    for i in range(n - 1):
        if p[i] < 48 or p[i] > 57:
            return -1
        num = num * 10 + p[i] - 48
    side = p[n - 1] - 65
    if side < 0 or side > 1:
        return -1
    for t in range(s.ntiles):
        if s.tile_name[t] == num * 2 + side:
            return t
    return -1


cdef bint field_is(const char *p, int n, const char *word) noexcept nogil:
    return <int>strlen(word) == n and strncmp(word, p, n) == 0


cdef int parse_card(const char *p, int n) noexcept nogil:
    cdef int c
    for c in range(NCARD):
        if <int>strlen(UND_CARD_NAMES[c]) == n and strncmp(UND_CARD_NAMES[c], p, n) == 0:
            return c
    if field_is(p, n, "mg_A"):       # the contract's spelling; written `mg` (no combat group)
        return C_MG
    return -1


cdef ard_action und_string_to_action(const void *state, const char *text) noexcept nogil:
    cdef const UState *s = <const UState *>state
    cdef const char *f[4]
    cdef int fl[4]
    cdef int nf = 0, i = 0, c, u, v, t, t2, comma, k
    cdef int length = <int>strlen(text)
    if length == 0 or length > 40:
        return -1
    f[0] = text
    while True:                                     # split on ':' into at most 4 fields
        if text[i] == 58 or text[i] == 0:
            fl[nf] = <int>(&text[i] - f[nf])
            nf += 1
            if text[i] == 0:
                break
            if nf == 4:
                return -1
            f[nf] = &text[i + 1]
        i += 1
    if nf == 1:
        if field_is(f[0], fl[0], "end"):
            return A_END
        if field_is(f[0], fl[0], "miss"):
            return A_MISS
        if field_is(f[0], fl[0], "hit"):            # a casualty hit: the zone this state implies
            if s.phase == PH_ROLL and s.roll_kind == RK_CASUALTY and s.army[s.roll_army].unknown_hand == 0:
                return A_HIT_HAND + casualty_zone(s, s.roll_army, s.roll_unit + 1)
            return A_HIT
        return -1
    if nf == 2:
        c = parse_card(f[1], fl[1])
        if field_is(f[0], fl[0], "draw") and c >= 0:
            return A_DRAW + c
        if field_is(f[0], fl[0], "reveal") and c >= 0:
            return A_REVEAL + c
        if field_is(f[0], fl[0], "bid") and c >= 0:
            return A_BID + c
        if field_is(f[0], fl[0], "hit"):
            for k in range(4):
                if field_is(f[1], fl[1], UND_ZONE[k]):
                    return A_HIT_HAND + k
            return -1
        if field_is(f[0], fl[0], "bolster"):
            if field_is(f[1], fl[1], "stop"):
                return A_PICK_STOP
            return A_PICK + c if c >= 0 else -1
        c = parse_card(f[0], fl[0])
        if c < 0:
            return -1
        if field_is(f[1], fl[1], "shelter"):
            return A_SHELTER + c if c != C_FOG else -1
        if field_is(f[1], fl[1], "rally"):
            return A_RALLY + c - 1 if 1 <= c <= NUNIT else -1
        if field_is(f[1], fl[1], "explode"):
            return A_EXPLODE if c == C_MORTAR else -1
        if field_is(f[1], fl[1], "control"):
            return A_CONTROL + c - C_RIF if C_RIF <= c < C_SCOUT else -1
        if field_is(f[1], fl[1], "conceal"):
            return A_CONCEAL + c - C_SCOUT if C_SCOUT <= c < C_SL else -1
        if field_is(f[1], fl[1], "recon") or field_is(f[1], fl[1], "reconnoitre"):   # fan name, rulebook name
            return A_RECON + c - C_SCOUT if C_SCOUT <= c < C_SL else -1
        if field_is(f[1], fl[1], "bolster"):
            for k in range(5):
                if UND_BOLSTER_CARD[k] == c:
                    return A_BOLSTER + k
        return -1
    if nf != 3:
        return -1
    c = parse_card(f[0], fl[0])
    if c < 0:
        return -1
    u = c - 1
    if field_is(f[1], fl[1], "move") or field_is(f[1], fl[1], "sneak"):
        t = parse_tile(s, f[2], fl[2])
        if t < 0 or not (c == C_MORTAR or c == C_MG or C_RIF <= c < C_SCOUT or c == C_SNIPER):
            return -1
        if (c == C_SNIPER) != field_is(f[1], fl[1], "sneak"):
            return -1
        return A_MOVE + u * MAXT + t
    if field_is(f[1], fl[1], "attack") or field_is(f[1], fl[1], "suppress"):
        v = parse_card(f[2], fl[2]) - 1
        if v < 0 or v >= NUNIT:
            return -1
        if field_is(f[1], fl[1], "suppress"):
            return A_SUPPRESS + v if c == C_MG else -1
        return A_ATTACK + u * NUNIT + v if 1 <= u < NUNIT else -1
    if field_is(f[1], fl[1], "aim"):
        t = parse_tile(s, f[2], fl[2])
        return A_AIM + t if c == C_MORTAR and t >= 0 else -1
    if field_is(f[1], fl[1], "command"):
        if c != C_PSGT or fl[2] != 1 or f[2][0] < 49 or f[2][0] > 50:
            return -1
        return A_COMMAND + f[2][0] - 49
    if field_is(f[1], fl[1], "inspire"):
        v = parse_card(f[2], fl[2])
        return A_INSPIRE + (c - C_SL) * NCARD + v if C_SL <= c < C_GUIDE and v >= 0 else -1
    comma = -1
    for i in range(fl[2]):
        if f[2][i] == 44:
            comma = i
    if field_is(f[1], fl[1], "advance"):
        if c != C_GUIDE or comma < 0:
            return -1
        v = parse_card(f[2], comma) - 1
        t = parse_tile(s, f[2] + comma + 1, fl[2] - comma - 1)
        if v < 0 or v >= NUNIT or t < 0:
            return -1
        return A_ADVANCE + v * MAXT + t
    if field_is(f[1], fl[1], "scout"):
        if not C_SCOUT <= c < C_SL:
            return -1
        if comma < 0:
            t = parse_tile(s, f[2], fl[2])
            t2 = STOP
        else:
            t = parse_tile(s, f[2], comma)
            t2 = parse_tile(s, f[2] + comma + 1, fl[2] - comma - 1)
        if t < 0 or t2 < 0:
            return -1
        return A_SCOUT + (c - C_SCOUT) * 1056 + t * 33 + t2
    return -1
