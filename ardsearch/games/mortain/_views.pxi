# Included by _engine.pyx: the state's hash and the views (no hidden information: a view is
# the state).

# ------------------------------------------------------------------ hash ----
cdef uint64_t m_hash(const void *state) noexcept nogil:
    cdef const uint8_t *p = <const uint8_t *>state
    cdef uint64_t h = 0x9E3779B97F4A7C15ULL, w
    cdef int i, n = sizeof(MState) - 1          # the viewer byte does not matter to play
    for i in range(n):
        h ^= p[i]
        h *= 0x100000001B3ULL
        h ^= h >> 29
    h ^= h >> 32
    h *= 0xD6E8FEB86659FD93ULL
    h ^= h >> 32
    return h

# ------------------------------------------------ views (no hidden info) ----
cdef void m_observe(const void *state, int player, void *out_view) noexcept nogil:
    if out_view != state:
        memcpy(out_view, state, sizeof(MState))
    (<MState *>out_view).viewer = player

cdef void m_determinize(void *view, int player, ard_rng *rng) noexcept nogil:
    (<MState *>view).viewer = -1

cdef int m_viewer(const void *state) noexcept nogil:
    return (<const MState *>state).viewer

cdef int m_action_visible(const void *state, ard_action action, int player) noexcept nogil:
    return 1
