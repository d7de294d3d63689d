# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled replay of one plan rolled one by one: :func:`roll_codes` is
:func:`designer.systems.dirt.dice.rollout.roll_values` (its kept table) followed by
:func:`designer.systems.dirt.dice.replay.codes_of` (what to do before each die), for one plan, with the same
arithmetic in the same order (so the same table and the same choices); :func:`roll_turns` carries the chances
of a turn die by die and merges its outcomes as turn_batch does in Python; :func:`relay_pick` picks where the
failures of a Big Attack are laid, and :func:`attack_turns` picks them and merges a Big Attack's outcomes for every
count of tokens in one call (the reading achievable); :func:`add_row` turns an outcome list into the rows of numbers
the merging reads. Built when the package is installed (setup.py); where it is not, ``turn_batch.COMPILED`` is
None and the numpy and Python code runs.
"""
# distutils: language = c++
import numpy as np

from cpython cimport array
from cpython.object cimport PyTypeObject
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_SET_ITEM
from libc.stdint cimport int64_t
from libcpp.algorithm cimport sort
from libcpp.pair cimport pair
from cython.operator cimport dereference as deref
from libcpp.unordered_map cimport unordered_map
from libcpp.vector cimport vector

cdef enum:
    XMAX = 6            # hazard counts of one step (plans.X; turn_batch checks they agree)
cdef double BIG = 1e9   # plans.BIG (turn_batch checks they agree)
LAYOUT = (XMAX, BIG)


def roll_codes(const double[:, :] q, const double[:] pj, const double[:] pc, const int64_t[:] m,
               const double[:, :] stop, const double[:, :] loss, int H, int K):
    """The choices before each die of a plan of ``L = len(q) - 1`` steps: bytes over (i < L, h < H, k <= K,
    t < tokens), 0 stop, 1 roll, 2 secure (replay.Replay.choice); ``q[point, x]``, ``pj``/``pc``/``m[point]``,
    ``stop``/``loss[point, t]`` as :class:`~designer.systems.dirt.dice.replay.Replay` reads them."""
    cdef int L1 = q.shape[0], L = L1 - 1, T1 = stop.shape[1], K1 = K + 1
    cdef int KT = K1 * T1, HKT = H * K1 * T1
    if q.shape[1] != XMAX:
        raise ValueError("hazard counts per step differ from the compiled layout")
    if L < 1:
        return b""
    cdef double[::1] U = np.empty(L1 * HKT)
    cdef double[::1] roll = np.empty(HKT)
    out = bytearray(L * HKT)
    cdef unsigned char[::1] codes = out
    cdef double cum[XMAX + 1]
    cdef double tail[XMAX + 8]
    cdef int used[XMAX]
    cdef int i, j, h, k, t, x, mj, c, hx
    cdef double lv, v, sec, pjj, pcj, qx, cont
    cdef long bi, bj, base
    for x in range(XMAX):                # rollout.roll_values: the hazard counts some step of the plan can show
        used[x] = 0
        if x < H:
            for j in range(L1):
                if q[j, x] != 0.0:
                    used[x] = 1
    # the kept table, from the last point back (rollout.roll_values, one plan)
    bi = L * HKT
    for h in range(H):
        for k in range(K1):
            for t in range(T1):
                U[bi + h * KT + k * T1 + t] = stop[L, t]
    for i in range(L - 1, -1, -1):
        j = i + 1
        bj = j * HKT
        bi = i * HKT
        cum[XMAX] = 0.0
        cum[XMAX - 1] = q[j, XMAX - 1]
        for x in range(XMAX - 2, -1, -1):
            cum[x] = cum[x + 1] + q[j, x]
        for h in range(H):
            tail[h] = cum[H - h] if H - h < XMAX else 0.0
        pjj, pcj, mj = pj[j], pc[j], <int>m[j]
        for h in range(H):
            for k in range(K1):
                for t in range(T1):
                    roll[h * KT + k * T1 + t] = tail[h] * loss[j, t]
        for x in range(XMAX):
            if not used[x]:
                continue
            qx = q[j, x]
            for h in range(H - x):
                for k in range(K1):
                    for t in range(T1):
                        roll[h * KT + k * T1 + t] = roll[h * KT + k * T1 + t] + qx * U[bj + (h + x) * KT + k * T1 + t]
        for h in range(H):
            for k in range(K1):
                c = mj * k + mj * (mj + 1) // 2           # plans.secure_cost(k, m)
                for t in range(T1):
                    v = roll[h * KT + k * T1 + t]
                    lv = loss[j, t]
                    if pjj != 0.0:
                        v = pjj * lv + (1 - pjj) * v
                    if pcj != 0.0:
                        v = pcj * stop[j, t] + (1 - pcj) * v
                    if 1 <= mj < XMAX and k + mj <= K and t >= c:
                        sec = U[bj + h * KT + (k + mj) * T1 + t - c]
                    else:
                        sec = BIG
                    cont = sec if sec < v else v
                    U[bi + h * KT + k * T1 + t] = cont if cont < stop[i, t] else stop[i, t]
    # the choices (replay.Replay.choice: continue_values' sums, in its order)
    for i in range(L):
        j = i + 1
        bj = j * HKT
        pjj, pcj, mj = pj[j], pc[j], <int>m[j]
        for h in range(H):
            for k in range(K1):
                c = mj * k + mj * (mj + 1) // 2
                base = (i * H + h) * KT + k * T1
                for t in range(T1):
                    lv = loss[j, t]
                    v = 0.0
                    for x in range(XMAX):
                        qx = q[j, x]
                        if qx != 0.0:
                            hx = h + x
                            v = v + qx * (U[bj + hx * KT + k * T1 + t] if hx < H else lv)
                    v = pjj * lv + (1 - pjj) * v
                    v = pcj * stop[j, t] + (1 - pcj) * v
                    if k + mj <= K and t >= c:
                        sec = U[bj + h * KT + (k + mj) * T1 + t - c]
                    else:
                        sec = BIG
                    cont = sec if sec < v else v
                    if i >= 1 and stop[i, t] <= cont + 1e-9:
                        codes[base + t] = 0
                    elif v <= sec + 1e-9:
                        codes[base + t] = 1
                    else:
                        codes[base + t] = 2
    return bytes(out)


cdef inline int _cheapest(const double[:, :, ::1] table, const int64_t[::1] nums, int a, int e, int64_t t,
                          double* best) noexcept:
    """The place in ``nums[a:e]`` (not empty) of the cheapest point under ``table[number, 1, t]``, the first of
    equal ones; its value into ``best``."""
    cdef int i, arg = a
    cdef double v
    best[0] = table[nums[a], 1, t]
    for i in range(a + 1, e):
        v = table[nums[i], 1, t]
        if v < best[0]:
            best[0] = v
            arg = i
    return arg


cdef inline int _run_of(vector[pair[int64_t, int]]& picked, int g, const double[::1] weight, double* acc) noexcept:
    """The end of the run of ``picked`` (sorted) that starts at ``g`` and lays its classes at one point, the
    chances of its classes (``weight[class]``) added in order from 0 into ``acc``."""
    cdef int i = g, S = <int>picked.size()
    acc[0] = 0.0
    while i < S and picked[i].first == picked[g].first:
        acc[0] = acc[0] + weight[picked[i].second]
        i += 1
    return i


cdef void _pick(const double[:, :, ::1] table, const int64_t[::1] nums, const int64_t[::1] first, int64_t t,
                vector[pair[int64_t, int]]& picked, vector[double]& value) noexcept:
    """Each class's cheapest point under ``table[number, 1, t]`` (the first of equal ones) into ``picked`` as
    (point, class), sorted by point then class, and its value into ``value[class]``."""
    cdef int S = first.shape[0], n = nums.shape[0]
    cdef int c, arg
    cdef double best
    picked.clear()
    for c in range(S):
        arg = _cheapest(table, nums, first[c], first[c + 1] if c + 1 < S else n, t, &best)
        picked.push_back(pair[int64_t, int](nums[arg], c))
        value[c] = best
    sort(picked.begin(), picked.end())            # by point, then class: each point's classes in order


def relay_pick(const double[:, :, ::1] table, const int64_t[::1] nums, const int64_t[::1] first,
               const double[::1] weights, banks):
    """For each of ``banks``: where the classes of failed Big Attacks are laid (turn_batch._relay_many), each
    class (its points ``nums[first[c]:first[c + 1]]``, the last up to the end, its chance ``weights[c]``) at its
    cheapest point under ``table[number, 1, bank]`` (the first of equal ones), the chances of the classes laid
    at one point added in the classes' order: lists [bank] of the points' numbers (rising), their chances and
    their values."""
    cdef int S = first.shape[0], B = len(banks)
    cdef int64_t[::1] bk = np.asarray(banks, dtype=np.int64)
    cdef vector[pair[int64_t, int]] picked
    cdef vector[double] value
    cdef int b, i, g
    cdef double acc
    out_nums, out_chance, out_cost = [], [], []
    value.resize(S)
    for b in range(B):
        _pick(table, nums, first, bk[b], picked, value)
        bn, bc, bv = [], [], []
        g = 0
        while g < S:
            i = _run_of(picked, g, weights, &acc)
            bn.append(picked[g].first)
            bc.append(acc)
            bv.append(value[picked[g].second])
            g = i
        out_nums.append(bn)
        out_chance.append(bc)
        out_cost.append(bv)
    return out_nums, out_chance, out_cost


cdef void _pick_classes(const double[:, :, ::1] table, const int64_t[::1] nums, const int64_t[::1] starts, int64_t t,
                        vector[pair[int64_t, int]]& picked) noexcept:
    """:func:`_pick` over the classes as plan_classes gives them (class c: ``nums[starts[c]:starts[c + 1]]``, the
    last up to the end; a class of no point left out), each picked point with the class's own number."""
    cdef int C = starts.shape[0], n = nums.shape[0]
    cdef int c, a, e
    cdef double best
    picked.clear()
    for c in range(C):
        a = starts[c]
        e = starts[c + 1] if c + 1 < C else n
        if a < e:
            picked.push_back(pair[int64_t, int](nums[_cheapest(table, nums, a, e, t, &best)], c))
    sort(picked.begin(), picked.end())


def attack_turns(const double[:, :, ::1] table, const int64_t[::1] nums, const int64_t[::1] starts,
                 const double[::1] probs, list toks, list groups, list at, list canon_rows, list end_rows,
                 double pc, double success, double rest, make_row, rows, int T1, tuple names, outcome):
    """A Big Attack's turn for every count at once under the reading achievable (turn_batch._attack_compiled with
    :func:`relay_pick`'s choices, in one call; the classes as plan_classes gives them: points ``nums`` from
    ``starts[c]``, chances ``probs``): for slot b, tokens ``toks[b]`` after the attack and credit group
    ``groups[b]``, the canon's stop (chance ``pc``, row ``canon_rows[group]``, where ``pc`` is not 0), the attack's
    end (``success``, ``end_rows[group]``) and each point where the failures are laid (``rest`` times the chances
    of its classes added in their order; its row ``at[group][point]``, made by ``make_row(point, group)`` where
    missing), merged as :func:`merge` merges them; ``rows``: the turn_batch._Rows the rows are read from (after
    every row is made)."""
    cdef int S, B = len(toks)
    cdef vector[pair[int64_t, int]] picked
    cdef vector[int64_t] ev_slot, ev_list, ev_tok, ev_label
    cdef vector[double] ev_p
    cdef int b, i, g
    cdef int64_t t, grp
    cdef double acc
    cdef dict here
    for b in range(B):
        t = toks[b]
        grp = groups[b]
        if pc != 0.0:
            ev_slot.push_back(b); ev_p.push_back(pc); ev_list.push_back(canon_rows[grp]); ev_tok.push_back(t)
            ev_label.push_back(0)
        ev_slot.push_back(b); ev_p.push_back(success); ev_list.push_back(end_rows[grp]); ev_tok.push_back(t)
        ev_label.push_back(1)
        if nums.shape[0] == 0:
            continue
        _pick_classes(table, nums, starts, t, picked)
        S = <int>picked.size()
        here = <dict>at[grp]
        g = 0
        while g < S:
            i = _run_of(picked, g, probs, &acc)
            r = here.get(picked[g].first)
            if r is None:
                r = make_row(picked[g].first, grp)
            ev_slot.push_back(b); ev_p.push_back(rest * acc); ev_list.push_back(r); ev_tok.push_back(t)
            ev_label.push_back(2)
            g = i
    row_q, row_key, row_start, nkeys = rows.arrays()     # every row made: their arrays are read from here on
    cdef const double[::1] list_q = row_q
    cdef const int64_t[::1] list_key = row_key
    cdef const int64_t[::1] list_start = row_start
    cdef vector[int64_t] keys, tks, labels, slots
    cdef vector[double] merged
    cdef unordered_map[int64_t, int] where
    cdef size_t e
    for e in range(ev_slot.size()):
        _emit(<int>ev_slot[e], ev_p[e], <int>ev_list[e], <int>ev_tok[e], <int>ev_label[e], list_q, list_key,
              list_start, nkeys, T1, where, keys, tks, merged, labels, slots)
    return _build(slots, keys, tks, merged, labels, B, rows.named, names, outcome)


def add_row(rows, outs, credit) -> int:
    """turn_batch._Rows.row_python for a list not met yet: append the row of ``outs`` (its entries' chances and the
    numbers of their (seconds less ``credit``, next state, loss), numbering those not met yet in ``rows.named``) to
    the arrays of ``rows``, the same numbers and arrays; returns its row."""
    cdef dict keys = rows.keys
    cdef list named = rows.named
    cdef array.array chance = rows.chance, key_of = rows.key_of, starts = rows.starts
    cdef vector[double] q
    cdef vector[int64_t] numbers
    cdef tuple t
    for item in outs:
        t = <tuple>item
        if len(t) != 4:
            raise ValueError(f"an outcome of four fields expected, got {t!r}")
        key = (t[1] - credit, t[2], t[3])
        k = keys.get(key)
        if k is None:
            k = len(named)
            keys[key] = k
            named.append(key)
        numbers.push_back(k)
        q.push_back(t[0])
    if q.size():
        array.extend_buffer(chance, <char*>q.data(), <Py_ssize_t>q.size())
        array.extend_buffer(key_of, <char*>numbers.data(), <Py_ssize_t>numbers.size())
    starts.append(len(chance))
    return len(starts) - 2


cdef extern from "Python.h":
    object PyType_GenericAlloc(PyTypeObject* tp, Py_ssize_t nitems)


cdef inline object _six(PyTypeObject* tp, object a, object b, object c, object d, object e, object f):
    """An instance of ``tp``, a tuple type of no fields of its own (Outcome), holding the six items: allocated as
    its type allocates it and filled, as ``tuple.__new__(tp, items)`` makes it, without the tuples in between."""
    t = PyType_GenericAlloc(tp, 6)
    _put(t, 0, a)
    _put(t, 1, b)
    _put(t, 2, c)
    _put(t, 3, d)
    _put(t, 4, e)
    _put(t, 5, f)
    return t


cdef inline void _put(object t, Py_ssize_t i, object x):
    """Item ``i`` of the new tuple ``t`` set to ``x`` (the tuple takes a reference of its own)."""
    Py_INCREF(x)
    PyTuple_SET_ITEM(t, i, x)


cdef list _build(vector[int64_t]& slots, vector[int64_t]& keys, vector[int64_t]& toks, vector[double]& probs,
                 vector[int64_t]& labels, int B, list named, tuple names, outcome):
    """The merged entries as one list of outcomes per slot, in the order met, those of no chance left out:
    each ``outcome`` (the Outcome class) made from (chance, seconds, next state, tokens, loss, label name)."""
    cdef list out = [[] for _b in range(B)]
    cdef size_t e
    cdef double pr
    cdef tuple key
    cdef PyTypeObject* tp = <PyTypeObject*>outcome
    # a plain tuple subclass (no __dict__, no fields of its own: a NamedTuple) is filled in place; else tuple.__new__
    cdef bint plain = (isinstance(outcome, type) and issubclass(outcome, tuple)
                       and outcome.__basicsize__ == tuple.__basicsize__
                       and outcome.__itemsize__ == tuple.__itemsize__)
    new = tuple.__new__
    for e in range(probs.size()):
        pr = probs[e]
        if pr > 0:
            key = <tuple>named[keys[e]]
            if plain:
                (<list>out[slots[e]]).append(_six(tp, pr, key[0], key[1], toks[e], key[2], names[labels[e]]))
            else:
                (<list>out[slots[e]]).append(new(outcome, (pr, key[0], key[1], toks[e], key[2], names[labels[e]])))
    return out


cdef void _emit(int slot, double p, int lst, int tok, int label, const double[::1] list_q,
                const int64_t[::1] list_key, const int64_t[::1] list_start, int64_t nkeys, int T1,
                unordered_map[int64_t, int]& where, vector[int64_t]& keys, vector[int64_t]& toks,
                vector[double]& probs, vector[int64_t]& labels, vector[int64_t]& slots):
    """Add list ``lst`` of outcomes met with chance ``p`` to the merged outcomes of start ``slot`` (entries with
    the same key and tokens as one, the chances added in the order met, the first label kept)."""
    cdef int64_t e, key, code
    cdef unordered_map[int64_t, int].iterator it
    cdef int at
    for e in range(list_start[lst], list_start[lst + 1]):
        key = list_key[e]
        code = (<int64_t>slot * T1 + tok) * nkeys + key
        it = where.find(code)
        if it != where.end():
            at = deref(it).second
            probs[at] = probs[at] + p * list_q[e]
        else:
            where[code] = <int>probs.size()
            keys.push_back(key)
            toks.push_back(tok)
            probs.push_back(p * list_q[e])
            labels.push_back(label)
            slots.push_back(slot)


def roll_turns(const unsigned char[::1] codes, const double[:, :] q, const double[:] pj, const double[:] pc,
               const int64_t[:] m, int H, int K, int T1, banks, const int64_t[::1] stop_list,
               const int64_t[::1] loss_list, const double[::1] list_q, const int64_t[::1] list_key,
               const int64_t[::1] list_start, int64_t nkeys, list named, tuple names, outcome):
    """One plan rolled one by one from each of ``banks`` tokens (turn_batch._roll_many): the chances carried
    die by die over (hazards shown, dice secured, tokens held) in the order the Python dicts keep them, each
    outcome list met (``stop_list[point]``, ``loss_list[point]``: rows of the lists ``list_q``/``list_key``
    from ``list_start``) merged per starting count. Returns, in the order met, (slot of the starting count,
    key, tokens, chance, label: 0 stop, 1 canon, 2 loss), made into one list of outcomes per starting count
    (``named[key]``: seconds, next state, loss; ``names[label]``; ``outcome``: the Outcome class)."""
    cdef int L = q.shape[0] - 1, K1 = K + 1, B = len(banks)
    cdef int n = H * K1 * T1
    cdef int i, j, h, k, tok, x, st, act, mj, c, idx, nidx, slot
    cdef double p, pjj, pcj, rest, qx
    cdef vector[int64_t] keys, toks, labels, slots
    cdef vector[double] probs
    cdef vector[int] order, fresh
    cdef vector[double] mass, nxt
    cdef unordered_map[int64_t, int] where
    cdef int slot_of[256]
    if q.shape[1] != XMAX or T1 > 256:
        raise ValueError("sizes outside the compiled layout")
    mass.resize(n, 0.0)
    nxt.resize(n, 0.0)
    cdef vector[char] seen
    seen.resize(n, 0)
    for slot in range(T1):
        slot_of[slot] = -1
    for slot in range(B):
        tok = banks[slot]
        slot_of[tok] = slot
        idx = tok                                  # (h 0, k 0, tok)
        mass[idx] = 1.0
        order.push_back(idx)
    for i in range(L + 1):
        fresh.clear()
        for idx in order:
            p = mass[idx]
            mass[idx] = 0.0
            h = idx // (K1 * T1)
            k = (idx // T1) % K1
            tok = idx % T1
            act = codes[((i * H + h) * K1 + k) * T1 + tok] if i < L else 0
            slot = slot_of[tok + k * (k + 1) // 2]
            if act == 0:
                _emit(slot, p, <int>stop_list[i], tok, 0, list_q, list_key, list_start, nkeys, T1, where,
                      keys, toks, probs, labels, slots)
                continue
            j = i + 1
            if act == 2:
                mj = <int>m[j]
                c = mj * k + mj * (mj + 1) // 2
                nidx = (h * K1 + k + mj) * T1 + tok - c
                if not seen[nidx]:
                    seen[nidx] = 1
                    fresh.push_back(nidx)
                nxt[nidx] = nxt[nidx] + p
                continue
            pjj = pj[j]
            pcj = pc[j]
            if pcj != 0.0:
                _emit(slot, p * pcj, <int>stop_list[j], tok, 1, list_q, list_key, list_start, nkeys, T1, where,
                      keys, toks, probs, labels, slots)
            if pjj != 0.0:
                _emit(slot, p * (1 - pcj) * pjj, <int>loss_list[j], tok, 2, list_q, list_key, list_start, nkeys, T1,
                      where, keys, toks, probs, labels, slots)
            rest = p * (1 - pcj) * (1 - pjj)
            for x in range(XMAX):
                qx = q[j, x]
                if qx == 0.0:
                    continue
                if h + x >= H:
                    _emit(slot, rest * qx, <int>loss_list[j], tok, 2, list_q, list_key, list_start, nkeys, T1,
                          where, keys, toks, probs, labels, slots)
                else:
                    nidx = ((h + x) * K1 + k) * T1 + tok
                    if not seen[nidx]:
                        seen[nidx] = 1
                        fresh.push_back(nidx)
                    nxt[nidx] = nxt[nidx] + rest * qx
        order.swap(fresh)
        for idx in order:
            mass[idx] = nxt[idx]
            nxt[idx] = 0.0
            seen[idx] = 0
    return _build(slots, keys, toks, probs, labels, B, named, names, outcome)


def merge(const int64_t[::1] ev_slot, const double[::1] ev_p, const int64_t[::1] ev_list, const int64_t[::1] ev_tok,
          const int64_t[::1] ev_label, const double[::1] list_q, const int64_t[::1] list_key,
          const int64_t[::1] list_start, int64_t nkeys, int T1, int B, list named, tuple names, outcome):
    """Outcome lists met one after the other (event e: list ``ev_list[e]`` with chance ``ev_p[e]``, tokens
    ``ev_tok[e]``, for ``ev_slot[e]``) merged per slot as :func:`roll_turns` merges them: the same (slot, key,
    tokens, chance, label) entries, in the order met, made into one list of outcomes for each of the ``B``
    slots as :func:`roll_turns` makes them."""
    cdef vector[int64_t] keys, toks, labels, slots
    cdef vector[double] probs
    cdef unordered_map[int64_t, int] where
    cdef int e
    for e in range(ev_slot.shape[0]):
        _emit(<int>ev_slot[e], ev_p[e], <int>ev_list[e], <int>ev_tok[e], <int>ev_label[e], list_q, list_key,
              list_start, nkeys, T1, where, keys, toks, probs, labels, slots)
    return _build(slots, keys, toks, probs, labels, B, named, names, outcome)
