/* The C printer of diag_v2 kernels (diag_call.h). */
#include "diag_call.h"

#include "../util.h"

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
  }
}
