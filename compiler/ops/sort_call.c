/* The C printer of sorting and ordering kernels (sort_call.h). */
#include "sort_call.h"

#include "tensor_util.h"

/* The runtime's suffix for an element type, NULL for one it lacks. */
static const char *suffix(int dtype) {
  switch (dtype) {
    case RT_DT_FP32: return "f32";
    case RT_DT_FP64: return "f64";
    case RT_DT_INT32: return "i32";
    case RT_DT_INT64: return "i64";
    default: return NULL;
  }
}

int sort_dtype_ok(int dtype) { return suffix(dtype) != NULL; }

/* A 0-D x is its own top 1, mode, sort and k-th value: vals[0] = x[0], indices[0] = 0. */
static void print_zero_d(Printer *p, const SortCall *c) {
  pr_line(p, "%s[0] = %s[0];", c->vals, c->x);
  pr_line(p, "%s[0] = 0;", c->indices);
}

/* top_k, top_k_v2: the run's k from k_from when it comes from a tensor
 * (returning 1 for one outside [0, n]), the rt_topk_* call, int64
 * positions converted to int32 Indices. */
static void print_topk_op(Printer *p, const SortCall *c) {
  if (c->zero_d) {
    print_zero_d(p, c);
    return;
  }
  if (c->k_from) { /* the run's k: Out and Indices hold [outer, k, inner] within their bound */
    pr_line(p, "const int64_t k = %s[0];", c->k_from);
    pr_line(p, "if (k < 0 || k > %s) return 1;", c->n);
    pr_line(p, "%s = %s = k;", c->k_into[0], c->k_into[1]);
  }
  pr_line(p, "/* x as [outer, n, inner], k, flags -> values, indices (work: n pairs) */");
  SortCall call = *c;
  call.kind = SORT_TOPK;
  sort_print_c(p, &call);
  if (c->idx32) pr_line(p, "for (int64_t i = 0; i < %s; i++) %s[i] = (int32_t)%s[i];", c->numel, c->indices, c->idx);
}

/* argsort, kthvalue: a 0-D x copied with index 0; else a comment and the
 * runtime's call. */
static void print_line_op(Printer *p, const SortCall *c) {
  if (c->zero_d) {
    print_zero_d(p, c);
    return;
  }
  SortCall call = *c;
  if (c->kind == SORT_ARGSORT_OP) {
    pr_line(p, "/* x as [outer, n, inner], descending, -> values, indices (work: n pairs) */");
    call.kind = SORT_ARGSORT;
  } else {
    pr_line(p, "/* the %s-th smallest of each line of %s, as Paddle's partial_sort / nth_element picks it */", c->k,
            c->n);
    call.kind = SORT_KTHVALUE;
  }
  sort_print_c(p, &call);
}

/* top_k_grad: zeros, then each Out@GRAD element at the position along n
 * that its Indices element names (none outside [0, n)). */
static void print_topk_grad(Printer *p, const SortCall *c) {
  const char *t = em_ctype(c->dtype);
  pr_line(p, "const %s *index = %s;", em_ctype(c->idx_dtype), c->idx);
  pr_line(p, "const %s *dout = %s;", t, c->dout);
  pr_line(p, "%s *dx = %s;", t, c->dx);
  if (c->zero_d) {
    pr_line(p, "(void)index;");
    pr_line(p, "dx[0] = dout[0];");
    return;
  }
  pr_line(p, "const int64_t outer = %s, n = %s, k = %s, inner = %s;", c->outer, c->n, c->k, c->inner);
  pr_line(p, "for (int64_t i = 0; i < %s; i++) dx[i] = 0;", c->numel);
  pr_line(p, "for (int64_t o = 0; o < outer; o++)");
  pr_line(p, "  for (int64_t j = 0; j < k; j++)");
  pr_line(p, "    for (int64_t i = 0; i < inner; i++) {");
  pr_line(p, "      const int64_t at = (o * k + j) * inner + i, v = (int64_t)index[at];");
  pr_line(p, "      if (v >= 0 && v < n) dx[(o * n + v) * inner + i] = dout[at];");
  pr_line(p, "    }");
}

/* mode: each line sorted ascending, then the longest run of equal values
 * (the first of equally long ones): its value and the position of its last
 * element after the sort. */
static void print_mode(Printer *p, const SortCall *c) {
  if (c->zero_d) {
    print_zero_d(p, c);
    return;
  }
  const char *t = em_ctype(c->dtype);
  pr_line(p, "%s *vals = (%s *)%s;", t, t, c->vals);
  pr_line(p, "int64_t *pos = (int64_t *)%s;", c->idx);
  pr_line(p, "/* each line sorted ascending (std::sort's order) into vals, pos */");
  sort_print_c(p, &(SortCall){.kind = SORT_ARGSORT, .dtype = c->dtype, .x = c->x, .outer = c->outer, .n = c->n,
                              .inner = c->inner, .vals = "vals", .idx = "pos", .work = c->work});
  pr_line(p, "%s *out = %s;", t, c->out);
  pr_line(p, "int64_t *indices = %s;", c->indices);
  pr_line(p, "const int64_t n = %s, inner = %s;", c->n, c->inner);
  pr_line(p, "for (int64_t l = 0; l < %s; l++) {", tu_mul(c->outer, c->inner));
  pr_line(p, "const %s *v = vals + %s;", t, tu_line_start("l", "n", "inner"));
  pr_line(p, "const int64_t *p = pos + %s;", tu_line_start("l", "n", "inner"));
  pr_line(p, "%s mode = 0;", t);
  pr_line(p, "int64_t at = 0, run = 0, best = 0;");
  pr_line(p, "for (int64_t i = 0; i < n; i++) {");
  pr_line(p, "run++;");
  pr_line(p, "if (i == n - 1 || v[(i + 1) * inner] != v[i * inner]) {");
  pr_line(p, "if (run > best) {");
  pr_line(p, "best = run;");
  pr_line(p, "mode = v[i * inner];");
  pr_line(p, "at = p[i * inner];");
  pr_line(p, "}");
  pr_line(p, "run = 0;");
  pr_line(p, "}");
  pr_line(p, "}");
  pr_line(p, "out[l] = mode;");
  pr_line(p, "indices[l] = at;");
  pr_line(p, "}");
}

/* arg_max, arg_min: the first position of the largest (smallest) value of
 * each line; a NaN is never taken over a number. */
static void print_argmax(Printer *p, const SortCall *c) {
  const char *t = em_ctype(c->dtype), *it = em_ctype(c->idx_dtype);
  pr_line(p, "const %s *x = %s;", t, c->x);
  pr_line(p, "%s *out = %s;", it, c->indices);
  pr_line(p, "for (int64_t o = 0; o < %s; o++) {", tu_mul(c->outer, c->inner));
  pr_line(p, "const %s *p = x + %s;", t, tu_line_start("o", c->n, c->inner));
  pr_line(p, "int64_t best = 0;");
  pr_line(p, "for (int64_t k = 1; k < %s; k++)", c->n);
  pr_line(p, "  if (p[%s] %s p[%s]) best = k;", tu_mul("k", c->inner), c->largest ? ">" : "<",
          tu_mul("best", c->inner));
  pr_line(p, "out[o] = (%s)best;", it);
  pr_line(p, "}");
}

/* searchsorted: per value its row of seq, then std::lower_bound
 * (upper_bound) by binary search; an infinite or NaN value gives n. */
static void print_search(Printer *p, const SortCall *c) {
  const char *st = em_ctype(c->seq_dtype), *it = em_ctype(c->idx_dtype);
  pr_line(p, "const %s *seq = %s;", st, c->seq);
  pr_line(p, "const %s *val = %s;", em_ctype(c->dtype), c->x);
  pr_line(p, "%s *out = %s;", it, c->indices);
  pr_line(p, "const int64_t seq_size = %s, val_size = %s;", c->n, c->x_row);
  pr_line(p, "for (int64_t i = 0; i < %s; i++) {", c->numel);
  if (c->dtype == RT_DT_FP32 || c->dtype == RT_DT_FP64) {
    pr_line(p, "if (isinf(val[i]) || isnan(val[i])) {");
    pr_line(p, "out[i] = (%s)seq_size;", it);
    pr_line(p, "continue;");
    pr_line(p, "}");
  }
  pr_line(p, "const %s *row = seq%s;", st, c->one_row ? "" : " + i / val_size * seq_size");
  pr_line(p, "/* std::%s */", c->right ? "upper_bound" : "lower_bound");
  pr_line(p, "int64_t first = 0, count = seq_size;");
  pr_line(p, "while (count > 0) {");
  pr_line(p, "const int64_t step = count >> 1;");
  pr_line(p, "if (%s) {", c->right ? "!(val[i] < row[first + step])" : "row[first + step] < val[i]");
  pr_line(p, "first += step + 1;");
  pr_line(p, "count -= step + 1;");
  pr_line(p, "} else {");
  pr_line(p, "count = step;");
  pr_line(p, "}");
  pr_line(p, "}");
  pr_line(p, "out[i] = (%s)first;", it);
  pr_line(p, "}");
  if (c->one_row) pr_line(p, "(void)val_size;");
}

void sort_print_c(Printer *p, const SortCall *c) {
  const char *s = suffix(c->dtype);
  switch (c->kind) {
    case SORT_ARGSORT:
      pr_line(p, "rt_argsort_%s(%s, %s, %s, %s, %d, %s, %s, %s);", s, c->x, c->outer, c->n, c->inner, c->descending,
              c->vals, c->idx, c->work);
      break;
    case SORT_TOPK:
      pr_line(p, "rt_topk_%s(%s, %s, %s, %s, %s, %s, %s, %s, %s);", s, c->x, c->outer, c->n, c->inner, c->k, c->flags,
              c->vals, c->idx, c->work);
      break;
    case SORT_KTHVALUE:
      pr_line(p, "rt_kthvalue_%s(%s, %s, %s, %s, %s, %s, %s, %s);", s, c->x, c->outer, c->n, c->inner, c->k, c->vals,
              c->idx, c->work);
      break;
    case SORT_ARGSORT_OP:
    case SORT_KTHVALUE_OP: print_line_op(p, c); break;
    case SORT_TOPK_OP: print_topk_op(p, c); break;
    case SORT_TOPK_GRAD: print_topk_grad(p, c); break;
    case SORT_MODE: print_mode(p, c); break;
    case SORT_ARGMAX: print_argmax(p, c); break;
    case SORT_SEARCH: print_search(p, c); break;
  }
}
