/* bipartite_match (see rt_bipartite_match.h).
 *
 * From 130 rows on, Paddle sorts std::tuple<int, int, T>(row, column,
 * distance) with std::sort and the comparator "a's distance > b's", so the
 * order of equal distances is libstdc++'s: sort_pairs() below takes its
 * steps one for one (bits/stl_algo.h, bits/stl_heap.h): introsort loop
 * (median of first+1, middle, last-1 to first; unguarded Hoare partition;
 * right part recursed, left part looped; heap sort after 2*floor(log2(n))
 * levels) down to 16 elements, then a final insertion sort. */
#include <string.h>

#include "rt_bipartite_match.h"

typedef struct Pair {
  int32_t i; /* row */
  int32_t j; /* column */
  float d;   /* distance */
} Pair;
_Static_assert(sizeof(Pair) == 12, "RT_BIPARTITE_WORK_BYTES counts 12 bytes a pair");

/* Paddle's DistPairDescend: a before b. */
static int before(const Pair *a, const Pair *b) { return a->d > b->d; }

static void swap(Pair *a, Pair *b) {
  Pair t = *a;
  *a = *b;
  *b = t;
}

/* __unguarded_linear_insert */
static void linear_insert(Pair *last) {
  Pair val = *last, *next = last - 1;
  while (before(&val, next)) {
    *last = *next;
    last = next--;
  }
  *last = val;
}

/* __insertion_sort */
static void insertion(Pair *first, Pair *last) {
  if (first == last) return;
  for (Pair *i = first + 1; i != last; i++) {
    if (before(i, first)) {
      Pair val = *i;
      memmove(first + 1, first, (size_t)(i - first) * sizeof *i);
      *first = val;
    } else {
      linear_insert(i);
    }
  }
}

/* __adjust_heap with its __push_heap */
static void adjust_heap(Pair *first, int64_t hole, int64_t len, Pair val) {
  const int64_t top = hole;
  int64_t child = hole;
  while (child < (len - 1) / 2) {
    child = 2 * (child + 1);
    if (before(&first[child], &first[child - 1])) child--;
    first[hole] = first[child];
    hole = child;
  }
  if ((len & 1) == 0 && child == (len - 2) / 2) {
    child = 2 * (child + 1);
    first[hole] = first[child - 1];
    hole = child - 1;
  }
  int64_t parent = (hole - 1) / 2;
  while (hole > top && before(&first[parent], &val)) {
    first[hole] = first[parent];
    hole = parent;
    parent = (hole - 1) / 2;
  }
  first[hole] = val;
}

/* __make_heap then __sort_heap */
static void heap_sort(Pair *first, Pair *last) {
  int64_t len = last - first;
  if (len < 2) return;
  for (int64_t parent = (len - 2) / 2;; parent--) {
    adjust_heap(first, parent, len, first[parent]);
    if (parent == 0) break;
  }
  while (last - first > 1) {
    last--;
    Pair val = *last;
    *last = *first;
    adjust_heap(first, 0, last - first, val);
  }
}

/* __move_median_to_first */
static void median_to_first(Pair *result, Pair *a, Pair *b, Pair *c) {
  if (before(a, b)) {
    if (before(b, c)) swap(result, b);
    else if (before(a, c)) swap(result, c);
    else swap(result, a);
  } else if (before(a, c)) {
    swap(result, a);
  } else if (before(b, c)) {
    swap(result, c);
  } else {
    swap(result, b);
  }
}

/* __unguarded_partition around *pivot */
static Pair *partition(Pair *first, Pair *last, const Pair *pivot) {
  for (;;) {
    while (before(first, pivot)) first++;
    last--;
    while (before(pivot, last)) last--;
    if (!(first < last)) return first;
    swap(first, last);
    first++;
  }
}

/* __introsort_loop */
static void introsort(Pair *first, Pair *last, int depth) {
  while (last - first > 16) {
    if (depth == 0) {
      heap_sort(first, last);
      return;
    }
    depth--;
    median_to_first(first, first + 1, first + (last - first) / 2, last - 1);
    Pair *cut = partition(first + 1, last, first);
    introsort(cut, last, depth);
    last = cut;
  }
}

/* std::sort */
static void sort_pairs(Pair *first, Pair *last) {
  if (first == last) return;
  int lg = 0;
  for (int64_t n = last - first; n > 1; n >>= 1) lg++;
  introsort(first, last, 2 * lg);
  if (last - first > 16) {
    insertion(first, first + 16);
    for (Pair *i = first + 16; i != last; i++) linear_insert(i);
  } else {
    insertion(first, last);
  }
}

void rt_bipartite_match_f32(const float *dist, int64_t row, int64_t col, int per_prediction, float threshold,
                            int32_t *match_indices, float *match_dist, void *work) {
  const float eps = 1e-6f;
  for (int64_t j = 0; j < col; j++) {
    match_indices[j] = -1;
    match_dist[j] = 0;
  }
  Pair *pairs = work;
  int32_t *rows = (int32_t *)(pairs + row * col); /* per row: its column, or the pool of free rows */
  if (row >= 130) {
    for (int64_t i = 0; i < row; i++)
      for (int64_t j = 0; j < col; j++) pairs[i * col + j] = (Pair){(int32_t)i, (int32_t)j, dist[i * col + j]};
    sort_pairs(pairs, pairs + row * col);
    for (int64_t i = 0; i < row; i++) rows[i] = -1;
    int64_t matched = 0;
    for (int64_t k = 0; k < row * col && matched < row; k++) {
      const Pair *p = &pairs[k];
      if (match_indices[p->j] == -1 && rows[p->i] == -1 && p->d > 0) {
        match_indices[p->j] = p->i;
        rows[p->i] = p->j;
        match_dist[p->j] = p->d;
        matched++;
      }
    }
  } else {
    int64_t npool = row;
    for (int64_t i = 0; i < row; i++) rows[i] = (int32_t)i;
    while (npool > 0) {
      int32_t max_idx = -1, max_row = -1;
      float max_dist = -1;
      for (int64_t j = 0; j < col; j++) {
        if (match_indices[j] != -1) continue;
        for (int64_t k = 0; k < npool; k++) {
          const float d = dist[rows[k] * col + j];
          if (d < eps) continue;
          if (d > max_dist) {
            max_idx = (int32_t)j;
            max_row = rows[k];
            max_dist = d;
          }
        }
      }
      if (max_idx == -1) break;
      match_indices[max_idx] = max_row;
      match_dist[max_idx] = max_dist;
      int64_t k = 0;
      while (rows[k] != max_row) k++;
      memmove(rows + k, rows + k + 1, (size_t)(npool - k - 1) * sizeof *rows);
      npool--;
    }
  }
  if (!per_prediction) return;
  for (int64_t j = 0; j < col; j++) {
    if (match_indices[j] != -1) continue;
    int32_t max_row = -1;
    float max_dist = -1;
    for (int64_t i = 0; i < row; i++) {
      const float d = dist[i * col + j];
      if (d < eps) continue;
      if (d >= threshold && d > max_dist) {
        max_row = (int32_t)i;
        max_dist = d;
      }
    }
    if (max_row != -1) {
      match_indices[j] = max_row;
      match_dist[j] = max_dist;
    }
  }
}
