# Included by _engine.pyx: the notation (RULES.md, Notation): action_to_string and
# string_to_action.

# -------------------------------------------------------------- notation ----
cdef int rank_text(int r, char *buf) noexcept nogil:
    """'A', '2'..'10', 'J', 'Q', 'K' into buf (4 bytes)."""
    if r == 1:
        return snprintf(buf, 4, "A")
    if r <= 10:
        return snprintf(buf, 4, "%d", r)
    return snprintf(buf, 4, "%c", b"JQK"[r - 11])

cdef int hex_text(int h, char *buf) noexcept nogil:
    return snprintf(buf, 5, "%02d%02d", h // ROWS + 1, h % ROWS + 1)

cdef int m_action_to_string(const void *state, ard_action action, char *buf, int buflen) noexcept nogil:
    cdef int a = action, m, d, fs, b
    cdef char hx[8]
    if a < 0 or a >= NUM_ACTIONS:
        return -1
    if a < JOKER:
        rank_text(card_rank(a), hx)
        return snprintf(buf, buflen, "%s%s", hx, "r" if a & 1 else "b")
    if a == JOKER:
        return snprintf(buf, buflen, "joker")
    if a == A_PASS:
        return snprintf(buf, buflen, "pass")
    if a == A_REDRAW:
        return snprintf(buf, buflen, "redraw")
    if a == A_MISS:
        return snprintf(buf, buflen, "miss")
    if a < A_SETUP:
        hex_text(a - A_STACK, hx)
        return snprintf(buf, buflen, "stack %s", hx)
    if a < A_AIRI:
        hex_text((a - A_SETUP) % NHEX, hx)
        return snprintf(buf, buflen, "setup %s %s", U_ID[NSIDE + (a - A_SETUP) // NHEX], hx)
    if a < A_AIR:
        hex_text(a - A_AIRI, hx)
        return snprintf(buf, buflen, "airi %s", hx)
    if a < A_OBA:
        return snprintf(buf, buflen, "air %s", U_ID[a - A_AIR])
    if a < A_MOVE:
        return snprintf(buf, buflen, "oba %s", U_ID[a - A_OBA])
    if a < A_FIRE:
        m = (a - A_MOVE) // NDEST
        d = (a - A_MOVE) % NDEST
        if d == NHEX:
            snprintf(hx, 8, "exit")
        else:
            hex_text(d, hx)
        if MOVER_TIGER[m]:
            return snprintf(buf, buflen, "%s+%s-%s", U_ID[MOVER_UNIT[m]], U_ID[TIGER], hx)
        return snprintf(buf, buflen, "%s-%s", U_ID[MOVER_UNIT[m]], hx)
    fs = (a - A_FIRE) // NSIDE
    b = FSET_B[fs]
    d = (1 - side_of(FSET_A[fs])) * NSIDE + (a - A_FIRE) % NSIDE
    if b == NONE:
        return snprintf(buf, buflen, "%sx%s", U_ID[FSET_A[fs]], U_ID[d])
    return snprintf(buf, buflen, "%s+%sx%s", U_ID[FSET_A[fs]], U_ID[b], U_ID[d])

cdef int find_unit(const char *t, int n) noexcept nogil:
    """Unit index of the id t[0:n], or -1."""
    cdef int u
    if n <= 0 or n > 8:
        return -1
    for u in range(NU):
        if <int>strlen(U_ID[u]) == n and strncmp(U_ID[u], t, n) == 0:
            return u
    return -1

cdef int parse_hex(const char *t, int n) noexcept nogil:
    cdef int i, col, row
    if n != 4:
        return -1
    for i in range(4):
        if t[i] < b'0' or t[i] > b'9':
            return -1
    col = (t[0] - 48) * 10 + (t[1] - 48)
    row = (t[2] - 48) * 10 + (t[3] - 48)
    if col < 1 or col > COLS or row < 1 or row > ROWS:
        return -1
    return (col - 1) * ROWS + row - 1

cdef int parse_mover(const char *t, int n) noexcept nogil:
    """'u' or 'u+tiger' / 'tiger+u' -> mover index, or -1."""
    cdef int i, a, b, m
    for i in range(n):
        if t[i] == b'+':
            a = find_unit(t, i)
            b = find_unit(t + i + 1, n - i - 1)
            if a == TIGER:
                a = b
            elif b != TIGER:
                return -1
            if a < 0 or a == TIGER:
                return -1
            return TIGER_MOVER[a]
    return find_unit(t, n)

cdef ard_action parse_fire(const char *t, int n) noexcept nogil:
    cdef int i, j, x = -1, a, b = NONE, tg, fs, tmp
    for i in range(n):
        if t[i] == b'x':
            x = i
            break
    if x < 0:
        return -1
    tg = find_unit(t + x + 1, n - x - 1)
    if tg < 0:
        return -1
    a = -1
    for j in range(x):
        if t[j] == b'+':
            a = find_unit(t, j)
            b = find_unit(t + j + 1, x - j - 1)
            if b < 0:
                return -1
            break
    if a == -1 and b == NONE:
        a = find_unit(t, x)
    if a < 0 or a == b:
        return -1
    if b != NONE and b < a:
        tmp = a
        a = b
        b = tmp
    if b != NONE and side_of(a) != side_of(b):
        return -1
    if side_of(tg) == side_of(a):
        return -1
    for fs in range(NFSET):
        if FSET_A[fs] == a and FSET_B[fs] == b:
            return A_FIRE + fs * NSIDE + tg % NSIDE
    return -1

cdef ard_action m_string_to_action(const void *state, const char *text) noexcept nogil:
    cdef int n = <int>strlen(text), r, i, dash, m, d, u, h
    if n == 0 or n > 40:
        return -1
    if strcmp(text, "pass") == 0:
        return A_PASS
    if strcmp(text, "redraw") == 0:
        return A_REDRAW
    if strcmp(text, "miss") == 0:
        return A_MISS
    if strcmp(text, "joker") == 0:
        return JOKER
    cdef char rk[4]
    if n <= 3 and (text[n - 1] == b'r' or text[n - 1] == b'b'):
        for r in range(1, 14):
            rank_text(r, rk)
            if <int>strlen(rk) == n - 1 and strncmp(rk, text, n - 1) == 0:
                return (r - 1) * 2 + (1 if text[n - 1] == b'r' else 0)
    if strncmp(text, "stack ", 6) == 0:
        h = parse_hex(text + 6, n - 6)
        return -1 if h < 0 else A_STACK + h
    if strncmp(text, "airi ", 5) == 0:
        h = parse_hex(text + 5, n - 5)
        return -1 if h < 0 else A_AIRI + h
    if strncmp(text, "air ", 4) == 0 or strncmp(text, "oba ", 4) == 0:
        u = find_unit(text + 4, n - 4)
        if u < 0 or side_of(u) != 0:
            return -1
        return (A_AIR if text[0] == b'a' else A_OBA) + u
    if strncmp(text, "setup ", 6) == 0:
        if n < 12 or text[n - 5] != b' ':
            return -1
        u = find_unit(text + 6, n - 11)
        h = parse_hex(text + n - 4, 4)
        if u < NSIDE or h < 0:
            return -1
        return A_SETUP + (u - NSIDE) * NHEX + h
    dash = -1
    for i in range(n):
        if text[i] == b'-':
            dash = i
    if dash > 0:
        if n - dash - 1 == 4 and strcmp(text + dash + 1, "exit") == 0:
            d = NHEX
        else:
            d = parse_hex(text + dash + 1, n - dash - 1)
        if d >= 0:
            m = parse_mover(text, dash)
            if m >= 0:
                return A_MOVE + m * NDEST + d
    return parse_fire(text, n)
