/* Convolutions: conv2d, depthwise_conv2d, fused_conv2d (Paddle 2.5+'s oneDNN
 * fusion of conv2d with Bias, ResidualData and an activation), conv3d (Paddle
 * ConvInferMeta).
 *   inputs:  Input [N,C,(D,)H,W] (or channel-last), Filter [M, C/groups, (kD,)kH, kW],
 *            Bias?, ResidualData? (fused / oneDNN variants only)
 *   outputs: Output, dtype of Input
 *   attrs:   strides=[1,1(,1)], paddings=[0,0(,0)] (one per spatial dim, or a
 *            begin/end pair per spatial dim), padding_algorithm="EXPLICIT"
 *            (SAME / VALID), groups=1, dilations=[1,1(,1)],
 *            data_format="NCHW" (conv3d "NCDHW"; 1.x wrote "AnyLayout" = channel
 *            first; "NHWC" / "NDHWC" are channel last).
 *   fusion attrs (read by the emitter only): fuse_activation="", fuse_alpha=0,
 *            fuse_beta=0, fuse_residual_connection=false, fuse_relu=false (1.x),
 *            fuse_relu_before_depthwise_conv=false.
 *   extra attrs (ignored): use_cudnn, use_mkldnn, use_addto, Scale_in, Scale_out,
 *            Scale_in_eltwise, Scale_weights, force_fp32_output,
 *            workspace_size_MB, exhaustive_search, is_test, use_quantizer,
 *            mkldnn_data_type.
 * Per spatial dim: out = (in + pad_begin + pad_end - (dilation*(k-1)+1)) / stride + 1;
 * an unknown input dim (or filter dim) gives an unknown output dim, as Paddle's
 * compile-time InferShape does.
 *
 * C emission (2-D, NCHW, fp32): one rt_conv2d call with the geometry as a
 * constant struct; the batch is the run-time B.  The runtime picks a direct
 * product for 1x1 convolutions, a direct loop for depthwise ones, Winograd
 * F(2x2, 3x3) for 3x3 stride-1 ones with enough channels, im2col + GEMM
 * otherwise; its buffers (rt_conv2d_ws_floats) and the portable GEMM's
 * packing room are kernel scratch in the arena.
 * Fusions, with the meaning Paddle's oneDNN kernel gives them, where it
 * runs (fused_conv2d; conv2d and depthwise_conv2d with use_mkldnn, as in
 * programs optimized for oneDNN before Paddle 2.5; without it Paddle's plain
 * CPU kernel ignores them, and so does paddlec, see conv_onednn): Output = act(conv + Bias + ResidualData),
 * Bias [C_out] when present, ResidualData (shaped like Output, not aliasing
 * it) when fuse_residual_connection is set, act from fuse_activation with
 * fuse_alpha and fuse_beta (see conv_act).
 * float64 (as Paddle's double kernels: im2col / vol2col + GEMM): see
 * emit_conv_f64 and emit_conv_grad; conv3d and its grad the same way.
 * Gradients: conv2d_grad and depthwise_conv2d_grad (emit_conv_grad),
 * conv3d_grad (emit_conv3d_grad). */
#include <string.h>

#include "../util.h"
#include "conv_call.h"
#include "run_hw.h"
#include "tensor_util.h"
#include "rt_kernels.h"

/* Input's height and width given by the run (run_hw.h): 2-D
 * convolutions take them (channel last too, on NCHW copies) (SAME padding: out = ceil(in / stride), the
 * padding the run's, conv_print_same_pads), conv3d its depth, height and width; Output's follow
 * (run_hw_infer). */
/* What the padded input adds to a spatial size before the division by
 * the stride (ConvOutputSize). */
static int64_t conv_rule_add(int64_t k, int64_t dil, const int64_t pad[2]) { return pad[0] + pad[1] - (dil * (k - 1) + 1); }

/* The rule of a convolution's output sizes over nsp spatial dims (2 or 3)
 * for run_hw: ConvOutputSize's (in + add) / stride + 1, SAME's ceil(in /
 * stride); infer and both emitters build it here. */
static RunHwRule conv_run_rule(const Op *op, int nsp, const int64_t *k, const int64_t *stride, const int64_t *dil,
                               const int64_t *pad) {
  RunHwRule r = {.dims = nsp == 3 ? 3 : 2, .batch = 1};
  for (int i = 0; i < nsp && i < 3; i++) {
    r.stride[i] = stride[i];
    r.add[i] = conv_is_same(op) ? -1 : conv_rule_add(k[i], dil[i], pad + 2 * i);
  }
  return r;
}

static int infer_run_sizes(OpCtx *c, const Var *x, int last, const int64_t *k, const int64_t *stride,
                           const int64_t *pad, const int64_t *dil) {
  const int nsp = x->shape.rank - 2;
  const RunHwRule rule = conv_run_rule(c->op, nsp, k, stride, dil, pad);
  if (!var_runtime_mask(x)) return run_hw_infer(c, x, "Output", last ? 1 : 2, &rule);
  if (nsp != 2 && nsp != 3)
    return ctx_fail(c, "Input ('%s') has sizes only the run knows; paddlec takes them in 2-D and 3-D convolutions "
                    "only", x->name);
  return run_hw_infer(c, x, "Output", last ? 1 : 2, &rule) < 0 ? -1 : 0;
}

static int infer_conv(OpCtx *c) {
  Var *w, *x = conv_input(c, "Input", &w);
  if (!x) return -1;
  const Shape *xs = &x->shape, *ws = &w->shape;
  int nsp = xs->rank - 2;
  const char *fmt = attr_str(c->op, "data_format", "NCHW");
  int last = strcmp(fmt, "NHWC") == 0 || strcmp(fmt, "NDHWC") == 0;
  int64_t groups = attr_int(c->op, "groups", 1);
  if (groups < 1) groups = 1;
  int64_t cin = last ? xs->d[xs->rank - 1] : xs->d[1];
  if (cin >= 0 && ws->d[1] >= 0 && cin != ws->d[1] * groups)
    return ctx_fail(
        c, "Input has %lld channels (shape %s, %s) but Filter %s with groups %lld expects %lld",
        (long long)cin, shape_str(xs), fmt, shape_str(ws), (long long)groups,
        (long long)(ws->d[1] * groups));
  int64_t in[3], k[3], stride[3], dil[3], pad[6];
  int64_t *sv;
  int ns = attr_ints(c->op, "strides", &sv);
  if (ns && ns != nsp) return ctx_fail(c, "strides has %d values for %d spatial dims", ns, nsp);
  attr_ints_fill(c->op, "strides", nsp, 1, stride);
  attr_ints_fill(c->op, "dilations", nsp, 1, dil);
  for (int i = 0; i < nsp; i++) {
    in[i] = xs->d[(last ? 1 : 2) + i];
    k[i] = ws->d[2 + i];
    if (stride[i] <= 0 || dil[i] <= 0) return ctx_fail(c, "strides and dilations must be positive");
  }
  if (conv_padding(c, nsp, in, k, stride, pad, dil)) return -1;
  Shape o = {xs->rank, {0}};
  o.d[0] = xs->d[0];
  o.d[last ? xs->rank - 1 : 1] = ws->d[0];
  for (int i = 0; i < nsp; i++) {
    int64_t v = DIM_UNKNOWN;
    if (in[i] > 0 && k[i] > 0)
      v = (in[i] + pad[2 * i] + pad[2 * i + 1] - (dil[i] * (k[i] - 1) + 1)) / stride[i] + 1;
    if (v != DIM_UNKNOWN && v <= 0) /* Paddle's ConvOutputSize enforces the same */
      return ctx_fail(c, "spatial dim %d of the output would be %lld: the filter (%lld, dilation %lld) is larger "
                      "than the padded input (%lld + %lld + %lld)", i, (long long)v, (long long)k[i],
                      (long long)dil[i], (long long)in[i], (long long)pad[2 * i], (long long)pad[2 * i + 1]);
    o.d[(last ? 1 : 2) + i] = v;
  }
  ctx_set(c, "Output", 0, &o, x->dtype);
  return infer_run_sizes(c, x, last, k, stride, pad, dil);
}

/* ---- C emission ---- */

/* 1 when the fusion attributes apply: Paddle's oneDNN kernel applies them,
 * where fused_conv2d always runs and conv2d and depthwise_conv2d only with
 * use_mkldnn; Paddle's plain CPU kernel ignores them (and op_ctx.c's
 * check_attrs accepts them unread). */
static int conv_onednn(const Op *op) { return !strcmp(op->type, "fused_conv2d") || attr_bool(op, "use_mkldnn", 0); }

/* The fused activation: fuse_activation with fuse_alpha / fuse_beta (see
 * em_act; the 1.x flag fuse_relu means relu).  fuse_relu_before_depthwise_conv
 * only Paddle's CUDA depthwise kernel applies: honoured where paddlec's
 * fuse_relu_depthwise_conv pass set it, ignored in a program's own op as
 * Paddle's CPU kernel does. */
static int conv_act(EmitCtx *e, RtConv2d *g) {
  g->pre_relu = e->op->from_pass && attr_bool(e->op, "fuse_relu_before_depthwise_conv", 0);
  attr_superseded(e->op, "fuse_relu_before_depthwise_conv");
  if (g->pre_relu && (!rt_conv2d_is_depthwise(g) || rt_conv2d_is_winograd(g)))
    return em_fail(e, "fuse_relu_before_depthwise_conv needs a depthwise convolution (groups = input channels)");
  if (!conv_onednn(e->op)) return 0;
  const char *a = attr_str(e->op, "fuse_activation", "");
  if (!*a && attr_bool(e->op, "fuse_relu", 0)) a = "relu"; /* Paddle 1.x's flag */
  return em_act(e, a, attr_float(e->op, "fuse_alpha", 0), attr_float(e->op, "fuse_beta", 0), &g->act, &g->alpha,
                &g->beta);
}

/* The geometry of a 2-D convolution with Input x, Filter w and Output (or
 * Output@GRAD) out, from the attributes strides, paddings,
 * padding_algorithm, groups, dilations and data_format (*nhwc: channel
 * last), without fused activation; -1 after em_fail. */
static int conv2d_geometry(EmitCtx *e, const Var *x, const Var *w, const Var *out, RtConv2d *g, int *nhwc) {
  OpCtx c = {e->g, (Op *)e->op};
  if (em_spec(e, x)->rank != 4) return em_fail(e, "only 2-D convolutions (rank-4 Input) are supported");
  const char *fmt = attr_str(e->op, "data_format", "NCHW");
  *nhwc = !strcmp(fmt, "NHWC");
  if (!*nhwc && strcmp(fmt, "NCHW") && strcmp(fmt, "AnyLayout"))
    return em_fail(e, "data_format '%s' is not supported (NCHW or NHWC)", fmt);
  int64_t xd[4], od[4], wd[4];
  if (conv_const_dims(e, x, out, w, xd, od, wd)) return -1;
  if (*nhwc) conv_nhwc_dims(xd), conv_nhwc_dims(od);
  int64_t groups = attr_int(e->op, "groups", 1), stride[2], dil[2], pad[4];
  attr_ints_fill(e->op, "strides", 2, 1, stride);
  attr_ints_fill(e->op, "dilations", 2, 1, dil);
  if (groups < 1 || xd[1] % groups || wd[0] % groups || wd[1] * groups != xd[1])
    return em_fail(e, "groups %lld does not fit Input channels %lld and Filter channels %lld x %lld", (long long)groups,
                   (long long)xd[1], (long long)wd[0], (long long)wd[1]);
  if (conv_padding(&c, 2, xd + 2, wd + 2, stride, pad, dil)) return -1;
  *g = (RtConv2d){xd[1], xd[2], xd[3], od[1], od[2], od[3], wd[2], wd[3], stride[0], stride[1],
                  pad[0], pad[2], dil[0], dil[1], groups, RT_ACT_NONE, 0.0f, 0.0f, 0, 0, 0};
  for (int i = 0; i < 2; i++)
    if (od[2 + i] != (xd[2 + i] + pad[2 * i] + pad[2 * i + 1] - (dil[i] * (wd[2 + i] - 1) + 1)) / stride[i] + 1)
      return em_fail(e, "%s %s does not follow from the convolution's geometry", e->op->type,
                     shape_str(&out->shape));
  return 0;
}

/* Input's height and width the run gives (run_hw.h): the kernel's
 * locals, Output's by Paddle's rule; a size below 1 (the filter larger
 * than the padded input) stops the run, where Paddle 2.6's CPU kernel
 * calls cblas_sgemm with a bad size and corrupts memory (measured). */
static void conv_run_sizes(EmitCtx *e, const Var *x, const Var *out, const RtConv2d *g, int nhwc) {
  OpCtx c = {e->g, (Op *)e->op};
  int64_t k[2] = {g->k_h, g->k_w}, stride[2] = {g->stride_h, g->stride_w}, dil[2] = {g->dil_h, g->dil_w}, pad[4];
  int64_t in[2] = {g->h_in, g->w_in};
  conv_padding(&c, 2, in, k, stride, pad, dil); /* EXPLICIT or VALID: not the sizes'; SAME: the run's below */
  const RunHwRule r = conv_run_rule(e->op, 2, k, stride, dil, pad);
  run_hw_print(e, x, out, nhwc ? 1 : 2, &r, "the filter is larger than the padded input (an output size below 1)");
  if (conv_is_same(e->op)) conv_print_same_pads(e, 2, k, stride);
}

/* What decide_conv decides for emit_conv (Op.decision): the geometry with
 * the fused activation, its layout, and the Filter's preparation. */
typedef struct ConvDecision {
  RtConv2d g; /* conv2d_geometry + conv_act; g.packed 0 */
  int nhwc;   /* channel last */
  int packed; /* the Filter's panel height where prepared (rt_prepack), 0: as is */
} ConvDecision;

/* OpDef.decide: the geometry and the Filter's layout.  A float32 parameter
 * only this op reads, of a convolution rt_pp_gemm can run, is prepared once
 * (rt_prepack: panels of pp_panel rows, Winograd-transformed where the
 * geometry says). */
static int decide_conv(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  c.op->decision = NULL;
  c.op->pack = (WeightPack){0};
  Var *x = ctx_in(&c, "Input", 0), *w = ctx_in(&c, "Filter", 0), *out = ctx_out(&c, "Output", 0);
  ConvDecision *d = pool_alloc(sizeof *d);
  if (!x || !w || !out || conv2d_geometry(e, x, w, out, &d->g, &d->nhwc) || conv_act(e, &d->g)) return -1;
  /* sizes the run gives, at most the bound's: Winograd's tiles as the bound's pick them (smaller sizes could
   * pick others), the filter as saved there (the prepared Winograd filter's products go wrong on the few tiles
   * of small images, measured) */
  const int run = var_runtime_mask(x) != 0;
  RtConv2d judged = d->g; /* no bound (size classes): judged for the largest images, the same in every class */
  if (run && e->size_classes) judged.h_out = judged.w_out = INT32_MAX;
  if (run) d->g.wino = judged.wino = rt_conv2d_wino_m(&judged);
  if (rt_conv2d_can_pack(&judged) && !(run && d->g.wino) && em_packable_weight(e, w)) {
    c.op->pack = (WeightPack){(int)(w - e->g->vars), d->g.c_out, rt_conv2d_wino_m(&d->g), e->pp_panel};
    d->packed = e->pp_panel;
  }
  c.op->decision = d;
  return 0;
}

/* float64 (phi ConvKernel for double, conv2d and depthwise_conv2d alike:
 * im2col + GEMM per image and group): one rt_conv2d_f64 call, NHWC on
 * NCHW copies in scratch.  Bias, ResidualData and fused activations only
 * Paddle's float oneDNN kernels apply: refused (`fused`). */
static int emit_conv_f64(EmitCtx *e, const Var *x, const Var *w, const Var *out, const RtConv2d *g, int nhwc,
                         int fused) {
  if (fused) return em_fail(e, "float64 convolutions take no Bias, ResidualData or fused activation");
  ConvCall cc = {.kind = CONV_FORWARD, .f64 = 1, .geo = "geo", .declare = 1, .g2 = *g,
                 .run_sizes = var_runtime_mask(x) != 0, .run_pads = var_runtime_mask(x) && conv_is_same(e->op)};
  cc.x = em_ptr(e, x, 1);
  cc.out = em_ptr(e, out, 0);
  if (nhwc) conv_nhwc(e, x, out, &cc);
  cc.batch = em_dim(e, x, 0);
  cc.w = em_ptr(e, w, 1);
  cc.ws = conv_ws_f64(e, rt_conv2d_filter_grad_ws_floats(g));
  conv_print_c(e->p, &cc);
  return 0;
}

static int emit_conv(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "Input", 0), *w = ctx_in(&c, "Filter", 0), *b = ctx_in(&c, "Bias", 0);
  Var *out = ctx_out(&c, "Output", 0);
  if (!x || !w || !out) return em_fail(e, "missing Input, Filter or Output");
  const int f64 = conv_dtype(e, "convolutions", x, w, b);
  if (f64 < 0) return -1;
  /* decide_conv's decision; without one (it failed) the same steps again,
   * which report the error */
  ConvDecision d = e->op->decision ? *(const ConvDecision *)e->op->decision : (ConvDecision){0};
  if (!e->op->decision && (conv2d_geometry(e, x, w, out, &d.g, &d.nhwc) || conv_act(e, &d.g))) return -1;
  if (var_runtime_mask(x)) {
    d.g.wino = rt_conv2d_wino_m(&d.g);
    conv_run_sizes(e, x, out, &d.g, d.nhwc);
  }
  RtConv2d g = d.g;
  const int nhwc = d.nhwc;
  if (f64)
    return emit_conv_f64(e, x, w, out, &g, nhwc,
                         b || g.act != RT_ACT_NONE || g.pre_relu ||
                             (conv_onednn(e->op) && attr_bool(e->op, "fuse_residual_connection", 0)));
  SymDim nb = b ? spec_numel(em_spec(e, b)) : (SymDim){0, 0};
  if (b && (nb.a != 0 || nb.c != g.c_out)) return em_fail(e, "Bias must have %lld elements", (long long)g.c_out);
  const int residual = conv_onednn(e->op) && attr_bool(e->op, "fuse_residual_connection", 0);
  Var *res = residual ? ctx_in(&c, "ResidualData", 0) : NULL;
  if (nhwc && (res || g.act != RT_ACT_NONE || g.pre_relu))
    return em_fail(e, "NHWC convolutions take no fused residual or activation");
  if (residual) {
    SymDim nr = res ? spec_numel(em_spec(e, res)) : (SymDim){-1, -1}, no = spec_numel(em_spec(e, out));
    if (!res || res->dtype != RT_DT_FP32 || nr.a != no.a || nr.c != no.c)
      return em_fail(e, "fuse_residual_connection needs a float32 ResidualData shaped like Output");
  }
  g.packed = d.packed; /* decide_conv prepared the Filter */
  int64_t ws = rt_conv2d_ws_floats(&g);
  ConvCall cc = {.kind = CONV_FORWARD, .geo = "geo", .declare = 1, .g2 = g, .run_sizes = var_runtime_mask(x) != 0,
                 .run_pads = var_runtime_mask(x) && conv_is_same(e->op)};
  cc.x = em_ptr(e, x, 1);
  cc.out = em_ptr(e, out, 0);
  cc.batch = em_dim(e, x, 0);
  if (nhwc) conv_nhwc(e, x, out, &cc);
  cc.ws = ws ? em_scratch_named(e, "float", "conv_ws", (SymDim){0, ws * (int64_t)sizeof(float)}) : "NULL";
  cc.w = em_ptr(e, w, 1);
  if (b) cc.bias = em_ptr(e, b, 1);
  if (res) cc.res = em_ptr(e, res, 1);
  cc.gemm_ws = conv_gemm_ws(e, &g, 0);
  conv_print_c(e->p, &cc);
  return 0;
}

/* is_test and use_addto: Paddle's CPU convolution reads neither (use_addto
 * makes cuDNN's kernel add into Output's old contents). */
static const char *const conv_attr_ignores[] = {"is_test", "use_addto", NULL};
const OpDef op_conv2d = {.type = "conv2d", .infer = infer_conv, .emit_c = emit_conv, .decide = decide_conv,
                         .attr_ignores = conv_attr_ignores, .runtime_extents = 2};
const OpDef op_depthwise_conv2d = {.type = "depthwise_conv2d", .infer = infer_conv, .emit_c = emit_conv,
                                   .decide = decide_conv, .attr_ignores = conv_attr_ignores, .runtime_extents = 2};
/* conv2d_grad and depthwise_conv2d_grad (phi ConvGradKernel, the same on
 * CPU for both): Input@GRAD is the transposed convolution of Output@GRAD
 * by the filter (rt_conv2d_transpose with the geometry's input and output
 * swapped: per image and group a GEMM col = W_g^T dY_g, then col2im, as
 * Paddle's kernel does), Filter@GRAD the sum over the images of
 * dY_g col(X_g)^T (rt_conv2d_filter_grad).  NHWC runs on NCHW copies in
 * scratch, as Paddle's kernel transposes too.  Either gradient may be
 * absent.  float64 takes the same steps (rt_conv2d_transpose_f64,
 * rt_conv2d_filter_grad_f64: rt_dgemm, no packing room). */
static int emit_conv_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "Input", 0), *w = ctx_in(&c, "Filter", 0), *dy = ctx_in(&c, "Output@GRAD", 0);
  Var *dx = ctx_out(&c, "Input@GRAD", 0), *dw = ctx_out(&c, "Filter@GRAD", 0);
  if (!x || !w || !dy) return em_fail(e, "needs Input, Filter and Output@GRAD");
  const int f64 = conv_dtype(e, "convolution gradients", x, w, dy);
  int nhwc;
  RtConv2d g;
  if (f64 < 0 || conv2d_geometry(e, x, w, dy, &g, &nhwc)) return -1;
  const SymDim nx = em_spec(e, x)->d[0], ny = em_spec(e, dy)->d[0];
  if (nx.a != ny.a || nx.c != ny.c) return em_fail(e, "Output@GRAD and Input differ in batch");
  if (!dx && !dw) return 0;
  const RtConv2d t = {g.c_out, g.h_out, g.w_out, g.c_in, g.h_in, g.w_in, g.k_h, g.k_w, g.stride_h, g.stride_w,
                      g.pad_t, g.pad_l, g.dil_h, g.dil_w, g.groups, RT_ACT_NONE, 0.0f, 0.0f, 0, 0, 0};
  const int64_t ohw = g.h_out * g.w_out;
  /* Input's height and width the run gives: the forward's sizes again, from
   * Input and Output@GRAD (the scratch planned for the bounds) */
  const int run = var_runtime_mask(x) != 0, same = run && conv_is_same(e->op);
  if (run) {
    run_hw_print_known(e, x, dy, nhwc ? 1 : 2);
    if (same) conv_print_same_pads(e, 2, (const int64_t[]){g.k_h, g.k_w}, (const int64_t[]){g.stride_h, g.stride_w});
  }
  /* the NCHW copies (nhwc) go with the first step */
  ConvCall bufs = {.batch = em_dim(e, x, 0)};
  bufs.x = em_ptr(e, x, 1);
  bufs.dy = em_ptr(e, dy, 1);
  bufs.out = dx ? em_ptr(e, dx, 0) : NULL;
  if (nhwc) conv_nhwc_grad(e, x, dy, dx != NULL, dw != NULL, &bufs);
  if (dx) {
    ConvCall cc = bufs;
    cc.kind = CONV_TRANSPOSE, cc.f64 = f64, cc.geo = "tgeo", cc.declare = 1, cc.g2 = t, cc.compact = 1, cc.braced = 1;
    cc.run_sizes = cc.run_swap = run, cc.run_pads = same;
    cc.x = bufs.dy, cc.dy = NULL;
    const int64_t ws = rt_conv2d_transpose_ws_floats(&t);
    cc.ws = f64 ? conv_ws_f64(e, ws) : em_scratch_named(e, "float", "col", (SymDim){0, ws * (int64_t)sizeof(float)});
    cc.gemm_ws = f64 ? NULL : conv_gemm_ws(e, &t, 1);
    cc.w = em_ptr(e, w, 1);
    conv_print_c(e->p, &cc);
  }
  if (dw) {
    const int64_t ws = rt_conv2d_filter_grad_ws_floats(&g), mg = g.c_out / g.groups;
    const int64_t k = g.c_in / g.groups * g.k_h * g.k_w;
    ConvCall cc = dx ? (ConvCall){.batch = bufs.batch, .x = bufs.x, .dy = bufs.dy} : bufs;
    cc.kind = CONV_FILTER_GRAD, cc.f64 = f64, cc.geo = "geo", cc.declare = 1, cc.g2 = g, cc.copies_first = 1;
    cc.run_sizes = run, cc.run_pads = same;
    cc.ws = f64  ? conv_ws_f64(e, ws)
            : ws ? em_scratch_named(e, "float", "col", (SymDim){0, ws * (int64_t)sizeof(float)})
                 : "NULL";
    cc.gemm_ws = f64 ? NULL : em_gemm_ws(e, (SymDim){0, mg}, (SymDim){0, k}, (SymDim){0, ohw});
    cc.out = em_ptr(e, dw, 0);
    conv_print_c(e->p, &cc);
  }
  return 0;
}

const OpDef op_fused_conv2d = {.type = "fused_conv2d", .infer = infer_conv, .emit_c = emit_conv, .decide = decide_conv,
                               .runtime_extents = 2};
/* the grads take the run's height and width their forward took */
const OpDef op_conv2d_grad = {.type = "conv2d_grad", .infer = grad_infer, .emit_c = emit_conv_grad,
                              .attr_ignores = conv_attr_ignores, .runtime_extents = 2};
const OpDef op_depthwise_conv2d_grad = {.type = "depthwise_conv2d_grad", .infer = grad_infer,
                                        .emit_c = emit_conv_grad, .attr_ignores = conv_attr_ignores,
                                        .runtime_extents = 2};
/* The geometry of conv3d with Input x, Filter w and Output (or its
 * gradient) out, *last for channel last (NDHWC) and *f64 for float64 (all
 * three one dtype); -1 after em_fail. */
static int conv3d_geometry(EmitCtx *e, const Var *x, const Var *w, const Var *out, RtConv3d *g, int *last,
                           int *f64) {
  OpCtx c = {e->g, (Op *)e->op};
  if ((*f64 = conv_dtype(e, "conv3d", x, w, out)) < 0) return -1;
  const char *fmt = attr_str(e->op, "data_format", "NCDHW");
  *last = !strcmp(fmt, "NDHWC");
  if (!*last && strcmp(fmt, "NCDHW") && strcmp(fmt, "AnyLayout") && strcmp(fmt, "NCHW"))
    return em_fail(e, "data_format '%s' is not supported (NCDHW or NDHWC)", fmt);
  if (ctx_in(&c, "Bias", 0) || *attr_str(e->op, "fuse_activation", "") || attr_bool(e->op, "fuse_residual_connection", 0))
    return em_fail(e, "fused conv3d attributes are not supported");
  if (em_spec(e, x)->rank != 5 || em_spec(e, out)->rank != 5) return em_fail(e, "Input and Output must have rank 5");
  int64_t xd[5], od[5], wd[5]; /* N, C, D, H, W order */
  for (int i = 1; i < 5; i++) { /* a size the run gives: its bound (conv3d_run_sizes) */
    const int src = *last ? (i == 1 ? 4 : i - 1) : i;
    xd[i] = em_bound_dim(e, x, src);
    od[i] = em_bound_dim(e, out, src);
    wd[i] = em_const_dim(e, w, i);
    if (xd[i] < 0 || od[i] < 0 || wd[i] < 0) return em_fail(e, "channel and spatial dims must not depend on the batch");
  }
  wd[0] = em_const_dim(e, w, 0);
  int64_t groups = attr_int(e->op, "groups", 1), stride[3], dil[3], pad[6];
  attr_ints_fill(e->op, "strides", 3, 1, stride);
  attr_ints_fill(e->op, "dilations", 3, 1, dil);
  if (groups < 1 || xd[1] % groups || wd[0] % groups || wd[1] * groups != xd[1] || wd[0] != od[1])
    return em_fail(e, "groups %lld does not fit the channels", (long long)groups);
  if (conv_padding(&c, 3, xd + 2, wd + 2, stride, pad, dil)) return -1;
  *g = (RtConv3d){xd[1], xd[2], xd[3], xd[4], od[1], od[2], od[3], od[4], wd[2], wd[3], wd[4],
                  {stride[0], stride[1], stride[2]}, {pad[0], pad[2], pad[4]}, {dil[0], dil[1], dil[2]}, groups};
  return 0;
}

/* Input's depth, height and width the run gives (run_hw.h): the kernel's
 * locals, Output's by Paddle's rule (a size below 1 stops the run), SAME
 * padding the run's (conv_print_same_pads); the buffers are the bound's
 * (g). */
static void conv3d_run_sizes(EmitCtx *e, const Var *x, const Var *out, const RtConv3d *g, int last) {
  OpCtx c = {e->g, (Op *)e->op};
  int64_t k[3] = {g->k_d, g->k_h, g->k_w}, in[3] = {g->d_in, g->h_in, g->w_in}, stride[3], dil[3], pad[6];
  for (int i = 0; i < 3; i++) stride[i] = g->stride[i], dil[i] = g->dil[i];
  conv_padding(&c, 3, in, k, stride, pad, dil); /* EXPLICIT (begin and end) or VALID: not the sizes' */
  const RunHwRule r = conv_run_rule(e->op, 3, k, stride, dil, pad);
  run_hw_print(e, x, out, last ? 1 : 2, &r, "the filter is larger than the padded input (an output size below 1)");
  if (conv_is_same(e->op)) conv_print_same_pads(e, 3, k, stride);
}

/* conv3d: vol2col + GEMM per group (float32 or float64, no fused
 * attributes; NDHWC on NCDHW copies in scratch, as Paddle's kernel
 * transposes too); with sizes the run gives, the geometry a local of
 * them. */
static int emit_conv3d(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "Input", 0), *w = ctx_in(&c, "Filter", 0), *out = ctx_out(&c, "Output", 0);
  if (!x || !w || !out) return em_fail(e, "missing Input, Filter or Output");
  RtConv3d g;
  int last, f64;
  if (conv3d_geometry(e, x, w, out, &g, &last, &f64)) return -1;
  const int run = var_runtime_mask(x) != 0;
  if (run) conv3d_run_sizes(e, x, out, &g, last);
  int64_t ws = rt_conv3d_ws_floats(&g), osz = g.d_out * g.h_out * g.w_out, k = ws / (osz ? osz : 1);
  ConvCall cc = {.kind = CONV_FORWARD, .dims = 3, .f64 = f64, .geo = "geo", .declare = 1, .g3 = g, .compact = 1,
                 .run_sizes = run, .run_pads = run && conv_is_same(e->op)};
  cc.ws = conv_col_ws(e, f64, ws);
  cc.batch = em_dim(e, x, 0);
  cc.x = em_ptr(e, x, 1);
  cc.w = em_ptr(e, w, 1);
  cc.out = em_ptr(e, out, 0);
  if (last) conv_nhwc(e, x, out, &cc);
  cc.gemm_ws = f64 ? NULL : em_gemm_ws(e, (SymDim){0, g.c_out / g.groups}, (SymDim){0, osz}, (SymDim){0, k});
  conv_print_c(e->p, &cc);
  return 0;
}

/* conv3d_grad (phi ConvGradKernel): Input@GRAD is the transposed
 * convolution of Output@GRAD (rt_conv3d_transpose with the geometry read
 * the transposed way: per image and group a GEMM W_g^T dY_g into columns,
 * then col2vol), Filter@GRAD the sum over the images of dY_g vol2col(X_g)^T
 * (rt_conv3d_filter_grad).  Either gradient may be absent.  NDHWC runs on
 * NCDHW copies in scratch (conv_nhwc_grad, the first step making them).
 * float64 takes the same steps (the _f64 routines, no packing room). */
static int emit_conv3d_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "Input", 0), *w = ctx_in(&c, "Filter", 0), *dy = ctx_in(&c, "Output@GRAD", 0);
  Var *dx = ctx_out(&c, "Input@GRAD", 0), *dw = ctx_out(&c, "Filter@GRAD", 0);
  if (!x || !w || !dy) return em_fail(e, "needs Input, Filter and Output@GRAD");
  RtConv3d g;
  int last, f64;
  if (conv3d_geometry(e, x, w, dy, &g, &last, &f64)) return -1;
  const int64_t osz = g.d_out * g.h_out * g.w_out, cg = g.c_in / g.groups, mg = g.c_out / g.groups;
  const int64_t k = cg * g.k_d * g.k_h * g.k_w;
  /* Input's sizes the run gives: the forward's again, from Input and Output@GRAD (scratch planned for the bounds) */
  const int run = var_runtime_mask(x) != 0, same = run && conv_is_same(e->op);
  if (run && (dx || dw)) {
    run_hw_print_known3(e, x, dy, last ? 1 : 2);
    if (same) conv_print_same_pads(e, 3, (const int64_t[]){g.k_d, g.k_h, g.k_w}, g.stride);
  }
  ConvCall bufs = {.batch = em_dim(e, x, 0)}; /* the NCDHW copies (last) go with the first step */
  bufs.x = em_ptr(e, x, 1);
  bufs.dy = em_ptr(e, dy, 1);
  bufs.out = dx ? em_ptr(e, dx, 0) : NULL;
  if (last && (dx || dw)) conv_nhwc_grad(e, x, dy, dx != NULL, dw != NULL, &bufs);
  if (dx) {
    RtConv3d t = {g.c_out, g.d_out, g.h_out, g.w_out, g.c_in, g.d_in, g.h_in, g.w_in, g.k_d, g.k_h, g.k_w,
                  {g.stride[0], g.stride[1], g.stride[2]}, {g.pad[0], g.pad[1], g.pad[2]},
                  {g.dil[0], g.dil[1], g.dil[2]}, g.groups};
    const int64_t ws = rt_conv3d_transpose_ws_floats(&t, 0);
    ConvCall cc = bufs;
    cc.kind = CONV_TRANSPOSE, cc.dims = 3, cc.f64 = f64, cc.geo = "tgeo", cc.declare = 1, cc.g3 = t, cc.compact = 1;
    cc.copies_first = 1, cc.run_sizes = cc.run_swap = run, cc.run_pads = same;
    cc.ws = conv_col_ws(e, f64, ws);
    cc.x = bufs.dy, cc.dy = NULL;
    cc.w = em_ptr(e, w, 1);
    cc.gemm_ws = f64 ? NULL : em_gemm_ws(e, (SymDim){0, k}, (SymDim){0, osz}, (SymDim){0, mg});
    conv_print_c(e->p, &cc);
  }
  if (dw) {
    const int64_t ws = rt_conv3d_ws_floats(&g);
    ConvCall cc = dx ? (ConvCall){.batch = bufs.batch, .x = bufs.x, .dy = bufs.dy} : bufs;
    cc.kind = CONV_FILTER_GRAD, cc.dims = 3, cc.f64 = f64, cc.geo = "geo", cc.declare = 1, cc.g3 = g, cc.compact = 1;
    cc.copies_first = 1, cc.run_sizes = run, cc.run_pads = same;
    cc.ws = conv_col_ws(e, f64, ws);
    cc.out = em_ptr(e, dw, 0);
    cc.gemm_ws = f64 ? NULL : em_gemm_ws(e, (SymDim){0, mg}, (SymDim){0, k}, (SymDim){0, osz});
    conv_print_c(e->p, &cc);
  }
  return 0;
}

const OpDef op_conv3d = {.type = "conv3d", .infer = infer_conv, .emit_c = emit_conv3d, .runtime_extents = 2};
const OpDef op_conv3d_grad = {.type = "conv3d_grad", .infer = grad_infer, .emit_c = emit_conv3d_grad,
                              .attr_ignores = conv_attr_ignores, .runtime_extents = 2};
