/* The C printer of the logsumexp kernels (lse_call.h). */
#include "lse_call.h"

#include "../util.h"
#include "tensor_util.h"

/* Opens one loop per dim in `dims` (n of them, index variables
 * <prefix><d>) and returns the offset into x they address. */
static const char *open_loops(Printer *p, const LseCall *c, const int *dims, int n, const char *prefix) {
  const char *off = "0";
  for (int k = 0; k < n; k++) {
    const char *iv = pool_printf("%s%d", prefix, dims[k]);
    pr_line(p, "for (int64_t %s = 0; %s < %s; %s++) {", iv, iv, c->dims[dims[k]], iv);
    off = tu_add(off, tu_mul(iv, c->strides[dims[k]]));
  }
  return off;
}

/* phi's LogsumexpFunctor: NaN where the max is infinite. */
static void print_forward(Printer *p, const LseCall *c) {
  const char *t = c->type, *fs = c->f32 ? "f" : "";
  pr_line(p, "const %s *x = %s;", t, c->x);
  pr_line(p, "%s *out = %s;", t, c->out);
  pr_line(p, "int64_t o = 0;");
  const char *base = open_loops(p, c, c->kept, c->nkept, "k");
  pr_line(p, "const %s *line = x + %s;", t, base);
  pr_line(p, "%s mx = -(%s)INFINITY;", t, t);
  const char *at = open_loops(p, c, c->red, c->nred, "r");
  pr_line(p, "if (line[%s] > mx) mx = line[%s];", at, at);
  pr_close(p, c->nred);
  pr_line(p, "double sum = 0.0;");
  at = open_loops(p, c, c->red, c->nred, "r");
  pr_line(p, "sum += exp%s(line[%s] - mx);", fs, at);
  pr_close(p, c->nred);
  pr_line(p, "out[o++] = mx + log%s((%s)sum);", fs, t);
  pr_close(p, c->nkept);
}

/* phi LogsumexpGradKernel, in the element type. */
static void print_grad(Printer *p, const LseCall *c) {
  const char *t = c->type;
  pr_line(p, "const %s *x = %s;", t, c->x);
  pr_line(p, "const %s *out = %s;", t, c->out);
  pr_line(p, "const %s *dout = %s;", t, c->dout);
  pr_line(p, "%s *dx = %s;", t, c->dx);
  pr_line(p, "int64_t o = 0;");
  const char *base = open_loops(p, c, c->kept, c->nkept, "k");
  const char *at = tu_add(base, open_loops(p, c, c->red, c->nred, "r"));
  pr_line(p, "dx[%s] = dout[o] * exp%s(x[%s] - out[o]);", at, c->f32 ? "f" : "", at);
  pr_close(p, c->nred);
  pr_line(p, "o++;");
  pr_close(p, c->nkept);
}

void lse_print_c(Printer *p, const LseCall *c) {
  switch (c->kind) {
    case LSE_FORWARD:
      print_forward(p, c);
      break;
    case LSE_GRAD:
      print_grad(p, c);
      break;
  }
}
