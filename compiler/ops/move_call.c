/* The C printer of data-movement calls (move_call.h). */
#include "move_call.h"

#include <string.h>

#include "../util.h"
#include "rt_cnn.h"
#include "tensor_util.h"

/* "a, b, c": the n C expressions of v. */
static const char *join(int n, const char *const *v) {
  const char *s = "";
  for (int k = 0; k < n; k++) s = pool_printf("%s%s%s", s, k ? ", " : "", v[k]);
  return s;
}

const char *move_expr_c(const MoveCall *c) {
  switch (c->kind) {
    case MOVE_GATHER:
      return pool_printf("rt_gather(%s, %s, %s, %s, %s, %d, %s, %s, %s)", c->src, c->outer, c->rows, c->row_bytes,
                         c->index, c->index_bytes, c->count, c->pad, c->dst);
    case MOVE_GATHER_ND:
      return pool_printf("rt_gather_nd(%s, %s, %d, %s, %s, %d, %s, %s)", c->src, c->rank ? "dims" : "NULL", c->rank,
                         c->row_bytes, c->index, c->index_bytes, c->count, c->dst);
    case MOVE_COPY_STRIDED:
      return pool_printf("rt_copy_strided(%s, %s, %s, %d, dims, strides)", c->src, c->dst, c->esize, c->rank);
    case MOVE_NHWC_TO_NCHW:
      return pool_printf("rt_nhwc_to_nchw%s(%s, %s, %s, %s, %s)", c->f64 ? "_f64" : "", c->src, c->dst, c->outer,
                         c->inner, c->channels);
    case MOVE_NCHW_TO_NHWC:
      return pool_printf("rt_nchw_to_nhwc%s(%s, %s, %s, %s, %s)", c->f64 ? "_f64" : "", c->src, c->dst, c->outer,
                         c->channels, c->inner);
    case MOVE_CHANNEL_AFFINE:
      return pool_printf("rt_channel_affine%s(%s, %s, %s, %s, %s, %s, %s)", c->f64 ? "_f64" : "", c->src, c->dst,
                         c->scale, c->bias, c->outer, c->channels, c->inner);
    case MOVE_PAD3D:
    case MOVE_PAD3D_GRAD:
      return pool_printf("rt_pad3d%s%s(&%s, %s, %s, %s)", c->kind == MOVE_PAD3D_GRAD ? "_grad" : "",
                         c->f64 ? "_f64" : "", c->geo, c->outer, c->src, c->dst);
    case MOVE_ABS_MAX:
      return pool_printf("rt_abs_max(%s, %s)", c->src, c->count);
    case MOVE_COPY:
    case MOVE_ONE:
    case MOVE_PIECES:
    case MOVE_TAKE_GRAD:
    case MOVE_EXTENT:
      break; /* loops, not a call */
  }
  return NULL;
}

/* The RtPad3d geometry the PAD3D calls read, as static const `name`; a
 * local when the run gives the pads (run_pads: 6 C expressions) or sizes
 * of X (run_in: 3, NULL entries the compiled ones). */
static void print_pad3d_geo(Printer *p, const char *name, const RtPad3d *g, const char *const *run_pads,
                            const char *const *run_in) {
  static const char *const modes[] = {"RT_PAD_CONSTANT", "RT_PAD_REFLECT", "RT_PAD_REPLICATE", "RT_PAD_CIRCULAR"};
  const char *pads[6], *in[3];
  for (int i = 0; i < 6; i++) pads[i] = run_pads ? run_pads[i] : pool_printf("%lld", (long long)g->pads[i]);
  int local = run_pads != NULL;
  for (int i = 0; i < 3; i++) {
    in[i] = run_in && run_in[i] ? run_in[i] : pool_printf("%lld", (long long)g->in[i]);
    local |= run_in && run_in[i];
  }
  pr_line(p, "%sRtPad3d %s = {", local ? "" : "static const ", name);
  pr_line(p, ".mode = %s, .value = %s, .inner = %lld, .in = {%s, %s, %s},", modes[g->mode], em_float(g->value),
          (long long)g->inner, in[0], in[1], in[2]);
  pr_line(p, ".pads = {%s, %s, %s, %s, %s, %s},", pads[0], pads[1], pads[2], pads[3], pads[4], pads[5]);
  pr_line(p, "};");
}

/* dst = src element for element, or the note why nothing is copied. */
static void print_copy(Printer *p, const MoveCall *c) {
  if (c->alias == 1) pr_line(p, "/* Out is X: nothing to copy */");
  else if (c->alias == 2) pr_line(p, "/* Out shares X's buffer (enable_inplace): nothing to copy */");
  else pr_line(p, "memcpy(%s, %s, (size_t)%s * sizeof(%s));", c->dst, c->src, c->count, c->type);
}

/* Row o of the whole holds row o of each piece in turn: one memcpy per
 * piece and row, the rows in a loop unless there is one. */
static void print_pieces(Printer *p, const MoveCall *c) {
  const char *t = c->type;
  if (!strcmp(c->width, "0")) {
    pr_line(p, "/* every piece is empty */");
    return;
  }
  pr_line(p, "%s%s *whole = %s;", c->join ? "" : "const ", t, c->whole);
  for (int i = 0; i < c->npieces; i++)
    if (c->pieces[i]) pr_line(p, "%s%s *p%d = %s;", c->join ? "const " : "", t, i, c->pieces[i]);
  const int loop = strcmp(c->outer, "1") != 0;
  if (loop) pr_line(p, "for (int64_t o = 0; o < %s; o++) {", c->outer);
  for (int i = 0; i < c->npieces; i++) {
    if (!c->pieces[i]) continue;
    const char *col = tu_sum(i, c->cols);
    const char *w = tu_add(loop ? tu_mul("o", c->width) : "0", col);
    const char *pw = pool_printf("whole%s%s", strcmp(w, "0") ? " + " : "", strcmp(w, "0") ? w : "");
    const char *pp = loop ? pool_printf("p%d + %s", i, tu_mul("o", c->cols[i])) : pool_printf("p%d", i);
    const char *bytes = pool_printf("(size_t)%s * sizeof(%s)", c->cols[i], t);
    if (c->join) pr_line(p, "memcpy(%s, %s, %s);", pw, pp, bytes);
    else pr_line(p, "memcpy(%s, %s, %s);", pp, pw, bytes);
  }
  if (loop) pr_line(p, "}");
}

/* dX = 0, then each dOut element added where its index points, dOut
 * walked in memory order. */
static void print_take_grad(Printer *p, const MoveCall *c) {
  pr_line(p, "const %s *idx = %s;", c->itype, c->idx);
  pr_line(p, "const %s *dout = %s;", c->type, c->dout);
  pr_line(p, "%s *dx = %s;", c->type, c->dx);
  pr_line(p, "for (int64_t i = 0; i < %s; i++) dx[i] = 0;", c->dx_numel);
  if (c->scalar) { /* one element */
    pr_line(p, "dx[0] = %s; /* a 0-D X, as Paddle's kernel */", c->scalar);
    pr_line(p, "(void)idx, (void)dout;");
    return;
  }
  pr_line(p, "const int64_t n = %s, len = %s, post = %s;", c->n, c->len, c->post);
  pr_line(p, "int64_t at = 0;");
  pr_line(p, "for (int64_t a = 0; a < %s; a++) {", c->outer);
  pr_line(p, "for (int64_t j = 0; j < len; j++) {");
  pr_line(p, "for (int64_t b = 0; b < post; b++) {");
  pr_line(p, "dx[(a * n + (int64_t)idx[at]) * post + b] += dout[at];");
  pr_line(p, "at++;");
  pr_close(p, 3);
}

/* A runtime call as a statement; COPY_STRIDED and GATHER_ND in a block
 * that declares the arrays they read. */
static void print_call(Printer *p, const MoveCall *c) {
  const int block = c->kind == MOVE_COPY_STRIDED || c->kind == MOVE_GATHER_ND;
  if (block) pr_line(p, "{");
  if (block && c->rank) pr_line(p, "const int64_t dims[%d] = {%s};", c->rank, join(c->rank, c->dims));
  if (c->kind == MOVE_COPY_STRIDED) pr_line(p, "const int64_t strides[%d] = {%s};", c->rank, join(c->rank, c->strides));
  if (c->kind == MOVE_GATHER || c->kind == MOVE_GATHER_ND)
    pr_line(p, "if (%s) return 1; /* an index outside the tensor */", move_expr_c(c));
  else
    pr_line(p, "%s;", move_expr_c(c));
  if (block) pr_line(p, "}");
}

void move_print_c(Printer *p, const MoveCall *c) {
  if (c->note) pr_line(p, "/* %s */", c->note);
  if (c->braced) pr_line(p, "{");
  if (c->pad3d) print_pad3d_geo(p, c->geo, c->pad3d, c->run_pads, c->run_in);
  switch (c->kind) {
    case MOVE_COPY: print_copy(p, c); break;
    case MOVE_PIECES: print_pieces(p, c); break;
    case MOVE_TAKE_GRAD: print_take_grad(p, c); break;
    case MOVE_ONE: pr_line(p, "%s[0] = (%s)[0];", c->dst, c->src); break;
    case MOVE_EXTENT: pr_line(p, "%s = %s;", c->dst, c->src); break;
    default: print_call(p, c); break;
  }
  if (c->braced) pr_line(p, "}");
}
