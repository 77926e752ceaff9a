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
 *   unknown, unless the compiler knows the tensor's values; with a
 *   --max-shape bound for Out they are the run's (ctx_max_shape).
 * Out has X's dtype.
 *
 * C emission: pad2d (float32) and pad3d (float32 or float64, as Paddle's
 * CPU kernels; rt_pad3d_f64) -> rt_pad3d over X viewed as
 * [outer, D, H, W, inner] (pad2d: D = 1; channel last: inner = C).
 * pad3d's Paddings tensor: its values when the compiler knows them, else
 * read when the kernel runs, within Out's --max-shape bound (the geometry a
 * local the run fills in; the grad reads them alike, Out@GRAD having the
 * forward's sizes); refused in pad2d (which Paddle 2.6 has no kernel for).
 * A negative padding crops (pad3d's and pad2d's kernels read X at the
 * output position less the padding before it, in every mode); one that
 * leaves a dim below 1 is refused, or stops the run where it is the run's.  pad3d of an X whose depth, height or width the
 * run gives (a feed bounded by --max-shape): the geometry a local of the
 * run's sizes, Out's those padded, a reflect padding not below the size or
 * a circular one past it stopping the run (Paddle's kernel raises an
 * error).  pad (any rank, any element type): the output
 * is filled with pad_value, then X's rows are copied into place. */
#include <string.h>

#include "../util.h"
#include "move_call.h"
#include "ops.h"
#include "run_hw.h"
#include "rt_cnn.h"
#include "slice_call.h"
#include "tensor_util.h"

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

/* pad3d with a Paddings tensor whose values the run gives within ranges
 * the compiler proves (ctx_int_range: Swin's (w - W % w) % w, 0 to w - 1):
 * Out's depth, height and width where X's are the run's or a padding
 * varies are run-time extents, bounded by X's bound and the most the
 * paddings add; rooted by X's root and the paddings' keys (one rule, one
 * extent).  1 when done, 0 when some value has no range, -1 after
 * ctx_fail. */
static int ranged_paddings(OpCtx *c, const Var *x, const Var *pt) {
  const Shape *xs = &x->shape;
  IntRange r[6];
  for (int i = 0; i < 6; i++)
    if (shape_numel(&pt->shape) != 6 || !ctx_int_range(c, pt, i, &r[i])) return 0;
  const int d0 = strcmp(attr_str(c->op, "data_format", "NCDHW"), "NCDHW") == 0 ? 2 : 1;
  const unsigned run = var_runtime_mask(x), spatial = 7u << d0;
  if (run & ~spatial)
    return ctx_fail(c, "X ('%s') has dims only the run gives (from its %s); pad3d takes them in its depth, height "
                    "and width", x->name, x->runtime_from ? x->runtime_from : "inputs");
  Shape o = *xs;
  unsigned mask = 0;
  const char *key = "";
  for (int i = 0; i < 3; i++) { /* the paddings run from W (left, right) back to D (front, back) */
    const IntRange *a = &r[4 - 2 * i], *b = &r[5 - 2 * i];
    const int at = d0 + i, varies = run >> at & 1 || a->lo != a->hi || b->lo != b->hi;
    if (xs->d[at] < 0) return ctx_fail(c, "X %s has an unknown spatial dim", shape_str(xs));
    o.d[at] = xs->d[at] + (varies ? a->hi + b->hi : a->lo + b->lo);
    if (o.d[at] < 1) return ctx_fail(c, "the paddings leave dim %d of X %s below 1", at, shape_str(xs));
    mask |= varies ? 1u << at : 0;
    key = pool_printf("%s %s %s", key, a->key, b->key);
  }
  ctx_set(c, "Out", 0, &o, x->dtype);
  if (!mask) return 1;
  ctx_set_runtime_extents(c, "Out", 0, mask, x->runtime_from ? x->runtime_from
                                                             : pool_printf("Paddings ('%s')", pt->name));
  Var *out = ctx_out(c, "Out", 0);
  if (out) run_hw_share_root(c->g, out, pool_printf("%d:%u:pad3d%s", run ? x->runtime_root : -1, mask, key));
  return 1;
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
  Var *pt = ctx_in(c, "Paddings", 0);
  int64_t pv[6] = {0}, *p = pv;
  const int known = pt && ctx_int_values(c, pt, pv, 6) == 6; /* a tensor of values the compiler knows */
  if (pt && !known && !ctx_has_max_shape(c, "Out", 0)) { /* or of values it bounds */
    int r = ranged_paddings(c, x, pt);
    if (r) return r < 0 ? -1 : 0;
  }
  if (pt && !known && var_runtime_axis(x) < 0) { /* the run's paddings, within a --max-shape bound? */
    int b = ctx_max_shape(c, "Out", 0, 5, x->dtype, "Paddings' values");
    if (b) return b < 0 ? -1 : 0;
  }
  const unsigned run = var_runtime_mask(x), spatial = 7u << d0;
  if (run && ((pt && !known) || attr_is_var(c->op, "paddings") || run & ~spatial))
    return ctx_fail(c, "X ('%s') has dims only the run gives (from its %s); pad3d takes them in its depth, height "
                    "and width, with paddings the compiler knows", x->name,
                    x->runtime_from ? x->runtime_from : "inputs");
  if (known || (!pt && !attr_is_var(c->op, "paddings"))) {
    if (!known && attr_ints(c->op, "paddings", &p) != 6) return ctx_fail(c, "paddings must have 6 values");
    /* paddings run from the last spatial dim (W) to the first (D). */
    for (int i = 0; i < 3; i++) {
      o.d[d0 + i] = pad_dim(xs->d[d0 + i], p[4 - 2 * i], p[5 - 2 * i]);
      if (xs->d[d0 + i] >= 0 && o.d[d0 + i] < 1) /* a negative padding crops */
        return ctx_fail(c, "the paddings %lld, %lld leave dim %d of X %s below 1", (long long)p[4 - 2 * i],
                        (long long)p[5 - 2 * i], d0 + i, shape_str(xs));
    }
  }
  ctx_set(c, "Out", 0, &o, x->dtype);
  if (!run) return 0;
  /* the run's sizes padded: X's where the paddings along them are 0 */
  ctx_set_runtime_extents(c, "Out", 0, run, x->runtime_from);
  int same = 1;
  for (int i = 0; i < 3; i++) same &= !(run >> (d0 + i) & 1) || (p[4 - 2 * i] == 0 && p[5 - 2 * i] == 0);
  Var *out = ctx_out(c, "Out", 0);
  if (same) ctx_inherit_root(out, x, 1);
  else if (out)
    run_hw_share_root(c->g, out, pool_printf("%d:%u:pad3d %lld %lld %lld %lld %lld %lld", x->runtime_root, run,
                                             (long long)p[0], (long long)p[1], (long long)p[2], (long long)p[3],
                                             (long long)p[4], (long long)p[5]));
  return 0;
}

/* ---- C emission ---- */

static int pad_mode(EmitCtx *e, const char *mode, RtPadMode *m) {
  if (!strcmp(mode, "constant")) *m = RT_PAD_CONSTANT;
  else if (!strcmp(mode, "reflect")) *m = RT_PAD_REFLECT;
  else if (!strcmp(mode, "edge") || !strcmp(mode, "replicate")) *m = RT_PAD_REPLICATE;
  else if (!strcmp(mode, "circular")) *m = RT_PAD_CIRCULAR;
  else return em_fail(e, "mode '%s' is not supported", mode);
  return 0;
}

/* Compile-time dims of X in `idx` (-1 entries give 1) into d; -1 if one
 * depends on the batch. */
static int const_dims(EmitCtx *e, const Var *x, const int *idx, int n, int64_t *d) {
  for (int i = 0; i < n; i++)
    if ((d[i] = idx[i] < 0 ? 1 : em_const_dim(e, x, idx[i])) < 0)
      return em_fail(e, "dims after the batch must not depend on it");
  return 0;
}

/* Checks the padding against the input (what Paddle's kernel requires) and
 * prints the rt_pad3d call over the `outer` slices of X (dims [0, nouter)):
 * Out = pad(X); for a grad op X@GRAD = rt_pad3d_grad(Out@GRAD), where
 * Out@GRAD must hold the padded elements (the record declares the RtPad3d
 * first, as geo).  float32, or with f64_ok also float64 (rt_pad3d_f64 /
 * rt_pad3d_grad_f64). */
static int pad3d_call(EmitCtx *e, const RtPad3d *p, int nouter, int grad, int f64_ok, const char *const *run_pads,
                      const char *const *run_in) {
  Var *x = tu_in(e, "X", 0), *src = grad ? tu_in(e, "Out@GRAD", 0) : x;
  Var *dst = tu_out(e, grad ? "X@GRAD" : "Out", 0);
  if (!x || !src || !dst) return -1;
  int dt = RT_DT_FP32;
  if (f64_ok) {
    if ((dt = tu_float_dtype(e, (Var *const[]){src, dst}, 2)) < 0) return -1;
  } else if (src->dtype != RT_DT_FP32 || dst->dtype != RT_DT_FP32) {
    return em_fail(e, "%s of %s tensors is not supported (float32)", e->op->type, rt_dtype_name(src->dtype));
  }
  const char *stop = NULL;
  for (int i = 0; i < 3 && !run_pads; i++) {
    int64_t a = p->pads[2 * i], b = p->pads[2 * i + 1], big = a > b ? a : b;
    /* a negative padding crops (Paddle's kernels read X at out - pad_before, any mode) */
    if (!run_in || !run_in[i] ? p->in[i] + a + b < 1 : 0)
      return em_fail(e, "the paddings %lld, %lld leave a dim of %lld below 1", (long long)a, (long long)b,
                     (long long)p->in[i]);
    if (run_in && run_in[i]) { /* the run's size: checked when the kernel runs */
      if ((p->mode == RT_PAD_REFLECT || p->mode == RT_PAD_CIRCULAR) && big > 0) {
        pr_line(e->p, "if (%s %s %lld) return 1; /* Paddle's kernel refuses the padding */", run_in[i],
                p->mode == RT_PAD_REFLECT ? "<=" : "<", (long long)big);
        stop = pool_printf("a %s padding of %lld along a dim of X ('%s') the run gives %s", p->mode == RT_PAD_REFLECT
                           ? "reflect" : "circular", (long long)big, x->name, p->mode == RT_PAD_REFLECT ?
                           "needs it larger (Paddle raises an error)" : "exceeds it (Paddle raises an error)");
      } else if (a + b < 0) {
        pr_line(e->p, "if (%s + %lld < 1) return 1; /* cropped to nothing */", run_in[i], (long long)(a + b));
        stop = pool_printf("the paddings %lld, %lld leave a dim of X ('%s') the run gives below 1", (long long)a,
                           (long long)b, x->name);
      }
      continue;
    }
    if (p->mode == RT_PAD_REFLECT && big >= p->in[i])
      return em_fail(e, "reflect padding %lld needs an input dim larger than %lld", (long long)big, (long long)p->in[i]);
    if (p->mode == RT_PAD_CIRCULAR && big > p->in[i])
      return em_fail(e, "circular padding %lld exceeds the input dim %lld", (long long)big, (long long)p->in[i]);
  }
  SymDim outer = em_sym_prod(e, x, 0, nouter), n = spec_numel(em_spec(e, grad ? src : dst));
  int64_t per = p->inner;
  for (int i = 0; i < 3; i++) per *= p->in[i] + p->pads[2 * i] + p->pads[2 * i + 1];
  if (!run_pads && (outer.a * per != n.a || outer.c * per != n.c))
    return em_fail(e, "%s does not hold the padded elements of X", grad ? "Out@GRAD" : "Out");
  if (stop) em_fault(e, stop);
  move_print_c(e->p, &(MoveCall){.kind = grad ? MOVE_PAD3D_GRAD : MOVE_PAD3D, .pad3d = p, .geo = "geo",
                                 .outer = em_sym(outer), .src = em_ptr(e, src, 1), .dst = em_ptr(e, dst, 0),
                                 .f64 = dt == RT_DT_FP64, .run_pads = run_pads, .run_in = run_in});
  return 0;
}

/* pad2d and pad2d_grad: X [N, C, H, W] viewed as [N*C, 1, H, W, 1] (NHWC:
 * [N, 1, H, W, C]); paddings are {top, bottom, left, right}.  The grad
 * (fluid Pad2dGradCPUKernel) does not read pad_value. */
static int emit_pad2d_any(EmitCtx *e, int grad) {
  Var *x = tu_in(e, "X", 0);
  if (!x) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  if (ctx_in(&c, "Paddings", 0)) return em_fail(e, "a Paddings tensor is not supported");
  RtPad3d p = {.value = grad ? 0.0f : (float)attr_float(e->op, "pad_value", 0)};
  if (pad_mode(e, attr_str(e->op, "mode", "constant"), &p.mode)) return -1;
  int nchw = strcmp(attr_str(e->op, "data_format", "NCHW"), "NCHW") == 0;
  static const int nchw_idx[4] = {-1, 2, 3, -1}, nhwc_idx[4] = {-1, 1, 2, 3};
  int64_t d[4];
  if (const_dims(e, x, nchw ? nchw_idx : nhwc_idx, 4, d)) return -1;
  p.in[0] = 1, p.in[1] = d[1], p.in[2] = d[2], p.inner = d[3];
  int64_t pads[4];
  attr_ints_fill(e->op, "paddings", 4, 0, pads);
  for (int i = 0; i < 4; i++) p.pads[2 + i] = pads[i];
  return pad3d_call(e, &p, nchw ? 2 : 1, grad, 0, NULL, NULL);
}

/* The paddings of a pad3d whose Paddings tensor only the run knows, read
 * and checked when the kernel runs as Paddle's kernel takes them (left,
 * right, top, bottom, front, back; int32 or int64), into run[] in p's
 * order (front, back, top, bottom, left, right); Out's dims set within its
 * --max-shape bound.  A negative padding, a reflect padding not below its
 * dim (Paddle: "should be greater than pad_front in reflect mode") or a
 * circular one past it stops the run, as those of the attribute are
 * refused when compiling. */
static int pad3d_run_pads(EmitCtx *e, const Var *x, const Var *out, const RtPad3d *p, int ncdhw,
                          const char *const *run_in, const char **run, int grad) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *pt = ctx_in(&c, "Paddings", 0);
  if (pt->dtype != RT_DT_INT32 && pt->dtype != RT_DT_INT64)
    return em_fail(e, "Paddings '%s' is %s (int32 or int64)", pt->name, rt_dtype_name(pt->dtype));
  if (shape_numel(&pt->shape) != 6)
    return em_fail(e, "Paddings '%s' %s must hold 6 values", pt->name, shape_str(&pt->shape));
  static const char *const names[6] = {"pad_front", "pad_back", "pad_top", "pad_bottom", "pad_left", "pad_right"};
  static const char dhw[] = "DHW";
  pr_line(e->p, "/* the paddings Paddle's kernel takes when it runs, from Paddings (left, right, top, bottom, front, "
                "back) */");
  for (int i = 0; i < 6; i++) {
    pr_line(e->p, "const int64_t %s = (int64_t)%s[%d];", names[i], em_ptr(e, pt, 1), 4 - 2 * (i / 2) + i % 2);
    run[i] = names[i];
  }
  const char *over = p->mode == RT_PAD_REFLECT ? ">=" : ">"; /* reflect: below the dim; circular: up to it */
  for (int i = 0; i < 3; i++) {
    const char *in = run_in && run_in[i] ? run_in[i] : pool_printf("%lld", (long long)p->in[i]);
    pr_line(e->p, "if (%s + %s + %s < 1) return 1; /* %c */", in, names[2 * i], names[2 * i + 1], dhw[i]);
    if (p->mode == RT_PAD_REFLECT || p->mode == RT_PAD_CIRCULAR)
      pr_line(e->p, "if (%s %s %s || %s %s %s) return 1; /* %c */", names[2 * i], over, in, names[2 * i + 1], over,
              in, dhw[i]);
  }
  const char *why = "a padding from Paddings that leaves a dim below 1, a reflect padding not below its dim or a "
                    "circular one past it";
  if (grad) { /* Out@GRAD has the forward's Out's sizes, which the same paddings set */
    em_fault(e, why);
    return 0;
  }
  const char *dims[5] = {em_dim(e, x, 0)};
  dims[ncdhw ? 1 : 4] = em_dim(e, x, ncdhw ? 1 : 4);
  for (int i = 0; i < 3; i++)
    dims[(ncdhw ? 2 : 1) + i] = pool_printf("%s + %s + %s", run_in && run_in[i] ? run_in[i] :
                                            pool_printf("%lld", (long long)p->in[i]), names[2 * i], names[2 * i + 1]);
  tu_set_extents(e, out, dims, 5,
                 pool_printf("%s%s", why, tu_max_shaped(e, out) ? pool_printf(", or Out past --max-shape %s",
                                                                              shape_str(&out->shape))
                                                                : ""));
  return 0;
}

/* pad3d and pad3d_grad: X [N, C, D, H, W] (NDHWC: [N, D, H, W, C]);
 * paddings are {left, right, top, bottom, front, back}, i.e. from W back to
 * D: the attribute's, or a Paddings tensor's (its values known to the
 * compiler, or read when the kernel runs within Out's --max-shape bound).
 * The grad (phi Pad3dGradKernel) does not read value. */
static int emit_pad3d_any(EmitCtx *e, int grad) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, grad ? "X@GRAD" : "Out", 0);
  if (!x || !out) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  Var *pt = ctx_in(&c, "Paddings", 0);
  int64_t pads[6];
  const int known = pt && ctx_int_values(&c, pt, pads, 6) == 6;
  if (attr_is_var(e->op, "paddings")) return em_fail(e, "paddings held in a tensor attribute are not supported");
  const int run_pads = pt && !known; /* Out within a --max-shape bound, or the bounds infer_pad3d proved */
  if (run_pads && !grad && !tu_max_shaped(e, out) && !em_spec(e, out)->runtime_mask)
    return em_fail(e, "the paddings come from Paddings ('%s'), whose values only the run knows; bound Out with "
                      "--max-shape to compile it", pt->name);
  RtPad3d p = {.value = grad ? 0.0f : (float)attr_float(e->op, "value", 0)};
  if (pad_mode(e, attr_str(e->op, "mode", "constant"), &p.mode)) return -1;
  int ncdhw = strcmp(attr_str(e->op, "data_format", "NCDHW"), "NCDHW") == 0;
  static const int ncdhw_idx[4] = {2, 3, 4, -1}, ndhwc_idx[4] = {1, 2, 3, 4};
  const int *idx = ncdhw ? ncdhw_idx : ndhwc_idx;
  const unsigned runtime = em_spec(e, x)->runtime_mask; /* the run's depth, height, width (infer_pad3d) */
  const char *run_in[3] = {NULL, NULL, NULL};
  int64_t d[4];
  for (int i = 0; i < 3; i++)
    if (runtime >> idx[i] & 1) run_in[i] = em_dim(e, x, idx[i]), d[i] = em_bound_dim(e, x, idx[i]);
    else if ((d[i] = em_const_dim(e, x, idx[i])) < 0) return em_fail(e, "dims after the batch must not depend on it");
  if (const_dims(e, x, idx + 3, 1, d + 3)) return -1;
  for (int i = 0; i < 3; i++) p.in[i] = d[i];
  p.inner = d[3];
  if (!known) attr_ints_fill(e->op, "paddings", 6, 0, pads);
  for (int i = 0; i < 3; i++) p.pads[2 * i] = pads[4 - 2 * i], p.pads[2 * i + 1] = pads[5 - 2 * i];
  for (int i = 0; i < 3 && !run_pads && !grad; i++) /* Out's run-time sizes, padded */
    if (run_in[i])
      move_print_c(e->p, &(MoveCall){.kind = MOVE_EXTENT, .dst = em_dim(e, out, idx[i]),
                                     .src = pool_printf("%s + %lld", run_in[i],
                                                        (long long)(p.pads[2 * i] + p.pads[2 * i + 1]))});
  const char *run[6];
  if (run_pads && pad3d_run_pads(e, x, out, &p, ncdhw, runtime ? run_in : NULL, run, grad)) return -1;
  return pad3d_call(e, &p, ncdhw ? 2 : 1, grad, 1, run_pads ? run : NULL, runtime ? run_in : NULL);
}

static int emit_pad2d(EmitCtx *e) { return emit_pad2d_any(e, 0); }
static int emit_pad2d_grad(EmitCtx *e) { return emit_pad2d_any(e, 1); }
static int emit_pad3d(EmitCtx *e) { return emit_pad3d_any(e, 0); }
static int emit_pad3d_grad(EmitCtx *e) { return emit_pad3d_any(e, 1); }

/* The rows of pad and pad_grad: X's dims (small: X, or X@GRAD), Out's
 * (big: Out, or Out@GRAD) and the padding before X along each dim. */
static void pad_rows(EmitCtx *e, const Var *small, const Var *big, int r, const int64_t *p, SliceCall *call) {
  for (int i = 0; i < r; i++) {
    call->dims[i] = em_dim(e, small, i), call->odims[i] = em_dim(e, big, i);
    call->offsets[i] = pool_printf("%lld", (long long)p[2 * i]);
  }
}

/* pad: constant padding of any rank and element type.  Out is filled with
 * the value, then each row (last dim) of X is copied to its place. */
static int emit_pad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *out = ctx_out(&c, "Out", 0);
  if (!x || !out) return em_fail(e, "missing X or Out");
  const char *t = em_ctype(x->dtype);
  if (!t || x->dtype == RT_DT_BOOL) return em_fail(e, "pad of %s tensors is not supported", rt_dtype_name(x->dtype));
  const VarSpec *xs = em_spec(e, x);
  int r = xs->rank;
  int64_t *p;
  if (attr_ints(e->op, "paddings", &p) != 2 * r || r < 1) return em_fail(e, "paddings must have 2 values per dim");
  for (int i = 0; i < 2 * r; i++)
    if (p[i] < 0) return em_fail(e, "negative paddings are not supported");
  SliceCall call = {.kind = SLICE_PAD, .type = t, .rank = r};
  call.x = em_ptr(e, x, 1);
  call.out = em_ptr(e, out, 0);
  call.value = em_float(attr_float(e->op, "pad_value", 0));
  call.numel = em_numel(e, out);
  pad_rows(e, x, out, r, p, &call);
  slice_print_c(e->p, &call);
  return 0;
}

const OpDef op_pad = {.type = "pad", .infer = infer_pad, .emit_c = emit_pad};
const OpDef op_pad2d = {.type = "pad2d", .infer = infer_pad2d, .emit_c = emit_pad2d};
const OpDef op_pad3d = {.type = "pad3d", .infer = infer_pad3d, .emit_c = emit_pad3d, .max_shape = 1,
                        .runtime_extents = 2};

/* pad_grad (Out@GRAD -> X@GRAD; Paddle's pad grad has no X input):
 * X@GRAD.dims[i] = Out@GRAD.dims[i] - paddings[2i] - paddings[2i+1]
 * (PadOpGrad's InferShape; unknown dims stay unknown). */
static int infer_pad_grad(OpCtx *c) {
  Var *dout = ctx_need(c, "Out@GRAD", 0);
  if (!dout) return -1;
  const Shape *os = &dout->shape;
  int64_t *p;
  int np = attr_ints(c->op, "paddings", &p);
  if (np != 2 * os->rank)
    return ctx_fail(c, "paddings has %d values, Out@GRAD %s needs %d", np, shape_str(os), 2 * os->rank);
  Shape x = *os;
  for (int i = 0; i < os->rank; i++) x.d[i] = os->d[i] < 0 ? os->d[i] : os->d[i] - p[2 * i] - p[2 * i + 1];
  ctx_set(c, "X@GRAD", 0, &x, dout->dtype);
  return 0;
}

/* pad_grad (phi PadGradKernel): X@GRAD is the block of Out@GRAD that X was
 * copied to, row by row (last dim) as emit_pad places them. */
static int emit_pad_grad(EmitCtx *e) {
  Var *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!dout || !dx) return -1;
  const char *t = em_ctype(dx->dtype);
  if (dx->dtype != dout->dtype || (dx->dtype != RT_DT_FP32 && dx->dtype != RT_DT_FP64))
    return em_fail(e, "pad_grad of %s tensors is not supported (float32 or float64)", rt_dtype_name(dx->dtype));
  int r = tu_rank(e, dx);
  int64_t *p;
  if (attr_ints(e->op, "paddings", &p) != 2 * r || r < 1) return em_fail(e, "paddings must have 2 values per dim");
  for (int i = 0; i < 2 * r; i++)
    if (p[i] < 0) return em_fail(e, "negative paddings are not supported");
  SliceCall call = {.kind = SLICE_PAD_GRAD, .type = t, .rank = r};
  call.dout = em_ptr(e, dout, 1);
  call.dx = em_ptr(e, dx, 0);
  pad_rows(e, dx, dout, r, p, &call);
  slice_print_c(e->p, &call);
  return 0;
}

/* pad_value, value: the grads pass the gradient of X's elements only. */
static const char *const pad_grad_attr_ignores[] = {"pad_value", NULL};
static const char *const pad3d_grad_attr_ignores[] = {"value", NULL};
const OpDef op_pad_grad = {.type = "pad_grad", .infer = infer_pad_grad, .emit_c = emit_pad_grad,
                           .attr_ignores = pad_grad_attr_ignores};
const OpDef op_pad2d_grad = {.type = "pad2d_grad", .infer = grad_infer, .emit_c = emit_pad2d_grad,
                             .attr_ignores = pad_grad_attr_ignores};
const OpDef op_pad3d_grad = {.type = "pad3d_grad", .infer = grad_infer, .emit_c = emit_pad3d_grad,
                             .attr_ignores = pad3d_grad_attr_ignores, .runtime_extents = 2};
