/* conv_elementwise_add_act: what follows a convolution joins its epilogue
 * (Paddle Inference's conv_elementwise_add_act_fuse_pass and
 * conv_elementwise_add2_act_fuse_pass):
 *
 *   conv -> [elementwise_add bias[C] at axis 1] -> [elementwise_add residual]
 *        -> [activation]
 *   becomes one fused_conv2d with Bias, ResidualData
 *   (fuse_residual_connection) and fuse_activation / fuse_alpha / fuse_beta,
 *   computing act(conv + bias + residual) per output element.
 *
 * Requires: each intermediate read by the next op alone and not fetched; the
 * bias a float32 parameter broadcast along the channels; the residual a
 * tensor of the output's exact shape; the activation one fuse_act_of knows.
 * Invalidates: the ops of the chain (removed; the fused op names them). */
#include <string.h>

#include "attr.h"
#include "fuse_util.h"
#include "pass.h"
#include "rewrite.h"
#include "util.h"

/* The chain after conv `conv`: its ops, bias, residual and activation. */
typedef struct Chain {
  int ops[4], n;   /* conv first, then what joins it */
  int bias;        /* the bias parameter to add, -1 */
  int residual;    /* the residual tensor, -1 */
  FuseAct act;     /* the activation (name NULL: none) */
  int out;         /* the last op's output */
} Chain;

static void match(const Graph *g, int conv, Chain *ch) {
  *ch = (Chain){.ops = {conv}, .n = 1, .bias = -1, .residual = -1, .out = rw_out(g, conv, "Output")};
  const int64_t c = g->vars[rw_in(g, conv, "Filter")].shape.d[0];
  for (;;) {
    int next = fuse_next(g, ch->out), other;
    if (next < 0) return;
    if (ch->bias < 0 && ch->residual < 0 && !ch->act.name && fuse_channel_param(g, next, ch->out, 1, c, &other)) {
      ch->bias = other;
    } else if (ch->residual < 0 && !ch->act.name && fuse_same_shape_add(g, next, ch->out, &other)) {
      ch->residual = other;
    } else if (!ch->act.name && fuse_act_of(g, next, &ch->act)) {
    } else {
      return;
    }
    ch->ops[ch->n++] = next;
    ch->out = rw_out(g, next, "Out");
  }
}

/* The conv's bias plus the added one, as a new parameter. */
static int merged_bias(Graph *g, int conv, int extra, int64_t c) {
  int old = rw_in(g, conv, "Bias");
  if (old < 0) return extra;
  float *a = rw_param_f32(g, old), *b = rw_param_f32(g, extra);
  if (!a || !b) return -1;
  for (int64_t k = 0; k < c; k++) a[k] += b[k];
  Shape s = {1, {c}};
  return rw_new_param(g, g->vars[old].name, RT_DT_FP32, &s, a);
}

static int fuse_one(Graph *g, int conv) {
  if (!fuse_is_plain_conv(g, conv)) return 0;
  Chain ch;
  match(g, conv, &ch);
  if (ch.n == 1) return 0;
  const int64_t c = g->vars[rw_in(g, conv, "Filter")].shape.d[0];
  int bias = ch.bias >= 0 ? merged_bias(g, conv, ch.bias, c) : rw_in(g, conv, "Bias");
  if (ch.bias >= 0 && bias < 0) return 0;
  int last = ch.ops[ch.n - 1];
  int f = rw_new_op(g, "fused_conv2d", last, 0);
  rw_copy_attrs(g, f, conv);
  int in = rw_in(g, conv, "Input"), filter = rw_in(g, conv, "Filter");
  rw_set_slot(g, f, 0, "Input", &in, 1);
  rw_set_slot(g, f, 0, "Filter", &filter, 1);
  if (bias >= 0) rw_set_slot(g, f, 0, "Bias", &bias, 1);
  if (ch.residual >= 0) {
    rw_set_slot(g, f, 0, "ResidualData", &ch.residual, 1);
    rw_attr_bool(g, f, "fuse_residual_connection", 1);
  }
  if (ch.act.name) {
    rw_attr_str(g, f, "fuse_activation", ch.act.name);
    rw_attr_float(g, f, "fuse_alpha", ch.act.alpha);
    rw_attr_float(g, f, "fuse_beta", ch.act.beta);
  }
  rw_set_slot(g, f, 1, "Output", &ch.out, 1);
  rw_fuse(g, f, ch.ops, ch.n);
  return 1;
}

int pass_conv_elementwise_add_act(Graph *g, PassCtx *c) {
  rw_each_op(g, &c->changes, fuse_one);
  return 0;
}
