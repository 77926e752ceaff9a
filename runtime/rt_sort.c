/* argsort along the middle dim of [outer, n, inner] (see rt_sort.h).
 *
 * Paddle 2.6's CPU argsort copies each line into (value, position) pairs and
 * calls std::sort with a comparator on the value alone, so which of two equal
 * values comes first is decided by the steps of libstdc++'s std::sort.  To
 * give the same indices, SORT() below takes those steps one for one
 * (bits/stl_algo.h, bits/stl_heap.h):
 *   introsort_loop  while more than 16 pairs remain: the median of
 *                   first+1, middle and last-1 becomes the pivot at first,
 *                   an unguarded Hoare partition splits the rest, the right
 *                   part recurses and the left part loops; after
 *                   2*floor(log2(n)) levels a heap sort finishes the range;
 *   final_insertion an insertion sort of the first 16 pairs, then an
 *                   unguarded insertion of each later one. */
#include <math.h>
#include <string.h>

#include "rt_sort.h"

/* SORT(name, T, ISNAN): rt_argsort_<name> for element type T. */
#define SORT(name, T, ISNAN)                                                                          \
  typedef struct {                                                                                    \
    T v;       /* the value */                                                                        \
    int64_t i; /* its position in the line */                                                         \
  } Pair_##name;                                                                                      \
  _Static_assert(sizeof(Pair_##name) <= 16, "RT_ARGSORT_WORK_BYTES is too small");                   \
  /* Paddle's comparator: a before b. */                                                              \
  static int lt_##name(Pair_##name a, Pair_##name b, int desc) {                                      \
    if (desc) return (ISNAN(a.v) && !ISNAN(b.v)) || a.v > b.v;                                       \
    return (!ISNAN(a.v) && ISNAN(b.v)) || a.v < b.v;                                                  \
  }                                                                                                   \
  static void swap_##name(Pair_##name *a, Pair_##name *b) {                                           \
    Pair_##name t = *a;                                                                               \
    *a = *b;                                                                                          \
    *b = t;                                                                                           \
  }                                                                                                   \
  /* __unguarded_linear_insert */                                                                     \
  static void linear_insert_##name(Pair_##name *last, int desc) {                                     \
    Pair_##name val = *last, *next = last - 1;                                                        \
    while (lt_##name(val, *next, desc)) {                                                             \
      *last = *next;                                                                                  \
      last = next--;                                                                                  \
    }                                                                                                 \
    *last = val;                                                                                      \
  }                                                                                                   \
  /* __insertion_sort */                                                                              \
  static void insertion_##name(Pair_##name *first, Pair_##name *last, int desc) {                     \
    if (first == last) return;                                                                        \
    for (Pair_##name *i = first + 1; i != last; i++) {                                                \
      if (lt_##name(*i, *first, desc)) {                                                              \
        Pair_##name val = *i;                                                                         \
        memmove(first + 1, first, (size_t)(i - first) * sizeof *i);                                   \
        *first = val;                                                                                 \
      } else {                                                                                        \
        linear_insert_##name(i, desc);                                                                \
      }                                                                                               \
    }                                                                                                 \
  }                                                                                                   \
  /* __push_heap */                                                                                   \
  static void push_heap_##name(Pair_##name *first, int64_t hole, int64_t top, Pair_##name val, int desc) { \
    int64_t parent = (hole - 1) / 2;                                                                  \
    while (hole > top && lt_##name(first[parent], val, desc)) {                                       \
      first[hole] = first[parent];                                                                    \
      hole = parent;                                                                                  \
      parent = (hole - 1) / 2;                                                                        \
    }                                                                                                 \
    first[hole] = val;                                                                                \
  }                                                                                                   \
  /* __adjust_heap */                                                                                 \
  static void adjust_heap_##name(Pair_##name *first, int64_t hole, int64_t len, Pair_##name val, int desc) { \
    const int64_t top = hole;                                                                         \
    int64_t child = hole;                                                                             \
    while (child < (len - 1) / 2) {                                                                   \
      child = 2 * (child + 1);                                                                        \
      if (lt_##name(first[child], first[child - 1], desc)) child--;                                   \
      first[hole] = first[child];                                                                     \
      hole = child;                                                                                   \
    }                                                                                                 \
    if ((len & 1) == 0 && child == (len - 2) / 2) {                                                   \
      child = 2 * (child + 1);                                                                        \
      first[hole] = first[child - 1];                                                                 \
      hole = child - 1;                                                                               \
    }                                                                                                 \
    push_heap_##name(first, hole, top, val, desc);                                                    \
  }                                                                                                   \
  /* __make_heap then __sort_heap (__partial_sort with middle == last) */                             \
  static void heap_sort_##name(Pair_##name *first, Pair_##name *last, int desc) {                     \
    int64_t len = last - first;                                                                       \
    if (len < 2) return;                                                                              \
    for (int64_t parent = (len - 2) / 2;; parent--) {                                                 \
      adjust_heap_##name(first, parent, len, first[parent], desc);                                    \
      if (parent == 0) break;                                                                         \
    }                                                                                                 \
    while (last - first > 1) { /* __pop_heap(first, last, last) */                                   \
      last--;                                                                                         \
      Pair_##name val = *last;                                                                        \
      *last = *first;                                                                                 \
      adjust_heap_##name(first, 0, last - first, val, desc);                                          \
    }                                                                                                 \
  }                                                                                                   \
  /* __move_median_to_first */                                                                        \
  static void median_to_first_##name(Pair_##name *result, Pair_##name *a, Pair_##name *b, Pair_##name *c, \
                                     int desc) {                                                      \
    if (lt_##name(*a, *b, desc)) {                                                                    \
      if (lt_##name(*b, *c, desc)) swap_##name(result, b);                                            \
      else if (lt_##name(*a, *c, desc)) swap_##name(result, c);                                       \
      else swap_##name(result, a);                                                                    \
    } else if (lt_##name(*a, *c, desc)) {                                                             \
      swap_##name(result, a);                                                                         \
    } else if (lt_##name(*b, *c, desc)) {                                                             \
      swap_##name(result, c);                                                                         \
    } else {                                                                                          \
      swap_##name(result, b);                                                                         \
    }                                                                                                 \
  }                                                                                                   \
  /* __unguarded_partition around *pivot */                                                           \
  static Pair_##name *partition_##name(Pair_##name *first, Pair_##name *last, const Pair_##name *pivot, \
                                       int desc) {                                                    \
    for (;;) {                                                                                        \
      while (lt_##name(*first, *pivot, desc)) first++;                                                \
      last--;                                                                                         \
      while (lt_##name(*pivot, *last, desc)) last--;                                                  \
      if (!(first < last)) return first;                                                              \
      swap_##name(first, last);                                                                       \
      first++;                                                                                        \
    }                                                                                                 \
  }                                                                                                   \
  /* __introsort_loop */                                                                              \
  static void introsort_##name(Pair_##name *first, Pair_##name *last, int depth, int desc) {          \
    while (last - first > 16) {                                                                       \
      if (depth == 0) {                                                                               \
        heap_sort_##name(first, last, desc);                                                          \
        return;                                                                                       \
      }                                                                                               \
      depth--;                                                                                        \
      median_to_first_##name(first, first + 1, first + (last - first) / 2, last - 1, desc);           \
      Pair_##name *cut = partition_##name(first + 1, last, first, desc);                              \
      introsort_##name(cut, last, depth, desc);                                                       \
      last = cut;                                                                                     \
    }                                                                                                 \
  }                                                                                                   \
  /* std::sort */                                                                                     \
  static void sort_##name(Pair_##name *first, Pair_##name *last, int desc) {                          \
    if (first == last) return;                                                                        \
    introsort_##name(first, last, 2 * floor_log2(last - first), desc);                                \
    if (last - first > 16) {                                                                          \
      insertion_##name(first, first + 16, desc);                                                      \
      for (Pair_##name *i = first + 16; i != last; i++) linear_insert_##name(i, desc);                \
    } else {                                                                                          \
      insertion_##name(first, last, desc);                                                            \
    }                                                                                                 \
  }                                                                                                   \
  void rt_argsort_##name(const T *x, int64_t outer, int64_t n, int64_t inner, int descending, T *vals,  \
                         int64_t *idx, void *work) {                                                  \
    Pair_##name *line = work;                                                                         \
    for (int64_t o = 0; o < outer; o++)                                                               \
      for (int64_t i = 0; i < inner; i++) {                                                           \
        const int64_t base = o * n * inner + i;                                                       \
        for (int64_t j = 0; j < n; j++) line[j] = (Pair_##name){x[base + j * inner], j};              \
        sort_##name(line, line + n, descending);                                                      \
        for (int64_t j = 0; j < n; j++) {                                                             \
          vals[base + j * inner] = line[j].v;                                                         \
          idx[base + j * inner] = line[j].i;                                                          \
        }                                                                                             \
      }                                                                                               \
  }

/* std::__lg: floor(log2(n)) for n > 0. */
static int floor_log2(int64_t n) {
  int k = 0;
  while (n > 1) {
    n >>= 1;
    k++;
  }
  return k;
}

#define FLOAT_NAN(v) isnan(v)
#define INT_NAN(v) 0

SORT(f32, float, FLOAT_NAN)
SORT(f64, double, FLOAT_NAN)
SORT(i32, int32_t, INT_NAN)
SORT(i64, int64_t, INT_NAN)
