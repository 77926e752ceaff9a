/* CTC ops (fluid.layers.ctc_greedy_decoder, warpctc / paddle.nn.CTCLoss).
 *
 *   ctc_align: Input (LoD [T, 1], or padded [N, T] with InputLength),
 *     InputLength† [N, 1] -> Output (= Input dims and dtype: Paddle's
 *     compile-time placeholder, the real length is known at run time),
 *     OutputLength† [N, 1] (dtype of InputLength).  blank=0,
 *     merge_repeated=true, padding_value=0.
 *   warpctc: Logits ([T, C] LoD, or [Tmax, N, C] with LogitsLength), Label,
 *     LogitsLength†, LabelLength† -> Loss [-1, 1] (dtype of Logits),
 *     WarpCTCGrad (left as declared: Paddle sets it only at run time).
 *     blank=0, norm_by_times=false.  blank must lie in [0, C). */
#include "ops.h"

static int infer_ctc_align(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0);
  if (!x) return -1;
  ctx_set(c, "Output", 0, &x->shape, x->dtype);
  Var *len = ctx_in(c, "InputLength", 0);
  if (len && x->shape.rank >= 1) {
    Shape ol = {2, {x->shape.d[0], 1}};
    ctx_set(c, "OutputLength", 0, &ol, len->dtype);
  }
  return 0;
}

static int infer_warpctc(OpCtx *c) {
  Var *x = ctx_need(c, "Logits", 0);
  if (!x || !ctx_need(c, "Label", 0)) return -1;
  if (x->shape.rank < 2) return ctx_fail(c, "Logits %s must have rank >= 2", shape_str(&x->shape));
  int64_t width = ctx_in(c, "LogitsLength", 0) ? (x->shape.rank == 3 ? x->shape.d[2] : -1)
                                               : dims_prod(&x->shape, 1, x->shape.rank);
  if (ctx_in(c, "LogitsLength", 0) && x->shape.rank != 3)
    return ctx_fail(c, "padded Logits %s must have rank 3", shape_str(&x->shape));
  int64_t blank = attr_int(c->op, "blank", 0);
  if (blank < 0 || (width >= 0 && blank >= width))
    return ctx_fail(c, "blank %lld is not in [0, %lld)", (long long)blank, (long long)width);
  Shape loss = {2, {DIM_UNKNOWN, 1}};
  ctx_set(c, "Loss", 0, &loss, x->dtype);
  return 0;
}

const OpDef op_ctc_align = {.type = "ctc_align", .infer = infer_ctc_align};
const OpDef op_warpctc = {.type = "warpctc", .infer = infer_warpctc};
