/* The C printer of data-movement calls (move_call.h). */
#include "move_call.h"

#include "../util.h"

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
  }
  return NULL;
}

void move_print_c(Printer *p, const MoveCall *c) {
  const int block = c->kind == MOVE_COPY_STRIDED || c->kind == MOVE_GATHER_ND;
  if (block) pr_line(p, "{");
  if (block && c->rank) pr_line(p, "const int64_t dims[%d] = {%s};", c->rank, join(c->rank, c->dims));
  if (c->kind == MOVE_COPY_STRIDED) pr_line(p, "const int64_t strides[%d] = {%s};", c->rank, join(c->rank, c->strides));
  pr_line(p, "%s;", move_expr_c(c));
  if (block) pr_line(p, "}");
}
