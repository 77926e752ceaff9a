/* The body of rt_unique.c's kernel for one element type, included once per
 * type by rt_unique.c, which defines UQ_T (the element type), UQ_NAME(n)
 * (n's name for it) and UQ_ISNAN(v).  Undefines them at its end. */

/* Rows a and b of r [n, col] compared element by element: < 0, 0, > 0
 * (with `nan_last`, a NaN goes after any number and equals another NaN:
 * the unsorted form's order, in which NaNs then stay apart). */
static int UQ_NAME(cmp_rows)(const UQ_T *r, int64_t col, int64_t a, int64_t b, int nan_last) {
  for (int64_t i = 0; i < col; i++) {
    const UQ_T u = r[a * col + i], v = r[b * col + i];
    if (nan_last && (UQ_ISNAN(u) || UQ_ISNAN(v))) {
      if (UQ_ISNAN(u) != UQ_ISNAN(v)) return UQ_ISNAN(u) ? 1 : -1;
      continue;
    }
    if (u < v) return -1;
    if (u > v) return 1;
  }
  return 0;
}

/* Sorts the row numbers order[0, n) by their rows, keeping the order of
 * equal rows (bottom-up merge sort through tmp). */
static void UQ_NAME(sort_rows)(const UQ_T *r, int64_t col, int64_t n, int64_t *order, int64_t *tmp, int nan_last) {
  int64_t *from = order, *to = tmp;
  for (int64_t w = 1; w < n; w *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * w) {
      const int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      int64_t a = lo, b = mid, k = lo;
      while (a < mid && b < hi)
        to[k++] = UQ_NAME(cmp_rows)(r, col, from[b], from[a], nan_last) < 0 ? from[b++] : from[a++];
      while (a < mid) to[k++] = from[a++];
      while (b < hi) to[k++] = from[b++];
    }
    int64_t *t = from;
    from = to, to = t;
  }
  if (from != order)
    for (int64_t i = 0; i < n; i++) order[i] = from[i];
}

/* 1 when rows a and b hold equal elements (Paddle's Equal: no element !=;
 * a NaN is equal to nothing). */
static int UQ_NAME(same_rows)(const UQ_T *r, int64_t col, int64_t a, int64_t b) {
  for (int64_t i = 0; i < col; i++)
    if (r[a * col + i] != r[b * col + i]) return 0;
  return 1;
}

int64_t UQ_NAME(rt_unique)(const RtUnique *p, const UQ_T *x, UQ_T *out, void *indices, void *inverse, void *counts,
                           void *work) {
  RtUnique v = *p; /* every element on its own: one dim of them */
  if (v.axis < 0) {
    int64_t all = 1;
    for (int d = 0; d < v.rank; d++) all *= v.dims[d];
    v.rank = 1, v.dims[0] = all, v.axis = 0;
  }
  const int64_t n = v.dims[v.axis];
  int64_t numel = 1, xs[RT_MAX_RANK], os[RT_MAX_RANK];
  for (int d = 0; d < v.rank; d++) numel *= v.dims[d];
  const int64_t col = n ? numel / n : 0;
  int64_t *order = work, *tmp = order + n, *group = tmp + n, *first = group + n;
  void *rows_at = first + n; /* after the four int64 arrays */
  UQ_T *r = rows_at;
  layout(&v, n, xs);
  for (int64_t i = 0; i < n; i++) /* the rows, in compare order */
    for (int64_t c = 0; c < col; c++) {
      r[i * col + c] = x[i * xs[v.axis] + col_offset(&v, xs, c)];
      if (v.sorted && !v.consecutive && UQ_ISNAN(r[i * col + c])) return -1;
    }
  for (int64_t i = 0; i < n; i++) order[i] = i;
  if (!v.consecutive) UQ_NAME(sort_rows)(r, col, n, order, tmp, !v.sorted);
  int64_t groups = 0; /* runs of equal rows in sorted order: group[row], first[group] */
  for (int64_t i = 0; i < n; i++) {
    if (!i || !UQ_NAME(same_rows)(r, col, first[groups - 1], order[i])) first[groups++] = order[i];
    group[order[i]] = groups - 1;
  }
  if (!v.sorted) { /* in the order first seen: renumber the groups by their first row */
    int64_t seen = 0;
    for (int64_t i = 0; i < n; i++) {
      if (first[group[i]] == i) {
        out[seen] = r[i * col];
        tmp[group[i]] = seen++;
      }
      put_index(inverse, i, tmp[group[i]], v.index64);
    }
    return seen;
  }
  /* Paddle's flattened unique_consecutive compares x[0] with itself first:
   * a NaN there makes an extra first element, counted 0 */
  const int64_t lead = v.consecutive && p->axis < 0 && n && UQ_ISNAN(r[0]);
  if (lead) {
    out[0] = r[0];
    put_index(counts, 0, 0, v.index64);
  }
  layout(&v, groups + lead, os);
  for (int64_t g = 0; g < groups; g++) tmp[g] = 0; /* each group's count */
  for (int64_t i = 0; i < n; i++) {
    put_index(inverse, i, group[i] + lead, v.index64);
    tmp[group[i]]++;
  }
  for (int64_t g = 0; g < groups; g++) {
    for (int64_t c = 0; c < col; c++) out[(g + lead) * os[v.axis] + col_offset(&v, os, c)] = r[first[g] * col + c];
    put_index(indices, g, first[g], v.index64);
    put_index(counts, g + lead, tmp[g], v.index64);
  }
  return groups + lead;
}

#undef UQ_T
#undef UQ_NAME
#undef UQ_ISNAN
