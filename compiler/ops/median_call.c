/* The C printer of nanmedian kernels (median_call.h). */
#include "median_call.h"

#include "move_call.h"
#include "sort_call.h"

/* dst (contiguous rows) = src gathered as the record says; elements of
 * `esize` bytes. */
static void print_gather(Printer *p, const MedianCall *c, const char *src, const char *dst, const char *esize) {
  if (c->rank == 0) {
    pr_line(p, "%s[0] = %s[0];", dst, src);
    return;
  }
  move_print_c(p, &(MoveCall){.kind = MOVE_COPY_STRIDED, .src = src, .dst = dst, .esize = esize, .rank = c->rank,
                              .dims = c->dims, .strides = c->strides});
}

/* The rows sorted, the median read from each row's first values that are
 * not NaN. */
static void print_median(Printer *p, const MedianCall *c) {
  const char *t = c->type;
  const int fp = c->dtype == RT_DT_FP32 || c->dtype == RT_DT_FP64;
  pr_line(p, "%s *rows = (%s *)%s;", t, t, c->rows);
  pr_line(p, "%s *sorted = (%s *)%s;", t, t, c->vals);
  pr_line(p, "int64_t *pos = (int64_t *)%s;", c->idx);
  pr_line(p, "%s *out = %s;", t, c->out);
  pr_line(p, "const int64_t len = %s, count = %s;", c->len, c->count);
  print_gather(p, c, c->x, "rows", "sizeof *rows");
  sort_print_c(p, &(SortCall){.kind = SORT_ARGSORT, .dtype = c->dtype, .x = "rows", .outer = "count", .n = "len",
                              .inner = "1", .vals = "sorted", .idx = "pos", .work = c->work});
  pr_line(p, "for (int64_t o = 0; o < count; o++) {");
  pr_line(p, "const %s *v = sorted + o * len;", t);
  pr_line(p, "int64_t k = len; /* values that are not NaN (sorted first) */");
  if (fp) {
    pr_line(p, "while (k > 0 && isnan(v[k - 1])) k--;");
    pr_line(p, "if (k == 0) {");
    pr_line(p, "out[o] = (%s)NAN;", t);
    pr_line(p, "} else if (k %% 2) {");
  } else {
    pr_line(p, "if (k %% 2) {");
  }
  pr_line(p, "out[o] = v[k / 2];");
  pr_line(p, "} else {");
  pr_line(p, "out[o] = (v[k / 2 - 1] + v[k / 2]) / (%s)2;", t);
  pr_line(p, "}");
  pr_line(p, "}");
}

/* phi NanmedianGradKernel with the positions found again from X: NaN
 * counted per row, the k smallest of each row, the middle one or two of
 * those that are not NaN. */
static void print_median_grad(Printer *p, const MedianCall *c) {
  const char *t = c->type;
  pr_line(p, "%s *rows = (%s *)%s;", t, t, c->rows);
  pr_line(p, "%s *vals = (%s *)%s;", t, t, c->vals);
  pr_line(p, "int64_t *idx = (int64_t *)%s;", c->idx);
  pr_line(p, "int64_t *at = (int64_t *)%s; /* X's offset of each row value */", c->at);
  pr_line(p, "int64_t *nans = (int64_t *)%s;", c->nans);
  pr_line(p, "const %s *dout = %s;", t, c->dout);
  pr_line(p, "%s *dx = %s;", t, c->dx);
  pr_line(p, "const int64_t len = %s, count = %s, numel = %s;", c->len, c->count, c->numel);
  pr_line(p, "memset(dx, 0, (size_t)numel * sizeof *dx);");
  print_gather(p, c, c->x, "rows", "sizeof *rows");
  pr_line(p, "for (int64_t i = 0; i < numel; i++) nans[i] = i;");
  print_gather(p, c, "nans", "at", "sizeof *at");
  pr_line(p, "int64_t total_nan = 0, max_valid = 0;");
  pr_line(p, "for (int64_t o = 0; o < count; o++) {");
  pr_line(p, "nans[o] = 0;");
  if (c->dtype == RT_DT_FP32 || c->dtype == RT_DT_FP64)
    pr_line(p, "for (int64_t j = 0; j < len; j++) nans[o] += isnan(rows[o * len + j]) != 0;");
  pr_line(p, "total_nan += nans[o];");
  pr_line(p, "if (len - nans[o] > max_valid) max_valid = len - nans[o];");
  pr_line(p, "}");
  pr_line(p, "if (total_nan < count * len) { /* all NaN: no gradient */");
  pr_line(p, "const int any_nan = total_nan > 0;");
  pr_line(p, "const int64_t k = any_nan ? max_valid : len / 2 + 1;");
  sort_print_c(p, &(SortCall){.kind = SORT_TOPK, .dtype = c->dtype, .x = "rows", .outer = "count", .n = "len",
                              .inner = "1", .k = "k", .flags = "RT_TOPK_SORTED", .vals = "vals", .idx = "idx",
                              .work = c->work});
  pr_line(p, "for (int64_t o = 0; o < count; o++) {");
  pr_line(p, "const int64_t *ix = idx + o * k;");
  pr_line(p, "int64_t lo, hi;");
  pr_line(p, "if (any_nan) {");
  pr_line(p, "if (nans[o] == len) continue;");
  pr_line(p, "const int64_t valid = nans[o] > 0 ? len - nans[o] : k, mid = valid >> 1;");
  pr_line(p, "hi = ix[mid];");
  pr_line(p, "lo = valid & 1 || mid == 0 ? hi : ix[mid - 1];");
  pr_line(p, "} else {");
  pr_line(p, "hi = ix[k - 1];");
  pr_line(p, "lo = len & 1 || k == 1 ? hi : ix[k - 2];");
  pr_line(p, "}");
  pr_line(p, "if (lo == hi) {");
  pr_line(p, "dx[at[o * len + lo]] = dout[o];");
  pr_line(p, "} else {");
  pr_line(p, "dx[at[o * len + lo]] = dout[o] / (%s)2;", t);
  pr_line(p, "dx[at[o * len + hi]] = dout[o] / (%s)2;", t);
  pr_line(p, "}");
  pr_line(p, "}");
  pr_line(p, "}");
}

void median_print_c(Printer *p, const MedianCall *c) {
  if (c->kind == MEDIAN_GRAD)
    print_median_grad(p, c);
  else
    print_median(p, c);
}
