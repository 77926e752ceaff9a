/* Constant / reflect / replicate / circular padding.
 * pad: X -> Out, Out.dims[i] = X.dims[i] + paddings[2i] + paddings[2i+1]
 *   (unknown dims stay unknown).  attrs: paddings (INTS, 2 per dim),
 *   pad_value=0 (FLOAT or SCALAR).
 * pad2d (4-D only): X, Paddings? (int32 tensor [4]) -> Out.  attrs:
 *   paddings=[0,0,0,0] (top, bottom, left, right), pad_value=0,
 *   mode="constant" ("reflect", "edge"), data_format="NCHW" ("NHWC").
 *   With the Paddings tensor (read only at run time) Paddle declares Out with
 *   X's dims, for either layout.
 * pad3d (5-D only, Pad3dInferMeta): X, Paddings? -> Out.  attrs: paddings
 *   (6 values: left, right, top, bottom, front, back; may be a VAR),
 *   mode="constant" ("reflect", "replicate", "circular"), value=0,
 *   data_format="NCDHW" ("NDHWC").  Padding held in a tensor makes D, H, W
 *   unknown.
 * Out has X's dtype. */
#include <string.h>

#include "ops.h"

/* in + a + b, or unknown when `in` is unknown (Paddle's compile-time rule). */
static int64_t pad_dim(int64_t in, int64_t a, int64_t b) { return in < 0 ? in : in + a + b; }

static int infer_pad(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  int64_t *p;
  int np = attr_ints(c->op, "paddings", &p);
  if (np != 2 * xs->rank)
    return ctx_fail(c, "paddings has %d values, X %s needs %d", np, shape_str(xs), 2 * xs->rank);
  Shape o = *xs;
  for (int i = 0; i < xs->rank; i++) o.d[i] = pad_dim(xs->d[i], p[2 * i], p[2 * i + 1]);
  ctx_set(c, "Out", 0, &o, x->dtype);
  return 0;
}

static int infer_pad2d(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  if (xs->rank != 4) return ctx_fail(c, "X %s must have rank 4", shape_str(xs));
  int nchw = strcmp(attr_str(c->op, "data_format", "NCHW"), "NCHW") == 0;
  Shape o = {4, {xs->d[0], 0, 0, 0}};
  if (ctx_in(c, "Paddings", 0)) {
    o = *xs;
  } else {
    int64_t *p;
    if (attr_ints(c->op, "paddings", &p) != 4) return ctx_fail(c, "paddings must have 4 values");
    int h = nchw ? 2 : 1;
    o.d[nchw ? 1 : 3] = xs->d[nchw ? 1 : 3];
    o.d[h] = pad_dim(xs->d[h], p[0], p[1]);
    o.d[h + 1] = pad_dim(xs->d[h + 1], p[2], p[3]);
  }
  ctx_set(c, "Out", 0, &o, x->dtype);
  return 0;
}

static int infer_pad3d(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  if (xs->rank != 5) return ctx_fail(c, "X %s must have rank 5", shape_str(xs));
  int ncdhw = strcmp(attr_str(c->op, "data_format", "NCDHW"), "NCDHW") == 0;
  int d0 = ncdhw ? 2 : 1; /* first spatial dim */
  Shape o = {5, {xs->d[0], DIM_UNKNOWN, DIM_UNKNOWN, DIM_UNKNOWN, DIM_UNKNOWN}};
  o.d[ncdhw ? 1 : 4] = xs->d[ncdhw ? 1 : 4];
  if (!ctx_in(c, "Paddings", 0) && !attr_is_var(c->op, "paddings")) {
    int64_t *p;
    if (attr_ints(c->op, "paddings", &p) != 6) return ctx_fail(c, "paddings must have 6 values");
    /* paddings run from the last spatial dim (W) to the first (D). */
    for (int i = 0; i < 3; i++) o.d[d0 + i] = pad_dim(xs->d[d0 + i], p[4 - 2 * i], p[5 - 2 * i]);
  }
  ctx_set(c, "Out", 0, &o, x->dtype);
  return 0;
}

const OpDef op_pad = {.type = "pad", .infer = infer_pad};
const OpDef op_pad2d = {.type = "pad2d", .infer = infer_pad2d};
const OpDef op_pad3d = {.type = "pad3d", .infer = infer_pad3d};
