# cython: language_level=3
"""A hash map from 64-bit keys to 64-bit ints for the compiled modules (C++): open addressing with linear probing
in flat vectors (no allocation per entry), emptied by the slots it filled; and a hash of a row of 64-bit words."""
from libc.stdint cimport int64_t, uint64_t
from libcpp cimport bool as cbool


cdef extern from *:
    """
    #include <vector>
    #include <cstdint>
    #include <cstring>
    /* A hash map from 64-bit keys (all but ~0) to 64-bit ints: open addressing, linear probing; cleared by the slots it
       filled, so a big map costs nothing to empty. */
    struct FlatMap {
        std::vector<uint64_t> keys;
        std::vector<int64_t> vals;
        std::vector<uint64_t> filled;
        uint64_t mask = 0;
        static inline uint64_t mix(uint64_t x) {
            x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33;
            return x;
        }
        void clear() {
            for (uint64_t s : filled) keys[s] = ~0ULL;
            filled.clear();
        }
        size_t size() const { return filled.size(); }
        void grow() {
            size_t cap = keys.size() ? 2 * keys.size() : 64;
            std::vector<uint64_t> old_keys(cap, ~0ULL);
            std::vector<int64_t> old_vals(cap);
            old_keys.swap(keys);
            old_vals.swap(vals);
            mask = cap - 1;
            std::vector<uint64_t> old_filled;
            old_filled.swap(filled);
            for (uint64_t s : old_filled) {
                uint64_t i = mix(old_keys[s]) & mask;
                while (keys[i] != ~0ULL) i = (i + 1) & mask;
                keys[i] = old_keys[s];
                vals[i] = old_vals[s];
                filled.push_back(i);
            }
        }
        /* the value of key k, or v stored for it when new (then *fresh is true) */
        int64_t insert(uint64_t k, int64_t v, bool* fresh) {
            if (2 * (filled.size() + 1) > keys.size()) grow();
            uint64_t i = mix(k) & mask;
            for (;;) {
                uint64_t kk = keys[i];
                if (kk == k) { *fresh = false; return vals[i]; }
                if (kk == ~0ULL) { keys[i] = k; vals[i] = v; filled.push_back(i); *fresh = true; return v; }
                i = (i + 1) & mask;
            }
        }
        int64_t find(uint64_t k) const {
            if (!keys.size()) return -1;
            uint64_t i = mix(k) & mask;
            for (;;) {
                uint64_t kk = keys[i];
                if (kk == k) return vals[i];
                if (kk == ~0ULL) return -1;
                i = (i + 1) & mask;
            }
        }
    };
    /* the hash of a row of 64-bit words (never ~0) */
    static inline uint64_t row_hash(const uint64_t* w, int n, uint64_t salt) {
        uint64_t h = 0x9e3779b97f4a7c15ULL ^ salt;
        for (int i = 0; i < n; i++) h = FlatMap::mix(h ^ w[i]) + 0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1);
        return h == ~0ULL ? 0 : h;
    }
    """
    cppclass FlatMap:
        void clear()
        size_t size()
        int64_t insert(uint64_t k, int64_t v, cbool* fresh)
        int64_t find(uint64_t k)
    uint64_t row_hash(const uint64_t* w, int n, uint64_t salt) nogil
    int memcmp(const void*, const void*, size_t) nogil
