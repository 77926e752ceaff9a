/* unfold (paddle.nn.Unfold, im2col) and fold (paddle.nn.Fold, col2im):
 *   unfold: X [N, C, H, W] -> Y [N, C*kh*kw, L]; kernel_sizes, strides,
 *     paddings ([top, left, bottom, right]), dilations: INTS, no defaults
 *     (Python expands ints and pairs).  L = oh * ow with
 *     oh = (H + top + bottom - (dh*(kh-1) + 1)) / sh + 1 (ow alike), -1 for
 *     an unknown H, multiplied in as Paddle does (phi UnfoldInferMeta,
 *     CalcOutputSize).
 *     Y[n, (c*kh + i)*kw + j, y*ow + x] = X[n, c, y*sh - top + i*dh,
 *     x*sw - left + j*dw], 0 outside X.
 *   fold: X [N, C*kh*kw, L] -> Y [N, C, out_h, out_w]; output_sizes and the
 *     same attributes.  Paddle's kernel (and FoldInferMeta, which checks L)
 *     counts the blocks with top and left padding on both sides:
 *     bh = (out_h + 2*top - (dh*(kh-1) + 1)) / sh + 1 (bw alike), L = bh*bw;
 *     each column element is added (col2im, in column order) to the Y
 *     element it came from, as above.
 * Emission (float32/64): the loops of Paddle's Im2ColFunctor /
 * Col2ImFunctor (kCFO) per image.  unfold of an image whose height and
 * width the run gives: the blocks are counted when it runs (a count
 * below 1 stops the run, as Paddle raises an error), Y's L is their
 * product; unfold_grad's col2im walks the same blocks of X@GRAD (X's
 * sizes). */
#include <string.h>

#include "../util.h"
#include "fold_call.h"
#include "move_call.h"
#include "ops.h"
#include "run_hw.h"
#include "tensor_util.h"

/* The four INTS attributes (kernel_sizes, strides, dilations: 2 values;
 * paddings: 4); -1 after ctx_fail. */
static int fold_attrs(OpCtx *c, int64_t k[2], int64_t s[2], int64_t p[4], int64_t d[2]) {
  int64_t *v;
  static const char *const names[] = {"kernel_sizes", "strides", "dilations"};
  int64_t *outs[] = {k, s, d};
  for (int a = 0; a < 3; a++) {
    if (attr_ints(c->op, names[a], &v) != 2) return ctx_fail(c, "%s must have 2 values", names[a]);
    for (int i = 0; i < 2; i++)
      if ((outs[a][i] = v[i]) <= 0) return ctx_fail(c, "%s must be positive", names[a]);
  }
  if (attr_ints(c->op, "paddings", &v) != 4) return ctx_fail(c, "paddings must have 4 values");
  for (int i = 0; i < 4; i++) p[i] = v[i];
  return 0;
}

/* CalcOutputSize: sliding positions along a dim of n with padding a + b. */
static int64_t slide(int64_t n, int64_t k, int64_t s, int64_t a, int64_t b, int64_t d) {
  return n == -1 ? -1 : (n + a + b - (d * (k - 1) + 1)) / s + 1;
}

static int infer_unfold(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  int64_t k[2], s[2], p[4], d[2];
  if (!x || fold_attrs(c, k, s, p, d)) return -1;
  const Shape *xs = &x->shape;
  if (xs->rank != 4) return ctx_fail(c, "X %s must have rank 4", shape_str(xs));
  int64_t oh = slide(xs->d[2], k[0], s[0], p[0], p[2], d[0]), ow = slide(xs->d[3], k[1], s[1], p[1], p[3], d[1]);
  if ((xs->d[2] >= 0 && oh <= 0) || (xs->d[3] >= 0 && ow <= 0))
    return ctx_fail(c, "X %s is too small for the kernel", shape_str(xs));
  Shape o = {3, {xs->d[0], xs->d[1] * k[0] * k[1], oh * ow}}; /* Paddle's arithmetic, unknown dims included */
  ctx_set(c, "Y", 0, &o, x->dtype);
  const unsigned run = var_runtime_mask(x);
  if (!run) return 0;
  if (run & ~(3u << 2))
    return ctx_fail(c, "X ('%s') has dims only the run knows besides its height and width; unfold takes them there "
                    "only", x->name);
  ctx_set_runtime_extent(c, "Y", 0, 2, x->runtime_from);
  Var *y = ctx_out(c, "Y", 0);
  if (y)
    run_hw_share_root(c->g, y, pool_printf("%d:%u:unfold %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld",
                                           x->runtime_root, run, (long long)k[0], (long long)k[1], (long long)s[0],
                                           (long long)s[1], (long long)(p[0] + p[2]), (long long)(p[1] + p[3]),
                                           (long long)d[0], (long long)d[1], (long long)p[0], (long long)p[1]));
  return 0;
}

static int infer_fold(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  int64_t k[2], s[2], p[4], d[2], *os;
  if (!x || fold_attrs(c, k, s, p, d)) return -1;
  const Shape *xs = &x->shape;
  if (xs->rank != 3) return ctx_fail(c, "X %s must have rank 3", shape_str(xs));
  if (attr_ints(c->op, "output_sizes", &os) != 2 || os[0] <= 0 || os[1] <= 0)
    return ctx_fail(c, "output_sizes must be 2 positive values");
  int64_t bh = slide(os[0], k[0], s[0], p[0], p[0], d[0]), bw = slide(os[1], k[1], s[1], p[1], p[1], d[1]);
  if (bh <= 0 || bw <= 0 || (xs->d[2] >= 0 && bh * bw != xs->d[2]))
    return ctx_fail(c, "X %s does not hold the %lld x %lld blocks of output_sizes", shape_str(xs), (long long)bh,
                    (long long)bw);
  if (xs->d[1] >= 0 && xs->d[1] % (k[0] * k[1]))
    return ctx_fail(c, "dim 1 of X %s is not divisible by the kernel size", shape_str(xs));
  Shape o = {4, {xs->d[0], xs->d[1] / (k[0] * k[1]), os[0], os[1]}}; /* -1 / (kh*kw) = 0, as in Paddle */
  ctx_set(c, "Y", 0, &o, x->dtype);
  return 0;
}

/* dst = src moved between image and column matrix: to the image (col2im,
 * each column element added in column order to a zeroed image) when
 * `to_img`, else to the columns (im2col, 0 outside the image).  The blocks
 * are counted as fold counts them when `fold_geom` (top and left padding
 * on both sides), else as unfold does. */
static int fold_move(EmitCtx *e, const Var *src, const Var *dst, int fold_geom, int to_img) {
  if ((src->dtype != RT_DT_FP32 && src->dtype != RT_DT_FP64) || dst->dtype != src->dtype)
    return em_fail(e, "%s of %s tensors is not supported", e->op->type, rt_dtype_name(src->dtype));
  if (src == dst) return em_fail(e, "the result is the input itself, which is not supported");
  OpCtx c = {e->g, (Op *)e->op};
  int64_t k[2], s[2], p[4], d[2];
  if (fold_attrs(&c, k, s, p, d)) return em_fail(e, "bad attributes");
  const Var *img = to_img ? dst : src, *col = to_img ? src : dst;
  const unsigned run = em_spec(e, img)->runtime_mask; /* unfold's X: the run's height and width (infer_unfold) */
  int64_t C = em_const_dim(e, img, 1), H = em_bound_dim(e, img, 2), W = em_bound_dim(e, img, 3);
  if (C < 0 || H < 0 || W < 0 || (!run && (em_const_dim(e, img, 2) < 0 || em_const_dim(e, img, 3) < 0)))
    return em_fail(e, "dims after the batch must not depend on it");
  int64_t bh = slide(H, k[0], s[0], p[0], fold_geom ? p[0] : p[2], d[0]);
  int64_t bw = slide(W, k[1], s[1], p[1], fold_geom ? p[1] : p[3], d[1]);
  if (bh <= 0 || bw <= 0 || em_const_dim(e, col, 1) != C * k[0] * k[1] || em_bound_dim(e, col, 2) != bh * bw)
    return em_fail(e, "the column matrix does not match the image size and kernel");
  FoldCall call = {.kind = to_img ? FOLD_COL2IM : FOLD_IM2COL, .type = em_ctype(src->dtype), .C = C, .H = H, .W = W,
                   .k = {k[0], k[1]}, .s = {s[0], s[1]}, .pad = {p[0], p[1]}, .d = {d[0], d[1]}, .bh = bh, .bw = bw,
                   .batch = em_dim(e, src, 0), .src = em_ptr(e, src, 1), .dst = em_ptr(e, dst, 0)};
  if (run) { /* the blocks of the run's image; unfold's: checked, and Y's extent (its grad's: X@GRAD's, X's) */
    call.run_h = em_dim(e, img, 2), call.run_w = em_dim(e, img, 3);
    call.run_bh = pool_printf("(%s + %lld - %lld) / %lld + 1", call.run_h, (long long)(p[0] + p[2]),
                              (long long)(d[0] * (k[0] - 1) + 1), (long long)s[0]);
    call.run_bw = pool_printf("(%s + %lld - %lld) / %lld + 1", call.run_w, (long long)(p[1] + p[3]),
                              (long long)(d[1] * (k[1] - 1) + 1), (long long)s[1]);
    if (!to_img) {
      em_fault(e, "the kernel is larger than the padded image (no block; Paddle raises an error)");
      pr_line(e->p, "if (%s < 1 || %s < 1) return 1;", call.run_bh, call.run_bw);
      move_print_c(e->p, &(MoveCall){.kind = MOVE_EXTENT, .dst = em_dim(e, col, 2),
                                     .src = pool_printf("(%s) * (%s)", call.run_bh, call.run_bw)});
    }
  }
  fold_print_c(e->p, &call);
  return 0;
}

static int emit_fold_unfold(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Y", 0);
  if (!x || !out) return -1;
  const int fold = !strcmp(e->op->type, "fold");
  return fold_move(e, x, out, fold, fold);
}

/* fold_grad, unfold_grad (X, Y@GRAD -> X@GRAD; phi FoldGradKernel: im2col
 * of Y@GRAD with fold's block count; UnfoldGradKernel: col2im of Y@GRAD
 * onto a zeroed X@GRAD, column elements in order).  X gives only the
 * shape. */
static int emit_fold_unfold_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *dy = tu_in(e, "Y@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !dy || !dx) return -1;
  const int fold = !strcmp(e->op->type, "fold_grad");
  if (fold) { /* output_sizes: Y@GRAD's spatial dims */
    int64_t *os;
    if (attr_ints(e->op, "output_sizes", &os) != 2 || tu_rank(e, dy) != 4 || em_const_dim(e, dy, 2) != os[0] ||
        em_const_dim(e, dy, 3) != os[1])
      return em_fail(e, "output_sizes does not match Y@GRAD's spatial dims");
  }
  return fold_move(e, dy, dx, fold, !fold);
}

const OpDef op_fold = {.type = "fold", .infer = infer_fold, .emit_c = emit_fold_unfold};
const OpDef op_unfold = {.type = "unfold", .infer = infer_unfold, .emit_c = emit_fold_unfold, .runtime_extents = 2};
const OpDef op_fold_grad = {.type = "fold_grad", .infer = grad_infer, .emit_c = emit_fold_unfold_grad};
const OpDef op_unfold_grad = {.type = "unfold_grad", .infer = grad_infer, .emit_c = emit_fold_unfold_grad,
                              .runtime_extents = 2};
