/* The C printer of Kronecker products (kron_call.h). */
#include "kron_call.h"

#include <string.h>

#include "../util.h"
#include "tensor_util.h"

/* The product's loops, a_i and b_i in turn for each dim but the 1s:
 * out[o++] = x[a] * y[b]. */
static void print_kron(Printer *p, const KronCall *c) {
  const char *t = c->type, *xi = "0", *yi = "0";
  pr_line(p, "const %s *x = %s;", t, c->x);
  pr_line(p, "const %s *y = %s;", t, c->y);
  pr_line(p, "%s *out = %s;", t, c->out);
  pr_line(p, "int64_t o = 0;");
  int loops = 0;
  for (int i = 0; i < c->rank; i++) {
    if (strcmp(c->xdims[i], "1")) {
      pr_line(p, "for (int64_t a%d = 0; a%d < %s; a%d++) {", i, i, c->xdims[i], i);
      xi = tu_add(xi, tu_mul(pool_printf("a%d", i), c->xstrides[i]));
      loops++;
    }
    if (strcmp(c->ydims[i], "1")) {
      pr_line(p, "for (int64_t b%d = 0; b%d < %s; b%d++) {", i, i, c->ydims[i], i);
      yi = tu_add(yi, tu_mul(pool_printf("b%d", i), c->ystrides[i]));
      loops++;
    }
  }
  pr_line(p, "out[o++] = x[%s] * y[%s];", xi, yi);
  pr_close(p, loops);
}

/* Loops over the elements of one operand (`pre` "a" for X, "b" for Y) in
 * its memory order: opens one loop per dim but the 1s, declares the
 * others' index 0, and returns how many loops it opened. */
static int operand_loops(Printer *p, const char *const *dims, int rank, const char *pre) {
  int loops = 0;
  for (int i = 0; i < rank; i++) {
    if (!strcmp(dims[i], "1")) {
      pr_line(p, "const int64_t %s%d = 0;", pre, i);
      continue;
    }
    pr_line(p, "for (int64_t %s%d = 0; %s%d < %s; %s%d++) {", pre, i, pre, i, dims[i], pre, i);
    loops++;
  }
  return loops;
}

/* phi KronGradKernel: each product rounded, then summed in the other
 * operand's memory order (the rows of Paddle's [numel(X), numel(Y)] and
 * [numel(Y), numel(X)] products). */
static void print_kron_grad(Printer *p, const KronCall *c) {
  const char *t = c->type, *xi = "0", *yi = "0", *oi = "0";
  for (int i = 0; i < c->rank; i++) {
    const char *a = pool_printf("a%d", i), *b = pool_printf("b%d", i);
    if (c->xstrides[i]) xi = tu_add(xi, tu_mul(a, c->xstrides[i]));
    if (c->ystrides[i]) yi = tu_add(yi, tu_mul(b, c->ystrides[i]));
    const char *pos = tu_add(tu_mul(a, c->ydims[i]), b);
    oi = tu_add(oi, tu_mul(pool_printf("(%s)", pos), c->ostrides[i]));
  }
  pr_line(p, "const %s *x = %s;", t, c->x);
  pr_line(p, "const %s *y = %s;", t, c->y);
  pr_line(p, "const %s *dout = %s;", t, c->dout);
  for (int k = 0; k < 2; k++) {
    const char *g = k ? c->dy : c->dx;
    if (!g) continue;
    pr_line(p, "{");
    pr_line(p, "%s *g = %s;", t, g);
    int outer = operand_loops(p, k ? c->ydims : c->xdims, c->rank, k ? "b" : "a");
    pr_line(p, "%s acc = 0;", t);
    int inner = operand_loops(p, k ? c->xdims : c->ydims, c->rank, k ? "a" : "b");
    pr_line(p, "const %s p = dout[%s] * %s[%s];", t, oi, k ? "x" : "y", k ? xi : yi);
    pr_line(p, "acc += p;");
    pr_close(p, inner);
    pr_line(p, "g[%s] = acc;", k ? yi : xi);
    pr_close(p, outer);
    pr_line(p, "}");
  }
}

void kron_print_c(Printer *p, const KronCall *c) {
  switch (c->kind) {
    case KRON_FORWARD:
      print_kron(p, c);
      break;
    case KRON_GRAD:
      print_kron_grad(p, c);
      break;
  }
}
