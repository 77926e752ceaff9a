/* roll: circular shift of X's elements.
 *   inputs:  X, ShiftsTensor† (1-D int64, overrides `shifts` at run time)
 *   outputs: Out (X's shape and dtype)
 *   attrs:   shifts:LONGS=[], axis:LONGS=[] (empty axis = over the flattened tensor)
 * Shape rule (phi RollInferMeta): Out = X; with axis given, shifts and axis
 * must have the same length. */
#include "ops.h"

static int infer_roll(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t *shifts, *axis;
  int ns = attr_ints(c->op, "shifts", &shifts), na = attr_ints(c->op, "axis", &axis);
  if (na && !ctx_in(c, "ShiftsTensor", 0) && ns != na)
    return ctx_fail(c, "shifts has %d values but axis has %d", ns, na);
  for (int i = 0; i < na; i++)
    if (axis_norm(axis[i], x->shape.rank) < 0)
      return ctx_fail(c, "axis %lld is out of range for rank %d", (long long)axis[i], x->shape.rank);
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  return 0;
}

const OpDef op_roll = {.type = "roll", .infer = infer_roll};
