/* The C printer of kernels around one axis (axis_call.h). */
#include "axis_call.h"

#include "../util.h"

/* Declares the line's length (named `n`) and inner and opens the loop over
 * outer (i).  Closed by one "}". */
static void open_lines(Printer *p, const AxisCall *c, const char *n) {
  pr_line(p, "const int64_t %s = %s, inner = %s;", n, c->n, c->inner);
  pr_line(p, "for (int64_t i = 0; i < %s; i++) {", c->outer);
}

/* phi CumprodKernel's order of products, in the element type. */
static void print_cumprod(Printer *p, const AxisCall *c) {
  const char *t = c->type;
  pr_line(p, "const %s *x = %s;", t, c->x);
  pr_line(p, "%s *out = %s;", t, c->out);
  open_lines(p, c, "n");
  pr_line(p, "for (int64_t j = 0; j < n; j++) {");
  pr_line(p, "for (int64_t k = 0; k < inner; k++) {");
  pr_line(p, "const int64_t at = (i * n + j) * inner + k;");
  pr_line(p, "out[at] = j == 0 ? x[at] : out[at - inner] * x[at];");
  pr_close(p, 3);
}

/* phi CumprodGradKernel's direct sum, in the element type: exact where X
 * holds zeros. */
static void print_cumprod_grad(Printer *p, const AxisCall *c) {
  const char *t = c->type;
  pr_line(p, "const %s *x = %s;", t, c->x);
  pr_line(p, "const %s *out = %s;", t, c->out);
  pr_line(p, "const %s *dout = %s;", t, c->dout);
  pr_line(p, "%s *dx = %s;", t, c->dx);
  open_lines(p, c, "len");
  pr_line(p, "for (int64_t k = 0; k < inner; k++) {");
  pr_line(p, "const int64_t line = i * len * inner + k;");
  pr_line(p, "for (int64_t j = 0; j < len; j++) {");
  pr_line(p, "const int64_t at = line + j * inner;");
  pr_line(p, "%s acc = 0;", t);
  pr_line(p, "for (int64_t n = j; n < len; n++) {");
  pr_line(p, "%s elem = j == 0 ? dout[line + n * inner] : dout[line + n * inner] * out[at - inner];", t);
  pr_line(p, "for (int64_t m = j + 1; m <= n; m++) elem *= x[line + m * inner];");
  pr_line(p, "acc += elem;");
  pr_line(p, "}");
  pr_line(p, "dx[at] = acc;");
  pr_close(p, 3);
}

/* phi's index_select with the index [0]*r0 ++ [1]*r1 ++ ...: from the
 * repeats baked into a table, or j / Repeats. */
static void print_repeat(Printer *p, const AxisCall *c) {
  if (c->index) { /* the repeats read at run time */
    pr_line(p, "const %s *x = %s;", c->type, c->x);
    pr_line(p, "%s *out = %s;", c->type, c->out);
    pr_line(p, "const %s *reps = %s;", c->index_type, c->index);
    pr_line(p, "const int64_t outer = %s, n_in = %s, n_out = %s, slice = %s;", c->outer, c->n, c->n_out, c->inner);
    pr_line(p, "for (int64_t o = 0; o < outer; o++) {");
    pr_line(p, "int64_t j = 0;");
    pr_line(p, "for (int64_t i = 0; i < n_in; i++)");
    pr_line(p, "  for (int64_t k = 0; k < (int64_t)reps[i]; k++, j++)");
    pr_line(p, "    memcpy(out + (o * n_out + j) * slice, x + (o * n_in + i) * slice, (size_t)slice * sizeof *out);");
    pr_line(p, "}");
    return;
  }
  const char *src = pool_printf("j / %lld", (long long)c->rep);
  if (c->repeats) {
    const char *list = "", *reps = "";
    int64_t k = 0;
    for (int i = 0; i < c->nrepeats; i++) {
      reps = pool_printf("%s%s%lld", reps, i ? ", " : "", (long long)c->repeats[i]);
      for (int64_t j = 0; j < c->repeats[i]; j++, k++) list = pool_printf("%s%s%d", list, k ? ", " : "", i);
    }
    if (k == 0) {
      pr_line(p, "/* every repeat is 0: Out is empty */");
      return;
    }
    pr_line(p, "/* the X slice each Out slice copies: repeats {%s} */", reps);
    pr_line(p, "static const int32_t src[%lld] = {%s};", (long long)k, list);
    src = "src[j]";
  }
  pr_line(p, "const %s *x = %s;", c->type, c->x);
  pr_line(p, "%s *out = %s;", c->type, c->out);
  pr_line(p, "const int64_t outer = %s, n_in = %s, n_out = %s, slice = %s;", c->outer, c->n, c->n_out, c->inner);
  pr_line(p, "for (int64_t o = 0; o < outer; o++)");
  pr_line(p, "  for (int64_t j = 0; j < n_out; j++)");
  pr_line(p, "    memcpy(out + (o * n_out + j) * slice, x + (o * n_in + %s) * slice, (size_t)slice * sizeof *out);",
          src);
}

/* IndexSelectGradInner with the forward's index, the repeats read at run
 * time from RepeatsTensor (or Repeats): Out@GRAD slices past the repeats'
 * sum, or repeats past Out@GRAD's, add nothing. */
static void print_repeat_grad(Printer *p, const AxisCall *c) {
  const char *t = c->type;
  pr_line(p, "const %s *dout = %s;", t, c->dout);
  pr_line(p, "%s *dx = %s;", t, c->dx);
  pr_line(p, "const int64_t outer = %s, n_in = %s, n_out = %s, slice = %s;", c->outer, c->n, c->n_out, c->inner);
  pr_line(p, "for (int64_t q = 0; q < outer * n_in * slice; q++) dx[q] = 0;");
  if (c->index)
    pr_line(p, "const %s *reps = %s;", c->index_type, c->index);
  else
    pr_line(p, "const int64_t rep = %lld;", (long long)c->rep);
  pr_line(p, "for (int64_t o = 0; o < outer; o++) {");
  pr_line(p, "int64_t j = 0;");
  pr_line(p, "for (int64_t i = 0; i < n_in; i++) {");
  pr_line(p, "for (int64_t k = 0; k < %s && j < n_out; k++, j++)", c->index ? "(int64_t)reps[i]" : "rep");
  pr_line(p, "  for (int64_t s = 0; s < slice; s++) dx[(o * n_in + i) * slice + s] += dout[(o * n_out + j) * slice + s];");
  pr_close(p, 2);
}

/* Declares Index, the buffers `src` (read) and `dst` (written) of the
 * element type, outer, n, len and slice, and opens the loops over o and
 * the index entries j, with `at` = Index[j].  Closed by two "}". */
static void open_index_walk(Printer *p, const AxisCall *c, const char *src, const char *src_buf, const char *dst,
                            const char *dst_buf) {
  pr_line(p, "const %s *index = %s;", c->index_type, c->index);
  pr_line(p, "const %s *%s = %s;", c->type, src, src_buf);
  pr_line(p, "%s *%s = %s;", c->type, dst, dst_buf);
  pr_line(p, "const int64_t outer = %s, n = %s, len = %s, slice = %s;", c->outer, c->n, c->len, c->inner);
  pr_line(p, "for (int64_t o = 0; o < outer; o++) {");
  pr_line(p, "for (int64_t j = 0; j < len; j++) {");
  pr_line(p, "const int64_t at = (int64_t)index[j];");
}

/* phi IndexAddInner: an index outside [0, n) (Paddle's error) stops the
 * run. */
static void print_index_add(Printer *p, const AxisCall *c) {
  open_index_walk(p, c, "add", c->add, "out", c->out);
  pr_line(p, "if (at < 0 || at >= n) return 1; /* Paddle raises an error */");
  pr_line(p, "for (int64_t s = 0; s < slice; s++) out[(o * n + at) * slice + s] += add[(o * len + j) * slice + s];");
  pr_close(p, 2);
}

/* phi IndexAddGradKernel's AddValue@GRAD: index_select of Out@GRAD, 0 for
 * an index outside [0, n). */
static void print_index_add_grad(Printer *p, const AxisCall *c) {
  pr_line(p, "{");
  open_index_walk(p, c, "dout", c->dout, "dv", c->dv);
  pr_line(p, "for (int64_t s = 0; s < slice; s++)");
  pr_line(p, "  dv[(o * len + j) * slice + s] = at >= 0 && at < n ? dout[(o * n + at) * slice + s] : (%s)0;", c->type);
  pr_close(p, 3);
}

/* cross's view [outer, 3, slice] around its dim: declares outer and
 * slice, searching dims[] at run time for the first 3 (search). */
static void print_cross_view(Printer *p, const AxisCall *c) {
  if (!c->search) {
    pr_line(p, "const int64_t outer = %s, slice = %s;", c->outer, c->inner);
    return;
  }
  const char *dims = "";
  for (int i = 0; i < c->search; i++) dims = pool_printf("%s%s%s", dims, i ? ", " : "", c->dims[i]);
  pr_line(p, "/* the first dim of size 3, as Paddle's kernel looks for it at run time */");
  pr_line(p, "const int64_t dims[%d] = {%s};", c->search, dims);
  pr_line(p, "int axis = 0;");
  pr_line(p, "while (dims[axis] != 3) axis++;");
  pr_line(p, "int64_t outer = 1;");
  pr_line(p, "for (int d = 0; d < axis; d++) outer *= dims[d];");
  pr_line(p, "const int64_t slice = %s / (outer * 3);", c->numel);
}

/* Opens the loops over outer (i) and the 3 slices (j), declaring the
 * slices' starts dst (j), p1 (j + 1) and p2 (j + 2), mod 3.  Closed by two
 * "}". */
static void open_cross(Printer *p) {
  pr_line(p, "for (int64_t i = 0; i < outer; i++) {");
  pr_line(p, "for (int j = 0; j < 3; j++) {");
  pr_line(p, "const int64_t dst = (3 * i + j) * slice, p1 = (3 * i + (j + 1) %% 3) * slice,");
  pr_line(p, "              p2 = (3 * i + (j + 2) %% 3) * slice;");
}

/* phi CrossKernel. */
static void print_cross(Printer *p, const AxisCall *c) {
  pr_line(p, "const %s *x = %s;", c->type, c->x);
  pr_line(p, "const %s *y = %s;", c->type, c->y);
  pr_line(p, "%s *out = %s;", c->type, c->out);
  print_cross_view(p, c);
  open_cross(p);
  pr_line(p, "for (int64_t k = 0; k < slice; k++) out[dst + k] = x[p1 + k] * y[p2 + k] - x[p2 + k] * y[p1 + k];");
  pr_close(p, 2);
}

/* phi CrossGradKernel: each product rounded before the difference. */
static void print_cross_grad(Printer *p, const AxisCall *c) {
  const char *t = c->type;
  pr_line(p, "const %s *dout = %s;", t, c->dout);
  if (c->dx) pr_line(p, "const %s *y = %s;", t, c->y);
  if (c->dy) pr_line(p, "const %s *x = %s;", t, c->x);
  if (c->dx) pr_line(p, "%s *dx = %s;", t, c->dx);
  if (c->dy) pr_line(p, "%s *dy = %s;", t, c->dy);
  print_cross_view(p, c);
  open_cross(p);
  pr_line(p, "for (int64_t k = 0; k < slice; k++) {");
  if (c->dx) {
    pr_line(p, "const %s ax = dout[p2 + k] * y[p1 + k];", t);
    pr_line(p, "const %s bx = dout[p1 + k] * y[p2 + k];", t);
    pr_line(p, "dx[dst + k] = ax - bx;");
  }
  if (c->dy) {
    pr_line(p, "const %s ay = dout[p1 + k] * x[p2 + k];", t);
    pr_line(p, "const %s by = dout[p2 + k] * x[p1 + k];", t);
    pr_line(p, "dy[dst + k] = ay - by;");
  }
  pr_close(p, 3);
}

/* phi MeshgridGradKernel: X@GRAD[slot] sums outputs@GRAD[slot] over
 * every dim but slot, in memory order. */
static void print_meshgrid_grad(Printer *p, const AxisCall *c) {
  const char *t = c->type;
  pr_line(p, "{");
  pr_line(p, "/* X@GRAD[%d]: outputs@GRAD[%d] summed over every dim but %d */", c->slot, c->slot, c->slot);
  pr_line(p, "const %s *dout = %s;", t, c->dout);
  pr_line(p, "%s *dx = %s;", t, c->dx);
  pr_line(p, "const int64_t outer = %s, len = %s, inner = %s;", c->outer, c->n, c->inner);
  pr_line(p, "for (int64_t j = 0; j < len; j++) dx[j] = 0;");
  pr_line(p, "for (int64_t o = 0; o < outer; o++)");
  pr_line(p, "  for (int64_t j = 0; j < len; j++)");
  pr_line(p, "    for (int64_t k = 0; k < inner; k++) dx[j] += dout[(o * len + j) * inner + k];");
  pr_line(p, "}");
}

void axis_print_c(Printer *p, const AxisCall *c) {
  switch (c->kind) {
    case AXIS_CUMPROD:
      print_cumprod(p, c);
      break;
    case AXIS_CUMPROD_GRAD:
      print_cumprod_grad(p, c);
      break;
    case AXIS_REPEAT:
      print_repeat(p, c);
      break;
    case AXIS_REPEAT_GRAD:
      print_repeat_grad(p, c);
      break;
    case AXIS_INDEX_ADD:
      print_index_add(p, c);
      break;
    case AXIS_INDEX_ADD_GRAD:
      print_index_add_grad(p, c);
      break;
    case AXIS_CROSS:
      print_cross(p, c);
      break;
    case AXIS_CROSS_GRAD:
      print_cross_grad(p, c);
      break;
    case AXIS_MESHGRID_GRAD:
      print_meshgrid_grad(p, c);
      break;
  }
}
