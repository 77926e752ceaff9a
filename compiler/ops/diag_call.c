/* The C printer of diagonal kernels (diag_call.h). */
#include "diag_call.h"

#include "../util.h"
#include "move_call.h"
#include "tensor_util.h"

/* The diagonal's first element in a matrix whose width is named `w`. */
static const char *start(const DiagCall *c, const char *w) {
  return c->offset >= 0 ? pool_printf("%lld", (long long)c->offset)
                        : pool_printf("%lld * %s", (long long)-c->offset, w);
}

/* Declares the buffers, named `src` and `dst` (x and out, or dout and dx),
 * and the matrix's side or width `dim` (value `v`). */
static void declare(Printer *p, const DiagCall *c, const char *src, const char *dst, const char *dim, const char *v) {
  pr_line(p, "const %s *%s = %s;", c->type, src, c->src);
  pr_line(p, "%s *%s = %s;", c->type, dst, c->dst);
  pr_line(p, "const int64_t %s = %s;", dim, v);
}

/* trace (phi TraceKernel): the view's diagonals copied to scratch, each
 * summed in order in the element type; 0 for empty diagonals. */
static void print_trace(Printer *p, const DiagCall *c) {
  const char *t = c->type;
  pr_line(p, "%s *out = %s;", t, c->dst);
  if (c->dlen <= 0) {
    pr_line(p, "memset(out, 0, (size_t)%s * sizeof *out); /* empty diagonals */", c->numel);
    return;
  }
  pr_line(p, "%s *diag = (%s *)%s;", t, t, c->scratch);
  move_print_c(p, &(MoveCall){.kind = MOVE_COPY_STRIDED, .src = pool_printf("%s + %s", c->src, c->start),
                              .dst = "diag", .esize = "sizeof *diag", .rank = c->rank, .dims = c->dims,
                              .strides = c->strides});
  pr_line(p, "for (int64_t o = 0; o < %s; o++) {", c->numel);
  pr_line(p, "%s sum = 0;", t);
  pr_line(p, "for (int64_t i = 0; i < %lld; i++) sum += diag[o * %lld + i];", (long long)c->dlen, (long long)c->dlen);
  pr_line(p, "out[o] = sum;");
  pr_line(p, "}");
}

/* diagonal_grad, trace_grad: dx = 0, then the view's element at other-dims
 * position o, diagonal element i takes dout[o * len + i] (per_elem) or
 * dout[o]. */
static void print_scatter_nd(Printer *p, const DiagCall *c) {
  const char *t = c->type;
  pr_line(p, "%s *dx = %s;", t, c->dst);
  pr_line(p, "memset(dx, 0, (size_t)%s * sizeof *dx);", c->numel);
  if (c->dlen <= 0) return; /* empty diagonals */
  pr_line(p, "const %s *dout = %s;", t, c->src);
  pr_line(p, "int64_t o = 0;");
  const char *at = c->start;
  for (int k = 0; k < c->rank; k++) {
    pr_line(p, "for (int64_t i%d = 0; i%d < %s; i%d++) {", k, k, c->dims[k], k);
    at = tu_add(at, tu_mul(pool_printf("i%d", k), c->strides[k]));
  }
  pr_line(p, "dx[%s] = dout[%s];", at, c->per_elem ? "o" : pool_printf("o / %lld", (long long)c->dlen));
  pr_line(p, "o++;");
  for (int k = 0; k < c->rank; k++) pr_line(p, "}");
}

/* diag_embed (phi DiagEmbedKernel): out = 0, then element q of x goes to
 * the place its index, taken apart by x's dims, walks to. */
static void print_embed_nd(Printer *p, const DiagCall *c) {
  const char *t = c->type;
  pr_line(p, "const %s *x = %s;", t, c->src);
  pr_line(p, "%s *out = %s;", t, c->dst);
  pr_line(p, "memset(out, 0, (size_t)%s * sizeof *out);", c->numel);
  pr_line(p, "for (int64_t q = 0; q < %s; q++) {", c->len);
  pr_line(p, "int64_t rest = q, at = %s;", c->start);
  for (int i = c->rank - 1; i > 0; i--) {
    pr_line(p, "at += %s;", tu_mul(pool_printf("(rest %% %s)", c->dims[i]), c->strides[i]));
    pr_line(p, "rest /= %s;", c->dims[i]);
  }
  pr_line(p, "at += %s;", tu_mul("rest", c->strides[0]));
  pr_line(p, "out[at] = x[q];");
  pr_line(p, "}");
}

/* phi TrilTriuCompute: element (row, col) is zeroed when col - row >
 * offset (lower) or < offset (upper), copied otherwise. */
static void print_triangle(Printer *p, const DiagCall *c) {
  const char *t = c->type;
  pr_line(p, "const %s *x = %s;", t, c->src);
  pr_line(p, "%s *out = %s;", t, c->dst);
  pr_line(p, "const int64_t h = %s, w = %s;", c->h, c->w);
  pr_line(p, "for (int64_t mat = 0; mat < %s; mat++) {", c->mats);
  pr_line(p, "for (int64_t row = 0; row < h; row++) {");
  pr_line(p, "for (int64_t col = 0; col < w; col++) {");
  pr_line(p, "const int64_t at = (mat * h + row) * w + col;");
  pr_line(p, "out[at] = col - row %s INT64_C(%lld) ? (%s)0 : x[at];", c->lower ? ">" : "<", (long long)c->offset, t);
  pr_line(p, "}");
  pr_line(p, "}");
  pr_line(p, "}");
}

void diag_print_c(Printer *p, const DiagCall *c) {
  switch (c->kind) {
    case DIAG_EMBED:
      declare(p, c, "x", "out", "size", c->size);
      pr_line(p, "for (int64_t i = 0; i < size * size; i++) out[i] = %s;", c->pad);
      pr_line(p, "for (int64_t i = 0; i < %s; i++) out[%s + i * (size + 1)] = x[i];", c->len, start(c, "size"));
      break;
    case DIAG_EXTRACT:
      declare(p, c, "x", "out", "w", c->w);
      pr_line(p, "for (int64_t i = 0; i < %s; i++) out[i] = x[%s + i * (w + 1)];", c->len, start(c, "w"));
      break;
    case DIAG_EMBED_GRAD:
      declare(p, c, "dout", "dx", "size", c->size);
      pr_line(p, "for (int64_t i = 0; i < %s; i++) dx[i] = dout[%s + i * (size + 1)];", c->len, start(c, "size"));
      break;
    case DIAG_EXTRACT_GRAD:
      declare(p, c, "dout", "dx", "w", c->w);
      pr_line(p, "for (int64_t i = 0; i < %s; i++) dx[i] = 0;", c->numel);
      pr_line(p, "for (int64_t i = 0; i < %s; i++) dx[%s + i * (w + 1)] = dout[i];", c->len, start(c, "w"));
      break;
    case DIAG_TRACE:
      print_trace(p, c);
      break;
    case DIAG_SCATTER_ND:
      print_scatter_nd(p, c);
      break;
    case DIAG_EMBED_ND:
      print_embed_nd(p, c);
      break;
    case DIAG_TRIANGLE:
      print_triangle(p, c);
      break;
  }
}
