/* accuracy (paddle.static.accuracy, fluid.layers.accuracy; phi
 * AccuracyKernel, CPU): the share of rows whose top-k holds the label.
 *
 *   Out [N, k] (the top-k values: only its dims and dtype are read),
 *   Indices [N, k] int64, Label [N, 1] int64 -> Accuracy, Correct, Total,
 *   each one element ([1] in 1.x programs, [] since Paddle 2.5's 0-D
 *   tensors: shape_scalar).
 *
 * Paddle's kernel counts row i (i < N = Out.dims[0], k = Out.dims[1]) once
 * when any of Indices[i * k .. i * k + k) equals Label's i-th element (its
 * first N elements in memory order; Label's first dim must be at least N),
 * and writes Correct = that count (int32), Total = N (int32) and Accuracy =
 * (float)Correct / (float)Total (float32), whatever Out's dtype: the
 * kernel's registered output dtypes, which the executor returns, although
 * phi AccuracyInferMeta declares Out's dtype (Paddle 2.3 on; 1.x-2.2 left
 * the declared dtypes).  The shape rule gives Paddle's compile-time
 * dtypes, and while specializing the kernel's.  A negative
 * label stops Paddle's run (PADDLE_ENFORCE_GE): here the run stops with
 * ERR_SHAPE.  With N = 0 Paddle writes Accuracy = 0 and leaves Correct and
 * Total unset; paddlec writes 0 to both.
 *
 * The kernel is registered for float and double Out; paddlec refuses other
 * Out dtypes, an Indices or Label that is not int64, an Out that is not
 * rank 2, an Indices of other dims than Out, a Label of other rows than Out
 * (Paddle takes more: only its first N elements count) and
 * outputs of other dtypes or sizes. */
#include <string.h>

#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

/* Paddle 2.3 moved accuracy to phi, whose InferMeta gives every output the
 * dtype of Out; 1.x-2.2 left the declared dtypes. */
#define PADDLE_PHI_ACCURACY 2003000

static int infer_accuracy(OpCtx *c) {
  Var *out = ctx_need(c, "Out", 0), *label = ctx_need(c, "Label", 0);
  if (!out || !label || !ctx_need(c, "Indices", 0)) return -1;
  if (label->shape.rank != 2) return ctx_fail(c, "Label %s must have rank 2", shape_str(&label->shape));
  Shape one = shape_scalar(c);
  static const char *const slots[] = {"Accuracy", "Correct", "Total"};
  static const int dtypes[] = {RT_DT_FP32, RT_DT_INT32, RT_DT_INT32}; /* the kernel's */
  const int phi = c->g->version >= PADDLE_PHI_ACCURACY || c->g->version == 0;
  for (int i = 0; i < 3; i++) {
    Var *o = ctx_out(c, slots[i], 0);
    if (o) ctx_set(c, slots[i], 0, &one, c->g->specializing ? dtypes[i] : phi ? out->dtype : o->dtype);
  }
  return 0;
}

static int emit_accuracy(EmitCtx *e) {
  Var *out = tu_in(e, "Out", 0), *idx = tu_in(e, "Indices", 0), *label = tu_in(e, "Label", 0);
  Var *acc = tu_out(e, "Accuracy", 0), *correct = tu_out(e, "Correct", 0), *total = tu_out(e, "Total", 0);
  if (!out || !idx || !label || !acc || !correct || !total) return -1;
  if (out->dtype != RT_DT_FP32 && out->dtype != RT_DT_FP64)
    return em_fail(e, "Out ('%s') is %s; Paddle's CPU kernel takes float32 and float64", out->name,
                   rt_dtype_name(out->dtype));
  if (idx->dtype != RT_DT_INT64 || label->dtype != RT_DT_INT64)
    return em_fail(e, "Indices ('%s') and Label ('%s') must be int64, not %s and %s", idx->name, label->name,
                   rt_dtype_name(idx->dtype), rt_dtype_name(label->dtype));
  if (acc->dtype != RT_DT_FP32 || correct->dtype != RT_DT_INT32 || total->dtype != RT_DT_INT32)
    return em_fail(e, "Accuracy, Correct and Total must be float32, int32 and int32 (Paddle's kernel's)");
  if (strcmp(em_numel(e, acc), "1") || strcmp(em_numel(e, correct), "1") || strcmp(em_numel(e, total), "1"))
    return em_fail(e, "Accuracy, Correct and Total must hold one element each");
  if (tu_rank(e, out) != 2)
    return em_fail(e, "Out ('%s') must have rank 2 ([N, k]), as Paddle's kernel requires", out->name);
  if (!em_same_shape(e, out, idx))
    return em_fail(e, "Indices ('%s') must have Out's dims ('%s', [N, k])", idx->name, out->name);
  const char *n = em_dim(e, out, 0);
  if (tu_rank(e, label) < 1 || strcmp(em_dim(e, label, 0), n))
    return em_fail(e, "Label ('%s') must have Out's N rows ('%s')", label->name, out->name);
  em_fault(e, "a Label is negative (Paddle's accuracy refuses it)");
  Printer *p = e->p;
  pr_line(p, "/* accuracy: rows whose top-k indices hold the label */");
  pr_line(p, "const int64_t N = %s, K = %s;", n, em_dim(e, out, 1));
  pr_line(p, "const int64_t *idx = %s, *label = %s;", em_ptr(e, idx, 1), em_ptr(e, label, 1));
  pr_line(p, "int correct = 0;");
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  pr_line(p, "if (label[i] < 0) return 1;");
  pr_line(p, "for (int64_t j = 0; j < K; j++) {");
  pr_line(p, "if (idx[i * K + j] == label[i]) {");
  pr_line(p, "correct++;");
  pr_line(p, "break;");
  pr_line(p, "}");
  pr_line(p, "}");
  pr_line(p, "}");
  pr_line(p, "%s[0] = correct;", em_ptr(e, correct, 0));
  pr_line(p, "%s[0] = (int)N;", em_ptr(e, total, 0));
  pr_line(p, "%s[0] = N ? (float)correct / (float)N : 0.0f;", em_ptr(e, acc, 0));
  return 0;
}

const OpDef op_accuracy = {.type = "accuracy", .infer = infer_accuracy, .emit_c = emit_accuracy};
