/* Logical and bitwise ops.
 *   logical_and, logical_or, logical_xor: X, Y -> Out (bool)
 *   logical_not: X -> Out (bool)
 *   bitwise_and, bitwise_or, bitwise_xor: X, Y -> Out (X's dtype)
 *   bitwise_not: X -> Out (X's dtype)
 *   attrs: none
 * Binary ones broadcast numpy-style with the trailing dims aligned (a pair
 * gives max(a, b) when either is > 1 or both are 1, else -1), as phi
 * LogicalBinaryInferMeta / BitwiseInferMeta do.  A logical op written in
 * place (Out is X, `logical_and_`) keeps X's dtype.
 * Emission: ew_binary / ew_unary; logical ops read any element as
 * `!= 0`, bitwise ones apply &, |, ^ and ~ (logical not for bool).  Dims
 * the run gives pass to Out as in the element-wise ops
 * (binary_pass_extents). */
#include <string.h>

#include "../emit_ew.h"
#include "ops.h"
#include "tensor_util.h"

/* bool, unless the op writes X in place. */
static int logical_dtype(const OpCtx *c, const Var *x) {
  return ctx_out(c, "Out", 0) == x ? x->dtype : RT_DT_BOOL;
}

static int infer_logical_binary(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!x || !y) return -1;
  Shape out;
  if (shape_broadcast(c, &x->shape, &y->shape, -1, &out)) return -1; /* right-aligned */
  ctx_set(c, "Out", 0, &out, logical_dtype(c, x));
  return binary_pass_extents(c, x, y, -1);
}

static int infer_logical_not(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  ctx_set(c, "Out", 0, &x->shape, logical_dtype(c, x));
  ctx_pass_runtime_extent(c, x, "Out", 0);
  return 0;
}

static int infer_bitwise_binary(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!x || !y) return -1;
  Shape out;
  if (shape_broadcast(c, &x->shape, &y->shape, -1, &out)) return -1; /* right-aligned */
  ctx_set(c, "Out", 0, &out, x->dtype);
  return binary_pass_extents(c, x, y, -1);
}

static int infer_bitwise_not(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  ctx_pass_runtime_extent(c, x, "Out", 0);
  return 0;
}

/* C expression of the op for elements a, b (binary) or v (unary). */
static const char *expr_of(const char *type, int is_bool) {
  static const struct {
    const char *type, *expr;
  } ops[] = {{"logical_and", "(a != 0) && (b != 0)"}, {"logical_or", "(a != 0) || (b != 0)"},
             {"logical_xor", "(a != 0) != (b != 0)"}, {"logical_not", "v == 0"},
             {"bitwise_and", "a & b"}, {"bitwise_or", "a | b"}, {"bitwise_xor", "a ^ b"}};
  if (!strcmp(type, "bitwise_not")) return is_bool ? "!v" : "~v";
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (!strcmp(ops[i].type, type)) return ops[i].expr;
  return NULL;
}

static int emit_logical(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  int bitwise = !strncmp(e->op->type, "bitwise", 7);
  if (bitwise && (x->dtype == RT_DT_FP32 || x->dtype == RT_DT_FP64))
    return em_fail(e, "%s of %s tensors is not defined", e->op->type, rt_dtype_name(x->dtype));
  const char *expr = expr_of(e->op->type, x->dtype == RT_DT_BOOL);
  if (!expr) return em_fail(e, "unknown logical op");
  if (!ctx_in(&c, "Y", 0)) {
    return ew_unary(e, x, out, NULL, expr);
  }
  Var *y = tu_in(e, "Y", 0);
  if (!y) return -1;
  binary_write_extents(e, x, y, out, -1); /* Out's from either, checked where two meet */
  return ew_binary(e, x, y, out, -1, expr);
}

const OpDef op_bitwise_and = {.type = "bitwise_and", .infer = infer_bitwise_binary, .emit_c = emit_logical,
                              .runtime_extents = 2};
const OpDef op_bitwise_not = {.type = "bitwise_not", .infer = infer_bitwise_not, .emit_c = emit_logical,
                              .runtime_extents = 2};
const OpDef op_bitwise_or = {.type = "bitwise_or", .infer = infer_bitwise_binary, .emit_c = emit_logical,
                              .runtime_extents = 2};
const OpDef op_bitwise_xor = {.type = "bitwise_xor", .infer = infer_bitwise_binary, .emit_c = emit_logical,
                              .runtime_extents = 2};
const OpDef op_logical_and = {.type = "logical_and", .infer = infer_logical_binary, .emit_c = emit_logical,
                              .runtime_extents = 2};
const OpDef op_logical_not = {.type = "logical_not", .infer = infer_logical_not, .emit_c = emit_logical,
                              .runtime_extents = 2};
const OpDef op_logical_or = {.type = "logical_or", .infer = infer_logical_binary, .emit_c = emit_logical,
                              .runtime_extents = 2};
const OpDef op_logical_xor = {.type = "logical_xor", .infer = infer_logical_binary, .emit_c = emit_logical,
                              .runtime_extents = 2};
