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
    o.d[(last ? 1 : 2) + i] = v;
  }
  ctx_set(c, "Output", 0, &o, x->dtype);
  return 0;
}

const OpDef op_conv2d = {.type = "conv2d", .infer = infer_conv};
const OpDef op_depthwise_conv2d = {.type = "depthwise_conv2d", .infer = infer_conv};
const OpDef op_conv3d = {.type = "conv3d", .infer = infer_conv};
