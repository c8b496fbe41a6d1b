# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Table-driven poker hand evaluator (imported as ``pokerroom._evaluator``).

Theory of operation
-------------------
Every card contributes one 64-bit *key* and one bit of a *suit-major mask*;
a hand is the sum of its cards' keys and the OR of their bits, so a hand can be
built incrementally (enumeration adds one card per loop level).

Key layout::

    bits  0..38   rank counts, 3 bits per rank (deuce lowest); a sum of
                  ``1 << 3*rank`` per card, injective for every rank multiset
    bits 48..63   suit counters, one nibble per suit, starting at 3, so a
                  nibble reaches 8 (bit 3 set) exactly when a suit has 5 cards

Mask layout: bit ``16*suit + rank``, so ``mask >> 16*suit & 0x1fff`` is the set
of ranks held in one suit.

Evaluation: if a suit counter has its high bit set, the hand's value is
``FLUSH_VALUE[ranks of that suit]`` (8,192 entries; with at most 7 cards a
flush excludes full houses and quads, so the flush path alone is exact).
Otherwise the value depends only on the rank multiset, and each hand size has
its own perfect hash of the multisets of that size (6,175 / 18,395 / 49,205 for
5 / 6 / 7 cards): one multiply hashes the key; the hash alone picks a *window*
of two cache lines of two-byte slots, and the displacement of the key's bucket
(keys sharing top hash bits) picks the slot within the window. As the window
is known before the displacement is read, a lone lookup fetches both at once
(see ``_lookup``). The 7-card table is 128 KB of slots plus 16 KB of
displacements. All tables are built here at import from first principles, in
C, in a few tens of milliseconds; nothing generated is kept in git.

A single-hand call returns its value as one of 7,463 int objects made once, at
import, in a static array in value order (``pr_make_values``): no allocation,
and the object's address is arithmetic on the value.

Values run from 1 (seven-high) to 7462 (royal flush): one value per
equivalence class of five-card hands, a bigger value wins.

Rules of where state lives: the tables are module globals written only by
``_build_tables`` at import and read-only afterwards, so the ``nogil`` loops
may read them from any thread.
"""

from operator import index as _operator_index

from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int64_t, int32_t
from libc.stdlib cimport malloc, calloc, free, qsort
from libc.string cimport memset
from cpython.object cimport PyObject

cdef extern from "Python.h":
    bint PyList_CheckExact(object)
    bint PyTuple_CheckExact(object)
    bint PyLong_CheckExact(PyObject*)
    Py_ssize_t PySequence_Fast_GET_SIZE(object)
    PyObject** PySequence_Fast_ITEMS(object)
    PyObject* PyList_GET_ITEM(object, Py_ssize_t)
    list PyList_New(Py_ssize_t)
    void PyList_SET_ITEM(object, Py_ssize_t, object)
    void Py_INCREF(object)
cimport cython
from cython.parallel cimport prange, parallel, threadid

import numpy as np
cimport numpy as cnp

cnp.import_array()

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline int pr_ctz64(unsigned long long x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
    static __inline int pr_popcount64(unsigned long long x) { return (int)__popcnt64(x); }
    #else
    static inline int pr_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int pr_popcount64(unsigned long long x) { return __builtin_popcountll(x); }
    #endif
    #ifdef _OPENMP
    #include <omp.h>
    static int pr_max_threads(void) { return omp_get_max_threads(); }
    #else
    static int pr_max_threads(void) { return 1; }
    #endif
    """
    int pr_ctz64(unsigned long long x) nogil
    int pr_popcount64(unsigned long long x) nogil
    int pr_max_threads() nogil

cdef extern from *:
    """
    /* The value of an exact int known to be small, or -1. CPython keeps such
       ints "compact" (one digit); reading it directly skips a call per card. */
    #if PY_VERSION_HEX >= 0x030C0000
    static inline long pr_card_of(PyObject* o) {
        return _PyLong_IsCompact((PyLongObject*)o) ? (long)_PyLong_CompactValue((PyLongObject*)o) : -1;
    }
    #else
    static inline long pr_card_of(PyObject* o) {
        /* Branch-free (card 0 is the one int of size 0, so a branch on the
           size would be mispredicted in one hand in eight): size 1 gives its
           digit, size 0 zero (the digit masked off), and any other size sets
           bit 6 or above, so the result is no card. An int always has room
           for one digit, so the read is safe. */
        Py_ssize_t size = Py_SIZE(o);
        unsigned long digit = ((PyLongObject*)o)->ob_digit[0];
        return (long)((digit & (0UL - (unsigned long)size)) | ((unsigned long)(size >> 1) << 6));
    }
    #endif
    """
    long pr_card_of(PyObject* o) nogil

cdef extern from *:
    """
    /* Every hand value 0..7462 as a ready int object, so a single-hand call
       returns one without allocating. They sit in one static array in value
       order: the object for value v is found by address arithmetic rather
       than through a table of pointers, which saves a dependent load from
       memory that the cache rarely holds. Each is a byte copy of the int
       CPython made for v, given a reference count so large it never reaches
       zero (on 3.12+ that makes it immortal), so CPython never frees it.
       Free-threaded builds lay objects out differently: there the ints CPython
       made are kept in a table of pointers. */
    #define PR_NUM_VALUES 7463
    #if defined(Py_GIL_DISABLED)
    static PyObject* pr_values[PR_NUM_VALUES];
    static int pr_make_values(void) {
        for (long v = 0; v < PR_NUM_VALUES; v++) {
            if (pr_values[v] == NULL && (pr_values[v] = PyLong_FromLong(v)) == NULL)
                return -1;
        }
        return 0;
    }
    static inline PyObject* pr_value_object(int v) { return Py_NewRef(pr_values[v]); }
    #else
    #if defined(_MSC_VER)
    static __declspec(align(64)) PyLongObject pr_values[PR_NUM_VALUES];
    #else
    static PyLongObject pr_values[PR_NUM_VALUES] __attribute__((aligned(64)));
    #endif
    #if PY_VERSION_HEX >= 0x030C0000
    #define PR_ONE_DIGIT_BYTES (offsetof(PyLongObject, long_value.ob_digit) + sizeof(digit))
    #else
    #define PR_ONE_DIGIT_BYTES (offsetof(PyLongObject, ob_digit) + sizeof(digit))
    #endif
    static int pr_make_values(void) {
        for (long v = 0; v < PR_NUM_VALUES; v++) {
            PyObject* made;
            if (Py_TYPE((PyObject*)&pr_values[v]) != NULL)
                continue;                          /* already made (module imported again) */
            made = PyLong_FromLong(v);
            if (made == NULL)
                return -1;
            memcpy(&pr_values[v], made, PR_ONE_DIGIT_BYTES);
            Py_DECREF(made);
            Py_SET_REFCNT((PyObject*)&pr_values[v], PY_SSIZE_T_MAX / 2);
        }
        return 0;
    }
    static inline PyObject* pr_value_object(int v) {
        PyObject* o = (PyObject*)&pr_values[v];
        Py_INCREF(o);
        return o;
    }
    #endif
    static inline void pr_list_set_value(PyObject* list, Py_ssize_t i, int v) {
        PyList_SET_ITEM(list, i, pr_value_object(v));
    }
    """
    int pr_make_values() except -1
    object pr_value_object(int v)
    void pr_list_set_value(object lst, Py_ssize_t i, int v)

# ---------------------------------------------------------------------------
# Layout constants

cdef enum:
    NUM_CLASSES = 7462
    # Buckets of keys that share a displacement in each rank perfect hash
    # (see _lookup): 1,024 / 4,096 / 8,192 for 5 / 6 / 7 cards.
    RANK5_BUCKET_BITS = 10
    RANK6_BUCKET_BITS = 12
    RANK7_BUCKET_BITS = 13
    MAX_TIE_SHARE = 2520        # lcm(1..9): a tie among k hands earns 2520/k units
    BATCH_BLOCK = 4096

cdef extern from *:
    """
    #define PR_SUIT_START (0x3333ULL << 48)
    #define PR_FLUSH_BITS (0x8888ULL << 48)
    #define PR_RANK_BITS ((1ULL << 39) - 1)
    #define PR_NEXT_CARD_ALL_SUITS (0x1111ULL << 48)
    #define PR_HASH_MUL 0x9E3779B97F4A7C15ULL
    #define PR_INVALID_BITS (1ULL << 15)
    """
    # compile-time constants (immediates in the hot paths, not loads)
    const uint64_t SUIT_START "PR_SUIT_START"
    const uint64_t FLUSH_BITS "PR_FLUSH_BITS"
    const uint64_t RANK_BITS "PR_RANK_BITS"
    const uint64_t NEXT_CARD_ALL_SUITS "PR_NEXT_CARD_ALL_SUITS"   # one more card in every suit
    const uint64_t HASH_MUL "PR_HASH_MUL"
    const uint64_t INVALID_BITS "PR_INVALID_BITS"   # a bit no real card has

# Padded to 64 entries: entries 52..63 set a bit no real card has, so the
# branch-free single-hand path can reject them with one test at the end.
cdef uint64_t CARD_KEY[64]
cdef uint64_t CARD_BIT[64]
cdef uint16_t FLUSH_VALUE[8192]
cdef extern from *:
    """
    /* The rank perfect hashes' value tables: 32 two-byte slots per cache
       line (6,175 / 18,395 / 49,205 multisets in 256 / 768 / 2,048 lines,
       three quarters full). Each starts on a cache line, so a window of two
       lines of slots is two cache lines; one line more than the windows'
       starts, as a window may begin on the last line. */
    #define PR_SLOTS_PER_LINE 32
    #define PR_RANK5_LINES 256
    #define PR_RANK6_LINES 768
    #define PR_RANK7_LINES 2048
    #if defined(_MSC_VER)
    #define PR_LINE_ALIGNED(decl) __declspec(align(64)) decl
    #else
    #define PR_LINE_ALIGNED(decl) decl __attribute__((aligned(64)))
    #endif
    PR_LINE_ALIGNED(static uint16_t pr_rank5_value[(PR_RANK5_LINES + 1) * PR_SLOTS_PER_LINE]);
    PR_LINE_ALIGNED(static uint16_t pr_rank6_value[(PR_RANK6_LINES + 1) * PR_SLOTS_PER_LINE]);
    PR_LINE_ALIGNED(static uint16_t pr_rank7_value[(PR_RANK7_LINES + 1) * PR_SLOTS_PER_LINE]);
    #if defined(__GNUC__) || defined(__clang__)
    #define pr_prefetch(p) __builtin_prefetch((p), 0, 3)
    #else
    #define pr_prefetch(p) ((void)(p))
    #endif
    """
    enum:
        SLOTS_PER_LINE "PR_SLOTS_PER_LINE"
        RANK5_LINES "PR_RANK5_LINES"
        RANK6_LINES "PR_RANK6_LINES"
        RANK7_LINES "PR_RANK7_LINES"
    uint16_t RANK5_VALUE "pr_rank5_value"[1]   # sizes: see the C declarations above
    uint16_t RANK6_VALUE "pr_rank6_value"[1]
    uint16_t RANK7_VALUE "pr_rank7_value"[1]
    void pr_prefetch(const void* p) nogil
cdef uint16_t RANK5_DISPLACEMENT[1 << RANK5_BUCKET_BITS]
cdef uint16_t RANK6_DISPLACEMENT[1 << RANK6_BUCKET_BITS]
cdef uint16_t RANK7_DISPLACEMENT[1 << RANK7_BUCKET_BITS]
cdef uint32_t CLASS_STRENGTH[7463]   # value -> strength code (category << 20 | ranks)

# Strength code of a five-card class: category in bits 20..23, then up to five
# ranks (4 bits each, most significant first). Codes sort like hands.
cdef enum:
    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8


cdef inline uint32_t _code(int category, int r1, int r2, int r3, int r4, int r5) noexcept nogil:
    return (<uint32_t>category << 20) | (r1 << 16) | (r2 << 12) | (r3 << 8) | (r4 << 4) | r5


cdef int _straight_top(uint32_t ranks) noexcept nogil:
    """Top rank of the best straight in a 13-bit rank set, or -1."""
    cdef int top
    for top in range(12, 3, -1):
        if (ranks >> (top - 4)) & 0x1f == 0x1f:
            return top
    if ranks & 0x100f == 0x100f:       # A-2-3-4-5: five-high
        return 3
    return -1


cdef uint32_t _flush_code(uint32_t ranks) noexcept nogil:
    cdef int top = _straight_top(ranks)
    cdef int picked[5]
    cdef int n = 0, r
    if top >= 0:
        return _code(STRAIGHT_FLUSH, top, 0, 0, 0, 0)
    r = 12
    while n < 5:
        if ranks >> r & 1:
            picked[n] = r
            n += 1
        r -= 1
    return _code(FLUSH, picked[0], picked[1], picked[2], picked[3], picked[4])


cdef uint32_t _rank_code(const int* counts) noexcept nogil:
    """Best five-card strength code of a 5-7 card rank multiset with no flush."""
    cdef int r, quad = -1, trips = -1, pair1 = -1, pair2 = -1
    cdef uint32_t present = 0
    cdef int kick[5]
    cdef int nk = 0, top
    for r in range(12, -1, -1):
        if counts[r]:
            present |= 1u << r
        if counts[r] == 4 and quad < 0:
            quad = r
        elif counts[r] == 3 and trips < 0:
            trips = r
        elif counts[r] >= 2:
            if pair1 < 0:
                pair1 = r
            elif pair2 < 0:
                pair2 = r
    if quad >= 0:
        for r in range(12, -1, -1):
            if r != quad and counts[r]:
                return _code(FOUR_OF_A_KIND, quad, r, 0, 0, 0)
    if trips >= 0:
        # a second set of trips counts as the pair of a full house
        for r in range(12, -1, -1):
            if r != trips and counts[r] >= 2:
                return _code(FULL_HOUSE, trips, r, 0, 0, 0)
    top = _straight_top(present)
    if top >= 0:
        return _code(STRAIGHT, top, 0, 0, 0, 0)
    for r in range(12, -1, -1):
        if counts[r] and r != trips and r != pair1 and r != pair2 and nk < 5:
            kick[nk] = r
            nk += 1
    if trips >= 0:
        return _code(THREE_OF_A_KIND, trips, kick[0], kick[1], 0, 0)
    if pair2 >= 0:
        # the best kicker may be a third pair's rank
        for r in range(12, -1, -1):
            if counts[r] and r != pair1 and r != pair2:
                return _code(TWO_PAIR, pair1, pair2, r, 0, 0)
    if pair1 >= 0:
        return _code(ONE_PAIR, pair1, kick[0], kick[1], kick[2], 0)
    return _code(HIGH_CARD, kick[0], kick[1], kick[2], kick[3], kick[4])


# ---------------------------------------------------------------------------
# Perfect hashes of the rank key, one per hand size

cdef inline uint32_t _window(uint64_t h, uint32_t lines) noexcept nogil:
    """First slot of a hashed key's window: two cache lines, the first picked by the hash alone."""
    return <uint32_t>((((h >> 16) & 0xFFFFFFFFULL) * lines) >> 32) * SLOTS_PER_LINE


cdef inline uint32_t _offset(uint64_t h, uint32_t displacement) noexcept nogil:
    """Where in its window (0..63) a hashed key sits, given its bucket's displacement."""
    return (<uint32_t>h + displacement * (<uint32_t>(h >> 24) | 1)) >> 26


cdef inline int _lookup(const uint16_t* values, uint32_t lines, const uint16_t* displacement,
                        int bucket_bits, uint64_t h, bint alone) noexcept nogil:
    cdef const uint16_t* window = values + _window(h, lines)
    if alone:
        # A lone lookup (evaluate's one hand per call, showdown's few hands
        # between reads of Python objects) waits for each memory read in turn.
        # The window depends on the hash only, so both of its lines are
        # requested while the displacement is still being read, and the two
        # reads overlap. Tight loops over many hands overlap their lookups
        # anyway and would only pay for the extra traffic: alone=False.
        pr_prefetch(window)
        pr_prefetch(window + SLOTS_PER_LINE)
    return window[_offset(h, displacement[h >> (64 - bucket_bits)])]


cdef inline int _rank_value(uint64_t rank_key, int cards, bint alone) noexcept nogil:
    """Value of a rank multiset of ``cards`` (5, 6 or 7) cards that holds no flush."""
    cdef uint64_t h = rank_key * HASH_MUL
    if cards == 7:
        return _lookup(RANK7_VALUE, RANK7_LINES, RANK7_DISPLACEMENT, RANK7_BUCKET_BITS, h, alone)
    if cards == 6:
        return _lookup(RANK6_VALUE, RANK6_LINES, RANK6_DISPLACEMENT, RANK6_BUCKET_BITS, h, alone)
    return _lookup(RANK5_VALUE, RANK5_LINES, RANK5_DISPLACEMENT, RANK5_BUCKET_BITS, h, alone)


cdef inline int _value(uint64_t key, uint64_t mask, int cards, bint alone) noexcept nogil:
    """Value of a hand of ``cards`` cards: its key (from SUIT_START) and mask."""
    cdef uint64_t f = key & FLUSH_BITS
    cdef int suit
    if f:
        suit = (pr_ctz64(f) - 51) >> 2
        return FLUSH_VALUE[(mask >> (16 * suit)) & 0x1fff]
    return _rank_value(key & RANK_BITS, cards, alone)


cdef int _cmp_u32(const void* a, const void* b) noexcept nogil:
    cdef uint32_t x = (<const uint32_t*>a)[0]
    cdef uint32_t y = (<const uint32_t*>b)[0]
    return (x > y) - (x < y)


cdef int _value_of_code(const uint32_t* sorted_codes, uint32_t code) noexcept nogil:
    cdef int lo = 0, hi = NUM_CLASSES - 1, mid
    while lo <= hi:
        mid = (lo + hi) >> 1
        if sorted_codes[mid] == code:
            return mid + 1
        if sorted_codes[mid] < code:
            lo = mid + 1
        else:
            hi = mid - 1
    return 0


cdef int _collect_multisets(int rank, int left, int* counts, int total,
                            uint64_t* keys, uint32_t* codes, int n, int min_cards) noexcept nogil:
    """Walk every rank multiset (at most 4 of a rank, at most 7 cards)."""
    cdef int c, r
    cdef uint64_t key
    if rank < 0:
        if total >= min_cards:
            key = 0
            for r in range(13):
                key += (<uint64_t>counts[r]) << (3 * r)
            keys[n] = key
            codes[n] = _rank_code(counts)
            n += 1
        return n
    for c in range(0, 5):
        if c > left:
            break
        counts[rank] = c
        n = _collect_multisets(rank - 1, left - c, counts, total + c, keys, codes, n, min_cards)
    counts[rank] = 0
    return n


cdef int _build_tables() except -1:
    cdef int i, r, s, n, k
    cdef int counts[13]
    cdef uint32_t m
    cdef uint32_t* all_codes = NULL
    cdef uint64_t* keys = NULL
    cdef uint32_t* codes = NULL

    for i in range(52):
        r = i >> 2
        s = i & 3
        CARD_KEY[i] = (1ULL << (3 * r)) + (1ULL << (48 + 4 * s))
        CARD_BIT[i] = 1ULL << (16 * s + r)
    for i in range(52, 64):
        CARD_KEY[i] = 0
        CARD_BIT[i] = INVALID_BITS

    try:
        all_codes = <uint32_t*>malloc(8192 * sizeof(uint32_t))
        keys = <uint64_t*>malloc(50000 * sizeof(uint64_t))
        codes = <uint32_t*>malloc(50000 * sizeof(uint32_t))
        if all_codes == NULL or keys == NULL or codes == NULL:
            raise MemoryError()
        # The 7,462 classes: every five-card rank multiset without a flush, plus
        # every five distinct ranks as a flush.
        memset(counts, 0, sizeof(counts))
        n = _collect_multisets(12, 5, counts, 0, keys, codes, 0, 5)
        k = 0
        for i in range(n):
            all_codes[k] = codes[i]
            k += 1
        for m in range(8192):
            if pr_popcount64(m) == 5:
                all_codes[k] = _flush_code(m)
                k += 1
        qsort(all_codes, k, sizeof(uint32_t), _cmp_u32)
        if k != NUM_CLASSES:
            raise RuntimeError(f"evaluator tables: {k} classes, expected 7462")
        for i in range(NUM_CLASSES):
            if i and all_codes[i] == all_codes[i - 1]:
                raise RuntimeError("evaluator tables: duplicate class")
            CLASS_STRENGTH[i + 1] = all_codes[i]
        CLASS_STRENGTH[0] = 0

        for m in range(8192):
            FLUSH_VALUE[m] = _value_of_code(all_codes, _flush_code(m)) if pr_popcount64(m) >= 5 else 0

        # Every 5-, 6- and 7-card rank multiset into the perfect hash of its size.
        memset(counts, 0, sizeof(counts))
        n = _collect_multisets(12, 5, counts, 0, keys, codes, 0, 5)
        _build_hash(keys, codes, n, 6175, all_codes,
                    RANK5_VALUE, RANK5_LINES, RANK5_DISPLACEMENT, RANK5_BUCKET_BITS)
        memset(counts, 0, sizeof(counts))
        n = _collect_multisets(12, 6, counts, 0, keys, codes, 0, 6)
        _build_hash(keys, codes, n, 18395, all_codes,
                    RANK6_VALUE, RANK6_LINES, RANK6_DISPLACEMENT, RANK6_BUCKET_BITS)
        memset(counts, 0, sizeof(counts))
        n = _collect_multisets(12, 7, counts, 0, keys, codes, 0, 7)
        _build_hash(keys, codes, n, 49205, all_codes,
                    RANK7_VALUE, RANK7_LINES, RANK7_DISPLACEMENT, RANK7_BUCKET_BITS)
    finally:
        free(keys)
        free(codes)
        free(all_codes)
    return 0


cdef int _build_hash(const uint64_t* keys, const uint32_t* codes, int n, int expected,
                     const uint32_t* all_codes, uint16_t* values, uint32_t lines,
                     uint16_t* displacement, int bucket_bits) except -1:
    """Hash-and-displace: place each bucket of keys, fullest first, at the first
    displacement that sends all of them to distinct free slots of their windows."""
    cdef int i, b, k, d, s, r, ok, bucket_size, placed = 0
    cdef int buckets = 1 << bucket_bits
    cdef int* bucket_of = NULL
    cdef int* start = NULL
    cdef int* order = NULL
    cdef int* members = NULL
    cdef uint8_t* used = NULL
    cdef uint64_t h
    cdef uint32_t slots[64]
    if n != expected:
        raise RuntimeError(f"evaluator tables: {n} rank multisets, expected {expected}")
    try:
        bucket_of = <int*>malloc(n * sizeof(int))
        start = <int*>calloc(buckets + 1, sizeof(int))
        order = <int*>malloc(buckets * sizeof(int))
        members = <int*>malloc(n * sizeof(int))
        used = <uint8_t*>calloc((lines + 1) * SLOTS_PER_LINE, 1)
        if bucket_of == NULL or start == NULL or order == NULL or members == NULL or used == NULL:
            raise MemoryError()
        for i in range(n):
            bucket_of[i] = <int>((keys[i] * HASH_MUL) >> (64 - bucket_bits))
            start[bucket_of[i] + 1] += 1
        for b in range(buckets):
            start[b + 1] += start[b]
            order[b] = 0
        for i in range(n):           # counting sort of keys by bucket
            members[start[bucket_of[i]] + order[bucket_of[i]]] = i
            order[bucket_of[i]] += 1
        k = 0
        for bucket_size in range(63, 0, -1):
            for b in range(buckets):
                if start[b + 1] - start[b] == bucket_size:
                    order[k] = b
                    k += 1
        for i in range(k):
            b = order[i]
            bucket_size = start[b + 1] - start[b]
            for d in range(65536):
                ok = 1
                for s in range(bucket_size):
                    h = keys[members[start[b] + s]] * HASH_MUL
                    slots[s] = _window(h, lines) + _offset(h, d)
                    if used[slots[s]]:
                        ok = 0
                        break
                    for r in range(s):
                        if slots[r] == slots[s]:
                            ok = 0
                            break
                    if not ok:
                        break
                if ok:
                    displacement[b] = d
                    for s in range(bucket_size):
                        used[slots[s]] = 1
                        values[slots[s]] = _value_of_code(all_codes, codes[members[start[b] + s]])
                    placed += bucket_size
                    break
            else:
                raise RuntimeError("evaluator tables: perfect hash did not converge")
    finally:
        free(bucket_of); free(start); free(order); free(members); free(used)
    if placed != n:
        raise RuntimeError(f"evaluator tables: {placed} rank multisets placed, expected {n}")
    return 0


_build_tables()

# Every value as a ready int object (see pr_make_values): a single-hand call
# returns one of these instead of allocating.
pr_make_values()

TABLE_BYTES = (sizeof(RANK5_VALUE) + sizeof(RANK5_DISPLACEMENT) + sizeof(RANK6_VALUE)
               + sizeof(RANK6_DISPLACEMENT) + sizeof(RANK7_VALUE) + sizeof(RANK7_DISPLACEMENT)
               + sizeof(FLUSH_VALUE) + sizeof(CLASS_STRENGTH))


# ---------------------------------------------------------------------------
# Reading cards from Python. The fast path takes a list or tuple of ints; any
# problem raises ValueError naming it, never a wrong answer.

cdef struct Hand:
    uint64_t key
    uint64_t mask      # suit-major bits, also the duplicate check


cdef int _add_card(Hand* hand, object item) except -1:
    cdef long c
    if type(item) is bool:
        raise ValueError(f"not a card: {item!r} (cards are ints 0..51)")
    if isinstance(item, str):
        index = _parse_card(item)
    else:
        try:
            index = _operator_index(item)
        except (TypeError, AttributeError):
            raise ValueError(f"not a card: {item!r} (cards are ints 0..51 or text like 'As')") from None
    if not 0 <= index <= 51:
        raise ValueError(f"not a card: {index!r} (cards are ints 0..51)")
    c = index
    if hand.mask & CARD_BIT[c]:
        raise ValueError(f"duplicate card {_card_text(c)}")
    hand.mask |= CARD_BIT[c]
    hand.key += CARD_KEY[c]
    return 0


def _as_tuple(cards, what):
    """A private copy of a sequence: later reads cannot be changed under us."""
    if isinstance(cards, str):
        return _parse_cards(cards)
    try:
        return tuple(cards)
    except TypeError:
        raise ValueError(f"{what} must be a sequence of cards, not {type(cards).__name__}") from None


def _parse_card(text):
    from pokerroom.cards import parse_card
    return parse_card(text)


def _parse_cards(text):
    from pokerroom.cards import parse
    return parse(text)


def _card_text(c):
    return "23456789TJQKA"[c >> 2] + "cdhs"[c & 3]


cdef inline bint _read_cards(PyObject** items, int n, Hand* hand) noexcept:
    """Key and mask of n exact-int items, branch-free; False if any is not a
    card 0..51 or a card repeats (then the slow path names the problem)."""
    cdef int i
    cdef unsigned long c, worst = 0
    cdef uint64_t bit, bit_sum = 0, key = SUIT_START, mask = 0
    cdef PyObject* item
    for i in range(n):
        item = items[i]
        c = <unsigned long>pr_card_of(item) if PyLong_CheckExact(item) else 64
        worst |= c
        c &= 63         # anything past 51 reads a padding entry
        bit = CARD_BIT[c]
        mask |= bit
        bit_sum += bit
        key += CARD_KEY[c]
    hand.key = key
    hand.mask = mask
    # Every card an int 0..51 (worst < 64 and no padding entry's bit), none
    # twice: one-bit masks add up to their OR only when no bit repeats.
    return ((worst >> 6) | (bit_sum ^ mask) | (mask & INVALID_BITS)) == 0


@cython.binding(False)
@cython.always_allow_keywords(False)
def evaluate(cards):
    """Value of the best five-card hand within 5, 6 or 7 cards; bigger wins.

    ``cards`` is a list/tuple of card ints (``pokerroom.cards`` layout) or card
    text like ``"AsKdQh7c2d"``. Values are 1..7462, one per class of hands.
    """
    cdef Hand hand
    cdef Py_ssize_t n
    if PyTuple_CheckExact(cards) or PyList_CheckExact(cards):
        # Straight-line path for each size (the card loop unrolls): no branch
        # per card. Anything odd falls through to the slow path.
        n = PySequence_Fast_GET_SIZE(cards)
        if n == 7:
            if _read_cards(PySequence_Fast_ITEMS(cards), 7, &hand):
                return pr_value_object(_value(hand.key, hand.mask, 7, True))
        elif n == 6:
            if _read_cards(PySequence_Fast_ITEMS(cards), 6, &hand):
                return pr_value_object(_value(hand.key, hand.mask, 6, True))
        elif n == 5:
            if _read_cards(PySequence_Fast_ITEMS(cards), 5, &hand):
                return pr_value_object(_value(hand.key, hand.mask, 5, True))
    return _evaluate_slow(cards)


cdef object _evaluate_slow(object cards):
    """Any other input to ``evaluate``: card text, other iterables, or a problem to name."""
    cdef Hand hand
    cdef int n
    cdef uint64_t keys[7]
    cdef uint64_t masks[7]
    hand.key = SUIT_START
    hand.mask = 0
    n = _split(&hand, cards, 5, 7, "a hand", keys, masks)
    return pr_value_object(_value(hand.key, hand.mask, n, True))


cdef int _omaha_value(const uint64_t* hole_key, const uint64_t* hole_mask, int nhole,
                      const uint64_t* board_key, const uint64_t* board_mask, int nboard) noexcept nogil:
    """Best hand using exactly two hole cards and exactly three board cards."""
    cdef int i, j, a, b, c, v, best = 0
    cdef uint64_t tk[10]
    cdef uint64_t tm[10]
    cdef int nt = 0
    cdef uint64_t pk, pm
    for a in range(nboard):
        for b in range(a + 1, nboard):
            for c in range(b + 1, nboard):
                tk[nt] = board_key[a] + board_key[b] + board_key[c]
                tm[nt] = board_mask[a] | board_mask[b] | board_mask[c]
                nt += 1
    for i in range(nhole):
        for j in range(i + 1, nhole):
            pk = SUIT_START + hole_key[i] + hole_key[j]
            pm = hole_mask[i] | hole_mask[j]
            for a in range(nt):
                v = _value(pk + tk[a], pm | tm[a], 5, False)
                if v > best:
                    best = v
    return best


cdef int _split(Hand* hand, object cards, int lo, int hi, object what,
                uint64_t* keys, uint64_t* masks) except -1:
    """Read cards one by one, keeping each card's key and bit (Omaha needs them).

    ``what`` names the cards in errors: a phrase, or a hand number. It is only
    formatted when something is wrong, so the common path allocates nothing.
    """
    cdef Py_ssize_t i, n
    cdef long c
    cdef PyObject** items
    cdef uint64_t seen = hand.mask, key = hand.key
    if PyList_CheckExact(cards) or PyTuple_CheckExact(cards):
        n = PySequence_Fast_GET_SIZE(cards)
        if lo <= n <= hi:
            items = PySequence_Fast_ITEMS(cards)
            for i in range(n):
                if not PyLong_CheckExact(items[i]):
                    break
                c = pr_card_of(items[i])
                if <unsigned long>c > 51 or seen & CARD_BIT[c]:
                    break
                seen |= CARD_BIT[c]
                key += CARD_KEY[c]
                keys[i] = CARD_KEY[c]
                masks[i] = CARD_BIT[c]
            else:
                hand.mask = seen
                hand.key = key
                return <int>n
    return _split_slow(hand, cards, lo, hi, what, keys, masks)


cdef int _split_slow(Hand* hand, object cards, int lo, int hi, object what,
                     uint64_t* keys, uint64_t* masks) except -1:
    cdef Py_ssize_t i
    cdef int n
    cdef uint64_t before_key, before_mask
    label = f"hand {what}" if isinstance(what, int) else what
    cards = _as_tuple(cards, label)
    n = len(cards)
    if n < lo or n > hi:
        need = str(lo) if lo == hi else f"{lo} to {hi}"
        raise ValueError(f"wrong number of cards in {label}: got {n}, need {need}")
    for i in range(n):
        before_key = hand.key
        before_mask = hand.mask
        _add_card(hand, cards[i])
        keys[i] = hand.key - before_key
        masks[i] = hand.mask ^ before_mask
    return n


def evaluate_omaha(hole, board):
    """Omaha value: exactly two of the 4-6 hole cards with exactly three of the 3-5 board cards."""
    cdef Hand hand
    cdef uint64_t hk[6]
    cdef uint64_t hm[6]
    cdef uint64_t bk[5]
    cdef uint64_t bm[5]
    cdef int nh, nb
    hand.key = 0
    hand.mask = 0
    nh = _split(&hand, hole, 4, 6, "an Omaha hand", hk, hm)
    nb = _split(&hand, board, 3, 5, "the board", bk, bm)
    return _omaha_value(hk, hm, nh, bk, bm, nb)


def _hands_of(holes):
    """The hands as a private tuple, or ValueError.

    Each hand is read later by ``_split``, whose fast path runs no Python code
    and whose slow path copies first, so only the outer container is copied.
    """
    if isinstance(holes, str):
        raise ValueError("hands must be a list of hands, e.g. ['AsKd', 'QhQc']")
    try:
        return tuple(holes)
    except TypeError:
        raise ValueError(f"hands must be a list of hands, not {type(holes).__name__}") from None


def _looks_like_omaha(first_hand):
    return len(_as_tuple(first_hand, "hand 1")) >= 4


def showdown(board, holes, omaha=None):
    """Values of several hands against one board, in one call.

    Hold'em hands have 2 hole cards; Omaha hands 4-6 (``omaha`` is inferred from
    the first hand when not given). Returns one value per hand, in order; the
    biggest wins. All cards across the board and hands must be distinct.
    """
    cdef Hand table
    cdef Hand hand
    cdef uint64_t bk[5]
    cdef uint64_t bm[5]
    cdef uint64_t hk[6]
    cdef uint64_t hm[6]
    cdef int nb, nh, lo, hi, v
    cdef Py_ssize_t i, nholes
    cdef uint64_t seen
    holes = _hands_of(holes)
    nholes = len(holes)
    if nholes == 0:
        raise ValueError("showdown needs at least one hand")
    if omaha is None:
        omaha = _looks_like_omaha(holes[0])
    table.key = 0
    table.mask = 0
    if omaha:
        lo, hi = 4, 6
        nb = _split(&table, board, 3, 5, "the board", bk, bm)
    else:
        lo, hi = 2, 2
        nb = _split(&table, board, 3, 5, "the board", bk, bm)
    seen = table.mask
    cdef list out = PyList_New(nholes)
    for i in range(nholes):
        hand.key = 0
        hand.mask = seen
        nh = _split(&hand, holes[i], lo, hi, i + 1, hk, hm)
        seen = hand.mask
        if omaha:
            v = _omaha_value(hk, hm, nh, bk, bm, nb)
        else:
            v = _value(SUIT_START + table.key + hk[0] + hk[1], table.mask | hm[0] | hm[1], nb + 2, True)
        pr_list_set_value(out, i, v)
    return out


cdef inline Py_ssize_t _batch_rows(const uint8_t* cards, int width, int32_t* out,
                                   Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """Evaluate rows lo..hi; a bad row gets 0. Returns how many were bad."""
    cdef Py_ssize_t i, bad = 0
    cdef const uint8_t* row
    cdef int j, c, ok
    cdef uint64_t key, mask
    for i in range(lo, hi):
        row = cards + i * width
        key = SUIT_START
        mask = 0
        ok = 1
        for j in range(width):
            c = row[j]
            if c > 51 or mask & CARD_BIT[c]:
                ok = 0
                break
            key += CARD_KEY[c]
            mask |= CARD_BIT[c]
        if ok:
            out[i] = _value(key, mask, width, False)
        else:
            out[i] = 0
            bad += 1
    return bad


cdef Py_ssize_t _batch_block(const uint8_t* cards, int width, int32_t* out,
                             Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    # one loop per width, each with a constant width: the card loop unrolls
    # and each uses its own table without a test per hand
    if width == 7:
        return _batch_rows(cards, 7, out, lo, hi)
    if width == 6:
        return _batch_rows(cards, 6, out, lo, hi)
    return _batch_rows(cards, 5, out, lo, hi)


def evaluate_batch(hands):
    """Values of many hands at once: a 2-D array (n, 5..7) of card ints.

    Takes a NumPy array or anything with the buffer protocol; returns an int32
    array. Runs without the GIL (on every core when built with OpenMP). A bad
    row (card out of range or a duplicate) raises ValueError naming the row.
    """
    arr = np.asarray(hands)
    if arr.ndim != 2 or not 5 <= arr.shape[1] <= 7:
        raise ValueError(f"hands must be a 2-D array of shape (n, 5..7), got shape {arr.shape}")
    if arr.dtype != np.uint8:
        if arr.dtype.kind not in "iu":
            raise ValueError(f"hands must hold integer cards, not {arr.dtype}")
        if arr.size and (arr.min() < 0 or arr.max() > 51):
            row = int(np.argmax(((arr < 0) | (arr > 51)).any(axis=1)))
            raise ValueError(f"hand {row}: not a card (cards are ints 0..51)")
        arr = arr.astype(np.uint8)
    cdef const uint8_t[:, ::1] view = np.ascontiguousarray(arr)
    cdef Py_ssize_t n = view.shape[0]
    cdef int width = view.shape[1]
    out = np.empty(n, dtype=np.int32)
    cdef int32_t[::1] result = out
    cdef Py_ssize_t block, blocks = (n + BATCH_BLOCK - 1) // BATCH_BLOCK
    cdef Py_ssize_t bad = 0
    if n:
        with nogil:
            for block in prange(blocks, schedule="static"):
                bad += _batch_block(&view[0, 0], width, &result[0], block * BATCH_BLOCK,
                                    min(n, (block + 1) * BATCH_BLOCK))
    if bad:
        first_bad = int(np.argmax(out == 0))
        raise ValueError(f"hand {first_bad}: a card is out of range or repeated")
    return out


cdef inline void _last_card(int start, uint64_t key, uint64_t mask, int cards,
                            int64_t* histogram) noexcept nogil:
    cdef int c, r
    if (key + NEXT_CARD_ALL_SUITS) & FLUSH_BITS:
        for c in range(start, 52):
            histogram[_value(key + CARD_KEY[c], mask | CARD_BIT[c], cards, False)] += 1
    else:
        # No suit has four cards, so the last card cannot make a flush and
        # the value depends on its rank alone: one lookup per rank, counted
        # once for each card of that rank still to come (cards run in rank
        # order, and none of them is in the hand yet).
        key &= RANK_BITS
        r = start >> 2
        if r < 13:
            histogram[_rank_value(key + (CARD_KEY[start] & RANK_BITS), cards, False)] += 4 - (start & 3)
        for r in range(r + 1, 13):
            histogram[_rank_value(key + (CARD_KEY[4 * r] & RANK_BITS), cards, False)] += 4


cdef void _enumerate_level(int start, int left, int cards, uint64_t key, uint64_t mask,
                           int64_t* histogram) noexcept nogil:
    cdef int c
    if left == 1:
        # constant sizes, so each loop uses its own table without a test per card
        if cards == 7:
            _last_card(start, key, mask, 7, histogram)
        elif cards == 6:
            _last_card(start, key, mask, 6, histogram)
        else:
            _last_card(start, key, mask, 5, histogram)
        return
    for c in range(start, 53 - left):
        _enumerate_level(c + 1, left - 1, cards, key + CARD_KEY[c], mask | CARD_BIT[c], histogram)


def enumerate_all(size):
    """Histogram of values over every hand of ``size`` (5, 6 or 7) cards.

    Evaluates each of the C(52, size) hands (133,784,560 for seven cards)
    without the GIL; ``result[v]`` counts hands of value ``v``.
    """
    if type(size) is not int or not 5 <= size <= 7:
        raise ValueError(f"wrong number of cards: got {size!r}, need 5 to 7")
    cdef int threads = pr_max_threads()
    cdef int64_t[:, ::1] local = np.zeros((threads, NUM_CLASSES + 1), dtype=np.int64)
    cdef int first, tid = 0
    cdef int cards = size
    with nogil, parallel(num_threads=threads):
        tid = threadid()
        for first in prange(53 - cards, schedule="dynamic", chunksize=1):
            _enumerate_level(first + 1, cards - 1, cards, SUIT_START + CARD_KEY[first], CARD_BIT[first],
                             &local[tid, 0])
    return np.asarray(local).sum(axis=0)


# ---------------------------------------------------------------------------
# Exact all-in equity by enumerating every remaining board.

cdef struct Contest:
    int players
    int omaha
    int nhole
    uint64_t hole_key[9][6]
    uint64_t hole_mask[9][6]
    uint64_t hand_key[9]        # Hold'em: both hole cards summed
    uint64_t hand_mask[9]
    uint64_t board_key[5]
    uint64_t board_mask[5]
    int deck[52]
    int deck_size


cdef inline void _score_board(const Contest* ct, const uint64_t* bk, const uint64_t* bm,
                              uint64_t board_sum, uint64_t board_or, int64_t* tally) noexcept nogil:
    """Tally one complete board: tally[p] wins, tally[9 + p] tie units, tally[18] boards."""
    cdef int p, v, best = -1, winners = 0, first = 0
    cdef int values[9]
    for p in range(ct.players):
        if ct.omaha:
            v = _omaha_value(ct.hole_key[p], ct.hole_mask[p], ct.nhole, bk, bm, 5)
        else:
            v = _value(board_sum + ct.hand_key[p], board_or | ct.hand_mask[p], 7, False)
        values[p] = v
        if v > best:
            best = v
            winners = 1
            first = p
        elif v == best:
            winners += 1
    tally[18] += 1
    if winners == 1:
        tally[first] += 1
    else:
        for p in range(ct.players):
            if values[p] == best:
                tally[9 + p] += MAX_TIE_SHARE // winners


cdef void _deal_board(const Contest* ct, int start, int dealt, uint64_t* bk, uint64_t* bm,
                      uint64_t board_sum, uint64_t board_or, int64_t* tally) noexcept nogil:
    cdef int i, c
    cdef uint64_t local_k[5]
    cdef uint64_t local_m[5]
    if dealt == 5:
        _score_board(ct, bk, bm, board_sum, board_or, tally)
        return
    for i in range(dealt):
        local_k[i] = bk[i]
        local_m[i] = bm[i]
    for i in range(start, ct.deck_size - (4 - dealt)):
        c = ct.deck[i]
        local_k[dealt] = CARD_KEY[c]
        local_m[dealt] = CARD_BIT[c]
        _deal_board(ct, i + 1, dealt + 1, local_k, local_m, board_sum + CARD_KEY[c],
                    board_or | CARD_BIT[c], tally)


def equity_counts(holes, board, dead):
    """(boards, wins[], tie_units[]) for 2-9 hands; see pokerroom.evaluator.equity."""
    cdef Contest ct
    cdef Hand seen
    cdef int p, i, c, nb, omaha, first, tid = 0
    cdef uint64_t board_sum, board_or
    cdef uint64_t dead_key[52]
    cdef uint64_t dead_mask[52]
    holes = _hands_of(holes)
    if not 2 <= len(holes) <= 9:
        raise ValueError(f"equity needs 2 to 9 hands, got {len(holes)}")
    omaha = _looks_like_omaha(holes[0])
    ct.players = len(holes)
    ct.omaha = omaha
    seen.key = 0
    seen.mask = 0
    _nhole_prev = 0
    for p in range(ct.players):
        if omaha:
            ct.nhole = _split(&seen, holes[p], 4, 6, p + 1, ct.hole_key[p], ct.hole_mask[p])
            if p and ct.nhole != _nhole_prev:
                raise ValueError("every Omaha hand in an equity must hold the same number of cards")
            _nhole_prev = ct.nhole
        else:
            ct.nhole = _split(&seen, holes[p], 2, 2, p + 1, ct.hole_key[p], ct.hole_mask[p])
            ct.hand_key[p] = ct.hole_key[p][0] + ct.hole_key[p][1]
            ct.hand_mask[p] = ct.hole_mask[p][0] | ct.hole_mask[p][1]
    nb = _split(&seen, board, 0, 5, "the board", ct.board_key, ct.board_mask)
    if nb in (1, 2):
        raise ValueError(f"a board has 0, 3, 4 or 5 cards, got {nb}")
    _split(&seen, dead, 0, 52, "the dead cards", dead_key, dead_mask)
    ct.deck_size = 0
    for c in range(52):
        if not seen.mask & CARD_BIT[c]:
            ct.deck[ct.deck_size] = c
            ct.deck_size += 1
    if ct.deck_size < 5 - nb:
        raise ValueError("not enough cards left in the deck to complete the board")
    board_sum = SUIT_START
    board_or = 0
    for i in range(nb):
        board_sum += ct.board_key[i]
        board_or |= ct.board_mask[i]

    cdef int threads = pr_max_threads()
    cdef int64_t[:, ::1] tally = np.zeros((threads, 19), dtype=np.int64)
    cdef int remaining = ct.deck_size - (4 - nb)
    if nb == 5:
        _score_board(&ct, ct.board_key, ct.board_mask, board_sum, board_or, &tally[0, 0])
    else:
        with nogil, parallel(num_threads=threads):
            tid = threadid()
            for first in prange(remaining, schedule="dynamic", chunksize=1):
                _deal_first(&ct, first, nb, board_sum, board_or, &tally[tid, 0])
    total = np.asarray(tally).sum(axis=0)
    players = ct.players
    return int(total[18]), [int(x) for x in total[:players]], [int(x) for x in total[9:9 + players]]


cdef inline int _flush_suit(uint64_t six_card_key) noexcept nogil:
    """Which river suit could bring a flush: -2 any (one is made), -1 none, else that suit."""
    cdef uint64_t f
    if six_card_key & FLUSH_BITS:
        return -2
    f = (six_card_key + NEXT_CARD_ALL_SUITS) & FLUSH_BITS
    if f:
        return (pr_ctz64(f) - 51) >> 2      # six cards hold at most one four-flush
    return -1


cdef void _holdem_last_card(const Contest* ct, int start, uint64_t bs, uint64_t bo,
                            int64_t* tally) noexcept nogil:
    """Every river from ``start`` on, for Hold'em; two players have their own loop.

    A river that cannot complete a flush for a player gives that player a value
    that depends only on the river's rank, and the deck runs in rank order, so
    such values are looked up once per rank rather than once per card.
    """
    cdef int i, c, r, suit, v0 = 0, v1 = 0, last_rank = -1
    cdef int rank_v0 = 0, rank_v1 = 0, flush0, flush1
    cdef uint64_t hk0 = ct.hand_key[0], hk1 = ct.hand_key[1]
    cdef uint64_t hm0 = ct.hand_mask[0], hm1 = ct.hand_mask[1]
    cdef uint64_t rk0, rk1
    cdef int64_t w0 = 0, w1 = 0, ties = 0
    if ct.players != 2:
        for i in range(start, ct.deck_size):
            c = ct.deck[i]
            _score_board(ct, NULL, NULL, bs + CARD_KEY[c], bo | CARD_BIT[c], tally)
        return
    flush0 = _flush_suit(bs + hk0)
    flush1 = _flush_suit(bs + hk1)
    rk0 = (bs + hk0) & RANK_BITS
    rk1 = (bs + hk1) & RANK_BITS
    for i in range(start, ct.deck_size):
        c = ct.deck[i]
        r = c >> 2
        suit = c & 3
        if r != last_rank:
            last_rank = r
            rank_v0 = _rank_value(rk0 + (CARD_KEY[c] & RANK_BITS), 7, False)
            rank_v1 = _rank_value(rk1 + (CARD_KEY[c] & RANK_BITS), 7, False)
        if flush0 == -1 or (flush0 >= 0 and suit != flush0):
            v0 = rank_v0
        else:
            v0 = _value(bs + CARD_KEY[c] + hk0, bo | CARD_BIT[c] | hm0, 7, False)
        if flush1 == -1 or (flush1 >= 0 and suit != flush1):
            v1 = rank_v1
        else:
            v1 = _value(bs + CARD_KEY[c] + hk1, bo | CARD_BIT[c] | hm1, 7, False)
        w0 += v0 > v1
        w1 += v1 > v0
        ties += v0 == v1
    tally[0] += w0
    tally[1] += w1
    tally[9] += ties * (MAX_TIE_SHARE // 2)
    tally[10] += ties * (MAX_TIE_SHARE // 2)
    tally[18] += w0 + w1 + ties


cdef void _holdem_deal(const Contest* ct, int start, int left, uint64_t bs, uint64_t bo,
                       int64_t* tally) noexcept nogil:
    cdef int i, c
    if left == 0:
        _score_board(ct, NULL, NULL, bs, bo, tally)
    elif left == 1:
        _holdem_last_card(ct, start, bs, bo, tally)
    else:
        for i in range(start, ct.deck_size - left + 1):
            c = ct.deck[i]
            _holdem_deal(ct, i + 1, left - 1, bs + CARD_KEY[c], bo | CARD_BIT[c], tally)


cdef void _deal_first(const Contest* ct, int first, int nb, uint64_t board_sum, uint64_t board_or,
                      int64_t* tally) noexcept nogil:
    cdef uint64_t bk[5]
    cdef uint64_t bm[5]
    cdef int i, c = ct.deck[first]
    if not ct.omaha:
        _holdem_deal(ct, first + 1, 4 - nb, board_sum + CARD_KEY[c], board_or | CARD_BIT[c], tally)
        return
    for i in range(nb):
        bk[i] = ct.board_key[i]
        bm[i] = ct.board_mask[i]
    bk[nb] = CARD_KEY[c]
    bm[nb] = CARD_BIT[c]
    _deal_board(ct, first + 1, nb + 1, bk, bm, board_sum + CARD_KEY[c], board_or | CARD_BIT[c], tally)


def class_strengths():
    """Strength code of each value 1..7462 (index 0 unused): category << 20 | ranks."""
    return [CLASS_STRENGTH[i] for i in range(NUM_CLASSES + 1)]


def max_threads():
    return pr_max_threads()
