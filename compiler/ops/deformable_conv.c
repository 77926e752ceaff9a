/* deformable_conv (paddle.vision.ops.deform_conv2d with a mask: DCN v2)
 * and deformable_conv_v1 (without one: DCN v1), forward.
 *   inputs:  Input [N, C, H, W], Offset [N, 2*dg*kH*kW, Ho, Wo],
 *            Mask [N, dg*kH*kW, Ho, Wo] (deformable_conv only),
 *            Filter [M, C/groups, kH, kW]
 *   output:  Output [N, M, Ho, Wo], dtype of Input
 *   attrs:   strides=[1,1], paddings=[0,0], dilations=[1,1], groups=1,
 *            deformable_groups=1 (dg), im2col_step=64.
 *
 * What Paddle 2.6.2 does.  Shape rule (phi DeformableConvInferMeta; the
 * fluid deformable_conv_v1 op's the same): Input and Filter of rank 4, two
 * strides and as many paddings (one per spatial dim), C = Filter.dim1 *
 * groups, M divisible by groups and by deformable_groups, strides and
 * dilations positive, Ho = (H + 2*pad - (dil*(kH-1)+1)) / stride + 1 (> 0;
 * the same for W), Offset's (and Mask's) spatial dims Ho, Wo and channels
 * 2*dg*kH*kW (dg*kH*kW); a batch N above im2col_step must be a multiple of
 * it.  Kernel (phi DeformableConvKernel, float and double on CPU): per step
 * of im2col_step images (the step becomes min(64, N) where that divides N)
 * ModulatedDeformableIm2col fills col [C*kH*kW, step*Ho*Wo]: for input
 * channel c (deformable group c / (C/dg)) and tap (i, j) at output (y, x)
 * the point h = y*stride_h - pad_h + i*dil_h + Offset[2*(i*kW+j)],
 * w = x*stride_w - pad_w + j*dil_w + Offset[2*(i*kW+j)+1] (in the tensors'
 * type), sampled bilinearly (DmcnIm2colBilinear) when -1 < h < H and
 * -1 < w < W (else 0), each of the four corners outside [0, H) x [0, W)
 * counting 0; times Mask[i*kW+j] in v2.  Then per group Output_g =
 * Filter_g [M/groups, K] x col_g [K, step*Ho*Wo] (K = C/groups*kH*kW), and
 * a transpose back to [N, M, Ho, Wo].
 *
 * What paddlec does: the same sampling, expression for expression in the
 * tensors' type, and the same products, one image at a time (col
 * [C*kH*kW, Ho*Wo] in kernel scratch, a GEMM per group through
 * gemm_print_c straight into Output): each Output element is the same dot
 * product of a Filter row with a col column whatever the step, so
 * im2col_step changes nothing but which batches Paddle refuses, which
 * paddlec refuses alike (at compile time when N is known, else the run
 * stops: em_fault).  Refused besides what Paddle refuses: im2col_step < 1
 * (Paddle divides by it), dilations without two entries (the kernel reads
 * two), an Offset with more channels than 2*dg*kH*kW (Paddle's check lets
 * 2*dg*kH*kW + kH*kW through, then reads the images' offsets at the wrong
 * place), C not divisible by deformable_groups (the kernel reads past
 * Offset), an Offset or Mask batch other than Input's, mixed dtypes, a
 * deformable_conv without Mask, and channel or spatial dims that depend on
 * the batch.  Gradients: not compiled (no OpDef). */
#include <string.h>

#include "../util.h"
#include "gemm_call.h"
#include "ops.h"
#include "tensor_util.h"

/* 1 for deformable_conv (with Mask), 0 for deformable_conv_v1. */
static int has_mask(const Op *op) { return !strcmp(op->type, "deformable_conv"); }

/* The list attribute `name` into out[2] (dflt where absent); -1 when it is
 * given with another number of entries than 2. */
static int two_ints(const Op *op, const char *name, int64_t dflt, int64_t out[2]) {
  int64_t *v;
  int n = attr_ints(op, name, &v);
  if (n && n != 2) return -1;
  attr_ints_fill(op, name, 2, dflt, out);
  return 0;
}

/* The attributes, checked as Paddle's shape rule checks them (plus
 * im2col_step >= 1 and two dilations); -1 after ctx_fail. */
typedef struct DeformAttrs {
  int64_t stride[2], pad[2], dil[2];
  int64_t groups, dg, step; /* groups, deformable_groups, im2col_step */
} DeformAttrs;

static int deform_attrs(OpCtx *c, DeformAttrs *a) {
  if (two_ints(c->op, "strides", 1, a->stride))
    return ctx_fail(c, "strides must have 2 entries (one per spatial dim of the rank-4 Input)");
  if (two_ints(c->op, "paddings", 0, a->pad))
    return ctx_fail(c, "paddings must have 2 entries, as many as strides (Paddle takes no begin/end pairs here)");
  if (two_ints(c->op, "dilations", 1, a->dil)) return ctx_fail(c, "dilations must have 2 entries");
  for (int i = 0; i < 2; i++)
    if (a->stride[i] <= 0 || a->dil[i] <= 0)
      return ctx_fail(c, "strides [%lld, %lld] and dilations [%lld, %lld] must be positive", (long long)a->stride[0],
                      (long long)a->stride[1], (long long)a->dil[0], (long long)a->dil[1]);
  a->groups = attr_int(c->op, "groups", 1);
  a->dg = attr_int(c->op, "deformable_groups", 1);
  a->step = attr_int(c->op, "im2col_step", 64);
  if (a->groups < 1 || a->dg < 1)
    return ctx_fail(c, "groups (%lld) and deformable_groups (%lld) must be at least 1", (long long)a->groups,
                    (long long)a->dg);
  if (a->step < 1)
    return ctx_fail(c, "im2col_step %lld must be at least 1 (Paddle divides the batch by it)", (long long)a->step);
  return 0;
}

/* Checks that a sampling input (Offset or Mask) is [N, ch, Ho, Wo] where
 * its dims are known; -1 after ctx_fail. */
static int check_map(OpCtx *c, const char *slot, const Var *m, const Var *x, int64_t ch, const int64_t o[2]) {
  const Shape *s = &m->shape;
  if (s->rank != 4) return ctx_fail(c, "%s ('%s') %s must have rank 4", slot, m->name, shape_str(s));
  int64_t want[4] = {x->shape.d[0], ch, o[0], o[1]};
  for (int i = 0; i < 4; i++)
    if (want[i] >= 0 && s->d[i] >= 0 && s->d[i] != want[i])
      return ctx_fail(c, "%s ('%s') %s must be [N, %lld, Ho, Wo] = %s for Input %s: dim %d differs", slot, m->name,
                      shape_str(s), (long long)ch, shape_str(&(Shape){4, {want[0], want[1], want[2], want[3]}}),
                      shape_str(&x->shape), i);
  if (x->dtype != m->dtype)
    return ctx_fail(c, "%s ('%s') is %s but Input ('%s') is %s: Paddle's kernel reads all in one type", slot,
                    m->name, rt_dtype_name(m->dtype), x->name, rt_dtype_name(x->dtype));
  return 0;
}

static int infer_deformable_conv(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0), *off = ctx_need(c, "Offset", 0), *w = ctx_need(c, "Filter", 0);
  if (!x || !off || !w) return -1;
  Var *mask = NULL;
  if (has_mask(c->op) && !ctx_in(c, "Mask", 0))
    return ctx_fail(c, "deformable_conv needs Mask (deformable_conv_v1 is the form without it)");
  if (has_mask(c->op) && !(mask = ctx_need(c, "Mask", 0))) return -1;
  DeformAttrs a;
  if (deform_attrs(c, &a)) return -1;
  const Shape *xs = &x->shape, *ws = &w->shape;
  if (xs->rank != 4 || ws->rank != 4)
    return ctx_fail(c, "Input ('%s') %s and Filter ('%s') %s must have rank 4", x->name, shape_str(xs), w->name,
                    shape_str(ws));
  if (x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64)
    return ctx_fail(c, "Input ('%s') is %s: Paddle's CPU kernel takes float32 and float64", x->name,
                    rt_dtype_name(x->dtype));
  if (w->dtype != x->dtype)
    return ctx_fail(c, "Filter ('%s') is %s but Input ('%s') is %s: Paddle's kernel reads all in one type", w->name,
                    rt_dtype_name(w->dtype), x->name, rt_dtype_name(x->dtype));
  const int64_t cin = xs->d[1], m = ws->d[0], kh = ws->d[2], kw = ws->d[3];
  if (cin >= 0 && ws->d[1] >= 0 && cin != ws->d[1] * a.groups)
    return ctx_fail(c, "Input %s has %lld channels but Filter %s with groups %lld expects %lld", shape_str(xs),
                    (long long)cin, shape_str(ws), (long long)a.groups, (long long)(ws->d[1] * a.groups));
  if (m >= 0 && (m % a.groups || m % a.dg))
    return ctx_fail(c, "Filter's %lld output channels must be divisible by groups (%lld) and by deformable_groups "
                    "(%lld)", (long long)m, (long long)a.groups, (long long)a.dg);
  if (cin >= 0 && cin % a.dg)
    return ctx_fail(c, "Input's %lld channels must be divisible by deformable_groups %lld (Paddle's kernel would "
                    "read past Offset)", (long long)cin, (long long)a.dg);
  /* checked on the file's shapes: while specializing, a batch probe (1, 2, 3, 8) may stand in for N (the
   * emitter checks a batch fixed by --shape, the run one left open) */
  if (!c->g->specializing && xs->d[0] > a.step && xs->d[0] % a.step)
    return ctx_fail(c, "the batch %lld is above im2col_step %lld but not a multiple of it (Paddle refuses it)",
                    (long long)xs->d[0], (long long)a.step);
  int64_t o[2];
  for (int i = 0; i < 2; i++) {
    const int64_t in = xs->d[2 + i], k = ws->d[2 + i];
    o[i] = DIM_UNKNOWN;
    if (in < 0 || k < 0) continue;
    o[i] = (in + 2 * a.pad[i] - (a.dil[i] * (k - 1) + 1)) / a.stride[i] + 1;
    if (o[i] <= 0) /* Paddle's ConvOutputSize enforces the same */
      return ctx_fail(c, "spatial dim %d of the output would be %lld: the filter (%lld, dilation %lld) is larger than "
                      "the padded input (%lld + 2 * %lld)", i, (long long)o[i], (long long)k, (long long)a.dil[i],
                      (long long)in, (long long)a.pad[i]);
  }
  const int64_t taps = kh >= 0 && kw >= 0 ? kh * kw : DIM_UNKNOWN;
  if (check_map(c, "Offset", off, x, taps >= 0 ? 2 * a.dg * taps : DIM_UNKNOWN, o) ||
      (mask && check_map(c, "Mask", mask, x, taps >= 0 ? a.dg * taps : DIM_UNKNOWN, o)))
    return -1;
  Shape out = {4, {xs->d[0], m, o[0], o[1]}};
  ctx_set(c, "Output", 0, &out, x->dtype);
  return 0;
}

/* ---- C emission ---- */

/* The kernel as paddlec prints it: per image, col from Input, Offset and
 * Mask, then a product per group into Output. */
typedef struct DeformCall {
  int f64;                       /* float64, else float32 */
  const char *type;              /* the C element type */
  const char *x, *off, *mask, *w, *out; /* the tensors (mask NULL: v1) */
  const char *col;               /* scratch [C*kH*kW, Ho*Wo] */
  const char *ws;                /* float32: the products' packing room */
  const char *batch;             /* N */
  const char *check_step;        /* N known only at run time: im2col_step, checked then; NULL: none */
  int64_t c, h, w_in, m, ho, wo, kh, kw; /* C, H, W, M, Ho, Wo, kH, kW */
  DeformAttrs a;
} DeformCall;

static void deform_print_c(Printer *p, const DeformCall *d) {
  const char *t = d->type, *fl = d->f64 ? "floor" : "floorf";
  const int64_t taps = d->kh * d->kw, cpdg = d->c / d->a.dg, mg = d->m / d->a.groups;
  const int64_t kg = d->c / d->a.groups * taps;
  pr_line(p, "/* %s: Input sampled bilinearly at each tap of the %lldx%lld kernel (stride %lldx%lld, padding "
             "%lldx%lld, dilation %lldx%lld) moved by Offset%s, %lld deformable group(s) of %lld channel(s); then per "
             "image and group (%lld) Output = Filter x col */",
          d->mask ? "deformable_conv" : "deformable_conv_v1", (long long)d->kh, (long long)d->kw,
          (long long)d->a.stride[0], (long long)d->a.stride[1], (long long)d->a.pad[0], (long long)d->a.pad[1],
          (long long)d->a.dil[0], (long long)d->a.dil[1], d->mask ? ", times Mask" : "", (long long)d->a.dg,
          (long long)cpdg, (long long)d->a.groups);
  pr_line(p, "const int64_t N = %s, H = %lld, W = %lld, HO = %lld, WO = %lld;", d->batch, (long long)d->h,
          (long long)d->w_in, (long long)d->ho, (long long)d->wo);
  if (d->check_step)
    pr_line(p, "if (N > %lld && N %% %lld != 0) return 1; /* Paddle: the batch must divide by im2col_step */",
            (long long)d->a.step, (long long)d->a.step);
  pr_line(p, "for (int64_t n = 0; n < N; n++) {");
  pr_line(p, "/* col row (c * %lld + tap): channel c at tap (i, j) = (tap / %lld, tap %% %lld) */", (long long)taps,
          (long long)d->kw, (long long)d->kw);
  pr_line(p, "for (int64_t c = 0; c < %lld; c++) {", (long long)d->c);
  pr_line(p, "const %s *im = %s + (n * %lld + c) * H * W;", t, d->x, (long long)d->c);
  pr_line(p, "const int64_t grp = n * %lld + c / %lld; /* the image's deformable group */", (long long)d->a.dg,
          (long long)cpdg);
  pr_line(p, "for (int64_t tap = 0; tap < %lld; tap++) {", (long long)taps);
  pr_line(p, "const int64_t i = tap / %lld, j = tap %% %lld;", (long long)d->kw, (long long)d->kw);
  pr_line(p, "const %s *dh = %s + (grp * %lld + 2 * tap) * HO * WO, *dw = dh + HO * WO;", t, d->off,
          (long long)(2 * taps));
  if (d->mask) pr_line(p, "const %s *mk = %s + (grp * %lld + tap) * HO * WO;", t, d->mask, (long long)taps);
  pr_line(p, "%s *row = %s + (c * %lld + tap) * HO * WO;", t, d->col, (long long)taps);
  pr_line(p, "for (int64_t y = 0; y < HO; y++) {");
  pr_line(p, "for (int64_t x = 0; x < WO; x++) {");
  pr_line(p, "const int64_t at = y * WO + x;");
  pr_line(p, "const %s h = (%s)(y * %lld - %lld + i * %lld) + dh[at];", t, t, (long long)d->a.stride[0],
          (long long)d->a.pad[0], (long long)d->a.dil[0]);
  pr_line(p, "const %s w = (%s)(x * %lld - %lld + j * %lld) + dw[at];", t, t, (long long)d->a.stride[1],
          (long long)d->a.pad[1], (long long)d->a.dil[1]);
  pr_line(p, "%s v = 0;", t);
  pr_line(p, "/* DmcnIm2colBilinear where -1 < h < H and -1 < w < W: the corners outside count 0 */");
  pr_line(p, "if (h > -1 && w > -1 && h < H && w < W) {");
  pr_line(p, "const int h0 = (int)%s(h), w0 = (int)%s(w), h1 = h0 + 1, w1 = w0 + 1;", fl, fl);
  pr_line(p, "const %s lh = h - (%s)h0, lw = w - (%s)w0, hh = 1 - lh, hw = 1 - lw;", t, t, t);
  pr_line(p, "const %s v1 = h0 >= 0 && w0 >= 0 ? im[h0 * W + w0] : 0;", t);
  pr_line(p, "const %s v2 = h0 >= 0 && w1 <= W - 1 ? im[h0 * W + w1] : 0;", t);
  pr_line(p, "const %s v3 = h1 <= H - 1 && w0 >= 0 ? im[h1 * W + w0] : 0;", t);
  pr_line(p, "const %s v4 = h1 <= H - 1 && w1 <= W - 1 ? im[h1 * W + w1] : 0;", t);
  pr_line(p, "v = hh * hw * v1 + hh * lw * v2 + lh * hw * v3 + lh * lw * v4;");
  pr_line(p, "}");
  pr_line(p, d->mask ? "row[at] = v * mk[at];" : "row[at] = v;");
  pr_close(p, 4); /* x, y, tap, c */
  const char *one = d->f64 ? "1.0" : "1.0f", *zero = d->f64 ? "0.0" : "0.0f";
  const char *m = pool_printf("%lld", (long long)mg), *k = pool_printf("%lld", (long long)kg);
  for (int64_t g = 0; g < d->a.groups; g++) {
    if (d->a.groups > 1) pr_line(p, "/* group %lld */", (long long)g);
    gemm_print_c(p, &(GemmCall){.f64 = d->f64, .m = m, .n = "HO * WO", .k = k, .alpha = one,
                                .a = g ? pool_printf("%s + %lld", d->w, (long long)(g * mg * kg)) : d->w, .lda = k,
                                .b = g ? pool_printf("%s + %lld * HO * WO", d->col, (long long)(g * kg)) : d->col,
                                .ldb = "HO * WO", .beta = zero,
                                .c = g ? pool_printf("%s + (n * %lld + %lld) * HO * WO", d->out, (long long)d->m,
                                                     (long long)(g * mg))
                                       : pool_printf("%s + n * %lld * HO * WO", d->out, (long long)d->m),
                                .ldc = "HO * WO", .ws = d->ws});
  }
  pr_line(p, "}");
}

/* The compile-time value of dim i of v; -1 after em_fail when it depends
 * on the batch. */
static int64_t const_dim(EmitCtx *e, const Var *v, const char *slot, int i) {
  int64_t d = em_const_dim(e, v, i);
  if (d < 0) em_fail(e, "dim %d of %s ('%s') must not depend on the batch", i, slot, v->name);
  return d;
}

static int emit_deformable_conv(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "Input", 0), *off = tu_in(e, "Offset", 0), *w = tu_in(e, "Filter", 0);
  Var *mask = has_mask(e->op) ? tu_in(e, "Mask", 0) : NULL, *out = tu_out(e, "Output", 0);
  if (!x || !off || !w || !out || (has_mask(e->op) && !mask)) return -1;
  DeformCall d = {.f64 = x->dtype == RT_DT_FP64, .type = em_ctype(x->dtype)};
  if (deform_attrs(&c, &d.a)) return -1;
  const Var *const all[] = {x, off, w, mask, out};
  for (int i = 0; i < 5; i++)
    if (all[i] && (all[i]->dtype != x->dtype || (x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64)))
      return em_fail(e, "Input, Offset, Filter%s and Output must all be float32 or all float64", mask ? ", Mask" : "");
  if (tu_rank(e, x) != 4 || tu_rank(e, off) != 4 || tu_rank(e, w) != 4 || tu_rank(e, out) != 4 ||
      (mask && tu_rank(e, mask) != 4))
    return em_fail(e, "Input, Offset, Filter%s and Output must have rank 4", mask ? ", Mask" : "");
  int64_t xd[4], od[4], wd[4], fd[4], md[4] = {0};
  for (int i = 0; i < 4; i++) {
    if ((wd[i] = const_dim(e, w, "Filter", i)) < 0) return -1;
    if (i == 0) continue;
    if ((xd[i] = const_dim(e, x, "Input", i)) < 0 || (od[i] = const_dim(e, out, "Output", i)) < 0 ||
        (fd[i] = const_dim(e, off, "Offset", i)) < 0 || (mask && (md[i] = const_dim(e, mask, "Mask", i)) < 0))
      return -1;
  }
  d.c = xd[1], d.h = xd[2], d.w_in = xd[3], d.m = wd[0], d.kh = wd[2], d.kw = wd[3], d.ho = od[2], d.wo = od[3];
  const int64_t taps = d.kh * d.kw;
  if (d.c != wd[1] * d.a.groups || d.m % d.a.groups || d.m % d.a.dg || d.c % d.a.dg || od[1] != d.m)
    return em_fail(e, "groups %lld / deformable_groups %lld do not fit Input's %lld channels and Filter %s",
                   (long long)d.a.groups, (long long)d.a.dg, (long long)d.c, shape_str(&w->shape));
  for (int i = 0; i < 2; i++)
    if (od[2 + i] != (xd[2 + i] + 2 * d.a.pad[i] - (d.a.dil[i] * (wd[2 + i] - 1) + 1)) / d.a.stride[i] + 1)
      return em_fail(e, "Output %s does not follow from the convolution's geometry", shape_str(&out->shape));
  if (fd[1] != 2 * d.a.dg * taps || fd[2] != d.ho || fd[3] != d.wo ||
      (mask && (md[1] != d.a.dg * taps || md[2] != d.ho || md[3] != d.wo)))
    return em_fail(e, "Offset%s must be [N, %lld%s, %lld, %lld]", mask ? " and Mask" : "",
                   (long long)(2 * d.a.dg * taps), mask ? pool_printf(" (Mask %lld)", (long long)(d.a.dg * taps)) : "",
                   (long long)d.ho, (long long)d.wo);
  const SymDim nb = em_spec(e, x)->d[0];
  const Var *const batched[] = {off, mask, out};
  for (int i = 0; i < 3; i++) {
    const SymDim b = batched[i] ? em_spec(e, batched[i])->d[0] : nb;
    if (b.a != nb.a || b.c != nb.c)
      return em_fail(e, "'%s' and Input ('%s') differ in batch", batched[i]->name, x->name);
  }
  const int64_t n = em_const_dim(e, x, 0);
  if (n > d.a.step && n % d.a.step)
    return em_fail(e, "the batch %lld is above im2col_step %lld but not a multiple of it (Paddle refuses it)",
                   (long long)n, (long long)d.a.step);
  if (n < 0 && d.a.step > 1) {
    d.check_step = "N";
    em_fault(e, pool_printf("the batch is above im2col_step %lld but not a multiple of it", (long long)d.a.step));
  }
  const int64_t sz = d.f64 ? 8 : 4, howo = d.ho * d.wo, kg = d.c / d.a.groups * taps;
  d.batch = em_dim(e, x, 0);
  d.x = em_ptr(e, x, 1), d.off = em_ptr(e, off, 1), d.w = em_ptr(e, w, 1), d.out = em_ptr(e, out, 0);
  d.mask = mask ? em_ptr(e, mask, 1) : NULL;
  d.col = em_scratch_named(e, d.type, "col", (SymDim){0, d.c * taps * howo * sz});
  d.ws = d.f64 ? NULL : em_gemm_ws(e, (SymDim){0, d.m / d.a.groups}, (SymDim){0, howo}, (SymDim){0, kg});
  deform_print_c(e->p, &d);
  return 0;
}

const OpDef op_deformable_conv = {.type = "deformable_conv", .infer = infer_deformable_conv,
                                  .emit_c = emit_deformable_conv};
const OpDef op_deformable_conv_v1 = {.type = "deformable_conv_v1", .infer = infer_deformable_conv,
                                     .emit_c = emit_deformable_conv};
