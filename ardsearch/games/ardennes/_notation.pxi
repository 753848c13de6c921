# Included by _engine.pyx: the notation (RULES.md, Notation): action_to_string and
# string_to_action.

# ----------------------------------------------------------------- notation
cdef int put_int(char *buf, int pos, int v) noexcept nogil:
    if v >= 10:
        buf[pos] = c'0' + v // 10
        pos += 1
    buf[pos] = c'0' + v % 10
    return pos + 1


cdef int put_text(char *buf, int pos, const char *text) noexcept nogil:
    cdef int i = 0
    while text[i]:
        buf[pos] = text[i]
        pos += 1
        i += 1
    return pos


cdef int ard_action_to_string(const void *state, ard_action a, char *buf, int buflen) noexcept nogil:
    cdef char tmp[32]
    cdef int n = 0, r
    if a == ARD_HIDDEN_OUTCOME:
        n = put_text(tmp, 0, b"?")
    elif a < 0 or a >= NUM_ACTIONS:
        return -1
    elif a < A_FRONT:
        tmp[0] = LETTERS[a // NROADS]
        n = put_int(tmp, 1, a % NROADS + 1)
    elif a < A_RETREAT:
        tmp[0] = c'f'
        n = put_int(tmp, 1, a - A_FRONT + 1)
    elif a < A_ATTACK:
        tmp[0] = c'x'
        n = put_int(tmp, 1, a - A_RETREAT + 1)
    elif a < A_FLANK:
        tmp[0] = c'a'
        n = put_int(tmp, 1, a - A_ATTACK + 1)
    elif a < A_MORTAR:
        r = (a - A_FLANK) // 2 + 1
        tmp[0] = c'k'
        n = put_int(tmp, 1, r)
        tmp[n] = c':'
        n = put_int(tmp, n + 1, r - 1 if (a - A_FLANK) % 2 == 0 else r + 1)
    elif a < A_PASS:
        tmp[0] = c'm'
        n = put_int(tmp, 1, a - A_MORTAR + 1)
    elif a == A_PASS:
        n = put_text(tmp, 0, b"pass")
    elif a == A_FIRST:
        n = put_text(tmp, 0, b"first:A")
    elif a == A_FIRST + 1:
        n = put_text(tmp, 0, b"first:G")
    else:
        n = put_text(tmp, 0, b"obj:")
        n = put_int(tmp, n, a - A_OBJ + 1)
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


cdef ard_action ard_string_to_action(const void *state, const char *text) noexcept nogil:
    cdef int start = 0, n = 0, t, r, s2
    cdef const char *p
    # trim surrounding blanks
    while text[start] == c' ' or text[start] == c'\t':
        start += 1
    p = text + start
    while p[n]:
        n += 1
    while n > 0 and (p[n - 1] == c' ' or p[n - 1] == c'\t' or p[n - 1] == c'\n' or p[n - 1] == c'\r'):
        n -= 1
    if n == 0:
        return -1
    if text_is(p, n, b"pass"):
        return A_PASS
    if text_is(p, n, b"?"):
        return ARD_HIDDEN_OUTCOME
    if text_is(p, n, b"first:A"):
        return A_FIRST
    if text_is(p, n, b"first:G"):
        return A_FIRST + 1
    if n == 5 and text_is(p, 4, b"obj:") and c'1' <= p[4] <= c'8':
        return A_OBJ + (p[4] - c'1')
    if n == 2 and c'1' <= p[1] <= c'7':
        r = p[1] - c'1'
        for t in range(NTYPES):
            if p[0] == LETTERS[t]:
                return A_PLACE + t * NROADS + r
        if p[0] == c'f':
            return A_FRONT + r
        if p[0] == c'x':
            return A_RETREAT + r
        if p[0] == c'a':
            return A_ATTACK + r
        if p[0] == c'm':
            return A_MORTAR + r
        return -1
    if n == 4 and p[0] == c'k' and c'1' <= p[1] <= c'7' and p[2] == c':' and c'0' <= p[3] <= c'8':
        r = p[1] - c'0'
        s2 = p[3] - c'0'
        if s2 == r - 1:
            return A_FLANK + 2 * (r - 1)
        if s2 == r + 1:
            return A_FLANK + 2 * (r - 1) + 1
    return -1
