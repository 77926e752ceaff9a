/* one_hot, one_hot_v2: X, depth_tensor† -> Out; depth:INT (-1 in v2),
 * dtype:INT=5, allow_out_of_range:BOOLEAN=false.
 *   one_hot (v1): X's last dim (1) becomes depth.
 *   one_hot_v2: depth is appended to X's dims.
 * A depth_tensor (or a tensor-valued depth) makes that dim -1, unless the
 * compiler knows its value (paddle.assign of a constant): that.  Out has
 * dtype `dtype`; a number that is no data type is refused (2.6.2's kernel
 * raises "Not supported phi::DataType(0) as data type").
 * Emission (index_call.h): Out is zeroed, then a 1 written at each valid
 * id; an id outside [0, depth) leaves its row zero when allow_out_of_range
 * is set, and else stops the run (Paddle raises an error).  A depth from
 * depth_tensor that only the run knows takes a --max-shape bound for Out
 * (its dims all run-time extents: X's, and the depth read when the kernel
 * runs); a depth attribute bound to a tensor (VAR) of a value only the
 * run knows is refused.  X's dims
 * the run gives (ids of a sequence of the run's length) are Out's. */
#include <string.h>

#include "../util.h"
#include "index_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_one_hot(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t depth = attr_int(c->op, "depth", -1), held[1];
  if (ctx_in(c, "depth_tensor", 0) || attr_is_var(c->op, "depth")) { /* a value the compiler knows? */
    const int n = ctx_in(c, "depth_tensor", 0) ? ctx_int_values(c, ctx_in(c, "depth_tensor", 0), held, 1)
                                               : ctx_attr_values(c, "depth", held, 1);
    depth = n == 1 && held[0] > 0 ? held[0] : DIM_UNKNOWN;
  }
  const int known = depth != DIM_UNKNOWN;
  const int64_t dtype = attr_int(c->op, "dtype", RT_DT_FP32);
  if (dtype != (int)dtype || !rt_dtype_name((int)dtype)) /* Paddle: "Not supported phi::DataType(0)" */
    return ctx_fail(c, "attribute dtype %lld is not a Paddle data type", (long long)dtype);
  const int v1 = strcmp(c->op->type, "one_hot") == 0;
  if (!known && ctx_in(c, "depth_tensor", 0) && var_runtime_axis(x) < 0) { /* the run's depth, within a --max-shape
                                                                            * bound? */
    int b = ctx_max_shape(c, "Out", 0, v1 ? x->shape.rank : x->shape.rank + 1, (int)dtype, "depth_tensor's value");
    if (b) return b < 0 ? -1 : 0;
  }
  Shape s = x->shape;
  if (v1) {
    if (s.rank < 2) return ctx_fail(c, "X %s must have rank >= 2", shape_str(&s));
    s.d[s.rank - 1] = depth;
  } else {
    if (s.rank >= RT_MAX_RANK) return ctx_fail(c, "X %s has too many dims", shape_str(&s));
    s.d[s.rank++] = depth;
  }
  ctx_set(c, "Out", 0, &s, (int)dtype);
  /* X's dims the run gives (a sequence of ids) are Out's; v1's last, the one replaced by depth, must be fixed */
  if (v1 && var_runtime_mask(x) >> (x->shape.rank - 1) & 1)
    return ctx_fail(c, "the last dim of X ('%s'), which depth replaces, is only known at run time", x->name);
  ctx_pass_runtime_extent(c, x, "Out", 0);
  return 0;
}

static int emit_one_hot(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (x->dtype != RT_DT_INT32 && x->dtype != RT_DT_INT64) return em_fail(e, "X must be int32 or int64");
  int r = tu_rank(e, out);
  const int64_t known = r ? em_const_dim(e, out, r - 1) : -1;
  const char *depth = known >= 0 ? pool_printf("%lld", (long long)known) : NULL;
  if (r && tu_max_shaped(e, out)) { /* X's dims, and depth_tensor's value last */
    OpCtx c = {e->g, (Op *)e->op};
    Var *dt = ctx_in(&c, "depth_tensor", 0);
    if (!dt || (dt->dtype != RT_DT_INT32 && dt->dtype != RT_DT_INT64))
      return em_fail(e, "depth_tensor must be int32 or int64");
    const char *dims[RT_MAX_RANK];
    for (int d = 0; d < r - 1; d++) dims[d] = em_dim(e, x, d);
    dims[r - 1] = pool_printf("%s[0]", em_ptr(e, dt, 1));
    tu_set_extents(e, out, dims, r, pool_printf("a depth from depth_tensor below 0 or past --max-shape %s, or an id "
                                                "of X outside [0, depth) (Paddle raises an error)",
                                                shape_str(&out->shape)));
    depth = em_dim(e, out, r - 1);
  }
  if (!depth) return em_fail(e, "the depth must be a constant, or bounded with --max-shape");
  const int out_of_range = attr_bool(e->op, "allow_out_of_range", 0);
  if (!out_of_range && !tu_max_shaped(e, out))
    em_fault(e, pool_printf("an id of X is outside [0, %s), the depth (Paddle raises an error)", depth));
  index_print_c(e->p, &(IndexCall){.kind = INDEX_ONE_HOT, .type = em_ctype(out->dtype),
                                   .index_type = em_ctype(x->dtype), .index = em_ptr(e, x, 1),
                                   .dst = em_ptr(e, out, 0), .numel = em_numel(e, out),
                                   .count = em_prod(e, out, 0, r - 1), .depth = depth,
                                   .out_of_range = out_of_range});
  return 0;
}

const OpDef op_one_hot = {.type = "one_hot", .infer = infer_one_hot, .emit_c = emit_one_hot, .max_shape = 1,
                          .runtime_extents = 2};
const OpDef op_one_hot_v2 = {.type = "one_hot_v2", .infer = infer_one_hot, .emit_c = emit_one_hot, .max_shape = 1,
                             .runtime_extents = 2};
