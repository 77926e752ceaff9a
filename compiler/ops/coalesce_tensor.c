/* coalesce_tensor: Input* -> Output* (usually the same vars), FusedOutput.
 * Attributes: copy_data=false, set_constant=false, persist_output=false,
 * constant=0, dtype:INT, use_align=true, align_size=-1,
 * user_defined_size_of_dtype=-1, concated_shapes=[], concated_ranks=[].
 * paddle.nn.LSTM / GRU / SimpleRNN's flatten_parameters puts one in the
 * startup program (copy_data=true, use_align=false) to gather the weights
 * into one buffer for cuDNN.
 *
 * Paddle's CoalesceTensorKernel allocates FusedOutput ([the inputs' element
 * counts summed], each padded to an alignment when use_align) and makes
 * every Output a view into it: with copy_data the inputs are copied there
 * first, with set_constant it is filled with `constant`, with
 * persist_output alone the outputs' current values are copied there.
 *
 * Shape rule: Output[i] takes Input[i]'s shape and dtype; FusedOutput is
 * [sum of the inputs' numels] of dtype `dtype` (unknown with use_align).
 *
 * C emission (float32 or float64, the dtypes whose CPU kernels Paddle
 * registers for paddle.nn's float and double layers; use_align=false): FusedOutput is written as Paddle
 * fills it, and each Output bound to another var than its Input gets its
 * values.  FusedOutput is a copy, not storage the outputs share: a later
 * write to an output (an optimizer step) does not show in it, which no
 * program paddlec has met reads (the rnn ops read WeightList, the outputs).
 * Refused: use_align=true, dtypes other than float32 and float64, inputs
 * or outputs of another dtype than `dtype`, and neither
 * copy_data nor set_constant unless every output is its input
 * (persist_output then copies the same values).  align_size and
 * user_defined_size_of_dtype only size the alignment padding;
 * concated_shapes / concated_ranks only give the shapes of inputs that
 * hold no tensor yet, which paddlec's programs never have (refused when
 * not empty). */
#include "../util.h"
#include "fill_call.h"
#include "ops.h"

static int infer_coalesce_tensor(OpCtx *c) {
  int n = ctx_nin(c, "Input");
  int64_t total = 0;
  for (int i = 0; i < n; i++) {
    Var *x = ctx_need(c, "Input", i);
    if (!x) return -1;
    ctx_set(c, "Output", i, &x->shape, x->dtype);
    int64_t k = shape_numel(&x->shape);
    total = total < 0 || k < 0 ? DIM_UNKNOWN : total + k;
  }
  Shape fused = {1, {attr_bool(c->op, "use_align", 1) ? DIM_UNKNOWN : total}};
  ctx_set(c, "FusedOutput", 0, &fused, (int)attr_int(c->op, "dtype", RT_DT_FP32));
  return 0;
}

static int emit_coalesce_tensor(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *fused = ctx_out(&c, "FusedOutput", 0);
  int n = ctx_nin(&c, "Input");
  if (ctx_nout(&c, "Output") != n) return em_fail(e, "%d Input but %d Output tensors", n, ctx_nout(&c, "Output"));
  if (attr_bool(e->op, "use_align", 1)) return em_fail(e, "use_align=true (aligned slices) is not supported");
  attr_superseded(e->op, "align_size");                 /* aligned slices only */
  attr_superseded(e->op, "user_defined_size_of_dtype"); /* aligned slices only */
  int64_t *dims;
  if (attr_ints(e->op, "concated_shapes", &dims) > 0 || attr_ints(e->op, "concated_ranks", &dims) > 0)
    return em_fail(e, "concated_shapes / concated_ranks (inputs that hold no tensor yet) are not supported");
  const int64_t dt = attr_int(e->op, "dtype", RT_DT_FP32);
  if (dt != RT_DT_FP32 && dt != RT_DT_FP64)
    return em_fail(e, "dtype %lld is not supported (float32 and float64 only)", (long long)dt);
  const char *ty = dt == RT_DT_FP64 ? "double" : "float";
  int copy = attr_bool(e->op, "copy_data", 0), fill = attr_bool(e->op, "set_constant", 0);
  int persist = attr_bool(e->op, "persist_output", 0);
  double value = attr_float(e->op, "constant", 0.0);
  int same = 1;
  for (int i = 0; i < n; i++) {
    Var *x = ctx_in(&c, "Input", i), *y = ctx_out(&c, "Output", i);
    if (!x || !y) return em_fail(e, "Input[%d] or Output[%d] is missing", i, i);
    if (x->dtype != dt) /* Output[i] takes Input[i]'s dtype (the shape rule) */
      return em_fail(e, "Input[%d] (%s) and Output[%d] must be %s (the dtype attribute)", i, x->name, i,
                     rt_dtype_name((int)dt));
    same &= x == y;
  }
  if (!copy && !fill && !(persist && same))
    return em_fail(e, "neither copy_data nor set_constant (Paddle leaves the fused tensor unset)");
  FillCall fc = {.kind = FILL_COALESCE, .type = ty, .fused = fused ? em_ptr(e, fused, 0) : NULL,
                .copy = copy || !fill, /* copy_data, or persist_output with every output its input */
                .constant = em_float(value), .nparts = n};
  FillPart *parts = pool_alloc(sizeof *parts * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++) {
    Var *x = ctx_in(&c, "Input", i), *y = ctx_out(&c, "Output", i);
    const char *len = em_numel(e, x);
    if (fc.copy) {
      const char *src = fused || y != x ? em_ptr(e, x, 1) : NULL;
      parts[i] = (FillPart){src, y != x ? em_ptr(e, y, 0) : NULL, len, x->name};
    } else {
      parts[i] = (FillPart){NULL, em_ptr(e, y, 0), len, x->name};
    }
  }
  fc.parts = parts;
  fill_print_c(e->p, &fc);
  return 0;
}

const OpDef op_coalesce_tensor = {
    .type = "coalesce_tensor", .infer = infer_coalesce_tensor, .emit_c = emit_coalesce_tensor};
