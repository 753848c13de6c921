# Micro Armour engine: deviation of plotted fire (artillery, bombs, strafing).
# Included by _engine.pyx (one module, split by concern). Shared by every kind
# of plotted fire so that the compass and the table edge are handled once.
#
# The 1D8 direction roll is read on the deviation compass as the engine's eight
# facings in DIR_NAMES order (roll 1 = n, 2 = ne, ... 8 = nw; design choice: the
# digest does not print the template). A distance of d inches moves the point d
# squares along that direction (Chebyshev distance, as every distance here).

cdef inline bint deviate(const MaState *s, int x, int y, int direction, int inches, int *out_x, int *out_y) noexcept nogil:
    """The point `inches` away from (x, y) along `direction` (0..7, DIR_NAMES
    order). Returns 0 when it falls off the table (the fire lands nowhere)."""
    cdef int nx = x + DX[direction & 7] * inches
    cdef int ny = y + DY[direction & 7] * inches
    out_x[0] = nx
    out_y[0] = ny
    return on_map(s, nx, ny)
