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
 * every rank).
 *
 * C emission (float32 and float64; the integer types of int_suffix, for
 * the forward), the methods Paddle's kernels have for each rank:
 * linear in 1-D, nearest, bilinear and bicubic in 2-D, nearest and
 * trilinear in 3-D (the op type only gives interp_method's default).
 * Channel-first 1-D and 2-D resizes are one rt_interp2d call (a 1-D resize
 * as one of height-1 planes); 3-D and channel-last ones (data_layout NHWC
 * or NDHWC) one rt_resize call (runtime/rt_resize.c), and so are float64
 * resizes other than nearest: Paddle's double kernels compute coordinates
 * and weights otherwise than its float ones (by ~1e-7; rt_resize.c has the
 * table), and rt_resize_f64 computes them as they do.  Paddle reads every
 * layout but NCHW as channel last; other spellings than NHWC and NDHWC are
 * refused.  The output size is the specialized shape; the compiler
 * recomputes the size Paddle's kernel would use (which, for v2, reads
 * `scale` only when it has one value per spatial dim, at least one in 1-D)
 * and refuses a mismatch.  The coordinate steps are computed here exactly
 * as the kernel does: v1: (in-1)/(out-1) with align_corners, else in/out;
 * v2: the same, except that a positive scale gives 1/scale (rt_resize.h
 * rt_resize_ratio, shared with the emitted code).
 * Sizes the run gives: OutSize, SizeTensor or Scale tensors whose values
 * only the run knows make Out's size the run's; with a --max-shape bound
 * for Out (ctx_max_shape: every dim a run-time extent) the kernel computes
 * the size and ratios when it runs, in the order Paddle's kernels take
 * them (emit_run_size), and the geometry is a local the run fills in; a v2
 * Scale tensor beside a known OutSize gives the ratios the same way, Out
 * keeping OutSize's size.  Without a bound the size is refused (spec.c
 * suggests the option), unless the values are the run-time sizes of
 * another tensor (traced_size) or products of such sizes and constants
 * (expr_size: size=[h * 2, w * 2]), which bound Out; the kernel then reads
 * the values as above and sets Out's sizes.  An X whose length (1-D) or
 * height and width (2-D) the run gives, either layout (run_hw.h): Out's
 * sizes are those the attributes' scales give them, or fixed ones, or
 * another tensor's as above, or (fed sizes, within a --max-shape bound)
 * the tensors' as above.  SizeTensor and OutSize must be int32 and Scale
 * float32, as Paddle 2.6's kernels read them.
 *
 * Gradients: the grads of the five fluid 1.x ops and of the five _v2
 * ops, float32 and float64: X, the size inputs and the attributes read as
 * the forward reads them (Out@GRAD has the forward output's shape), one
 * rt_resize_grad on N * C planes; sizes only the run knows (X's, or fed
 * OutSize / SizeTensor / Scale) are Out@GRAD's, the ratios worked out from
 * them (and a Scale tensor's values, v2) when the kernel runs. */
#include <string.h>
#include <strings.h>

#include "../util.h"
#include "ops.h"
#include "resample_call.h"
#include "run_hw.h"
#include "rt_cnn.h"
#include "rt_resize.h"
#include "tensor_util.h"

/* (int)(in * scale) as Paddle computes it (float product, truncated), -1 when
 * not positive. */
static int64_t interp_scaled(int64_t in, float scale) {
  float prod = (float)in * scale;
  if (!(prod >= 1.0f)) return DIM_UNKNOWN; /* also an unknown (negative) input */
  if (prod >= 2147483648.0f) return INT32_MAX; /* beyond Paddle's int */
  return (int64_t)(int32_t)prod;
}

/* The output size given by SizeTensor (first) or OutSize, when the tensors'
 * values are known at compile time: nsp values into size; 0 when there are
 * no such tensors, -1 when their values are not known. */
static int tensor_size(const OpCtx *c, int nsp, int64_t *size) {
  int n = ctx_in(c, "SizeTensor", 0) ? ctx_bounds(c, "", "SizeTensor", size, 3) : 0;
  if (n == 0 && ctx_in(c, "OutSize", 0)) n = ctx_int_values(c, ctx_in(c, "OutSize", 0), size, 3);
  return n > 0 && n != nsp ? -1 : n;
}

/* Out's size from SizeTensor or OutSize whose values are the run-time
 * extents of a tensor y (size=y.shape[2:], ctx_run_dim_of): Out takes
 * them, bounded by y's, and y's root when they are y's spatial dims in
 * place (a skip connection's concat then takes both); channel first or
 * last.  1 when done, 0
 * when the values are not such extents, -1 after ctx_fail. */
static int traced_size(OpCtx *c, const Var *x, int nsize, int nsp, int nchw) {
  const int sp0 = nchw ? 2 : 1;
  const Var *from = NULL;
  int dims[3], same = 1;
  for (int j = 0; j < nsp; j++) {
    const Var *t = nsize ? ctx_in(c, "SizeTensor", j) : ctx_in(c, "OutSize", 0), *v;
    if (!t || !ctx_run_dim_of(c->g, t, nsize ? 0 : j, &v, &dims[j]) || (from && v != from)) return 0;
    from = v;
    same &= dims[j] == sp0 + j;
  }
  if (var_runtime_mask(x) & ~(((1u << nsp) - 1) << sp0))
    return ctx_fail(c, "the output size of X ('%s') is a run-time size of '%s'; paddlec takes it in resizes of an X "
                    "whose other dims are known", x->name, from->name);
  Shape o = x->shape;
  unsigned mask = 0;
  for (int j = 0; j < nsp; j++) o.d[sp0 + j] = from->shape.d[dims[j]], mask |= 1u << (sp0 + j);
  ctx_set(c, "Out", 0, &o, x->dtype);
  ctx_set_runtime_extents(c, "Out", 0, mask, from->runtime_from);
  Var *out = ctx_out(c, "Out", 0);
  if (!out) return 1;
  if (same && var_runtime_mask(from) == mask)
    out->runtime_root = from->runtime_root;
  else
    run_hw_share_root(c->g, out, pool_printf("%d:%u:sizes of dims %d %d %d", from->runtime_root, mask, dims[0],
                                             nsp > 1 ? dims[1] : -1, nsp > 2 ? dims[2] : -1));
  return 1;
}

/* Out's size from SizeTensor or OutSize whose values are products of
 * run-time extents and constants (ctx_size_expr: size=[h * 2, w * 2] over
 * an image's sizes read by `shape`), or other arithmetic on them that the
 * compiler bounds (ctx_int_range: a ViT's position embeddings resized to
 * [h // 16, w // 16]): Out's bound is each product of the bounds (the
 * most the arithmetic gives), its dims run-time extents (a root per rule)
 * that the kernel sets from the values it reads (emit_run_size); X's
 * other dims known.  1 when done, 0 when the values are neither. */
static int expr_size(OpCtx *c, const Var *x, int nsize, int nsp, int nchw) {
  const int sp0 = nchw ? 2 : 1;
  Shape o = x->shape;
  unsigned mask = 0;
  const char *key = "interp size", *from = NULL;
  for (int j = 0; j < nsp; j++) {
    const Var *t = nsize ? ctx_in(c, "SizeTensor", j) : ctx_in(c, "OutSize", 0);
    SizeExpr e;
    IntRange r;
    const int product = t && ctx_size_expr(c, t, nsize ? 0 : j, &e);
    if (t && !product && ctx_int_range(c, t, nsize ? 0 : j, &r) && r.hi >= 1) {
      o.d[sp0 + j] = r.hi, mask |= 1u << (sp0 + j);
      key = pool_printf("%s %d:%s", key, j, r.key);
      if (!from) from = x->runtime_from ? x->runtime_from : "size tensors computed from the run's sizes";
      continue;
    }
    if (!product) return 0;
    o.d[sp0 + j] = e.k, mask |= 1u << (sp0 + j);
    key = pool_printf("%s %d:%lld", key, j, (long long)e.k);
    for (int f = 0; f < e.n; f++) {
      o.d[sp0 + j] *= e.v[f]->shape.d[e.d[f]], from = e.v[f]->runtime_from;
      key = pool_printf("%s*%d.%d", key, e.v[f]->runtime_root, e.d[f]);
    }
  }
  if (var_runtime_mask(x) & ~(((1u << nsp) - 1) << sp0))
    return ctx_fail(c, "the output size of X ('%s') is a product of sizes the run gives; paddlec takes it in "
                    "resizes of an X whose other dims are known", x->name);
  ctx_set(c, "Out", 0, &o, x->dtype);
  ctx_set_runtime_extents(c, "Out", 0, mask, from);
  Var *out = ctx_out(c, "Out", 0);
  if (out) run_hw_share_root(c->g, out, key);
  return 1;
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
      /* cppcheck-suppress objectIndex ; sv = &v1_scale only with nscale 1, when the index is 0 */
      float s = (float)sv[i < nscale ? i : nscale - 1];
      if (s <= 0) return ctx_fail(c, "scale must be positive");
      out[i] = interp_scaled(xs->d[sp0 + i], s);
    } else {
      out[i] = want[i];
    }
  }
  if (nsize > 0 && nsize != nsp)
    return ctx_fail(c, "SizeTensor has %d tensors for %d spatial dims", nsize, nsp);
  int64_t tsize[3];
  const int nts = tensor_size(c, nsp, tsize);
  if (nts < 0 && !ctx_in(c, "Scale", 0)) { /* the run's sizes of another tensor? */
    int t = traced_size(c, x, nsize, nsp, nchw);
    if (!t && c->g->specializing && !ctx_has_max_shape(c, "Out", 0)) t = expr_size(c, x, nsize, nsp, nchw);
    if (t) return t < 0 ? -1 : 0;
  }
  const unsigned spatial = ((1u << nsp) - 1) << sp0; /* X's height and width the run's too: bounded, they resize */
  if ((nts < 0 || (nts == 0 && ctx_in(c, "Scale", 0))) && !(var_runtime_mask(x) & ~spatial)) { /* the run's size, bounded? */
    int b = ctx_max_shape(c, "Out", 0, xs->rank, x->dtype,
                          nsize ? "SizeTensor's values" : ctx_in(c, "OutSize", 0) ? "OutSize's values" : "Scale's values");
    if (b) return b < 0 ? -1 : 0;
  }
  if (nts > 0) /* sizes known at compile time (folded, or shape arithmetic) */
    for (int i = 0; i < nsp; i++) out[i] = tsize[i];
  Shape o = *xs;
  for (int i = 0; i < nsp; i++) o.d[sp0 + i] = out[i];
  ctx_set(c, "Out", 0, &o, x->dtype);
  if (!var_runtime_mask(x)) return run_hw_infer(c, x, "Out", sp0, NULL) < 0 ? -1 : 0; /* nor any other input */
  /* X's height and width given by the run (run_hw.h): Out's are the sizes the attributes' scales give
   * them, or fixed (out_h / out_w, or SizeTensor / OutSize values the compiler knows) */
  if (nts < 0 || ctx_in(c, "Scale", 0))
    return ctx_fail(c, "X ('%s') has sizes only the run knows; paddlec takes them in resizes to a size the "
                    "attributes or tensors of known values give", x->name);
  const int scaled = nsize == 0 && nts == 0 && nscale > 0;
  RunHwRule rule = {.stride = {1, 1, 1}, .fixed = {!scaled, !scaled, !scaled}, .dims = nsp};
  if (scaled) /* cppcheck-suppress objectIndex ; as above */
    rule.name = pool_printf("%s scale %g %g", c->op->type, sv[0], sv[nscale > 1 ? 1 : 0]);
  return run_hw_infer(c, x, "Out", sp0, &rule) < 0 ? -1 : 0;
}

static int infer_interp_v1(OpCtx *c) { return infer_interp(c, 0); }
static int infer_interp_v2(OpCtx *c) { return infer_interp(c, 1); }

/* ---- C emission ---- */

/* Channel-first 1-D and 2-D resizes: rt_interp2d on planes, with a 1-D
 * resize as one of height 1. */
static void emit_interp2d(EmitCtx *e, const Var *x, const Var *out, ResampleCall *call) {
  call->kind = RESAMPLE_INTERP2D, call->f64 = x->dtype == RT_DT_FP64;
  call->batch = em_prod(e, x, 0, 2), call->x = em_ptr(e, x, 1), call->out = em_ptr(e, out, 0);
  resample_print_c(e->p, call);
}

/* The integer types Paddle 2.6's CPU kernels of op `type` take, as the
 * suffix of their rt_resize routine: nearest_interp_v2 uint8, int32 and
 * int64; nearest_interp and the linear family (linear, bilinear,
 * trilinear; v1 and v2) uint8; bicubic none.  (Both nearest ops list int8
 * too, but only for oneDNN: Paddle's CPU Executor finds no int8 kernel,
 * measured on 2.6.2.)  NULL: not one. */
static const char *int_suffix(const char *type, int dtype) {
  const int nearest = !strncmp(type, "nearest", 7), v2 = strstr(type, "_v2") != NULL;
  if (!strncmp(type, "bicubic", 7)) return NULL;
  switch (dtype) {
    case RT_DT_UINT8: return "_u8";
    case RT_DT_INT32: return nearest && v2 ? "_i32" : NULL;
    case RT_DT_INT64: return nearest && v2 ? "_i64" : NULL;
    default: return NULL;
  }
}

/* Those types, for a message. */
static const char *int_types(const char *type) {
  if (!strncmp(type, "bicubic", 7)) return "";
  if (strncmp(type, "nearest", 7)) return ", uint8";
  return strstr(type, "_v2") ? ", uint8, int32, int64" : ", uint8";
}

/* The size and scales Paddle's kernel takes from the attributes, for the
 * resized dims of in (d, h, w; 1 for the dims a lower rank lacks): k[] is
 * out_d/out_h/out_w, replaced by (int)(in * scale) when every scale is
 * positive; sc[] the scales the v2 ratios read (-1: none).  v2 reads
 * `scale` only when it has a value per spatial dim (1-D: at least one),
 * and not at all beside SizeTensor. */
typedef struct InterpSize {
  int64_t k[3];
  float sc[3];
  int run;  /* the size (or a v2 ratio) comes from tensors only the run knows */
  int fed;  /* the size does */
} InterpSize;

static int interp_attr_size(EmitCtx *e, int nsp, const int64_t in[3], InterpSize *z) {
  OpCtx c = {e->g, (Op *)e->op};
  const int v2 = strstr(e->op->type, "_v2") != NULL;
  int64_t *k = z->k;
  float *sc = z->sc;
  k[0] = attr_int(e->op, "out_d", 0), k[1] = attr_int(e->op, "out_h", 0), k[2] = attr_int(e->op, "out_w", 0);
  sc[0] = sc[1] = sc[2] = -1;
  for (int i = 0; i < 3 - nsp; i++) k[i] = 1; /* the kernel of a lower rank does not read out_d (out_h) */
  if (v2) {
    double *sv;
    int ns = attr_floats(e->op, "scale", &sv);
    if (nsp == 3 && ns == 2) return em_fail(e, "scale has 2 values for 3 spatial dims (Paddle reads a third)");
    if (((nsp == 1 && ns > 0) || ns > 1) && !ctx_in(&c, "SizeTensor", 0))
      for (int i = 0; i < nsp; i++) sc[3 - nsp + i] = (float)sv[nsp == 1 ? 0 : i];
  } else {
    sc[0] = sc[1] = sc[2] = (float)attr_float(e->op, "scale", 0);
  }
  int scaled = 1;
  for (int i = 3 - nsp; i < 3; i++) scaled &= sc[i] > 0;
  if (scaled)
    for (int i = 3 - nsp; i < 3; i++) k[i] = (int64_t)(int)((float)in[i] * sc[i]);
  return 0;
}

/* The resize Paddle's kernel does from x to out (or from X to Out@GRAD's
 * shape, for the gradient), as the forward and grad kernels both compute it:
 * method, sizes, ratios, layout into *r, the attributes' size into *z.
 * When the run gives the size (z->run), r's output sizes and ratios are
 * left for emit_run_size.  -1 after em_fail. */
static int interp_geometry(EmitCtx *e, const Var *x, const Var *out, RtResize *r, InterpSize *z) {
  OpCtx c = {e->g, (Op *)e->op};
  if ((x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64 && !int_suffix(e->op->type, x->dtype)) ||
      out->dtype != x->dtype)
    return em_fail(e, "%s of %s tensors is not supported (Paddle's CPU kernels: float32, float64%s)", e->op->type,
                   rt_dtype_name(x->dtype), int_types(e->op->type));
  const int v2 = strstr(e->op->type, "_v2") != NULL, rank = em_spec(e, x)->rank, nsp = rank - 2;
  if (em_spec(e, out)->rank != rank) return em_fail(e, "X and the output differ in rank");
  int64_t tsize[3];
  const int nts = tensor_size(&c, nsp, tsize);
  /* v2 kernels take the ratio from a Scale tensor even when OutSize sets the size */
  z->fed = nts < 0 || (ctx_in(&c, "Scale", 0) && nts == 0);
  z->run = z->fed || (ctx_in(&c, "Scale", 0) && v2) || var_runtime_mask(x); /* or X's sizes (infer_interp) */
  const char *type = e->op->type, *dflt = type;
  static const char *const methods[] = {"nearest", "bilinear", "bicubic", "linear", "trilinear"};
  for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
    if (!strncmp(type, methods[i], strlen(methods[i]))) dflt = methods[i];
  const char *method = attr_str(e->op, "interp_method", dflt);
  /* Paddle's kernels by rank: 1-D linear; 2-D nearest, bilinear, bicubic;
   * 3-D nearest, trilinear */
  RtInterpMethod m;
  if (nsp == 1 && !strcmp(method, "linear")) m = RT_INTERP_BILINEAR;
  else if (nsp == 2 && !strcmp(method, "nearest")) m = RT_INTERP_NEAREST;
  else if (nsp == 2 && !strcmp(method, "bilinear")) m = RT_INTERP_BILINEAR;
  else if (nsp == 2 && !strcmp(method, "bicubic")) m = RT_INTERP_BICUBIC;
  else if (nsp == 3 && !strcmp(method, "nearest")) m = RT_INTERP_NEAREST;
  else if (nsp == 3 && !strcmp(method, "trilinear")) m = RT_INTERP_BILINEAR;
  else return em_fail(e, "interp_method '%s' on %d spatial dims is not one of Paddle's kernels", method, nsp);
  /* Paddle reads the layout as channel first only when it is NCHW */
  const char *layout = attr_str(e->op, "data_layout", "NCHW");
  int last = strcasecmp(layout, "NCHW") != 0;
  if (last && strcasecmp(layout, "NHWC") && strcasecmp(layout, "NDHWC"))
    return em_fail(e, "data_layout '%s' (which Paddle's kernel reads as channel last) is not supported", layout);
  /* d, h, w of input and output (1 for the dims a 1-D or 2-D resize lacks) */
  int64_t in[3] = {1, 1, 1}, o[3] = {1, 1, 1}, ch = em_const_dim(e, x, last ? rank - 1 : 1);
  for (int i = 0; i < nsp; i++) {
    in[3 - nsp + i] = em_bound_dim(e, x, (last ? 1 : 2) + i); /* a size the run gives: its bound */
    if (!z->run) o[3 - nsp + i] = em_const_dim(e, out, (last ? 1 : 2) + i);
  }
  for (int i = 0; i < 3; i++)
    if (in[i] < 0 || o[i] < 0 || ch < 0) return em_fail(e, "channel and spatial dims must not depend on the batch");
  if (!z->run && em_const_dim(e, out, last ? rank - 1 : 1) != ch)
    return em_fail(e, "X and the output differ in channels");
  if (interp_attr_size(e, nsp, in, z)) return -1;
  const int64_t *k = z->k;
  if (nts > 0) /* SizeTensor / OutSize override the size (Paddle's kernel reads them last) */
    for (int i = 0; i < nsp; i++) z->k[3 - nsp + i] = tsize[i];
  if (!z->run) {
    if (k[0] != o[0] || k[1] != o[1] || k[2] != o[2])
      return em_fail(e, "Paddle's kernel resizes to %lldx%lldx%lld, not to the declared %lldx%lldx%lld",
                     (long long)k[0], (long long)k[1], (long long)k[2], (long long)o[0], (long long)o[1],
                     (long long)o[2]);
  }
  const int ac = attr_bool(e->op, "align_corners", 1);
  *r = (RtResize){.method = m, .nsp = nsp, .c = ch, .align_corners = ac,
                  .align_mode = (int)attr_int(e->op, "align_mode", 1), .channel_last = last};
  for (int i = 0; i < 3; i++) {
    r->in[i] = in[i], r->out[i] = o[i];
    r->ratio[i] = rt_resize_ratio(in[i], o[i], ac, v2 ? z->sc[i] : -1);
  }
  return 0;
}

/* One value of a size or scale tensor, as C: element j of slot's tensor
 * (the j-th one-element tensor of a list), of the dtype Paddle 2.6's
 * kernel reads: int32 sizes (an int64 one stops its run: "The type of data
 * we are trying to retrieve (int32) does not match"), float32 scales. */
static const char *run_value(EmitCtx *e, const char *slot, int list, int j, int want_float) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *t = ctx_in(&c, slot, list ? j : 0);
  if (t->dtype != (want_float ? RT_DT_FP32 : RT_DT_INT32)) {
    em_fail(e, "%s '%s' is %s; Paddle's kernel reads %s", slot, t->name, rt_dtype_name(t->dtype),
            want_float ? "float32" : "int32");
    return NULL;
  }
  const int64_t n = shape_numel(&t->shape), at = list ? 0 : j;
  if (n <= at) {
    em_fail(e, "%s '%s' holds %lld values, too few for the resized dims", slot, t->name, (long long)n);
    return NULL;
  }
  return pool_printf("%s[%lld]", em_ptr(e, t, 1), (long long)at);
}

/* The output size and ratios of a resize whose size comes from tensors
 * the run gives, printed as Paddle's kernel computes them when it runs: v2
 * takes SizeTensor, else OutSize, else the size the scales give (Scale's,
 * one value for every dim or one per dim, each above 0, else `scale`'s),
 * else out_d/out_h/out_w, and its ratios read the scales; v1 the same, with
 * Scale's first value for every dim (used when above 0) and ratios without
 * scales.  A size below 1 stops the run, as Paddle's kernel raises an
 * error.  Out's dims are then set within its --max-shape bound (or, when
 * the compiler knows them, checked).  call->run_out and run_ratio name the
 * sizes and ratios. */
static int emit_run_size(EmitCtx *e, const Var *x, const Var *out, const RtResize *r, const InterpSize *z,
                         ResampleCall *call) {
  OpCtx c = {e->g, (Op *)e->op};
  const int v2 = strstr(e->op->type, "_v2") != NULL, nsp = r->nsp, off = 3 - nsp, rank = nsp + 2;
  const int sized = ctx_nin(&c, "SizeTensor") > 0, outsize = ctx_in(&c, "OutSize", 0) != NULL;
  Var *scale = sized || (!v2 && outsize) ? NULL : ctx_in(&c, "Scale", 0); /* v1 reads no ratio from it */
  const int64_t nscale = scale ? shape_numel(&scale->shape) : 0;
  static const char dhw[] = "dhw";
  const int run_x = var_runtime_mask(x) != 0, sp0 = r->channel_last ? 1 : 2;
  if (run_x && e->size_classes)
    pr_line(e->p, "/* the run's sizes of '%s', and the output size Paddle's kernel gives them */", x->name);
  else if (run_x)
    pr_line(e->p, "/* the run's sizes of '%s' (at most %s), and the output size Paddle's kernel gives them */",
            x->name, run_hw_bound_text(e, x));
  else
    pr_line(e->p, "/* the output size Paddle's kernel takes when it runs, from %s */",
            sized ? "SizeTensor" : outsize ? "OutSize" : "Scale");
  for (int i = 0; i < 3; i++) {
    if (i < off) { /* a dim a lower rank lacks */
      call->run_out[i] = "1", call->run_ratio[i] = "0.0f";
      continue;
    }
    const int j = i - off;
    const char *sc = em_float(z->sc[i]), *size = pool_printf("%lld", (long long)z->k[i]);
    const char *in = pool_printf("%lld", (long long)r->in[i]);
    if (run_x) {
      pr_line(e->p, "const int64_t in_%c = %s;", dhw[i], em_dim(e, x, sp0 + j));
      in = call->run_in[i] = pool_printf("in_%c", dhw[i]);
      if (z->sc[i] > 0) size = resample_scaled_c(in, sc); /* the attributes' scale (interp_attr_size) */
    }
    if (scale) { /* v2: one value per dim, or one for all; v1: the first */
      const char *v = run_value(e, "Scale", 0, v2 && nscale > 1 ? j : 0, 1);
      if (!v) return -1;
      pr_line(e->p, "const float scale_%c = %s;", dhw[i], v);
      if (v2) pr_line(e->p, "if (!(scale_%c > 0)) return 1;", dhw[i]);
      sc = pool_printf("scale_%c", dhw[i]);
      size = v2 ? resample_scaled_c(in, sc) : pool_printf("%s > 0 ? %s : %s", sc, resample_scaled_c(in, sc), size);
    }
    if (sized || outsize) {
      size = run_value(e, sized ? "SizeTensor" : "OutSize", sized, j, 0);
      if (!size) return -1;
    }
    pr_line(e->p, "const int64_t size_%c = %s;", dhw[i], size);
    pr_line(e->p, "if (size_%c < 1) return 1;", dhw[i]);
    pr_line(e->p, "const float ratio_%c = %s;", dhw[i],
            resample_ratio_c(in, pool_printf("size_%c", dhw[i]), r->align_corners, v2 ? sc : "-1.0f"));
    call->run_out[i] = pool_printf("size_%c", dhw[i]), call->run_ratio[i] = pool_printf("ratio_%c", dhw[i]);
  }
  if (!tu_max_shaped(e, out) && (run_x || var_runtime_mask(out))) { /* Out's run-time sizes (infer_interp: a
                                                                       * scale, another tensor's), or fixed ones */
    for (int i = off; i < 3; i++)
      if (var_runtime_mask(out) >> (sp0 + i - off) & 1) pr_line(e->p, "%s = size_%c;", em_dim(e, out, sp0 + i - off), dhw[i]);
    em_fault(e, z->fed ? "a size from OutSize or SizeTensor below 1 (Paddle raises an error)"
                       : "the scale gives a size below 1 (Paddle raises an error)");
    return 0;
  }
  const char *why = "a size from OutSize or SizeTensor below 1, or a scale from Scale that gives one or is not above "
                    "0 (Paddle raises an error)";
  if (!tu_max_shaped(e, out)) { /* the compiler knows the size (OutSize), the run gives the ratios (Scale) */
    for (int i = off; i < 3; i++)
      pr_line(e->p, "if (size_%c != %s) return 1;", dhw[i], em_dim(e, out, (r->channel_last ? 1 : 2) + i - off));
    em_fault(e, pool_printf("%s, or a size other than the compiled %s", why, shape_str(&out->shape)));
    return 0;
  }
  const char *dims[5] = {em_dim(e, x, 0)};
  dims[r->channel_last ? rank - 1 : 1] = em_dim(e, x, r->channel_last ? rank - 1 : 1);
  for (int i = off; i < 3; i++) dims[(r->channel_last ? 1 : 2) + i - off] = call->run_out[i];
  tu_set_extents(e, out, dims, rank, pool_printf("%s, or Out past --max-shape %s", why, shape_str(&out->shape)));
  return 0;
}

static int emit_interp(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *out = ctx_out(&c, "Out", 0);
  if (!x || !out) return em_fail(e, "missing X or Out");
  RtResize r;
  InterpSize z;
  if (interp_geometry(e, x, out, &r, &z)) return -1;
  ResampleCall call = {.geo = "geo"};
  if (z.fed && !tu_max_shaped(e, out) && !var_runtime_mask(out)) { /* Out declared with the attributes' size, the
                                                                      * kernel's is the run's */
    const char *slot = ctx_nin(&c, "SizeTensor") ? "SizeTensor" : ctx_in(&c, "OutSize", 0) ? "OutSize" : "Scale";
    return em_fail(e, "the output size comes from %s ('%s'), whose values only the run knows; bound it with "
                      "--max-shape '%s'=d0,d1,... to compile it", slot, ctx_in(&c, slot, 0)->name, out->name);
  }
  if (z.run && emit_run_size(e, x, out, &r, &z, &call)) return -1;
  const int f64 = x->dtype == RT_DT_FP64;
  const char *is = int_suffix(e->op->type, x->dtype);
  /* bicubic: Paddle's would weigh in the integer type; int32/int64 take
   * nearest only here (a weighted float sum past their range would not
   * convert in C as x86 converts it) */
  if (is && (r.method == RT_INTERP_BICUBIC || (x->dtype != RT_DT_UINT8 && r.method != RT_INTERP_NEAREST)))
    return em_fail(e, "%s resizing of %s tensors is not supported (nearest for int32 and int64; uint8 also the "
                      "linear family)", r.method == RT_INTERP_BICUBIC ? "bicubic" : "linear", rt_dtype_name(x->dtype));
  if (!is && !r.channel_last && r.nsp <= 2 && (!f64 || r.method == RT_INTERP_NEAREST)) {
    call.resize = r;
    emit_interp2d(e, x, out, &call);
    return 0;
  }
  if (is) /* integers: rt_resize with the float kernels' taps (the v2 ones in float) */
    r.float_coord = strstr(e->op->type, "_v2") != NULL;
  else /* 3-D, channel-last and float64 linear-family and bicubic resizes:
        * Paddle's v2 double kernels of the linear family compute the
        * half-pixel coordinate in float, its v1 double kernels in double
        * (rt_resize.c's table; the float32 path is rt_resample.h's) */
    r.float_coord = f64 && strstr(e->op->type, "_v2") && r.method == RT_INTERP_BILINEAR;
  call.kind = RESAMPLE_RESIZE, call.f64 = f64, call.int_suffix = is, call.resize = r;
  call.batch = em_dim(e, x, 0), call.x = em_ptr(e, x, 1), call.out = em_ptr(e, out, 0);
  resample_print_c(e->p, &call);
  return 0;
}

/* The interp grads (phi InterpolateGradKernel; fluid's v1
 * InterpolateGradKernel): X gives the input size, Out@GRAD the output's;
 * the attributes and size inputs are read as the forward reads them and
 * must give Out@GRAD's size.  rt_resize_grad on N * C independent planes
 * (tasks split over planes only, so the sums do not depend on the thread
 * count), each summing into X@GRAD in Paddle's order. */
static int emit_interp_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *dout = ctx_in(&c, "Out@GRAD", 0), *dx = ctx_out(&c, "X@GRAD", 0);
  if (!x || !dout) return em_fail(e, "needs X and Out@GRAD");
  RtResize r;
  if (x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64)
    return em_fail(e, "%s of %s tensors is not supported (float32 or float64)", e->op->type, rt_dtype_name(x->dtype));
  InterpSize z;
  if (interp_geometry(e, x, dout, &r, &z)) return -1;
  const int v2 = strstr(e->op->type, "_v2") != NULL;
  /* v2 ratios from a Scale tensor the forward read (not beside SizeTensor, which wins over it) */
  Var *scale = v2 && !ctx_nin(&c, "SizeTensor") ? ctx_in(&c, "Scale", 0) : NULL;
  const int64_t nscale = scale ? shape_numel(&scale->shape) : 0;
  if (dx && dx->dtype != x->dtype) return em_fail(e, "X@GRAD must have X's dtype");
  if (!dx) return 0;
  ResampleCall call = {.kind = RESAMPLE_RESIZE_GRAD, .f64 = x->dtype == RT_DT_FP64, .geo = "geo", .lo = "lo",
                       .hi = "hi"};
  if (z.run) { /* sizes the run gives (X's, or the size tensors'): the forward's sizes from X and Out@GRAD, its
                * ratios again (from the Scale tensor where the forward read one) */
    static const char dhw[] = "dhw";
    const int off = 3 - r.nsp, sp0 = r.channel_last ? 1 : 2;
    pr_line(e->p, "/* the run's sizes: '%s' and '%s' (the forward's), and the ratios Paddle's kernel gives them */",
            x->name, dout->name);
    for (int i = 0; i < 3; i++) {
      if (i < off) { /* a dim a lower rank lacks */
        call.run_out[i] = "1", call.run_ratio[i] = "0.0f";
        continue;
      }
      pr_line(e->p, "const int64_t in_%c = %s, size_%c = %s;", dhw[i], em_dim(e, x, sp0 + i - off), dhw[i],
              em_dim(e, dout, sp0 + i - off));
      call.run_in[i] = pool_printf("in_%c", dhw[i]), call.run_out[i] = pool_printf("size_%c", dhw[i]);
      const char *sc = v2 ? em_float(z.sc[i]) : "-1.0f";
      if (scale) { /* one value per dim, or one for all, as the forward reads them */
        if (!(sc = run_value(e, "Scale", 0, nscale > 1 ? i - off : 0, 1))) return -1;
        pr_line(e->p, "const float scale_%c = %s;", dhw[i], sc);
        sc = pool_printf("scale_%c", dhw[i]);
      }
      pr_line(e->p, "const float ratio_%c = %s;", dhw[i],
              resample_ratio_c(call.run_in[i], call.run_out[i], r.align_corners, sc));
      call.run_ratio[i] = pool_printf("ratio_%c", dhw[i]);
    }
  }
  const char *planes = pool_printf("%s * %lld", em_dim(e, x, 0), (long long)r.c);
  r.float_coord = v2; /* phi's kernels (v2) as built; fluid's v1 in double */
  call.resize = r, call.dout = em_ptr(e, dout, 1), call.dx = em_ptr(e, dx, 0);
  if (z.run) { /* every plane on this thread: the tasks would not see the run's sizes (the locals above) */
    call.lo = "0", call.hi = planes;
    resample_print_c(e->p, &call);
    return 0;
  }
  em_task_begin(e, em_numel(e, dout), planes);
  resample_print_c(e->p, &call);
  em_task_end(e);
  return 0;
}

#define OP_INTERP_V1_C(name) \
  const OpDef op_##name = {.type = #name, .infer = infer_interp_v1, .emit_c = emit_interp, .max_shape = 1,        \
                           .runtime_extents = 2};
#define OP_INTERP_V2_C(name) \
  const OpDef op_##name = {.type = #name, .infer = infer_interp_v2, .emit_c = emit_interp, .max_shape = 1,        \
                           .runtime_extents = 2};
OP_INTERP_V1_C(bicubic_interp)
OP_INTERP_V1_C(bilinear_interp)
OP_INTERP_V1_C(linear_interp)
OP_INTERP_V1_C(nearest_interp)
OP_INTERP_V1_C(trilinear_interp)
OP_INTERP_V2_C(bicubic_interp_v2)
OP_INTERP_V2_C(bilinear_interp_v2)
OP_INTERP_V2_C(linear_interp_v2)
OP_INTERP_V2_C(nearest_interp_v2)
OP_INTERP_V2_C(trilinear_interp_v2)
/* the grads take X's height and width the run gives (not sizes from tensors) */
#define OP_INTERP_GRAD(name) \
  const OpDef op_##name = {.type = #name, .infer = grad_infer, .emit_c = emit_interp_grad, .runtime_extents = 2};
OP_INTERP_GRAD(bicubic_interp_grad)
OP_INTERP_GRAD(bicubic_interp_v2_grad)
OP_INTERP_GRAD(bilinear_interp_grad)
OP_INTERP_GRAD(bilinear_interp_v2_grad)
OP_INTERP_GRAD(linear_interp_grad)
OP_INTERP_GRAD(linear_interp_v2_grad)
OP_INTERP_GRAD(nearest_interp_grad)
OP_INTERP_GRAD(nearest_interp_v2_grad)
OP_INTERP_GRAD(trilinear_interp_grad)
OP_INTERP_GRAD(trilinear_interp_v2_grad)
