/* flip, reverse: X -> Out (X's dims and dtype); axis:INTS (flip: no
 * default; reverse: the legacy fluid op, the same kernel).
 * Shape rule (phi FlipInferMeta): every axis in [-rank, rank), no two equal
 * neighbours in the list (Paddle's std::unique check); negative axes +=
 * rank.  An axis named twice is flipped once, as the kernel's bitset does.
 * Emission: a strided copy that starts at the last element along each
 * flipped axis and walks it with the negated stride, over X's dims (those
 * the run gives too, which Out takes). */
#include <string.h>

#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_flip(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t *axis;
  int n = attr_ints(c->op, "axis", &axis);
  for (int i = 0; i < n; i++) {
    if (axis_norm(axis[i], x->shape.rank) < 0)
      return ctx_fail(c, "axis %lld is out of range for X %s", (long long)axis[i], shape_str(&x->shape));
    if (i > 0 && axis[i] == axis[i - 1]) return ctx_fail(c, "axis lists %lld twice", (long long)axis[i]);
  }
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  ctx_pass_runtime_extent(c, x, "Out", 0);
  return 0;
}

static int emit_flip(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (x->dtype != out->dtype) return em_fail(e, "X and Out differ in dtype");
  if (x == out) return em_fail(e, "Out is X itself (an in-place %s), which is not supported", e->op->type);
  int r = tu_rank(e, x), flip[RT_MAX_RANK] = {0};
  int64_t *axis;
  int n = attr_ints(e->op, "axis", &axis);
  for (int i = 0; i < n; i++) {
    int a = axis_norm(axis[i], r);
    if (a < 0) return em_fail(e, "axis %lld is out of range", (long long)axis[i]);
    flip[a] = 1;
  }
  const char *dims[RT_MAX_RANK], *st[RT_MAX_RANK], *offset = "0";
  tu_strides(e, x, st);
  for (int i = 0; i < r; i++) {
    dims[i] = em_dim(e, x, i);
    if (!flip[i] || !strcmp(dims[i], "1")) continue;
    int64_t d = em_const_dim(e, x, i);
    const char *last = d >= 0 ? pool_printf("%lld", (long long)d - 1) : pool_printf("(%s - 1)", dims[i]);
    offset = tu_add(offset, tu_mul(last, st[i]));
    st[i] = tu_mul("-1", st[i]);
  }
  if (r == 0) return tu_copy(e, x, out);
  return tu_strided_copy(e, x, offset, out, r, dims, st);
}

const OpDef op_flip = {.type = "flip", .infer = infer_flip, .emit_c = emit_flip, .runtime_extents = 2};
const OpDef op_reverse = {.type = "reverse", .infer = infer_flip, .emit_c = emit_flip, .runtime_extents = 2};
