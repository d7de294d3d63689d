# The dice used so far in a turn, packed in one integer as designer.systems.dirt.driving.rules packs them (bits 0-5: the
# gear dice 1-6; then 3-bit counts of gas, brake, leader and red-zone brake dice), for the compiled plan search.
from libc.stdint cimport int64_t

cdef enum:
    GAS = 6
    BRAKE = 9
    LEADER = 12
    RZ = 15


cdef inline int _pop6(int64_t used) noexcept nogil:
    """Gear dice used (bits 0-5)."""
    cdef int64_t m = used & 63
    cdef int n = 0
    while m:
        n += <int>(m & 1)
        m >>= 1
    return n
