/* fold_batch_norm: an inference batch_norm after a convolution is folded
 * into the convolution's weights (Paddle Inference's conv_bn_fuse_pass and
 * conv_eltwiseadd_bn_fuse_pass).
 *
 *   conv(x, W) [+ b] -> batch_norm(scale, bias, mean, var, eps)
 *   becomes fused_conv2d(x, W', Bias = b') with, per output channel c,
 *   s = scale[c] / sqrt(var[c] + eps), W'[c] = W[c] * s,
 *   b'[c] = (b[c] - mean[c]) * s + bias[c]   (computed in double)
 *
 * Requires: loaded float32 parameters, NCHW, batch_norm with is_test (or
 * use_global_stats), the conv's output read by the batch_norm alone (after
 * the optional bias add), no other output of the batch_norm read.
 * Invalidates: the conv and batch_norm ops (removed; the fused op names
 * them); their parameters stay only if something else reads them. */
#include <math.h>
#include <string.h>

#include "attr.h"
#include "fuse_util.h"
#include "pass.h"
#include "rewrite.h"
#include "util.h"

/* The four batch_norm parameters as float copies, each of c elements; a
 * missing Scale is 1 and a missing Bias 0, as batch_norm takes them. */
static int bn_params(const Graph *g, int bn, int64_t c, float *p[4]) {
  static const char *const slots[4] = {"Scale", "Bias", "Mean", "Variance"};
  for (int i = 0; i < 4; i++) {
    int v = rw_in(g, bn, slots[i]);
    if (v < 0 && i < 2) {
      p[i] = pool_alloc(sizeof(float) * (size_t)c);
      for (int64_t k = 0; k < c; k++) p[i][k] = i == 0 ? 1.0f : 0.0f;
      continue;
    }
    p[i] = rw_param_f32(g, v);
    if (!p[i] || shape_numel(&g->vars[v].shape) != c) return 0;
  }
  return 1;
}

/* Folds one batch_norm if the pattern holds; returns 1 when it did. */
static int fold_one(Graph *g, int bn) {
  const Op *b = &g->ops[bn];
  const char *layout = attr_str(b, "data_layout", "NCHW");
  if (!fuse_bn_inference(g, bn) || (strcmp(layout, "NCHW") && strcmp(layout, "AnyLayout"))) return 0;
  int x = rw_in(g, bn, "X"), y = rw_out(g, bn, "Y");
  if (x < 0 || y < 0 || fuse_next(g, x) != bn) return 0;
  int add = -1, bias_param = -1, conv = g->vars[x].producer;
  if (conv >= 0 && !strcmp(g->ops[conv].type, "elementwise_add")) {
    add = conv;
    if (rw_out(g, add, "Out") != x) return 0; /* x written through another slot */
    int ax = rw_in(g, add, "X");
    conv = ax >= 0 ? g->vars[ax].producer : -1;
    if (conv < 0 || fuse_next(g, ax) != add) return 0;
  }
  if (!fuse_is_plain_conv(g, conv)) return 0;
  int cout = rw_out(g, conv, "Output"), filter = rw_in(g, conv, "Filter");
  if (cout < 0 || cout != (add >= 0 ? rw_in(g, add, "X") : x)) return 0; /* the conv's Output is what is read */
  const Shape *ws = &g->vars[filter].shape;
  if (ws->rank != 4 || ws->d[0] <= 0) return 0;
  int64_t c = ws->d[0], per = shape_numel(ws) / c;
  if (add >= 0 && !fuse_channel_param(g, add, cout, 1, c, &bias_param)) return 0;
  float *w = rw_param_f32(g, filter), *p[4], *cb = NULL, *pre = NULL;
  if (!w || !bn_params(g, bn, c, p)) return 0;
  int conv_bias = rw_in(g, conv, "Bias");
  if (conv_bias >= 0 && !(cb = rw_param_f32(g, conv_bias))) return 0;
  if (bias_param >= 0 && !(pre = rw_param_f32(g, bias_param))) return 0;
  const double eps = attr_float(b, "epsilon", 1e-5);
  float *bias = pool_alloc(sizeof(float) * (size_t)c);
  for (int64_t k = 0; k < c; k++) {
    const double s = (double)p[0][k] / sqrt((double)p[3][k] + eps);
    for (int64_t i = 0; i < per; i++) w[k * per + i] = (float)((double)w[k * per + i] * s);
    const double b0 = (cb ? cb[k] : 0.0) + (pre ? pre[k] : 0.0);
    bias[k] = (float)((b0 - (double)p[2][k]) * s + (double)p[1][k]);
  }
  Shape bs = {1, {c}};
  int nw = rw_new_param(g, g->vars[filter].name, RT_DT_FP32, ws, w);
  int nb = rw_new_param(g, pool_printf("%s.bias", g->vars[filter].name), RT_DT_FP32, &bs, bias);
  int f = rw_new_op(g, "fused_conv2d", bn, 0);
  rw_copy_attrs(g, f, conv);
  int in = rw_in(g, conv, "Input");
  rw_set_slot(g, f, 0, "Input", &in, 1);
  rw_set_slot(g, f, 0, "Filter", &nw, 1);
  rw_set_slot(g, f, 0, "Bias", &nb, 1);
  rw_set_slot(g, f, 1, "Output", &y, 1);
  int chain[3], n = 0;
  chain[n++] = conv;
  if (add >= 0) chain[n++] = add;
  chain[n++] = bn;
  rw_fuse(g, f, chain, n);
  return 1;
}

int pass_fold_batch_norm(Graph *g, PassCtx *c) {
  rw_each_op(g, &c->changes, fold_one);
  return 0;
}
