/* one_hot, one_hot_v2: X, depth_tensor† -> Out; depth:INT (-1 in v2),
 * dtype:INT=5, allow_out_of_range:BOOLEAN=false.
 *   one_hot (v1): X's last dim (1) becomes depth.
 *   one_hot_v2: depth is appended to X's dims.
 * A depth_tensor (or a tensor-valued depth) makes that dim -1.  Out has
 * dtype `dtype`; a number that is no data type is refused (2.6.2's kernel
 * raises "Not supported phi::DataType(0) as data type").
 * Emission (index_call.h): Out is zeroed, then a 1 written at each valid
 * id; an id outside [0, depth) leaves its row zero when allow_out_of_range
 * is set, and else stops the run (Paddle raises an error).  A depth from a
 * tensor is not supported. */
#include <string.h>

#include "../util.h"
#include "index_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_one_hot(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t depth = attr_int(c->op, "depth", -1);
  if (ctx_in(c, "depth_tensor", 0) || attr_is_var(c->op, "depth")) depth = DIM_UNKNOWN;
  Shape s = x->shape;
  if (strcmp(c->op->type, "one_hot") == 0) {
    if (s.rank < 2) return ctx_fail(c, "X %s must have rank >= 2", shape_str(&s));
    s.d[s.rank - 1] = depth;
  } else {
    if (s.rank >= RT_MAX_RANK) return ctx_fail(c, "X %s has too many dims", shape_str(&s));
    s.d[s.rank++] = depth;
  }
  const int64_t dtype = attr_int(c->op, "dtype", RT_DT_FP32);
  if (dtype != (int)dtype || !rt_dtype_name((int)dtype)) /* Paddle: "Not supported phi::DataType(0)" */
    return ctx_fail(c, "attribute dtype %lld is not a Paddle data type", (long long)dtype);
  ctx_set(c, "Out", 0, &s, (int)dtype);
  return 0;
}

static int emit_one_hot(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (x->dtype != RT_DT_INT32 && x->dtype != RT_DT_INT64) return em_fail(e, "X must be int32 or int64");
  int r = tu_rank(e, out);
  int64_t depth = r ? em_const_dim(e, out, r - 1) : -1;
  if (depth < 0) return em_fail(e, "the depth must be a constant");
  const int out_of_range = attr_bool(e->op, "allow_out_of_range", 0);
  if (!out_of_range) em_fault(e, pool_printf("an id of X is outside [0, %lld), the depth (Paddle raises an error)", (long long)depth));
  index_print_c(e->p, &(IndexCall){.kind = INDEX_ONE_HOT, .type = em_ctype(out->dtype),
                                   .index_type = em_ctype(x->dtype), .index = em_ptr(e, x, 1),
                                   .dst = em_ptr(e, out, 0), .numel = em_numel(e, out),
                                   .count = em_prod(e, out, 0, r - 1), .depth = depth,
                                   .out_of_range = out_of_range});
  return 0;
}

const OpDef op_one_hot = {.type = "one_hot", .infer = infer_one_hot, .emit_c = emit_one_hot};
const OpDef op_one_hot_v2 = {.type = "one_hot_v2", .infer = infer_one_hot, .emit_c = emit_one_hot};
