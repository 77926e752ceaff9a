/* The C printer of take_along_axis / put_along_axis kernels (along_call.h). */
#include "along_call.h"

#include "../util.h"

/* Declares the walk's extents and Input's flat geometry. */
static void declare_walk(Printer *p, const AlongCall *c) {
  pr_line(p, "const int64_t ni = %s, nj = %s, nk = %s;", c->ni, c->nj, c->nk);
  if (c->numel_in)
    pr_line(p, "const int64_t n_in = %s, outer_in = %s, numel_in = %s;", c->n_in, c->outer_in, c->numel_in);
  else /* take: the index is checked, not the offset */
    pr_line(p, "const int64_t n_in = %s, outer_in = %s;", c->n_in, c->outer_in);
}

/* Declares the walk over Index and opens its three loops, with `at`. */
static void open_walk(Printer *p, const AlongCall *c) {
  declare_walk(p, c);
  pr_line(p, "int64_t p = 0;");
  pr_line(p, "for (int64_t i = 0; i < ni; i++) {");
  pr_line(p, "for (int64_t j = 0; j < nj; j++) {");
  pr_line(p, "for (int64_t k = 0; k < nk; k++, p++) {");
  pr_line(p, "const int64_t at = k + (int64_t)index[p] * outer_in + i * outer_in * n_in;");
}

static void print_take(Printer *p, const AlongCall *c) {
  pr_line(p, "const %s *x = %s;", c->type, c->x);
  pr_line(p, "const %s *index = %s;", c->index_type, c->index);
  pr_line(p, "%s *out = %s;", c->type, c->out);
  AlongCall walk = *c;
  walk.numel_in = NULL;
  open_walk(p, &walk);
  pr_line(p, "if (index[p] < 0 || index[p] >= n_in) return 1; /* outside Input's axis */");
  pr_line(p, "out[p] = x[at];");
  pr_close(p, 3);
}

/* How Value's element v combines into the result element o. */
static const char *put_step(AlongReduce r) {
  switch (r) {
    case ALONG_ASSIGN: return "o = v";
    case ALONG_ADD: return "o += v";
    case ALONG_MUL: return "o *= v";
    case ALONG_MEAN: return "o += v";
    case ALONG_AMAX: return "o = v > o ? v : o";
    case ALONG_AMIN: return "o = v < o ? v : o";
  }
  return "o = v";
}

/* Without include_self the first value to reach an element replaces it;
 * mean divides the sum by the values that reached it (+1 with
 * include_self) at the end.  An index outside Input's axis stops the run. */
static void print_put(Printer *p, const AlongCall *c) {
  const char *t = c->type, *step = put_step(c->reduce);
  pr_line(p, "{");
  pr_line(p, "const %s *index = %s;", c->index_type, c->index);
  pr_line(p, "const %s *val = %s;", t, c->val);
  pr_line(p, "%s *out = %s;", t, c->out);
  if (c->count) {
    pr_line(p, "int32_t *count = (int32_t *)%s; /* values that reached each element */", c->count);
    pr_line(p, "memset(count, 0, (size_t)%s * sizeof *count);", c->numel_in);
  }
  pr_line(p, "const int64_t n_val = %s, outer_val = %s;", c->n_val, c->outer_val);
  AlongCall walk = *c;
  if (c->reduce != ALONG_MEAN) walk.numel_in = NULL; /* only mean's division reads it */
  open_walk(p, &walk);
  pr_line(p, "if (index[p] < 0 || index[p] >= n_in) return 1; /* outside Input's axis */");
  pr_line(p, "const %s v = val[k + j * outer_val + i * outer_val * n_val];", t);
  pr_line(p, "%s o = out[at];", t);
  if (c->count && !c->include_self) pr_line(p, "if (count[at] == 0) o = v;");
  if (c->count && !c->include_self) pr_line(p, "else %s;", step);
  else pr_line(p, "%s;", step);
  pr_line(p, "out[at] = o;");
  if (c->count) pr_line(p, "count[at]++;");
  pr_close(p, 3);
  if (c->reduce == ALONG_MEAN) {
    pr_line(p, "for (int64_t q = 0; q < numel_in; q++)");
    pr_line(p, "  if (count[q]) out[q] = out[q] / (%s)(count[q]%s);", t, c->include_self ? " + 1" : "");
  }
  pr_line(p, "}");
}

/* The grads' first lines: a block with index and dout. */
static void open_grad(Printer *p, const AlongCall *c) {
  pr_line(p, "{");
  pr_line(p, "const %s *index = %s;", c->index_type, c->index);
  pr_line(p, "const %s *dout = %s;", c->type, c->dout);
}

static void print_take_grad(Printer *p, const AlongCall *c) {
  open_grad(p, c);
  pr_line(p, "%s *dx = %s;", c->type, c->dx);
  pr_line(p, "for (int64_t q = 0; q < %s; q++) dx[q] = 0;", c->numel_dx);
  open_walk(p, c);
  pr_line(p, "if (at >= 0 && at < numel_in) dx[at] += dout[p];");
  pr_close(p, 4);
}

/* put_along_axis_grad's Input@GRAD (the rules in along_axis.c). */
static void print_put_grad_dx(Printer *p, const AlongCall *c) {
  const char *t = c->type;
  const AlongReduce r = c->reduce;
  const int minmax = r == ALONG_AMAX || r == ALONG_AMIN;
  pr_line(p, "{");
  pr_line(p, "/* Input@GRAD */");
  pr_line(p, "%s *dx = %s;", t, c->dx);
  pr_line(p, "for (int64_t q = 0; q < %s; q++) dx[q] = dout[q];", c->numel_in);
  if (c->include_self && (r == ALONG_MUL || r == ALONG_MEAN || minmax))
    pr_line(p, "memset(count, 0, (size_t)%s * sizeof *count);", c->numel_in);
  if (r == ALONG_ADD && c->include_self) {
    pr_line(p, "(void)index;");
  } else {
    pr_line(p, "{");
    open_walk(p, c);
    pr_line(p, "if (at < 0 || at >= numel_in) continue;");
    if (r == ALONG_ASSIGN || !c->include_self) pr_line(p, "dx[at] = 0;");
    else if (r == ALONG_MUL) pr_line(p, "if (count[at]++ == 0) dx[at] = dx[at] * res[at] / x[at];");
    else if (r == ALONG_MEAN) pr_line(p, "count[at]++;");
    else {
      pr_line(p, "if (res[at] != x[at]) dx[at] = 0;");
      pr_line(p, "else if (res[at] == val[p]) count[at]++;");
    }
    pr_close(p, 3);
    if (c->include_self && r == ALONG_MEAN) {
      pr_line(p, "for (int64_t q = 0; q < numel_in; q++)");
      pr_line(p, "  if (count[q]) dx[q] = dx[q] / (%s)(count[q] + 1);", t);
    } else if (c->include_self && minmax) {
      pr_line(p, "for (int64_t q = 0; q < numel_in; q++) dx[q] = dx[q] / (%s)(count[q] + 1);", t);
    }
    pr_line(p, "}");
  }
  pr_line(p, "}");
}

/* put_along_axis_grad's Value@GRAD (the rules in along_axis.c). */
static void print_put_grad_dv(Printer *p, const AlongCall *c) {
  const char *t = c->type;
  const AlongReduce r = c->reduce;
  pr_line(p, "{");
  pr_line(p, "/* Value@GRAD */");
  pr_line(p, "%s *dv = %s;", t, c->dv);
  pr_line(p, "for (int64_t q = 0; q < %s; q++) dv[q] = 0;", c->numel_index);
  if (r == ALONG_ASSIGN) { /* walked backwards: the last value written to `at` is the first seen */
    pr_line(p, "unsigned char *used = %s;", c->used);
    pr_line(p, "memset(used, 0, (size_t)%s);", c->numel_in);
    declare_walk(p, c);
    pr_line(p, "int64_t p = ni * nj * nk - 1;");
    pr_line(p, "for (int64_t i = ni - 1; i >= 0; i--) {");
    pr_line(p, "for (int64_t j = nj - 1; j >= 0; j--) {");
    pr_line(p, "for (int64_t k = nk - 1; k >= 0; k--, p--) {");
    pr_line(p, "const int64_t at = k + (int64_t)index[p] * outer_in + i * outer_in * n_in;");
    pr_line(p, "if (at < 0 || at >= numel_in || used[at]) continue;");
    pr_line(p, "dv[p] = dout[at];");
    pr_line(p, "used[at] = 1;");
    pr_close(p, 3);
  } else {
    if (r == ALONG_MEAN || r == ALONG_AMAX || r == ALONG_AMIN) {
      pr_line(p, "for (int64_t q = 0; q < %s; q++) count[q] = %d;", c->numel_in, r == ALONG_MEAN && c->include_self);
      pr_line(p, "{");
      open_walk(p, c);
      pr_line(p, "if (at < 0 || at >= numel_in) continue;");
      if (r == ALONG_MEAN) pr_line(p, "count[at]++;");
      else pr_line(p, "if (res[at] == val[p]) count[at]++;");
      pr_close(p, 4);
    }
    pr_line(p, "{");
    open_walk(p, c);
    pr_line(p, "if (at < 0 || at >= numel_in) continue;");
    if (r == ALONG_ADD) pr_line(p, "dv[p] = dout[at];");
    else if (r == ALONG_MEAN) pr_line(p, "dv[p] = dout[at] / (%s)count[at];", t);
    else if (r == ALONG_MUL) pr_line(p, "dv[p] = dout[at] * (res[at] / val[p]);");
    else {
      pr_line(p, "if (res[at] == val[p])");
      pr_line(p, "  dv[p] = dout[at] / (%s)(res[at] == x[at] ? count[at] + 1 : count[at]);", t);
    }
    pr_close(p, 4);
  }
  pr_line(p, "}");
}

static void print_put_grad(Printer *p, const AlongCall *c) {
  open_grad(p, c);
  pr_line(p, "const %s *x = %s;", c->type, c->x);
  pr_line(p, "const %s *val = %s;", c->type, c->val);
  pr_line(p, "const %s *res = %s;", c->type, c->res);
  pr_line(p, "(void)x;");
  pr_line(p, "(void)val;");
  pr_line(p, "(void)res;");
  if (c->count) pr_line(p, "int32_t *count = (int32_t *)%s;", c->count);
  if (c->dx) print_put_grad_dx(p, c);
  if (c->dv) print_put_grad_dv(p, c);
  pr_line(p, "}");
}

void along_print_c(Printer *p, const AlongCall *c) {
  switch (c->kind) {
    case ALONG_TAKE:
      print_take(p, c);
      break;
    case ALONG_PUT:
      print_put(p, c);
      break;
    case ALONG_TAKE_GRAD:
      print_take_grad(p, c);
      break;
    case ALONG_PUT_GRAD:
      print_put_grad(p, c);
      break;
  }
}
