/* Convolutions: conv2d, depthwise_conv2d, conv3d (Paddle ConvInferMeta).
 *   inputs:  Input [N,C,(D,)H,W] (or channel-last), Filter [M, C/groups, (kD,)kH, kW],
 *            Bias?, ResidualData? (fused / oneDNN variants only; ignored here)
 *   outputs: Output, dtype of Input
 *   attrs:   strides=[1,1(,1)], paddings=[0,0(,0)] (one per spatial dim, or a
 *            begin/end pair per spatial dim), padding_algorithm="EXPLICIT"
 *            (SAME / VALID), groups=1, dilations=[1,1(,1)],
 *            data_format="NCHW" (conv3d "NCDHW"; 1.x wrote "AnyLayout" = channel
 *            first; "NHWC" / "NDHWC" are channel last).
 *   extra attrs (ignored): use_cudnn, use_mkldnn, fuse_relu, fuse_activation,
 *            fuse_alpha, fuse_beta, use_addto, fuse_residual_connection,
 *            Scale_in, Scale_out, Scale_in_eltwise, Scale_weights,
 *            force_fp32_output, workspace_size_MB, exhaustive_search, is_test,
 *            fuse_relu_before_depthwise_conv, use_quantizer, mkldnn_data_type.
 * Per spatial dim: out = (in + pad_begin + pad_end - (dilation*(k-1)+1)) / stride + 1;
 * an unknown input dim (or filter dim) gives an unknown output dim, as Paddle's
 * compile-time InferShape does. */
#include <string.h>

#include "ops.h"

/* Reads an int list attribute into out[n]; missing entries give dflt. */
static void conv_list(const Op *op, const char *name, int n, int64_t dflt, int64_t *out) {
  int64_t *v;
  int k = attr_ints(op, name, &v);
  for (int i = 0; i < n; i++) out[i] = i < k ? v[i] : dflt;
}

/* Paddle's UpdatePaddingAndDilation: expands `paddings` to begin/end pairs and
 * applies padding_algorithm (SAME forces dilation 1; VALID zeroes padding).
 * pad[2*nsp], dil[nsp] are outputs.  Returns -1 on a malformed paddings list. */
static int conv_paddings(OpCtx *c, int nsp, const int64_t *in, const int64_t *k,
                         const int64_t *stride, int64_t *pad, int64_t *dil) {
  int64_t *p;
  int np = attr_ints(c->op, "paddings", &p);
  if (np == nsp) {
    for (int i = 0; i < nsp; i++) pad[2 * i] = pad[2 * i + 1] = p[i];
  } else if (np == 2 * nsp) {
    for (int i = 0; i < 2 * nsp; i++) pad[i] = p[i];
  } else if (np == 0) {
    for (int i = 0; i < 2 * nsp; i++) pad[i] = 0;
  } else {
    return ctx_fail(c, "paddings has %d values, expected %d or %d", np, nsp, 2 * nsp);
  }
  const char *alg = attr_str(c->op, "padding_algorithm", "EXPLICIT");
  if (strcmp(alg, "SAME") == 0) {
    for (int i = 0; i < nsp; i++) {
      /* C division truncates like C++'s; unknown dims give garbage padding
       * that is never used (their output dim is unknown). */
      int64_t out = (in[i] + stride[i] - 1) / stride[i];
      int64_t sum = (out - 1) * stride[i] + k[i] - in[i];
      if (sum < 0) sum = 0;
      pad[2 * i] = sum / 2;
      pad[2 * i + 1] = sum - sum / 2;
      dil[i] = 1;
    }
  } else if (strcmp(alg, "VALID") == 0) {
    for (int i = 0; i < 2 * nsp; i++) pad[i] = 0;
  }
  return 0;
}

static int infer_conv(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0);
  Var *w = ctx_need(c, "Filter", 0);
  if (!x || !w) return -1;
  const Shape *xs = &x->shape, *ws = &w->shape;
  if (xs->rank != 4 && xs->rank != 5)
    return ctx_fail(c, "Input has rank %d (shape %s), expected 4 or 5", xs->rank, shape_str(xs));
  if (ws->rank != xs->rank)
    return ctx_fail(c, "Filter %s and Input %s differ in rank", shape_str(ws), shape_str(xs));
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
  conv_list(c->op, "strides", nsp, 1, stride);
  conv_list(c->op, "dilations", nsp, 1, dil);
  for (int i = 0; i < nsp; i++) {
    in[i] = xs->d[(last ? 1 : 2) + i];
    k[i] = ws->d[2 + i];
    if (stride[i] <= 0 || dil[i] <= 0) return ctx_fail(c, "strides and dilations must be positive");
  }
  if (conv_paddings(c, nsp, in, k, stride, pad, dil)) return -1;
  Shape o = {xs->rank, {0}};
  o.d[0] = xs->d[0];
  o.d[last ? xs->rank - 1 : 1] = ws->d[0];
  for (int i = 0; i < nsp; i++) {
    int64_t v = DIM_UNKNOWN;
    if (in[i] > 0 && k[i] > 0)
      v = (in[i] + pad[2 * i] + pad[2 * i + 1] - (dil[i] * (k[i] - 1) + 1)) / stride[i] + 1;
    o.d[(last ? 1 : 2) + i] = v;
  }
  ctx_set(c, "Output", 0, &o, x->dtype);
  return 0;
}

const OpDef op_conv2d = {.type = "conv2d", .infer = infer_conv};
const OpDef op_depthwise_conv2d = {.type = "depthwise_conv2d", .infer = infer_conv};
const OpDef op_conv3d = {.type = "conv3d", .infer = infer_conv};
