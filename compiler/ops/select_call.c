/* The C printer of data-dependent selections (select_call.h). */
#include "select_call.h"

#include <string.h>

#include "../util.h"

/* "i0 * s0 + i1 * s1 ...", the index of an operand with strides s along
 * the walk (terms with stride "0" left out; "0" when none is left). */
static const char *strided(const SelectCall *c, const char *const *s) {
  const char *t = "";
  for (int d = 0; d < c->rank; d++) {
    if (!strcmp(s[d], "0")) continue;
    t = pool_printf("%s%si%d%s%s", t, *t ? " + " : "", d, strcmp(s[d], "1") ? " * " : "",
                    strcmp(s[d], "1") ? s[d] : "");
  }
  return *t ? t : "0";
}

/* Opens one loop per dim of the walk, i0 outermost, with `at`, the flat
 * index, counted along when `flat` (an operand reads it). */
static void open_walk(Printer *p, const SelectCall *c, int flat) {
  if (flat) pr_line(p, "int64_t at = 0;");
  for (int d = 0; d < c->rank; d++) pr_line(p, "for (int64_t i%d = 0; i%d < %s; i%d++) {", d, d, c->dims[d], d);
}

static void close_walk(Printer *p, const SelectCall *c, int flat) {
  if (flat) pr_line(p, "at++;");
  pr_close(p, c->rank);
}

/* phi NonZeroKernel (where_index): each element that converts to true, in
 * row-major order, writes its coordinates as a row of out. */
static void print_nonzero(Printer *p, const SelectCall *c) {
  pr_line(p, "const %s *cond = %s;", c->ctype, c->cond);
  pr_line(p, "int64_t *out = %s, rows = 0;", c->out);
  open_walk(p, c, 1);
  pr_line(p, "if (cond[at]) {");
  for (int d = 0; d < c->rank; d++) pr_line(p, "out[rows * %d + %d] = i%d;", c->rank, d, d);
  pr_line(p, "rows++;");
  pr_line(p, "}");
  close_walk(p, c, 1);
  pr_line(p, "%s = rows;", c->rows);
}

/* phi MaskedSelectKernel: x and mask broadcast to one shape, x's elements
 * where mask holds, in row-major order. */
static void print_masked(Printer *p, const SelectCall *c) {
  pr_line(p, "const %s *x = %s;", c->ctype, c->x);
  pr_line(p, "const bool *mask = %s;", c->mask);
  pr_line(p, "%s *out = %s;", c->ctype, c->out);
  pr_line(p, "int64_t rows = 0;");
  const int flat = c->x_flat || c->mask_flat;
  open_walk(p, c, flat);
  const char *xi = c->x_flat ? "at" : strided(c, c->xstride), *mi = c->mask_flat ? "at" : strided(c, c->mstride);
  pr_line(p, "if (mask[%s]) out[rows++] = x[%s];", mi, xi);
  close_walk(p, c, flat);
  pr_line(p, "%s = rows;", c->rows);
}

/* phi MaskedSelectGradKernel: dout's elements in turn go where mask holds
 * (0 elsewhere) over the broadcast shape, summed into x's shape in
 * row-major order where x was broadcast. */
static void print_masked_grad(Printer *p, const SelectCall *c) {
  pr_line(p, "const %s *dout = %s;", c->ctype, c->dout);
  pr_line(p, "const bool *mask = %s;", c->mask);
  pr_line(p, "%s *dx = %s;", c->ctype, c->dx);
  const char *mi = c->mask_flat ? "at" : strided(c, c->mstride);
  if (c->x_flat) {
    pr_line(p, "int64_t k = 0;");
    open_walk(p, c, 1);
    pr_line(p, "dx[at] = mask[%s] ? dout[k++] : 0;", mi);
    close_walk(p, c, 1);
    return;
  }
  pr_line(p, "for (int64_t i = 0; i < %s; i++) dx[i] = 0;", c->dx_numel);
  pr_line(p, "int64_t k = 0;");
  open_walk(p, c, c->mask_flat);
  pr_line(p, "if (mask[%s]) dx[%s] += dout[k++];", mi, strided(c, c->xstride));
  close_walk(p, c, c->mask_flat);
}

/* rt_unique: the count, or (nan_stops) a NaN's -1 that stops the run;
 * `rows` are the lvalues of the extents it sets. */
static void print_unique(Printer *p, const SelectCall *c) {
  const char *dims = "";
  for (int d = 0; d < c->rank; d++) dims = pool_printf("%s%s%s", dims, d ? ", " : "", c->dims[d]);
  pr_line(p, "const RtUnique geo = {.rank = %d, .dims = {%s}, .axis = %d, .sorted = %d, .consecutive = %d, "
          ".index64 = %d};", c->rank, dims, c->axis, c->sorted, c->consecutive, c->index64);
  pr_line(p, "const int64_t count = rt_unique_%s(&geo, %s, %s, %s, %s, %s, %s);", c->suffix, c->x, c->out, c->indices,
          c->inverse, c->counts, c->work);
  if (c->nan_stops) pr_line(p, "if (count < 0) return 1;");
  pr_line(p, "%s = count;", c->rows);
}

void select_print_c(Printer *p, const SelectCall *c) {
  switch (c->kind) {
    case SELECT_NONZERO: print_nonzero(p, c); break;
    case SELECT_MASKED: print_masked(p, c); break;
    case SELECT_MASKED_GRAD: print_masked_grad(p, c); break;
    case SELECT_UNIQUE: print_unique(p, c); break;
  }
}
