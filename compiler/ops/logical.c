/* Logical and bitwise ops.
 *   logical_and, logical_or, logical_xor: X, Y -> Out (bool)
 *   logical_not: X -> Out (bool)
 *   bitwise_and, bitwise_or, bitwise_xor: X, Y -> Out (X's dtype)
 *   bitwise_not: X -> Out (X's dtype)
 *   attrs: none
 * Binary ones broadcast numpy-style with the trailing dims aligned (a pair
 * gives max(a, b) when either is > 1 or both are 1, else -1), as phi
 * LogicalBinaryInferMeta / BitwiseInferMeta do.  A logical op written in
 * place (Out is X, `logical_and_`) keeps X's dtype. */
#include "ops.h"

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
  return 0;
}

static int infer_logical_not(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  ctx_set(c, "Out", 0, &x->shape, logical_dtype(c, x));
  return 0;
}

static int infer_bitwise_binary(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!x || !y) return -1;
  Shape out;
  if (shape_broadcast(c, &x->shape, &y->shape, -1, &out)) return -1; /* right-aligned */
  ctx_set(c, "Out", 0, &out, x->dtype);
  return 0;
}

static int infer_bitwise_not(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  return 0;
}

const OpDef op_bitwise_and = {.type = "bitwise_and", .infer = infer_bitwise_binary};
const OpDef op_bitwise_not = {.type = "bitwise_not", .infer = infer_bitwise_not};
const OpDef op_bitwise_or = {.type = "bitwise_or", .infer = infer_bitwise_binary};
const OpDef op_bitwise_xor = {.type = "bitwise_xor", .infer = infer_bitwise_binary};
const OpDef op_logical_and = {.type = "logical_and", .infer = infer_logical_binary};
const OpDef op_logical_not = {.type = "logical_not", .infer = infer_logical_not};
const OpDef op_logical_or = {.type = "logical_or", .infer = infer_logical_binary};
const OpDef op_logical_xor = {.type = "logical_xor", .infer = infer_logical_binary};
