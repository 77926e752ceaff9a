/* pixel_shuffle (Paddle PixelShuffleInferMeta): X [N, C*r*r, H, W] ->
 * Out [N, C, H*r, W*r] (NHWC: [N, H, W, C*r*r] -> [N, H*r, W*r, C]), dtype of X.
 *   attrs: upscale_factor=1 (r), data_format="NCHW".
 * pixel_unshuffle (PixelUnshuffleInferMeta), its inverse: X [N, C, H*r,
 * W*r] -> Out [N, C*r*r, H, W] (NHWC likewise, channels last).
 *   attrs: downscale_factor=1 (r), data_format="NCHW".
 * The arithmetic is Paddle's, applied to unknown (-1) dims as well: an unknown
 * H becomes -r and an unknown channel count -1/(r*r) = 0, as in its VarDescs
 * (pixel_unshuffle: -1/r = 0 and -r*r).  Channel last only for "NHWC", as
 * the kernels compare with it.
 *
 * C emission (any element type): pixel_shuffle is a copy loop; output
 * element (n, c, h*r + i, w*r + j) takes input element (n, c*r*r + i*r + j,
 * h, w) (the same with channels last for NHWC).  pixel_unshuffle is the
 * transpose Paddle's kernel does, one strided copy: Out viewed as [N, C, r,
 * r, H, W] (NHWC [N, H, W, C, r, r]) reads X at (n, c, h*r + i, w*r + j).
 * pixel_shuffle of an X whose height and width the run gives loops over
 * the run's (Out's r times them); its grad over Out@GRAD's (X@GRAD's 1/r
 * of them). */
#include <string.h>

#include "../util.h"
#include "move_call.h"
#include "ops.h"
#include "pixel_call.h"
#include "run_hw.h"
#include "tensor_util.h"

static int infer_pixel_shuffle(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  if (xs->rank != 4) return ctx_fail(c, "X %s must have rank 4", shape_str(xs));
  int64_t r = attr_int(c->op, "upscale_factor", 1);
  if (r <= 0) return ctx_fail(c, "upscale_factor must be positive");
  int last = strcmp(attr_str(c->op, "data_format", "NCHW"), "NHWC") == 0;
  int ci = last ? 3 : 1, hi = last ? 1 : 2;
  if (xs->d[ci] > 0 && xs->d[ci] % (r * r))
    return ctx_fail(c, "channels of X %s are not divisible by upscale_factor^2 = %lld",
                    shape_str(xs), (long long)(r * r));
  Shape o = *xs;
  o.d[ci] = xs->d[ci] / (r * r);
  o.d[hi] = xs->d[hi] * r;
  o.d[hi + 1] = xs->d[hi + 1] * r;
  ctx_set(c, "Out", 0, &o, x->dtype);
  const unsigned run = var_runtime_mask(x); /* the run's height and width: Out's are r times them */
  if (!run) return 0;
  if (run & ~(3u << hi))
    return ctx_fail(c, "X ('%s') has dims only the run gives (from its %s) besides its height and width; "
                    "pixel_shuffle takes them there only", x->name, x->runtime_from ? x->runtime_from : "inputs");
  ctx_set_runtime_extents(c, "Out", 0, run, x->runtime_from);
  Var *out = ctx_out(c, "Out", 0);
  if (out) run_hw_share_root(c->g, out, pool_printf("%d:%u:pixel_shuffle %lld", x->runtime_root, run, (long long)r));
  return 0;
}

/* The copy between the [N, C, H*r, W*r] side `big` and the [N, C*r*r, H, W]
 * side of a pixel shuffle (channel c's r x r block of pixels is channels
 * c*r*r .. c*r*r + r*r - 1), in data_format's layout: dst[...] = src[...]
 * with src the big side when `from_big` (pixel_call.h).  0, or -1 after
 * em_fail. */
static int lower_shuffle(EmitCtx *e, const Var *src, const Var *dst, int from_big, int64_t r) {
  const Var *big = from_big ? src : dst, *small = from_big ? dst : src;
  const int last = strcmp(attr_str(e->op, "data_format", "NCHW"), "NHWC") == 0, hi = last ? 1 : 2;
  const unsigned run = em_spec(e, small)->runtime_mask; /* the run's height and width (pixel_shuffle's X) */
  int64_t d[4];
  for (int i = 1; i < 4; i++)
    if ((d[i] = em_bound_dim(e, big, i)) < 0 || (!run && em_const_dim(e, big, i) < 0))
      return em_fail(e, "dims after the batch must not depend on it");
  if (r <= 0 || (last ? d[1] % r || d[2] % r : d[2] % r || d[3] % r))
    return em_fail(e, "the factor %lld does not divide the spatial dims", (long long)r);
  const int64_t C = last ? d[3] : d[1], H = (last ? d[1] : d[2]) / r, W = (last ? d[2] : d[3]) / r;
  PixelCall call = {.type = em_ctype(dst->dtype), .last = last, .from_big = from_big, .C = C, .R = r,
                    .H = pool_printf("%lld", (long long)H), .W = pool_printf("%lld", (long long)W),
                    .batch = em_dim(e, big, 0), .src = em_ptr(e, src, 1), .dst = em_ptr(e, dst, 0)};
  for (int i = 0; i < 2 && run; i++) { /* the run's sizes, the big side's r times them */
    const char *n = em_dim(e, small, hi + i);
    if (i) call.W = n;
    else call.H = n;
    if (from_big) /* pixel_shuffle_grad: X@GRAD's, Out@GRAD's over r (infer_pixel_grad) */
      move_print_c(e->p, &(MoveCall){.kind = MOVE_EXTENT, .dst = n,
                                     .src = pool_printf("%s / %lld", em_dim(e, big, hi + i), (long long)r)});
    else if (em_spec(e, big)->runtime_mask >> (hi + i) & 1)
      move_print_c(e->p, &(MoveCall){.kind = MOVE_EXTENT, .dst = em_dim(e, big, hi + i),
                                     .src = pool_printf("%s * %lld", n, (long long)r)});
  }
  pixel_print_c(e->p, &call);
  return 0;
}

static int emit_pixel_shuffle(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *out = ctx_out(&c, "Out", 0);
  if (!x || !out) return em_fail(e, "missing X or Out");
  if (!em_ctype(x->dtype) || x->dtype != out->dtype)
    return em_fail(e, "pixel_shuffle of %s tensors is not supported", rt_dtype_name(x->dtype));
  return lower_shuffle(e, x, out, 0, attr_int(e->op, "upscale_factor", 1));
}

const OpDef op_pixel_shuffle = {.type = "pixel_shuffle", .infer = infer_pixel_shuffle, .emit_c = emit_pixel_shuffle,
                                .runtime_extents = 2};

static int infer_pixel_unshuffle(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  if (xs->rank != 4) return ctx_fail(c, "X %s must have rank 4", shape_str(xs));
  int64_t r = attr_int(c->op, "downscale_factor", 1);
  if (r <= 0) return ctx_fail(c, "downscale_factor must be positive");
  const char *fmt = attr_str(c->op, "data_format", "NCHW");
  if (strcmp(fmt, "NCHW") && strcmp(fmt, "NHWC")) return ctx_fail(c, "data_format '%s' is not NCHW or NHWC", fmt);
  int last = strcmp(fmt, "NHWC") == 0;
  int ci = last ? 3 : 1, hi = last ? 1 : 2;
  for (int i = hi; i < hi + 2; i++)
    if (xs->d[i] > 0 && xs->d[i] % r)
      return ctx_fail(c, "the spatial dims of X %s are not divisible by downscale_factor %lld", shape_str(xs),
                      (long long)r);
  Shape o = *xs;
  o.d[ci] = xs->d[ci] * r * r;
  o.d[hi] = xs->d[hi] / r;
  o.d[hi + 1] = xs->d[hi + 1] / r;
  ctx_set(c, "Out", 0, &o, x->dtype);
  return 0;
}

static int emit_pixel_unshuffle(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (x->dtype != out->dtype) return em_fail(e, "X and Out differ in dtype");
  if (x == out) return em_fail(e, "Out is X itself, which is not supported");
  int last = strcmp(attr_str(e->op, "data_format", "NCHW"), "NHWC") == 0;
  int64_t r = attr_int(e->op, "downscale_factor", 1), d[4];
  for (int i = 1; i < 4; i++)
    if ((d[i] = em_const_dim(e, x, i)) < 0) return em_fail(e, "dims after the batch must not depend on it");
  const int64_t C = last ? d[3] : d[1], H = last ? d[1] : d[2], W = last ? d[2] : d[3];
  if (r <= 0 || H % r || W % r) return em_fail(e, "downscale_factor %lld does not divide X", (long long)r);
  /* Out's dims in memory order and the X stride each one walks */
  const int64_t n_st = C * H * W, c_st = last ? 1 : H * W, row = last ? W * C : W, px = last ? C : 1;
  const int64_t nc[6] = {C, r, r, H / r, W / r, 0}, sc[6] = {c_st, row, px, r * row, r * px, 0};
  const int64_t nl[6] = {H / r, W / r, C, r, r, 0}, sl[6] = {r * row, r * px, c_st, row, px, 0};
  const int64_t *dims = last ? nl : nc, *strides = last ? sl : sc;
  const char *ds[6] = {em_dim(e, x, 0)}, *ss[6] = {pool_printf("%lld", (long long)n_st)};
  for (int i = 0; i < 5; i++) {
    ds[i + 1] = pool_printf("%lld", (long long)dims[i]);
    ss[i + 1] = pool_printf("%lld", (long long)strides[i]);
  }
  return tu_strided_copy(e, x, "0", out, 6, ds, ss);
}

const OpDef op_pixel_unshuffle = {.type = "pixel_unshuffle", .infer = infer_pixel_unshuffle,
                                  .emit_c = emit_pixel_unshuffle};

/* ---- gradients ---- */

/* pixel_shuffle_grad, pixel_unshuffle_grad (Out@GRAD -> X@GRAD, the
 * forward's attributes; phi PixelShuffleGradKernel /
 * PixelUnshuffleGradKernel): the inverse permutation, each X@GRAD element
 * the one Out@GRAD element its X element went to.  Shape rule (phi
 * PixelShuffleGradInferMeta and the like): X@GRAD from Out@GRAD's dims,
 * the forward's arithmetic reversed. */
static int infer_pixel_grad(OpCtx *c) {
  Var *dout = ctx_need(c, "Out@GRAD", 0);
  if (!dout) return -1;
  const Shape *os = &dout->shape;
  if (os->rank != 4) return ctx_fail(c, "Out@GRAD %s must have rank 4", shape_str(os));
  int up = !strcmp(c->op->type, "pixel_shuffle_grad");
  int64_t r = attr_int(c->op, up ? "upscale_factor" : "downscale_factor", 1);
  if (r <= 0) return ctx_fail(c, "the factor must be positive");
  int last = strcmp(attr_str(c->op, "data_format", "NCHW"), "NHWC") == 0;
  int ci = last ? 3 : 1, hi = last ? 1 : 2;
  Shape x = *os;
  if (up) {
    x.d[ci] = os->d[ci] * r * r;
    x.d[hi] = os->d[hi] / r;
    x.d[hi + 1] = os->d[hi + 1] / r;
  } else {
    x.d[ci] = os->d[ci] / (r * r);
    x.d[hi] = os->d[hi] * r;
    x.d[hi + 1] = os->d[hi + 1] * r;
  }
  ctx_set(c, "X@GRAD", 0, &x, dout->dtype);
  const unsigned run = var_runtime_mask(dout); /* pixel_shuffle's run height and width: X@GRAD's are 1/r of them */
  if (!run || !up) return 0;
  if (run & ~(3u << hi))
    return ctx_fail(c, "Out@GRAD ('%s') has dims only the run gives besides its height and width; %s takes them "
                    "there only", dout->name, c->op->type);
  ctx_set_runtime_extents(c, "X@GRAD", 0, run, dout->runtime_from);
  Var *dx = ctx_out(c, "X@GRAD", 0);
  if (dx) run_hw_share_root(c->g, dx, pool_printf("%d:%u:pixel_shuffle_grad %lld", dout->runtime_root, run, (long long)r));
  return 0;
}

static int emit_pixel_grad(EmitCtx *e) {
  Var *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!dout || !dx) return -1;
  if (dout->dtype != dx->dtype) return em_fail(e, "Out@GRAD and X@GRAD differ in dtype");
  if (dout == dx) return em_fail(e, "X@GRAD is Out@GRAD itself, which is not supported");
  const int up = !strcmp(e->op->type, "pixel_shuffle_grad");
  /* pixel_shuffle's Out@GRAD is the big side, pixel_unshuffle's X@GRAD */
  return lower_shuffle(e, dout, dx, up, attr_int(e->op, up ? "upscale_factor" : "downscale_factor", 1));
}

const OpDef op_pixel_shuffle_grad = {.type = "pixel_shuffle_grad", .infer = infer_pixel_grad,
                                     .emit_c = emit_pixel_grad, .runtime_extents = 2};
const OpDef op_pixel_unshuffle_grad = {.type = "pixel_unshuffle_grad", .infer = infer_pixel_grad,
                                       .emit_c = emit_pixel_grad};
