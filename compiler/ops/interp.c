/* Resizing: nearest_interp, bilinear_interp, linear_interp, bicubic_interp,
 * trilinear_interp and their _v2 forms (Paddle InterpolateInferMeta and the
 * v1 InterpolateOp::InferShape, which share one rule).
 *   inputs:  X [N,C,(D,)(H,)W] (rank 3, 4 or 5), OutSize? (int tensor [nsp]),
 *            SizeTensor?* (nsp one-element tensors), Scale? (float tensor)
 *   outputs: Out, dtype of X
 *   attrs:   data_layout="NCHW" ("NHWC" = channel last), out_d=0, out_h=0,
 *            out_w=0, scale (v1: FLOAT=0; v2: FLOATS=[] with one value per
 *            spatial dim), interp_method="bilinear", align_corners=true,
 *            align_mode=1; extra use_mkldnn.
 * Output spatial size, in Paddle's order of priority:
 *   SizeTensor given -> the out_d/out_h/out_w attributes (Python writes -1
 *     for the entries held in tensors);
 *   Scale tensor     -> unknown (-1);
 *   scale attr > 0   -> (int)(in * scale) in float arithmetic, -1 when that
 *                       is not positive (an unknown input dim; the v1 op of
 *                       Paddle 1.2 had no such guard -- not reproduced);
 *   otherwise        -> the out_* attributes.
 * OutSize is read only at run time; at compile time Paddle keeps the size
 * computed above, and so does this rule.  Channel first only when data_layout
 * parses as NCHW (Paddle compares with kNCHW; Python writes NCHW or NHWC for
 * every rank). */
#include <strings.h>

#include "ops.h"

/* (int)(in * scale) as Paddle computes it (float product, truncated), -1 when
 * not positive. */
static int64_t interp_scaled(int64_t in, float scale) {
  float prod = (float)in * scale;
  if (!(prod >= 1.0f)) return DIM_UNKNOWN; /* also an unknown (negative) input */
  if (prod >= 2147483648.0f) return INT32_MAX; /* beyond Paddle's int */
  return (int64_t)(int32_t)prod;
}

static int infer_interp(OpCtx *c, int v2) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  if (xs->rank < 3 || xs->rank > 5)
    return ctx_fail(c, "X has rank %d (shape %s), expected 3, 4 or 5", xs->rank, shape_str(xs));
  for (int i = 0; i < xs->rank; i++)
    if (xs->d[i] == 0) return ctx_fail(c, "X %s has a zero dim", shape_str(xs));
  int nsp = xs->rank - 2;
  int nchw = strcasecmp(attr_str(c->op, "data_layout", "NCHW"), "NCHW") == 0;
  int sp0 = nchw ? 2 : 1; /* first spatial dim of X */
  int64_t attr_size[3] = {attr_int(c->op, "out_d", 0), attr_int(c->op, "out_h", 0),
                          attr_int(c->op, "out_w", 0)};
  const int64_t *want = attr_size + (3 - nsp); /* 1-D: out_w; 2-D: out_h, out_w */
  int64_t out[3];
  int nsize = ctx_nin(c, "SizeTensor");
  double v1_scale = attr_float(c->op, "scale", 0), *sv = &v1_scale;
  int nscale = v1_scale > 0; /* v1: one FLOAT, used when positive */
  if (v2) nscale = attr_floats(c->op, "scale", &sv);
  for (int i = 0; i < nsp; i++) {
    if (nsize > 0) {
      out[i] = want[i];
    } else if (ctx_in(c, "Scale", 0)) {
      out[i] = DIM_UNKNOWN;
    } else if (nscale > 0) {
      float s = (float)sv[i < nscale ? i : nscale - 1];
      if (s <= 0) return ctx_fail(c, "scale must be positive");
      out[i] = interp_scaled(xs->d[sp0 + i], s);
    } else {
      out[i] = want[i];
    }
  }
  if (nsize > 0 && nsize != nsp)
    return ctx_fail(c, "SizeTensor has %d tensors for %d spatial dims", nsize, nsp);
  Shape o = *xs;
  for (int i = 0; i < nsp; i++) o.d[sp0 + i] = out[i];
  ctx_set(c, "Out", 0, &o, x->dtype);
  return 0;
}

static int infer_interp_v1(OpCtx *c) { return infer_interp(c, 0); }
static int infer_interp_v2(OpCtx *c) { return infer_interp(c, 1); }

#define OP_INTERP_V1(name) const OpDef op_##name = {.type = #name, .infer = infer_interp_v1};
#define OP_INTERP_V2(name) const OpDef op_##name = {.type = #name, .infer = infer_interp_v2};
OP_INTERP_V1(bicubic_interp)
OP_INTERP_V1(bilinear_interp)
OP_INTERP_V1(linear_interp)
OP_INTERP_V1(nearest_interp)
OP_INTERP_V1(trilinear_interp)
OP_INTERP_V2(bicubic_interp_v2)
OP_INTERP_V2(bilinear_interp_v2)
OP_INTERP_V2(linear_interp_v2)
OP_INTERP_V2(nearest_interp_v2)
OP_INTERP_V2(trilinear_interp_v2)
