# Micro Armour engine: notation: actions to text and back (RULES.md, Notation).
# Included by _engine.pyx (one module, split by concern).
# ----------------------------------------------------------------- notation
cdef const char *QUAL_NAMES[6]
QUAL_NAMES[:] = [b"quality:-2", b"quality:-1", b"quality:0", b"quality:+1", b"quality:+2", b"quality:+3"]

cdef int put_text(char *buf, int pos, const char *text) noexcept nogil:
    cdef int i = 0
    while text[i] and pos < 31:
        buf[pos] = text[i]
        pos += 1
        i += 1
    return pos

cdef int put_int(char *buf, int pos, int v) noexcept nogil:
    if v >= 10:
        buf[pos] = c'0' + v // 10
        pos += 1
    buf[pos] = c'0' + v % 10
    return pos + 1

cdef const char *name_of(const MaState *s, int g) noexcept nogil:
    if SC_NAMES[s.scn][g][0]:
        return &SC_NAMES[s.scn][g][0]
    return b"#"

cdef int actor(const MaState *s) noexcept nogil:
    cdef int k = node(s)
    if k == N_DECL:
        return s.atk_side
    if k == N_LEAD:
        return s.init_side
    if k == N_APPOINT:
        return command_side(s, CMD_APPOINT)
    if k == N_AIR or k == N_AIRCH:
        return air_side(s, s.air_cur) & 1
    if k == N_DROP_PLOT or k == N_DROP:
        return drop_side(s) & 1              # _drop.pxi
    if k == N_PREREG:
        return prereg_side(s) & 1            # _prereg.pxi
    if k == N_FLRET:
        return side_of(s.fl_target) & 1
    return s.to_move & 1

cdef int ma_action_to_string(const void *state, ard_action a, char *buf, int buflen) noexcept nogil:
    cdef const MaState *s = <const MaState *>state
    cdef char tmp[40]
    cdef int n = 0, p = actor(s), f, t
    if a == ARD_HIDDEN_OUTCOME:
        n = put_text(tmp, 0, b"?")
    elif a < 0 or a >= NUM_ACTIONS:
        return -1
    elif A_GPOSTURE <= a < A_GROLL + 20:
        n = groups_to_string(s, a, tmp, p)   # hook: movement groups
    elif A_MOUNT <= a < A_MOUNT + 2:
        n = units_to_string(s, a, tmp)       # hook: special stand types
    elif A_LOAD <= a < A_UNLOAD + 128:
        n = transport_to_string(s, a, tmp, p)    # hook: `load <vehicle>`, `unload <cargo> <dir>`
    elif A_STRAFE <= a < A_CRT_OUT:
        n = air_to_string(s, a, tmp, p)      # hook: airstrikes
    elif A_DROP_PLOT <= a < A_HQDELAY + 5:
        n = drop_to_string(a, tmp)           # hook: paratroop drops (_drop_view.pxi)
    elif A_PREREG <= a < A_PREREG + NCELLS:
        n = prereg_to_string(s, a, tmp)      # hook: pre-registered points (_prereg.pxi)
    elif A_MINE <= a < A_MINE + 4:
        n = put_text(tmp, 0, MINE_NAMES[a - A_MINE])     # _minefields.pxi
    elif A_HOLD <= a < A_DEV + 64:
        n = art_action_to_string(s, a, tmp)  # hook: artillery (_artillery.pxi)
        if n < 0:
            return -1
    elif a < A_GO:
        f = p * 16 + (a - A_FIRE) // 16
        t = (1 - p) * 16 + (a - A_FIRE) % 16
        n = put_text(tmp, 0, b"fire ")
        n = put_text(tmp, n, name_of(s, f))
        n = put_text(tmp, n, b">")
        n = put_text(tmp, n, name_of(s, t))
    elif a == A_GO:
        n = put_text(tmp, 0, b"go")
    elif a == A_PASS:
        n = put_text(tmp, 0, b"pass")
    elif a == A_LEAD:
        n = put_text(tmp, 0, b"lead")
    elif a == A_FOLLOW:
        n = put_text(tmp, 0, b"follow")
    elif a < A_ORDER:
        f = p * 16 + (a - A_POSTURE) // 2
        n = put_text(tmp, 0, b"posture ")
        n = put_text(tmp, n, name_of(s, f))
        n = put_text(tmp, n, b" move" if (a - A_POSTURE) % 2 == 0 else b" firemove")
    elif a < A_INDEP:
        n = put_text(tmp, 0, b"order ")
        n = put_text(tmp, n, name_of(s, p * 16 + a - A_ORDER))
    elif a < A_STEP:
        n = put_text(tmp, 0, b"indep ")
        n = put_text(tmp, n, name_of(s, p * 16 + a - A_INDEP))
    elif a < A_STOP:
        n = put_text(tmp, 0, b"step ")
        n = put_text(tmp, n, DIR_NAMES[a - A_STEP])
    elif a < A_OK:
        n = put_text(tmp, 0, b"stop ")
        n = put_text(tmp, n, DIR_NAMES[a - A_STOP])
    elif a == A_OK:
        n = put_text(tmp, 0, b"c:ok")
    elif a == A_FAIL:
        n = put_text(tmp, 0, b"c:fail")
    elif a == A_N1:
        n = put_text(tmp, 0, b"c:n1")
    elif a == A_N20:
        n = put_text(tmp, 0, b"c:n20")
    elif a < A_INIT:
        n = put_text(tmp, 0, b"crt:")
        n = put_text(tmp, n, CRT_NAMES[a - A_CRT])
    elif a < A_ORDERS:
        n = put_text(tmp, 0, b"init:G" if a == A_INIT else b"init:S")
    elif a < A_CARD:
        n = put_text(tmp, 0, b"orders:")
        n = put_int(tmp, n, a - A_ORDERS)
    elif a < A_BRK_NO:
        n = put_text(tmp, 0, b"card:")
        n = put_int(tmp, n, a - A_CARD + 1)
    elif a == A_BRK_NO:
        n = put_text(tmp, 0, b"brk:no")
    elif a == A_BRK_YES:
        n = put_text(tmp, 0, b"brk:yes")
    elif a < A_OVERRUN:
        n = put_text(tmp, 0, b"assault ")
        n = put_text(tmp, n, name_of(s, (1 - p) * 16 + a - A_ASSAULT))
    elif a < A_RETREAT:
        n = put_text(tmp, 0, b"overrun ")
        n = put_text(tmp, n, name_of(s, (1 - p) * 16 + a - A_OVERRUN))
    elif a < A_APPOINT:
        n = put_text(tmp, 0, b"retreat ")
        n = put_text(tmp, n, DIR_NAMES[a - A_RETREAT])
    elif a < A_QUAL:
        n = put_text(tmp, 0, b"appoint ")
        n = put_text(tmp, n, name_of(s, p * 16 + a - A_APPOINT))
    elif a < A_STRAFE:
        n = put_text(tmp, 0, QUAL_NAMES[a - A_QUAL])
    elif a == A_FLARE:
        n = put_text(tmp, 0, b"flare")       # _weather.pxi
    elif a >= A_SHOW:
        n = show_to_string(s, a, tmp, p)     # hidden set-up (_spotting.pxi)
    elif a >= A_SIGHT:
        n = put_text(tmp, 0, b"sight:")      # weather and night (_weather.pxi)
        n = put_int(tmp, n, a - A_SIGHT)
    else:
        n = put_text(tmp, 0, b"crt:")
        n = put_text(tmp, n, CRT_NAMES[a - A_CRT_OUT])
        n = put_text(tmp, n, b":out")
    if n >= buflen:
        return -1
    memcpy(buf, tmp, n)
    buf[n] = 0
    return n

cdef bint word_is(const char *t, int n, const char *word) noexcept nogil:
    cdef int i = 0
    while i < n and word[i] and t[i] == word[i]:
        i += 1
    return i == n and word[i] == 0

cdef int find_name(const MaState *s, const char *t, int n) noexcept nogil:
    cdef int g
    if n <= 0 or n > 7:
        return -1
    for g in range(NSLOT):
        if SC_NAMES[s.scn][g][0] and word_is(t, n, SC_NAMES[s.scn][g]):
            return g
    return -1

cdef int find_dir(const char *t, int n) noexcept nogil:
    cdef int d
    for d in range(8):
        if word_is(t, n, DIR_NAMES[d]):
            return d
    return -1

cdef ard_action ma_string_to_action(const void *state, const char *text) noexcept nogil:
    cdef const MaState *s = <const MaState *>state
    cdef int start = 0, n = 0, i, sp, g, h, d, p = actor(s)
    cdef const char *t
    while text[start] == c' ' or text[start] == c'\t':
        start += 1
    t = text + start
    while t[n]:
        n += 1
    while n > 0 and (t[n - 1] == c' ' or t[n - 1] == c'\t' or t[n - 1] == c'\n' or t[n - 1] == c'\r'):
        n -= 1
    if n == 0:
        return -1
    if word_is(t, n, b"?"):
        return ARD_HIDDEN_OUTCOME
    i = art_string_to_action(s, t, n)        # hook: artillery (_artillery.pxi)
    if i >= 0:
        return i
    i = air_from_string(s, t, n, p)          # hook: airstrikes
    if i != -2:
        return i
    i = drop_from_string(t, n)               # hook: paratroop drops (_drop_view.pxi)
    if i != -2:
        return i
    i = prereg_from_string(s, t, n)          # hook: pre-registered points (_prereg.pxi)
    if i != -2:
        return i
    i = units_from_string(s, t, n)           # hook: special stand types
    if i != -2:
        return i
    i = groups_from_string(s, t, n, p)       # hook: movement groups
    if i != -2:
        return i
    if word_is(t, n, b"go"):
        return A_GO
    if word_is(t, n, b"pass"):
        return A_PASS
    if word_is(t, n, b"flare"):
        return A_FLARE
    if word_is(t, n, b"lead"):
        return A_LEAD
    if word_is(t, n, b"follow"):
        return A_FOLLOW
    if word_is(t, n, b"c:ok"):
        return A_OK
    if word_is(t, n, b"c:fail"):
        return A_FAIL
    if word_is(t, n, b"c:n1"):
        return A_N1
    if word_is(t, n, b"c:n20"):
        return A_N20
    if word_is(t, n, b"init:G"):
        return A_INIT
    if word_is(t, n, b"init:S"):
        return A_INIT + 1
    if word_is(t, n, b"brk:no"):
        return A_BRK_NO
    if word_is(t, n, b"brk:yes"):
        return A_BRK_YES
    i = show_from_string(s, t, n, p)         # hidden set-up (_spotting.pxi)
    if i != -2:
        return i
    if n > 6 and word_is(t, 6, b"sight:"):  # weather and night (_weather.pxi)
        return A_SIGHT + i if parse_num(t + 6, n - 6, &i) and i <= MAX_SIGHT else -1
    for i in range(6):
        if word_is(t, n, QUAL_NAMES[i]):
            return A_QUAL + i
    for i in range(4):
        if word_is(t, n, MINE_NAMES[i]):
            return A_MINE + i
    for i in range(5):
        if n > 4 and word_is(t, 4, b"crt:") and word_is(t + 4, n - 4, CRT_NAMES[i]):
            return A_CRT + i
        if n > 8 and word_is(t, 4, b"crt:") and word_is(t + n - 4, 4, b":out") and word_is(t + 4, n - 8, CRT_NAMES[i]):
            return A_CRT_OUT + i
    if n == 8 and word_is(t, 7, b"orders:") and c'0' <= t[7] <= c'9':
        return A_ORDERS + (t[7] - c'0') if t[7] - c'0' <= 5 else -1
    if n > 5 and word_is(t, 5, b"card:"):
        if n == 6 and c'1' <= t[5] <= c'9':
            return A_CARD + t[5] - c'1'
        if n == 7 and t[5] == c'1' and t[6] == c'0':
            return A_CARD + 9
        return -1
    # commands with a word after them
    sp = 0
    while sp < n and t[sp] != c' ':
        sp += 1
    if sp >= n - 1:
        return -1
    if word_is(t, sp, b"load") or word_is(t, sp, b"unload"):
        return transport_from_string(s, t, n, sp, p)     # hook: _transport.pxi
    if word_is(t, sp, b"step") or word_is(t, sp, b"stop") or word_is(t, sp, b"retreat"):
        d = find_dir(t + sp + 1, n - sp - 1)
        if d < 0:
            return -1
        if t[0] == c'r':
            return A_RETREAT + d
        return (A_STEP if t[2] == c'e' else A_STOP) + d
    if word_is(t, sp, b"assault") or word_is(t, sp, b"overrun"):
        g = find_name(s, t + sp + 1, n - sp - 1)
        if g < 0 or side_of(g) == p:
            return -1
        return (A_ASSAULT if t[0] == c'a' else A_OVERRUN) + (g & 15)
    if word_is(t, sp, b"appoint"):
        g = find_name(s, t + sp + 1, n - sp - 1)
        if g < 0 or side_of(g) != p:
            return -1
        return A_APPOINT + (g & 15)
    if word_is(t, sp, b"order") or word_is(t, sp, b"indep"):
        g = find_name(s, t + sp + 1, n - sp - 1)
        if g < 0 or side_of(g) != p:
            return -1
        return (A_ORDER if t[0] == c'o' else A_INDEP) + (g & 15)
    if word_is(t, sp, b"posture"):
        i = sp + 1
        while i < n and t[i] != c' ':
            i += 1
        g = find_name(s, t + sp + 1, i - sp - 1)
        if g < 0 or side_of(g) != p or i >= n:
            return -1
        if word_is(t + i + 1, n - i - 1, b"move"):
            return A_POSTURE + 2 * (g & 15)
        if word_is(t + i + 1, n - i - 1, b"firemove"):
            return A_POSTURE + 2 * (g & 15) + 1
        return -1
    if word_is(t, sp, b"fire"):
        i = sp + 1
        while i < n and t[i] != c'>':
            i += 1
        g = find_name(s, t + sp + 1, i - sp - 1)
        if i >= n:
            return -1
        h = find_name(s, t + i + 1, n - i - 1)
        if g < 0 or h < 0 or side_of(g) != p or side_of(h) == p:
            return -1
        return A_FIRE + (g & 15) * 16 + (h & 15)
    return -1
