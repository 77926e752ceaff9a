/* rnn: the fused multi-layer RNN op that paddle.nn.LSTM / GRU / SimpleRNN
 * export (cuDNN-style packed weights).
 *
 *   Input [T, N, I] (time major; the Python layer transposes batch-major
 *   input before the op), PreState* ([L*D, N, H]: LSTM has two, h and c;
 *   GRU / RNN_TANH / RNN_RELU one), WeightList* (per layer and direction:
 *   weights then biases), SequenceLength† [N] ->
 *   Out [T, N, D*H], State* (= PreState), Reserve, DropoutState.
 *   Attributes: dropout_prob=0, is_bidirec=false (D = 2 when true),
 *   input_size=10, hidden_size=100, num_layers=1, mode="LSTM" ("LSTM", "GRU",
 *   "RNN_TANH", "RNN_RELU"), seed=0, is_test=false.
 *
 * Paddle's RnnInferMeta sets Out and State (dtype of Input) and leaves
 * Reserve and DropoutState as declared: their size depends on the kernel. */
#include <string.h>

#include "ops.h"

static int infer_rnn(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0);
  if (!x) return -1;
  if (x->shape.rank != 3) return ctx_fail(c, "Input %s must have rank 3", shape_str(&x->shape));
  const char *mode = attr_str(c->op, "mode", "LSTM");
  int nstate = strcmp(mode, "LSTM") == 0 ? 2 : 1;
  if (strcmp(mode, "LSTM") && strcmp(mode, "GRU") && strcmp(mode, "RNN_TANH") &&
      strcmp(mode, "RNN_RELU"))
    return ctx_fail(c, "unknown mode '%s'", mode);
  if (ctx_nin(c, "PreState") != nstate)
    return ctx_fail(c, "mode %s takes %d PreState tensors, got %d", mode, nstate,
                    ctx_nin(c, "PreState"));
  Var *seq = ctx_in(c, "SequenceLength", 0);
  if (seq && seq->shape.rank >= 1 && seq->shape.d[0] != x->shape.d[1])
    return ctx_fail(c, "SequenceLength %s does not match batch size %lld", shape_str(&seq->shape),
                    (long long)x->shape.d[1]);
  for (int i = 0; i < nstate; i++) {
    Var *s = ctx_need(c, "PreState", i);
    if (!s) return -1;
    if (s->shape.rank != 3 || s->shape.d[1] != x->shape.d[1])
      return ctx_fail(c, "PreState[%d] %s does not fit Input %s", i, shape_str(&s->shape),
                      shape_str(&x->shape));
    ctx_set(c, "State", i, &s->shape, x->dtype);
  }
  int64_t hidden = attr_int(c->op, "hidden_size", 100);
  Shape out = x->shape;
  out.d[2] = attr_bool(c->op, "is_bidirec", 0) ? 2 * hidden : hidden;
  ctx_set(c, "Out", 0, &out, x->dtype);
  return 0;
}

const OpDef op_rnn = {.type = "rnn", .infer = infer_rnn};
