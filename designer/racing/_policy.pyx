# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# distutils: language = c++
"""Compiled carry of the stage time's distribution over whole seconds (:meth:`designer.racing.mdp.Solution.
distribution`): the chances of each (state, bank) pair of the policy as an array over whole seconds from a first
second, carried to the pairs each turn leads to, with the same products and additions in the same order as the
numpy reference (``Solution._distribution_whole_numpy``), so the same numbers to the last bit. Built when the package
is installed (setup.py); where it is not, ``mdp.POLICY`` is None and the numpy code runs.
"""
import numpy as np

from libc.stdint cimport int64_t
from libcpp.vector cimport vector


cdef void _add(vector[double]& a, int64_t* a_lo, int* has, int64_t lo, const double* arr, Py_ssize_t n,
               double scale, bint scaled) noexcept:
    """Add ``arr * scale`` (or ``arr`` itself) from second ``lo`` into the array ``a`` from second ``a_lo``: the
    first add copies it, a later one grows ``a`` with zeros where it must and adds element by element (mdp._add)."""
    cdef Py_ssize_t i, off, old
    cdef int64_t new_lo, new_hi, hi
    cdef vector[double] grown
    if not has[0]:
        a.resize(n)
        for i in range(n):
            a[i] = arr[i] * scale if scaled else arr[i]
        a_lo[0] = lo
        has[0] = 1
        return
    old = <Py_ssize_t>a.size()
    new_lo = a_lo[0] if a_lo[0] < lo else lo
    hi = lo + n
    new_hi = a_lo[0] + old if a_lo[0] + old > hi else hi
    if new_lo != a_lo[0] or new_hi != a_lo[0] + old:
        grown.assign(new_hi - new_lo, 0.0)
        off = a_lo[0] - new_lo
        for i in range(old):
            grown[off + i] = a[i]
        a.swap(grown)
        a_lo[0] = new_lo
    off = lo - a_lo[0]
    if scaled:
        for i in range(n):
            a[off + i] = a[off + i] + arr[i] * scale
    else:
        for i in range(n):
            a[off + i] = a[off + i] + arr[i]


def carry_whole(int npairs, const int64_t[::1] popped, const int64_t[::1] ending, const int64_t[::1] end,
                const int64_t[::1] first, const int64_t[::1] target, const int64_t[::1] shift,
                const double[::1] chance):
    """The pairs numbered 0..npairs-1 (0 the start, holding chance 1 at second 0) met in the order ``popped``:
    the k-th met ends the stage ``end[k]`` seconds later (``ending[k]`` not 0) or else adds its chances times
    ``chance[e]``, ``shift[e]`` seconds later, into pair ``target[e]`` for e in ``first[k]:first[k + 1]`` in that
    order. Returns (first second, chances) of the stage time (an empty array where nothing ends)."""
    cdef vector[vector[double]] mass
    cdef vector[int64_t] lo
    cdef vector[int] has
    cdef vector[double] out, here
    cdef int64_t out_lo = 0, h_lo
    cdef int out_has = 0
    cdef Py_ssize_t k, e, p, t
    mass.resize(npairs)
    lo.resize(npairs, 0)
    has.resize(npairs, 0)
    mass[0].push_back(1.0)
    has[0] = 1
    for k in range(popped.shape[0]):
        p = popped[k]
        here.swap(mass[p])                     # popped: its chances leave the store
        mass[p].clear()
        mass[p].shrink_to_fit()
        h_lo = lo[p]
        if ending[k]:
            _add(out, &out_lo, &out_has, h_lo + end[k], here.data(), <Py_ssize_t>here.size(), 1.0, False)
            continue
        for e in range(first[k], first[k + 1]):
            t = target[e]
            _add(mass[t], &lo[t], &has[t], h_lo + shift[e], here.data(), <Py_ssize_t>here.size(),
                 chance[e], True)
    arr = np.empty(out.size(), dtype=np.float64)
    cdef double[::1] view = arr
    for e in range(<Py_ssize_t>out.size()):
        view[e] = out[e]
    return out_lo, arr
