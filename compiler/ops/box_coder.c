/* box_coder (paddle.vision.ops.box_coder): PriorBox [M, 4], PriorBoxVar†
 * [M, 4], TargetBox -> OutputBox; code_type:STRING="encode_center_size"
 * ("decode_center_size"), box_normalized:BOOLEAN=true, axis:INT=0,
 * variance:FLOATS=[] (a Python list prior_box_var arrives here, a Tensor
 * as PriorBoxVar; not both).
 * Shape rule (phi BoxCoderInferMeta): encode: TargetBox [T, 4] ->
 * [T, M, 4]; decode: TargetBox [N, M', 4] (rank 3; axis 0 or 1) -> its own
 * dims; dtype of TargetBox.
 * Emission: rt_box_coder, or rt_box_coder_f64 for float64 tensors
 * (runtime/rt_detection.c), phi box_coder_kernel.cc.  Encoding gives each
 * (target, prior) pair the center offsets over the prior's size and the log
 * size ratios, divided by the variances (the float attribute cast to T);
 * decoding inverts it with the prior of column j (axis 0, M' = M) or of row
 * i (axis 1, N = M).  Without box_normalized, widths and heights count both
 * end pixels (+1).  A float64 decode with the variance attribute is refused:
 * Paddle 2.6's double kernel reinterprets the float list as doubles,
 * reading past its end (its outputs change from run to run). */
#include <string.h>

#include "../util.h"
#include "detection_call.h"
#include "ops.h"
#include "rt_detection.h"
#include "tensor_util.h"

static int infer_box_coder(OpCtx *c) {
  Var *prior = ctx_need(c, "PriorBox", 0);
  Var *target = ctx_need(c, "TargetBox", 0);
  if (!prior || !target) return -1;
  const char *type = attr_str(c->op, "code_type", "encode_center_size");
  if (strcmp(type, "encode_center_size") == 0) {
    if (target->shape.rank != 2)
      return ctx_fail(c, "TargetBox %s must have rank 2", shape_str(&target->shape));
    Shape o = {3, {target->shape.d[0], prior->shape.d[0], 4}};
    ctx_set(c, "OutputBox", 0, &o, target->dtype);
  } else if (strcmp(type, "decode_center_size") == 0) {
    if (target->shape.rank != 3)
      return ctx_fail(c, "TargetBox %s must have rank 3", shape_str(&target->shape));
    int64_t axis = attr_int(c->op, "axis", 0);
    if (axis != 0 && axis != 1) return ctx_fail(c, "axis is %lld; 0 or 1 expected", (long long)axis);
    ctx_set(c, "OutputBox", 0, &target->shape, target->dtype);
  } else {
    return ctx_fail(c, "unknown code_type '%s'", type);
  }
  return 0;
}

static int same(SymDim a, SymDim b) { return a.a == b.a && a.c == b.c; }

static int emit_box_coder(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *prior = tu_in(e, "PriorBox", 0), *target = tu_in(e, "TargetBox", 0), *out = tu_out(e, "OutputBox", 0);
  Var *pvar = ctx_in(&c, "PriorBoxVar", 0) ? tu_in(e, "PriorBoxVar", 0) : NULL;
  if (!prior || !target || !out || (ctx_in(&c, "PriorBoxVar", 0) && !pvar)) return -1;
  const int dt = tu_float_dtype(e, (Var *const[]){target, prior, pvar, out}, 4), f64 = dt == RT_DT_FP64;
  if (dt < 0) return -1;
  int decode = !strcmp(attr_str(e->op, "code_type", "encode_center_size"), "decode_center_size");
  int axis = (int)attr_int(e->op, "axis", 0);
  double *var;
  int nvar = attr_floats(e->op, "variance", &var);
  if (nvar && nvar != 4) return em_fail(e, "variance has %d entries; 4 expected", nvar);
  if (nvar && pvar) return em_fail(e, "PriorBoxVar and the variance attribute must not both be given");
  if (f64 && decode && nvar)
    return em_fail(e, "a float64 decode_center_size with the variance attribute is not supported: Paddle 2.6's double "
                      "kernel reads that float list as 4 doubles (16 bytes past its end); give the variances as "
                      "PriorBoxVar instead");
  const VarSpec *ps = em_spec(e, prior), *ts = em_spec(e, target);
  if (ps->rank != 2 || em_const_dim(e, prior, 1) != 4) return em_fail(e, "PriorBox must be [M, 4]");
  if (pvar && (em_spec(e, pvar)->rank != 2 || !same(em_spec(e, pvar)->d[0], ps->d[0]) ||
               em_const_dim(e, pvar, 1) != 4))
    return em_fail(e, "PriorBoxVar must have PriorBox's shape");
  if (em_const_dim(e, target, ts->rank - 1) != 4) return em_fail(e, "TargetBox's last dim must be 4");
  if (decode && !same(ts->d[axis == 0 ? 1 : 0], ps->d[0]))
    return em_fail(e, "TargetBox dim %d must be PriorBox's row count (axis %d)", axis == 0 ? 1 : 0, axis);
  const char *row = em_dim(e, target, 0), *col = decode ? em_dim(e, target, 1) : em_dim(e, prior, 0);
  const char *prior_p = em_ptr(e, prior, 1);
  const char *prior_var = pvar ? em_ptr(e, pvar, 1) : "NULL";
  const char *target_p = em_ptr(e, target, 1);
  detection_print_c(e->p, &(DetectionCall){.kind = DETECTION_BOX_CODER, .f64 = f64, .decode = decode,
                                           .normalized = attr_bool(e->op, "box_normalized", 1), .axis = axis,
                                           .row = row, .col = col, .variance = nvar ? var : NULL, .prior = prior_p,
                                           .prior_var = prior_var, .target = target_p, .out = em_ptr(e, out, 0)});
  return 0;
}

const OpDef op_box_coder = {.type = "box_coder", .infer = infer_box_coder, .emit_c = emit_box_coder};
