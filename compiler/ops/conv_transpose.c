/* Transposed convolutions: conv2d_transpose, depthwise_conv2d_transpose,
 * conv3d_transpose (Paddle ConvTransposeInferMeta).
 *   inputs:  Input [N,C,(D,)H,W] (or NHWC), Filter [C, M/groups, (kD,)kH, kW], Bias?
 *   outputs: Output, dtype of Input
 *   attrs:   strides=[1,..], paddings=[0,..] (one per spatial dim or begin/end
 *            pairs), output_padding=[], output_size=[] (may be a VAR: a tensor
 *            known only at run time), padding_algorithm="EXPLICIT" (SAME/VALID),
 *            groups=1, dilations=[1,..], data_format="NCHW" (conv3d_transpose's
 *            default is also "NCHW"; "AnyLayout" = channel first).
 *   extra attrs (ignored): use_cudnn, use_mkldnn, fuse_relu, fuse_activation,
 *            fuse_alpha, fuse_beta, force_fp32_output, mkldnn_data_type,
 *            workspace_size_MB, is_test.
 * Per spatial dim: out = (in-1)*stride - pad_begin - pad_end + dilation*(k-1) + 1,
 * unknown (-1) when `in` is unknown; output_size replaces it outright, while
 * output_padding is added to it -- also to an unknown -1, exactly as Paddle's
 * compile-time rule does (so -1 + 1 gives 0 in the VarDesc).
 * "NHWC" and "NDHWC" are channel last.
 *
 * C emission (fp32): conv2d_transpose and depthwise_conv2d_transpose (NCHW)
 * are one rt_conv2d_transpose call (GEMM into a column buffer in kernel
 * scratch, then col2im); conv3d_transpose one rt_conv3d_transpose call
 * (runtime/rt_conv3d_transpose.c, GEMM then col2vol), channel first or, for
 * data_format "NHWC" (what Python writes for NDHWC), channel last through
 * NCDHW copies of each image -- Paddle's kernel reads every other spelling,
 * "NDHWC" included, as channel first, so "NDHWC" is refused.  The output
 * size is taken from the specialized shape, so output_size and
 * output_padding are honoured (an output_size held in a tensor whose values
 * the compiler knows too: paddle.shape of a tensor of fixed dims; each
 * checked to lie in [size, size + stride) as Paddle's kernel checks it).
 * With Input's height and width the run's, an output_size tensor is read
 * by the kernel, checked the same way, and sizes Output (bounded by the
 * most Paddle takes; of the extents of the map whose paddle.shape it is,
 * the skip connection of a U-Net, ctx_run_dim_of).  Padding follows Paddle's
 * UpdatePaddingAndDilation on the input size (SAME forces dilation 1).
 * float64 (as Paddle's double kernel: GEMM then col2im): one
 * rt_conv2d_transpose_f64 call, no Bias; its gradient through
 * rt_conv2d_f64 and rt_conv2d_filter_grad_f64.  conv3d_transpose likewise
 * through rt_conv3d_transpose_f64 (channel first or last), its gradient
 * through rt_conv3d_f64 and rt_conv3d_filter_grad_f64.
 * Gradients: conv2d_transpose_grad and depthwise_conv2d_transpose_grad
 * (emit_conv_transpose_grad), conv3d_transpose_grad (channel first,
 * emit_conv3d_transpose_grad). */
#include <string.h>
#include <strings.h>

#include "../util.h"
#include "conv_call.h"
#include "rt_kernels.h"
#include "run_hw.h"
#include "tensor_util.h"

/* out = in * stride + this: (in - 1) * stride - pad_begin - pad_end +
 * dilation * (k - 1) + 1 + output_padding. */
static int64_t convt_rule_add(int64_t stride, int64_t k, int64_t dil, const int64_t pad[2], int64_t opad) {
  return -stride - pad[0] - pad[1] + dil * (k - 1) + 1 + opad;
}

/* The rule of a transposed convolution's output sizes over nsp spatial
 * dims for run_hw: in * stride + convt_rule_add (output_padding's entries
 * read from the op); infer and both emitters build it here. */
static RunHwRule convt_run_rule(const Op *op, int nsp, const int64_t *k, const int64_t *stride, const int64_t *dil,
                                const int64_t *pad) {
  int64_t *opad;
  const int nopad = attr_ints(op, "output_padding", &opad);
  RunHwRule r = {.dims = nsp, .batch = 1};
  for (int i = 0; i < nsp && i < 3; i++) {
    r.mul[i] = stride[i];
    r.add[i] = convt_rule_add(stride[i], k[i], dil[i], pad + 2 * i, nopad > i ? opad[i] : 0);
  }
  return r;
}

static int infer_conv_transpose(OpCtx *c) {
  Var *w, *x = conv_input(c, "Input", &w);
  if (!x) return -1;
  const Shape *xs = &x->shape, *ws = &w->shape;
  int nsp = xs->rank - 2;
  const char *fmt = attr_str(c->op, "data_format", "NCHW");
  int last = strcasecmp(fmt, "NHWC") == 0 || strcasecmp(fmt, "NDHWC") == 0;
  int64_t groups = attr_int(c->op, "groups", 1);
  int64_t cin = last ? xs->d[xs->rank - 1] : xs->d[1];
  if (cin >= 0 && ws->d[0] >= 0 && cin != ws->d[0])
    return ctx_fail(c, "Input has %lld channels (shape %s) but Filter %s expects %lld",
                    (long long)cin, shape_str(xs), shape_str(ws), (long long)ws->d[0]);
  int64_t *sv, *osz, *opad;
  int ns = attr_ints(c->op, "strides", &sv);
  if (ns && ns != nsp) return ctx_fail(c, "strides has %d values for %d spatial dims", ns, nsp);
  int nosz = attr_ints(c->op, "output_size", &osz);
  int size_var = attr_is_var(c->op, "output_size");
  int nopad = attr_ints(c->op, "output_padding", &opad);
  if (nosz && nosz != nsp)
    return ctx_fail(c, "output_size has %d values for %d spatial dims", nosz, nsp);
  if (nopad && nopad != nsp)
    return ctx_fail(c, "output_padding has %d values for %d spatial dims", nopad, nsp);
  int64_t in[3], k[3], stride[3], dil[3], pad[6], tv[3];
  if (size_var) { /* a tensor's values the compiler knows (paddle.shape of a tensor of fixed dims) */
    Var *t = ctx_attr_tensor(c, "output_size");
    const int n = t ? ctx_int_values(c, t, tv, 3) : -1;
    if (n >= 0 && n != nsp) return ctx_fail(c, "output_size ('%s') has %d values for %d spatial dims", t->name, n, nsp);
    if (n == nsp) osz = tv, nosz = n, size_var = 0;
  }
  attr_ints_fill(c->op, "strides", nsp, 1, stride);
  attr_ints_fill(c->op, "dilations", nsp, 1, dil);
  for (int i = 0; i < nsp; i++) {
    in[i] = xs->d[(last ? 1 : 2) + i];
    k[i] = ws->d[2 + i];
    if (stride[i] <= 0) return ctx_fail(c, "strides must be positive");
  }
  if (conv_padding(c, nsp, in, k, stride, pad, dil)) return -1;
  Shape o = {xs->rank, {0}};
  o.d[0] = xs->d[0];
  o.d[last ? xs->rank - 1 : 1] = ws->d[1] < 0 ? DIM_UNKNOWN : ws->d[1] * groups;
  for (int i = 0; i < nsp; i++) {
    int64_t v = DIM_UNKNOWN;
    if (in[i] > 0)
      v = (in[i] - 1) * stride[i] - pad[2 * i] - pad[2 * i + 1] + dil[i] * (k[i] - 1) + 1;
    if (size_var) { /* output_size from a tensor: with Input's sizes the run's, the most Paddle takes */
      v = in[i] > 0 && var_runtime_mask(x) ? v + stride[i] - 1 : DIM_UNKNOWN;
    } else if (nosz) { /* Paddle's kernel takes it in [v, v + stride) */
      if (c->g->specializing && v > 0 && (osz[i] < v || osz[i] >= v + stride[i]))
        return ctx_fail(c, "output_size[%d] = %lld is outside [%lld, %lld), the sizes Input %s gives with stride %lld "
                        "(Paddle raises)", i, (long long)osz[i], (long long)v, (long long)(v + stride[i]),
                        shape_str(xs), (long long)stride[i]);
      v = osz[i];
    } else if (nopad) {
      v += opad[i];
    }
    o.d[(last ? 1 : 2) + i] = v;
  }
  ctx_set(c, "Output", 0, &o, x->dtype);
  if (!var_runtime_mask(x)) return run_hw_infer(c, x, "Output", 2, NULL) < 0 ? -1 : 0; /* nor another input */
  /* Input's height and width given by the run (run_hw.h): channel-first 2-D or 3-D (channel last too), explicit
   * or VALID padding, no output_size of fixed values (3-D: none); Output's are in * stride + add, or (2-D)
   * output_size's values the run reads */
  if ((last && nsp == 2) || (nsp != 2 && nsp != 3) || nosz || (nsp == 3 && size_var) ||
      !strcmp(attr_str(c->op, "padding_algorithm", "EXPLICIT"), "SAME"))
    return ctx_fail(c, "Input ('%s') has sizes only the run knows; paddlec takes them in channel-first 2-D "
                    "transposed convolutions (output_size from tensors too) and in 3-D ones (none), without SAME "
                    "padding or an output_size of fixed values only", x->name);
  RunHwRule rule = convt_run_rule(c->op, nsp, k, stride, dil, pad);
  const Var *t = size_var ? ctx_attr_tensor(c, "output_size") : NULL;
  if (size_var) rule.name = pool_printf("output_size '%s'", t ? t->name : "?");
  if (run_hw_infer(c, x, "Output", last ? 1 : 2, &rule) < 0) return -1;
  /* output_size read from another map's height and width (paddle.shape(skip)[2:]): Output has its extents */
  const Var *src[2];
  int d[2];
  Var *o_var = ctx_out(c, "Output", 0);
  if (t && o_var && ctx_run_dim_of(c->g, t, 0, &src[0], &d[0]) && ctx_run_dim_of(c->g, t, 1, &src[1], &d[1]) &&
      src[0] == src[1] && d[0] == 2 && d[1] == 3 && var_runtime_mask(src[0]) == 0xcu)
    ctx_inherit_root(o_var, src[0], 1);
  return 0;
}

/* ---- C emission ---- */

/* The geometry of a 2-D transposed convolution with Input x, Filter w and
 * Output (or Output@GRAD) out (*nhwc: channel last); -1 after em_fail. */
static int conv_transpose2d_geometry(EmitCtx *e, const Var *x, const Var *w, const Var *out, RtConv2d *g,
                                     int *nhwc) {
  OpCtx c = {e->g, (Op *)e->op};
  if (em_spec(e, x)->rank != 4) return em_fail(e, "only 2-D transposed convolutions (rank-4 Input) are supported");
  const char *fmt = attr_str(e->op, "data_format", "NCHW");
  *nhwc = !strcasecmp(fmt, "NHWC");
  if (!*nhwc && strcasecmp(fmt, "NCHW") && strcmp(fmt, "AnyLayout"))
    return em_fail(e, "data_format '%s' is not supported (NCHW or NHWC)", fmt);
  if (*attr_str(e->op, "fuse_activation", "") || attr_bool(e->op, "fuse_relu", 0))
    return em_fail(e, "oneDNN fusion attributes (fuse_activation, fuse_relu) are not supported");
  int64_t xd[4], od[4], wd[4]; /* Output's dims: output_size's, from a tensor too (its values known: infer) */
  if (conv_const_dims(e, x, out, w, xd, od, wd)) return -1;
  if (*nhwc) conv_nhwc_dims(xd), conv_nhwc_dims(od);
  int64_t groups = attr_int(e->op, "groups", 1), stride[2], dil[2], pad[4];
  attr_ints_fill(e->op, "strides", 2, 1, stride);
  attr_ints_fill(e->op, "dilations", 2, 1, dil);
  if (groups < 1 || xd[1] % groups || wd[0] != xd[1] || wd[1] * groups != od[1])
    return em_fail(e, "groups %lld does not fit Input channels %lld, Filter %lld x %lld and Output channels %lld",
                   (long long)groups, (long long)xd[1], (long long)wd[0], (long long)wd[1], (long long)od[1]);
  if (conv_padding(&c, 2, xd + 2, wd + 2, stride, pad, dil)) return -1;
  *g = (RtConv2d){xd[1], xd[2], xd[3], od[1], od[2], od[3], wd[2], wd[3], stride[0], stride[1],
                  pad[0], pad[2], dil[0], dil[1], groups, RT_ACT_NONE, 0.0f, 0.0f, 0, 0, 0};
  return 0;
}

static int emit_conv_transpose(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "Input", 0), *w = ctx_in(&c, "Filter", 0), *b = ctx_in(&c, "Bias", 0);
  Var *out = ctx_out(&c, "Output", 0);
  if (!x || !w || !out) return em_fail(e, "missing Input, Filter or Output");
  const int f64 = conv_dtype(e, "transposed convolutions", x, w, b);
  int nhwc;
  RtConv2d g;
  if (f64 < 0 || conv_transpose2d_geometry(e, x, w, out, &g, &nhwc)) return -1;
  if (f64 && b) return em_fail(e, "float64 transposed convolutions take no Bias (Paddle's kernel has none)");
  SymDim nb = b ? spec_numel(em_spec(e, b)) : (SymDim){0, 0};
  if (b && (nb.a != 0 || nb.c != g.c_out)) return em_fail(e, "Bias must have %lld elements", (long long)g.c_out);
  int64_t ws = rt_conv2d_transpose_ws_floats(&g);
  const int run = var_runtime_mask(x) != 0;
  if (run) { /* the run's sizes (infer_conv_transpose) */
    int64_t k[2] = {g.k_h, g.k_w}, stride[2] = {g.stride_h, g.stride_w}, dil[2] = {g.dil_h, g.dil_w}, pad[4];
    int64_t in[2] = {g.h_in, g.w_in};
    conv_padding(&c, 2, in, k, stride, pad, dil); /* EXPLICIT or VALID: not the sizes' */
    RunHwRule rule = convt_run_rule(e->op, 2, k, stride, dil, pad);
    const Var *t = attr_is_var(e->op, "output_size") ? ctx_attr_tensor(&c, "output_size") : NULL;
    if (t) { /* output_size's values, read as the run has them */
      const SymDim n = spec_numel(em_spec(e, t));
      if ((t->dtype != RT_DT_INT32 && t->dtype != RT_DT_INT64) || n.a || n.c != 2)
        return em_fail(e, "output_size ('%s') must hold 2 int32 or int64 values", t->name);
      const char *p = em_ptr(e, t, 1);
      rule.expr[0] = pool_printf("(int64_t)%s[0]", p);
      rule.expr[1] = pool_printf("(int64_t)%s[1]", p);
    }
    run_hw_print(e, x, out, 2, &rule, "the padding leaves no output (an output size below 1)");
    if (t) { /* Paddle's kernel takes output_size in [size, size + stride), size the padding's */
      const int64_t add[2] = {convt_rule_add(stride[0], k[0], dil[0], pad, 0),
                              convt_rule_add(stride[1], k[1], dil[1], pad + 2, 0)};
      em_fault(e, "output_size is outside [size, size + stride), the sizes Input gives (Paddle raises)");
      pr_line(e->p, "const int64_t h_least = h_in * %lld + (%lld), w_least = w_in * %lld + (%lld);",
              (long long)stride[0], (long long)add[0], (long long)stride[1], (long long)add[1]);
      pr_line(e->p, "if (h_out < h_least || h_out >= h_least + %lld || w_out < w_least || w_out >= w_least + %lld)",
              (long long)stride[0], (long long)stride[1]);
      pr_line(e->p, "  return 1;");
    }
  }
  ConvCall cc = {.kind = CONV_TRANSPOSE, .f64 = f64, .geo = "geo", .declare = 1, .g2 = g, .run_sizes = run};
  cc.x = em_ptr(e, x, 1);
  cc.out = em_ptr(e, out, 0);
  if (nhwc) conv_nhwc(e, x, out, &cc);
  cc.ws = f64 ? conv_ws_f64(e, ws) : em_scratch_named(e, "float", "col", (SymDim){0, ws * (int64_t)sizeof(float)});
  cc.batch = em_dim(e, x, 0);
  cc.w = em_ptr(e, w, 1);
  if (b) cc.bias = em_ptr(e, b, 1);
  cc.gemm_ws = f64 ? NULL : conv_gemm_ws(e, &g, 1);
  conv_print_c(e->p, &cc);
  return 0;
}

/* conv2d_transpose_grad and depthwise_conv2d_transpose_grad (phi
 * ConvTransposeGradKernel): with the geometry's input and output swapped
 * the transposed convolution is the gradient of a convolution, so
 * Input@GRAD is the convolution of Output@GRAD by the filter (rt_conv2d;
 * Paddle's kernel too: im2col of Output@GRAD, then a GEMM per image and
 * group) and Filter@GRAD that convolution's filter gradient with Input in
 * the place of the output's gradient (rt_conv2d_filter_grad: X_g col^T
 * summed over the images in order).  NHWC on NCHW copies in scratch. */
static int emit_conv_transpose_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "Input", 0), *w = ctx_in(&c, "Filter", 0), *dy = ctx_in(&c, "Output@GRAD", 0);
  Var *dx = ctx_out(&c, "Input@GRAD", 0), *dw = ctx_out(&c, "Filter@GRAD", 0);
  if (!x || !w || !dy) return em_fail(e, "needs Input, Filter and Output@GRAD");
  const int f64 = conv_dtype(e, "transposed convolution gradients", x, w, dy);
  int nhwc;
  RtConv2d g;
  if (f64 < 0 || conv_transpose2d_geometry(e, x, w, dy, &g, &nhwc)) return -1;
  const SymDim nx = em_spec(e, x)->d[0], ny = em_spec(e, dy)->d[0];
  if (nx.a != ny.a || nx.c != ny.c) return em_fail(e, "Output@GRAD and Input differ in batch");
  if (!dx && !dw) return 0;
  const RtConv2d t = {g.c_out, g.h_out, g.w_out, g.c_in, g.h_in, g.w_in, g.k_h, g.k_w, g.stride_h, g.stride_w,
                      g.pad_t, g.pad_l, g.dil_h, g.dil_w, g.groups, RT_ACT_NONE, 0.0f, 0.0f, 0, 0, 0};
  const int64_t hw = g.h_in * g.w_in;
  /* Input's height and width the run gives (channel first: infer_conv_transpose): the forward's sizes again, from
   * Input and Output@GRAD, t's input the forward's output */
  const int run = var_runtime_mask(x) != 0;
  if (run) {
    run_hw_print_known(e, x, dy, 2);
  }
  /* the geometry and the NCHW copies (nhwc) go with the first step */
  ConvCall bufs = {.f64 = f64, .geo = "geo", .declare = 1, .g2 = t, .batch = em_dim(e, x, 0), .run_sizes = run,
                   .run_swap = run};
  bufs.x = em_ptr(e, x, 1);
  bufs.dy = em_ptr(e, dy, 1);
  bufs.out = dx ? em_ptr(e, dx, 0) : NULL;
  if (nhwc) conv_nhwc_grad(e, x, dy, dx != NULL, dw != NULL, &bufs);
  if (dx) {
    ConvCall cc = bufs;
    cc.kind = CONV_FORWARD, cc.x = bufs.dy, cc.dy = NULL;
    const int64_t ws = f64 ? rt_conv2d_filter_grad_ws_floats(&t) : rt_conv2d_ws_floats(&t);
    cc.ws = f64  ? conv_ws_f64(e, ws)
            : ws ? em_scratch_named(e, "float", "col", (SymDim){0, ws * (int64_t)sizeof(float)})
                 : "NULL";
    cc.w = em_ptr(e, w, 1);
    cc.gemm_ws = f64 ? NULL : conv_gemm_ws(e, &t, 0);
    conv_print_c(e->p, &cc);
  }
  if (dw) {
    const int64_t ws = rt_conv2d_filter_grad_ws_floats(&t), mg = t.c_out / t.groups;
    const int64_t k = t.c_in / t.groups * t.k_h * t.k_w;
    ConvCall cc = dx ? (ConvCall){.f64 = f64, .geo = "geo"} : bufs;
    cc.kind = CONV_FILTER_GRAD, cc.batch = bufs.batch, cc.x = bufs.dy, cc.dy = bufs.x;
    cc.ws = f64  ? conv_ws_f64(e, ws)
            : ws ? em_scratch_named(e, "float", "col", (SymDim){0, ws * (int64_t)sizeof(float)})
                 : "NULL";
    cc.gemm_ws = f64 ? NULL : em_gemm_ws(e, (SymDim){0, mg}, (SymDim){0, k}, (SymDim){0, hw});
    cc.out = em_ptr(e, dw, 0);
    conv_print_c(e->p, &cc);
  }
  return 0;
}

/* The geometry of conv3d_transpose with Input x, Filter w and Output (or
 * its gradient) out, read the transposed way (rt_conv3d_transpose.h), and
 * *last for channel last, *f64 for float64 (all three one dtype); -1
 * after em_fail. */
static int conv3dt_geometry(EmitCtx *e, const Var *x, const Var *w, const Var *out, RtConv3d *g, int *last,
                            int *f64) {
  OpCtx c = {e->g, (Op *)e->op};
  if (ctx_in(&c, "Bias", 0)) return em_fail(e, "a Bias input is not supported (Paddle 2.6's op has none)");
  if ((*f64 = conv_dtype(e, "3-D transposed convolutions", x, w, out)) < 0) return -1;
  if (em_spec(e, x)->rank != 5 || em_spec(e, w)->rank != 5 || em_spec(e, out)->rank != 5)
    return em_fail(e, "Input, Filter and Output must have rank 5");
  const char *fmt = attr_str(e->op, "data_format", "NCHW");
  *last = !strcasecmp(fmt, "NHWC");
  if (!*last && strcasecmp(fmt, "NCHW") && strcasecmp(fmt, "NCDHW") && strcasecmp(fmt, "AnyLayout"))
    return em_fail(e, "data_format '%s' is not supported (Paddle's kernel reads it as channel first)", fmt);
  if (attr_is_var(e->op, "output_size")) return em_fail(e, "an output_size held in a tensor is not supported");
  int64_t xd[5], od[5], wd[5]; /* N, C, D, H, W order */
  for (int i = 0; i < 5; i++) {
    int src = *last && i > 0 ? (i == 1 ? 4 : i - 1) : i;
    xd[i] = i ? em_bound_dim(e, x, src) : 0; /* a size the run gives: its bound (emit_conv3d_transpose) */
    od[i] = i ? em_bound_dim(e, out, src) : 0;
    wd[i] = em_const_dim(e, w, i);
    if (xd[i] < 0 || od[i] < 0 || wd[i] < 0) return em_fail(e, "channel and spatial dims must not depend on the batch");
  }
  int64_t groups = attr_int(e->op, "groups", 1), stride[3], dil[3], pad[6];
  attr_ints_fill(e->op, "strides", 3, 1, stride);
  attr_ints_fill(e->op, "dilations", 3, 1, dil);
  if (groups < 1 || xd[1] % groups || wd[0] != xd[1] || wd[1] * groups != od[1])
    return em_fail(e, "groups %lld does not fit Input channels %lld, Filter %lld x %lld and Output channels %lld",
                   (long long)groups, (long long)xd[1], (long long)wd[0], (long long)wd[1], (long long)od[1]);
  if (conv_padding(&c, 3, xd + 2, wd + 2, stride, pad, dil)) return -1;
  for (int i = 0; i < 3; i++)
    if (stride[i] <= 0 || dil[i] <= 0) return em_fail(e, "strides and dilations must be positive");
  *g = (RtConv3d){xd[1], xd[2], xd[3], xd[4], od[1], od[2], od[3], od[4], wd[2], wd[3], wd[4],
                  {stride[0], stride[1], stride[2]}, {pad[0], pad[2], pad[4]}, {dil[0], dil[1], dil[2]}, groups};
  return 0;
}

static int emit_conv3d_transpose(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "Input", 0), *w = ctx_in(&c, "Filter", 0), *out = ctx_out(&c, "Output", 0);
  if (!x || !w || !out) return em_fail(e, "missing Input, Filter or Output");
  RtConv3d g;
  int last, f64;
  if (conv3dt_geometry(e, x, w, out, &g, &last, &f64)) return -1;
  const int run = var_runtime_mask(x) != 0;
  if (run) { /* the run's sizes (infer_conv_transpose), the buffers the bound's (g) */
    int64_t k[3] = {g.k_d, g.k_h, g.k_w}, in[3] = {g.d_in, g.h_in, g.w_in}, stride[3], dil[3], pad[6];
    for (int i = 0; i < 3; i++) stride[i] = g.stride[i], dil[i] = g.dil[i];
    conv_padding(&c, 3, in, k, stride, pad, dil); /* EXPLICIT or VALID: not the sizes' */
    const RunHwRule rule = convt_run_rule(e->op, 3, k, stride, dil, pad);
    run_hw_print(e, x, out, last ? 1 : 2, &rule, "the padding leaves no output (an output size below 1)");
  }
  const int64_t ws = rt_conv3d_transpose_ws_floats(&g, last), vol_in = g.d_in * g.h_in * g.w_in;
  const int64_t mk = g.c_out / g.groups * g.k_d * g.k_h * g.k_w;
  ConvCall cc = {.kind = CONV_TRANSPOSE, .dims = 3, .f64 = f64, .channel_last = last, .geo = "geo", .declare = 1,
                 .g3 = g, .run_sizes = run};
  cc.ws = conv_col_ws(e, f64, ws);
  cc.batch = em_dim(e, x, 0);
  cc.x = em_ptr(e, x, 1);
  cc.w = em_ptr(e, w, 1);
  cc.out = em_ptr(e, out, 0);
  cc.gemm_ws = f64 ? NULL : em_gemm_ws(e, (SymDim){0, mk}, (SymDim){0, vol_in}, (SymDim){0, g.c_in / g.groups});
  conv_print_c(e->p, &cc);
  return 0;
}

/* conv3d_transpose_grad (phi Conv3dTransposeGradKernel, channel first):
 * the transposed convolution is the input gradient of a convolution read
 * the other way (conv: input Output@GRAD, output Input@GRAD, the same
 * Filter), so Input@GRAD is that convolution of Output@GRAD (rt_conv3d:
 * per image and group vol2col, then the GEMM W_g col) and Filter@GRAD its
 * filter gradient with Input in the place of the output's gradient
 * (rt_conv3d_filter_grad: X_g vol2col(dY_g)^T summed over the images).
 * Either gradient may be absent.  float64 takes the same steps (the _f64
 * routines, no packing room). */
static int emit_conv3d_transpose_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "Input", 0), *w = ctx_in(&c, "Filter", 0), *dy = ctx_in(&c, "Output@GRAD", 0);
  Var *dx = ctx_out(&c, "Input@GRAD", 0), *dw = ctx_out(&c, "Filter@GRAD", 0);
  if (!x || !w || !dy) return em_fail(e, "needs Input, Filter and Output@GRAD");
  RtConv3d t;
  int last, f64;
  if (conv3dt_geometry(e, x, w, dy, &t, &last, &f64)) return -1;
  if (last) return em_fail(e, "channel-last (data_format NHWC) gradients are not supported");
  /* the convolution: input dY [c_out, d_out..], output dX [c_in, d_in..] */
  RtConv3d g = {t.c_out, t.d_out, t.h_out, t.w_out, t.c_in, t.d_in, t.h_in, t.w_in, t.k_d, t.k_h, t.k_w,
                {t.stride[0], t.stride[1], t.stride[2]}, {t.pad[0], t.pad[1], t.pad[2]},
                {t.dil[0], t.dil[1], t.dil[2]}, t.groups};
  const int64_t ws = rt_conv3d_ws_floats(&g), osz = g.d_out * g.h_out * g.w_out;
  const int64_t mg = g.c_out / g.groups, k = g.c_in / g.groups * g.k_d * g.k_h * g.k_w;
  if (!dx && !dw) return 0;
  /* Input's sizes the run gives: the forward's again, from Input and Output@GRAD (g's input the forward's output) */
  const int run = var_runtime_mask(x) != 0;
  if (run) run_hw_print_known3(e, x, dy, 2);
  ConvCall first = {.dims = 3, .f64 = f64, .geo = "geo", .declare = 1, .g3 = g, .run_sizes = run, .run_swap = run};
  first.ws = conv_col_ws(e, f64, ws);
  if (dx) { /* the input's gradient: the convolution of Output@GRAD */
    ConvCall cc = first;
    cc.kind = CONV_FORWARD;
    cc.batch = em_dim(e, x, 0);
    cc.x = em_ptr(e, dy, 1);
    cc.w = em_ptr(e, w, 1);
    cc.out = em_ptr(e, dx, 0);
    cc.gemm_ws = f64 ? NULL : em_gemm_ws(e, (SymDim){0, mg}, (SymDim){0, osz}, (SymDim){0, k});
    conv_print_c(e->p, &cc);
  }
  if (dw) { /* the filter's: declares the geometry when dx did not */
    ConvCall cc = first;
    cc.kind = CONV_FILTER_GRAD, cc.declare = !dx;
    cc.batch = em_dim(e, x, 0);
    cc.x = em_ptr(e, dy, 1);
    cc.dy = em_ptr(e, x, 1);
    cc.out = em_ptr(e, dw, 0);
    cc.gemm_ws = f64 ? NULL : em_gemm_ws(e, (SymDim){0, mg}, (SymDim){0, k}, (SymDim){0, osz});
    conv_print_c(e->p, &cc);
  }
  return 0;
}

const OpDef op_conv2d_transpose = {.type = "conv2d_transpose", .infer = infer_conv_transpose,
                                   .emit_c = emit_conv_transpose, .runtime_extents = 2};
const OpDef op_conv3d_transpose = {.type = "conv3d_transpose", .infer = infer_conv_transpose,
                                   .emit_c = emit_conv3d_transpose, .runtime_extents = 2};
const OpDef op_depthwise_conv2d_transpose = {.type = "depthwise_conv2d_transpose",
                                             .infer = infer_conv_transpose, .emit_c = emit_conv_transpose,
                                             .runtime_extents = 2};
/* output_size and output_padding only size the forward's Output, whose
 * gradient's shape the grad reads */
static const char *const convt_grad_attr_ignores[] = {"output_size", "output_padding", NULL};
/* the grads take Input's run-time height and width as their forward (channel first) */
const OpDef op_conv2d_transpose_grad = {.type = "conv2d_transpose_grad", .infer = grad_infer,
                                        .emit_c = emit_conv_transpose_grad, .attr_ignores = convt_grad_attr_ignores,
                                        .runtime_extents = 2};
const OpDef op_depthwise_conv2d_transpose_grad = {.type = "depthwise_conv2d_transpose_grad", .infer = grad_infer,
                                                  .emit_c = emit_conv_transpose_grad,
                                                  .attr_ignores = convt_grad_attr_ignores, .runtime_extents = 2};
const OpDef op_conv3d_transpose_grad = {.type = "conv3d_transpose_grad", .infer = grad_infer,
                                        .emit_c = emit_conv3d_transpose_grad, .attr_ignores = convt_grad_attr_ignores,
                                        .runtime_extents = 2};
