/* libstdc++'s sorting algorithms on (value, position) pairs, and argsort
 * along the middle dim of [outer, n, inner] (see rt_sort.h).
 *
 * Paddle 2.6's CPU kernels copy each line into (value, position) pairs and
 * call std::sort, std::partial_sort or std::nth_element with a comparator on
 * the value alone, so which of two equal values comes first -- and, for
 * nth_element, which pairs end up where -- is decided by the steps of
 * libstdc++ (bits/stl_algo.h, bits/stl_heap.h; Paddle 2.6's wheel is built
 * with GCC 8).  To give the same indices, STL() below takes those steps one
 * for one, each function named after the routine it mirrors (checked pair
 * for pair against GCC 12's std:: algorithms, their depth-limit fallbacks
 * included, and against Paddle's topk/argsort outputs):
 *   std::sort         __introsort_loop while more than 16 pairs remain: the
 *                     median of first+1, middle and last-1 becomes the pivot
 *                     at first, an unguarded Hoare partition splits the
 *                     rest, the right part recurses and the left part loops;
 *                     after 2*floor(log2(n)) levels a heap sort
 *                     (__partial_sort over the whole range) finishes it;
 *                     then __final_insertion_sort: an insertion sort of the
 *                     first 16 pairs and an unguarded insertion of each
 *                     later one;
 *   std::partial_sort __heap_select (a heap of the first `middle` pairs with
 *                     the last in order at the root; each later pair that
 *                     goes before the root replaces it), then __sort_heap;
 *   std::nth_element  __introselect: while more than 3 pairs remain, the
 *                     same pivot and partition as introsort, keeping the
 *                     part that holds nth; after 2*floor(log2(n)) rounds a
 *                     __heap_select up to nth and a swap of nth with first
 *                     finish it; otherwise an insertion sort of what is
 *                     left.
 * Positions count from 0 (iterators are pointers, distances int64_t). */
#include <math.h>
#include <string.h>

#include "rt_sort.h"

/* std::__lg: floor(log2(n)) for n > 0. */
static int floor_log2(int64_t n) {
  int k = 0;
  while (n > 1) {
    n >>= 1;
    k++;
  }
  return k;
}

/* STL(name, NAME, T, ISNAN): the algorithms on RtSortPair<NAME> and
 * rt_argsort_<name>, for element type T. */
#define STL(name, NAME, T, ISNAN)                                                                     \
  typedef RtSortPair##NAME Pair_##name;                                                               \
  _Static_assert(sizeof(Pair_##name) <= 16, "RT_ARGSORT_WORK_BYTES is too small");                   \
  /* The comparator comp(a, b): a goes before b (RtSortOrder). */                                     \
  static int lt_##name(Pair_##name a, Pair_##name b, RtSortOrder order) {                             \
    switch (order) {                                                                                  \
    case RT_SORT_ASC:                                                                                 \
      return (!ISNAN(a.v) && ISNAN(b.v)) || a.v < b.v;                                                \
    case RT_SORT_DESC:                                                                                \
      return (ISNAN(a.v) && !ISNAN(b.v)) || a.v > b.v;                                                \
    case RT_SORT_GT:                                                                                  \
      break;                                                                                          \
    }                                                                                                 \
    return a.v > b.v;                                                                                 \
  }                                                                                                   \
  /* std::iter_swap */                                                                                \
  static void swap_##name(Pair_##name *a, Pair_##name *b) {                                           \
    Pair_##name t = *a;                                                                               \
    *a = *b;                                                                                          \
    *b = t;                                                                                           \
  }                                                                                                   \
  /* __unguarded_linear_insert */                                                                     \
  static void linear_insert_##name(Pair_##name *last, RtSortOrder order) {                            \
    Pair_##name val = *last, *next = last - 1;                                                        \
    while (lt_##name(val, *next, order)) {                                                            \
      *last = *next;                                                                                  \
      last = next--;                                                                                  \
    }                                                                                                 \
    *last = val;                                                                                      \
  }                                                                                                   \
  /* __insertion_sort */                                                                              \
  static void insertion_##name(Pair_##name *first, Pair_##name *last, RtSortOrder order) {            \
    if (first == last) return;                                                                        \
    for (Pair_##name *i = first + 1; i != last; i++) {                                                \
      if (lt_##name(*i, *first, order)) {                                                             \
        Pair_##name val = *i;                                                                         \
        memmove(first + 1, first, (size_t)(i - first) * sizeof *i); /* std::move_backward */          \
        *first = val;                                                                                 \
      } else {                                                                                        \
        linear_insert_##name(i, order);                                                               \
      }                                                                                               \
    }                                                                                                 \
  }                                                                                                   \
  /* __push_heap */                                                                                   \
  static void push_heap_##name(Pair_##name *first, int64_t hole, int64_t top, Pair_##name val,        \
                               RtSortOrder order) {                                                   \
    int64_t parent = (hole - 1) / 2;                                                                  \
    while (hole > top && lt_##name(first[parent], val, order)) {                                      \
      first[hole] = first[parent];                                                                    \
      hole = parent;                                                                                  \
      parent = (hole - 1) / 2;                                                                        \
    }                                                                                                 \
    first[hole] = val;                                                                                \
  }                                                                                                   \
  /* __adjust_heap */                                                                                 \
  static void adjust_heap_##name(Pair_##name *first, int64_t hole, int64_t len, Pair_##name val,      \
                                 RtSortOrder order) {                                                 \
    const int64_t top = hole;                                                                         \
    int64_t child = hole;                                                                             \
    while (child < (len - 1) / 2) {                                                                   \
      child = 2 * (child + 1);                                                                        \
      if (lt_##name(first[child], first[child - 1], order)) child--;                                  \
      first[hole] = first[child];                                                                     \
      hole = child;                                                                                   \
    }                                                                                                 \
    if ((len & 1) == 0 && child == (len - 2) / 2) {                                                   \
      child = 2 * (child + 1);                                                                        \
      first[hole] = first[child - 1];                                                                 \
      hole = child - 1;                                                                               \
    }                                                                                                 \
    push_heap_##name(first, hole, top, val, order);                                                   \
  }                                                                                                   \
  /* __make_heap */                                                                                   \
  static void make_heap_##name(Pair_##name *first, Pair_##name *last, RtSortOrder order) {            \
    const int64_t len = last - first;                                                                 \
    if (len < 2) return;                                                                              \
    for (int64_t parent = (len - 2) / 2;; parent--) {                                                 \
      adjust_heap_##name(first, parent, len, first[parent], order);                                   \
      if (parent == 0) return;                                                                        \
    }                                                                                                 \
  }                                                                                                   \
  /* __pop_heap: *result's pair sifts into the heap [first, last) in place of                        \
   * the root, which moves to *result. */                                                             \
  static void pop_heap_##name(Pair_##name *first, Pair_##name *last, Pair_##name *result,             \
                              RtSortOrder order) {                                                    \
    Pair_##name val = *result;                                                                        \
    *result = *first;                                                                                 \
    adjust_heap_##name(first, 0, last - first, val, order);                                           \
  }                                                                                                   \
  /* __heap_select */                                                                                 \
  static void heap_select_##name(Pair_##name *first, Pair_##name *middle, Pair_##name *last,          \
                                 RtSortOrder order) {                                                 \
    make_heap_##name(first, middle, order);                                                           \
    for (Pair_##name *i = middle; i < last; i++)                                                      \
      if (lt_##name(*i, *first, order)) pop_heap_##name(first, middle, i, order);                     \
  }                                                                                                   \
  /* __sort_heap */                                                                                   \
  static void sort_heap_##name(Pair_##name *first, Pair_##name *last, RtSortOrder order) {            \
    while (last - first > 1) {                                                                        \
      last--;                                                                                         \
      pop_heap_##name(first, last, last, order);                                                      \
    }                                                                                                 \
  }                                                                                                   \
  /* __partial_sort */                                                                                \
  static void partial_sort_##name(Pair_##name *first, Pair_##name *middle, Pair_##name *last,         \
                                  RtSortOrder order) {                                                \
    heap_select_##name(first, middle, last, order);                                                   \
    sort_heap_##name(first, middle, order);                                                           \
  }                                                                                                   \
  /* __move_median_to_first */                                                                        \
  static void median_to_first_##name(Pair_##name *result, Pair_##name *a, Pair_##name *b, Pair_##name *c, \
                                     RtSortOrder order) {                                             \
    if (lt_##name(*a, *b, order)) {                                                                   \
      if (lt_##name(*b, *c, order)) swap_##name(result, b);                                           \
      else if (lt_##name(*a, *c, order)) swap_##name(result, c);                                      \
      else swap_##name(result, a);                                                                    \
    } else if (lt_##name(*a, *c, order)) {                                                            \
      swap_##name(result, a);                                                                         \
    } else if (lt_##name(*b, *c, order)) {                                                            \
      swap_##name(result, c);                                                                         \
    } else {                                                                                          \
      swap_##name(result, b);                                                                         \
    }                                                                                                 \
  }                                                                                                   \
  /* __unguarded_partition around *pivot */                                                           \
  static Pair_##name *partition_##name(Pair_##name *first, Pair_##name *last, const Pair_##name *pivot, \
                                       RtSortOrder order) {                                           \
    for (;;) {                                                                                        \
      while (lt_##name(*first, *pivot, order)) first++;                                               \
      last--;                                                                                         \
      while (lt_##name(*pivot, *last, order)) last--;                                                 \
      if (!(first < last)) return first;                                                              \
      swap_##name(first, last);                                                                       \
      first++;                                                                                        \
    }                                                                                                 \
  }                                                                                                   \
  /* __unguarded_partition_pivot */                                                                   \
  static Pair_##name *partition_pivot_##name(Pair_##name *first, Pair_##name *last, RtSortOrder order) { \
    median_to_first_##name(first, first + 1, first + (last - first) / 2, last - 1, order);            \
    return partition_##name(first + 1, last, first, order);                                           \
  }                                                                                                   \
  /* __introsort_loop */                                                                              \
  static void introsort_##name(Pair_##name *first, Pair_##name *last, int depth, RtSortOrder order) { \
    while (last - first > 16) {                                                                       \
      if (depth == 0) {                                                                               \
        partial_sort_##name(first, last, last, order);                                                \
        return;                                                                                       \
      }                                                                                               \
      depth--;                                                                                        \
      Pair_##name *cut = partition_pivot_##name(first, last, order);                                  \
      introsort_##name(cut, last, depth, order);                                                      \
      last = cut;                                                                                     \
    }                                                                                                 \
  }                                                                                                   \
  /* __introselect */                                                                                 \
  static void introselect_##name(Pair_##name *first, Pair_##name *nth, Pair_##name *last, int depth,  \
                                 RtSortOrder order) {                                                 \
    while (last - first > 3) {                                                                        \
      if (depth == 0) {                                                                               \
        heap_select_##name(first, nth + 1, last, order);                                              \
        swap_##name(first, nth); /* the nth pair in its final place */                                \
        return;                                                                                       \
      }                                                                                               \
      depth--;                                                                                        \
      Pair_##name *cut = partition_pivot_##name(first, last, order);                                  \
      if (cut <= nth) first = cut;                                                                    \
      else last = cut;                                                                                \
    }                                                                                                 \
    insertion_##name(first, last, order);                                                             \
  }                                                                                                   \
  /* std::sort: __introsort_loop, then __final_insertion_sort */                                      \
  void rt_stl_sort_##name(Pair_##name *p, int64_t n, RtSortOrder order) {                             \
    if (n <= 0) return;                                                                               \
    Pair_##name *first = p, *last = p + n;                                                            \
    introsort_##name(first, last, 2 * floor_log2(n), order);                                          \
    if (n > 16) {                                                                                     \
      insertion_##name(first, first + 16, order);                                                     \
      for (Pair_##name *i = first + 16; i != last; i++) linear_insert_##name(i, order);               \
    } else {                                                                                          \
      insertion_##name(first, last, order);                                                           \
    }                                                                                                 \
  }                                                                                                   \
  /* std::partial_sort */                                                                             \
  void rt_stl_partial_sort_##name(Pair_##name *p, int64_t middle, int64_t n, RtSortOrder order) {     \
    partial_sort_##name(p, p + middle, p + n, order);                                                 \
  }                                                                                                   \
  /* std::nth_element */                                                                              \
  void rt_stl_nth_element_##name(Pair_##name *p, int64_t nth, int64_t n, RtSortOrder order) {         \
    if (n <= 0 || nth == n) return;                                                                   \
    introselect_##name(p, p + nth, p + n, 2 * floor_log2(n), order);                                  \
  }                                                                                                   \
  void rt_argsort_##name(const T *x, int64_t outer, int64_t n, int64_t inner, int descending, T *vals,  \
                         int64_t *idx, void *work) {                                                  \
    Pair_##name *line = work;                                                                         \
    const RtSortOrder order = descending ? RT_SORT_DESC : RT_SORT_ASC;                                \
    for (int64_t o = 0; o < outer; o++)                                                               \
      for (int64_t i = 0; i < inner; i++) {                                                           \
        const int64_t base = o * n * inner + i;                                                       \
        for (int64_t j = 0; j < n; j++) line[j] = (Pair_##name){x[base + j * inner], j};              \
        rt_stl_sort_##name(line, n, order);                                                           \
        for (int64_t j = 0; j < n; j++) {                                                             \
          vals[base + j * inner] = line[j].v;                                                         \
          idx[base + j * inner] = line[j].i;                                                          \
        }                                                                                             \
      }                                                                                               \
  }

#define FLOAT_NAN(v) isnan(v)
#define INT_NAN(v) 0

/* cppcheck's cross-file check takes the heap index 0 (an int64_t) given to
 * adjust_heap for a null pointer that lt_ would dereference; lt_ takes its
 * Pairs by value and dereferences nothing. */
/* cppcheck-suppress ctunullpointer ; see above */
STL(f32, F32, float, FLOAT_NAN)
/* cppcheck-suppress ctunullpointer ; as above */
STL(f64, F64, double, FLOAT_NAN)
/* cppcheck-suppress ctunullpointer ; as above */
STL(i32, I32, int32_t, INT_NAN)
/* cppcheck-suppress ctunullpointer ; as above */
STL(i64, I64, int64_t, INT_NAN)
