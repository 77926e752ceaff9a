/* The body of rt_bipartite_match.c for one element type, included once per
 * type by rt_bipartite_match.c, which defines BM_T (float, double: the
 * kernel's T, the distances' type) and BM_NAME(n) (n_f32, n_f64).  Paddle's
 * float and double kernels are one template, and so is this: the names
 * below are this type's through the aliases that follow, undefined with
 * BM_T and BM_NAME at the end. */
#define Pair BM_NAME(Pair)
#define before BM_NAME(before)
#define swap BM_NAME(swap)
#define linear_insert BM_NAME(linear_insert)
#define insertion BM_NAME(insertion)
#define adjust_heap BM_NAME(adjust_heap)
#define heap_sort BM_NAME(heap_sort)
#define median_to_first BM_NAME(median_to_first)
#define partition BM_NAME(partition)
#define introsort BM_NAME(introsort)
#define sort_pairs BM_NAME(sort_pairs)

typedef struct Pair {
  int32_t i; /* row */
  int32_t j; /* column */
  BM_T d;    /* distance */
} Pair;
_Static_assert(sizeof(Pair) == sizeof(BM_T) + 8, "RT_BIPARTITE_WORK_BYTES counts a pair as two ints and a BM_T");

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

void BM_NAME(rt_bipartite_match)(const BM_T *dist, int64_t row, int64_t col, int per_prediction, BM_T threshold,
                                 int32_t *match_indices, BM_T *match_dist, void *work) {
  const BM_T eps = (BM_T)1e-6;
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
      BM_T max_dist = -1;
      for (int64_t j = 0; j < col; j++) {
        if (match_indices[j] != -1) continue;
        for (int64_t k = 0; k < npool; k++) {
          const BM_T d = dist[rows[k] * col + j];
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
    BM_T max_dist = -1;
    for (int64_t i = 0; i < row; i++) {
      const BM_T d = dist[i * col + j];
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

#undef Pair
#undef before
#undef swap
#undef linear_insert
#undef insertion
#undef adjust_heap
#undef heap_sort
#undef median_to_first
#undef partition
#undef introsort
#undef sort_pairs
#undef BM_T
#undef BM_NAME
