# Sets of squares as 192-bit bitboards: bit sq (= row * 16 + column) of three
# words, four rows to a word. Movement, barrage placement and the move list
# work on whole sets at once instead of looping over squares and units.

cdef extern from *:
    """
    /* columns a and p in each of a word's four rows (horizontal shifts must not wrap) */
    #define ST_COL_A 0x0001000100010001ULL
    #define ST_COL_P 0x8000800080008000ULL
    """
    int __builtin_ctzll(unsigned long long x) nogil
    const uint64_t COL_A "ST_COL_A"
    const uint64_t COL_P "ST_COL_P"

cdef struct BB:
    uint64_t w[3]

cdef enum:
    BB_WORDS = 3


cdef inline void bb_clear(BB *x) noexcept nogil:
    x.w[0] = 0
    x.w[1] = 0
    x.w[2] = 0


cdef inline void bb_set(BB *x, int sq) noexcept nogil:
    x.w[sq >> 6] |= (<uint64_t>1) << (sq & 63)


cdef inline bint bb_has(const BB *x, int sq) noexcept nogil:
    return (x.w[sq >> 6] >> (sq & 63)) & 1


cdef inline bint bb_any(const BB *x) noexcept nogil:
    return (x.w[0] | x.w[1] | x.w[2]) != 0


cdef inline void bb_dilate(const BB *x, const BB *board, BB *out) noexcept nogil:
    """out = x with its 8 neighbourhoods, on the board (out may be x)."""
    cdef uint64_t h0, h1, h2
    # east and west first (no carry between words: columns a and p are masked) ...
    h0 = x.w[0] | ((x.w[0] & ~COL_P) << 1) | ((x.w[0] & ~COL_A) >> 1)
    h1 = x.w[1] | ((x.w[1] & ~COL_P) << 1) | ((x.w[1] & ~COL_A) >> 1)
    h2 = x.w[2] | ((x.w[2] & ~COL_P) << 1) | ((x.w[2] & ~COL_A) >> 1)
    # ... then a row up and down, carrying rows between words
    out.w[0] = (h0 | (h0 << 16) | (h0 >> 16) | (h1 << 48)) & board.w[0]
    out.w[1] = (h1 | (h1 << 16) | (h0 >> 48) | (h1 >> 16) | (h2 << 48)) & board.w[1]
    out.w[2] = (h2 | (h2 << 16) | (h1 >> 48) | (h2 >> 16)) & board.w[2]


cdef inline int bb_emit(const BB *x, ard_action base, ard_action *out, int n) noexcept nogil:
    """Appends base + sq for every square of x, in increasing order; returns the new count."""
    cdef int k
    cdef uint64_t w
    for k in range(BB_WORDS):
        w = x.w[k]
        while w:
            out[n] = base + k * 64 + __builtin_ctzll(w)
            n += 1
            w &= w - 1
    return n
