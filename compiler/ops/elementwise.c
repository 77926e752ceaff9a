/* Binary element-wise ops with Paddle's `axis` broadcasting (spec 7.2).
 *   elementwise_add, _sub, _mul, _div, _max, _min, _pow, _mod, _floordiv,
 *   _fmax, _fmin, _heaviside
 *   inputs:  X, Y
 *   outputs: Out (X's dtype)
 *   attrs:   axis:INT=-1; extra (ignored for shapes): use_mkldnn,
 *            x_data_format, y_data_format, use_quantizer, mkldnn_data_type,
 *            Scale_x=1, Scale_y=1, Scale_out=1, act ("" in fused variants)
 * Shape rule (phi ElementwiseRawInferMeta, the same since Paddle 1.8's
 * broadcasting InferShape): identical shapes pass through; otherwise a
 * negative axis becomes |rank(X) - rank(Y)| + axis + 1, the lower-rank
 * operand is padded with 1s around position `axis`, and each dim pair gives
 *   max(a, b) when either is > 1 or both are 1, else -1
 * (so -1 against 1, and 0 against 0 or 1, are unknown at compile time). */
#include <string.h>

#include "../emit_ew.h"
#include "ops.h"

static int infer_elementwise(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!x || !y) return -1;
  Shape out;
  if (shape_broadcast(c, &x->shape, &y->shape, attr_int(c->op, "axis", -1), &out)) return -1;
  ctx_set(c, "Out", 0, &out, x->dtype);
  return 0;
}

/* C expression of the elements a (of X) and b (of Y).  Integer division
 * truncates as Paddle's CPU kernel does; mod and floordiv round toward minus
 * infinity (Python semantics), as Paddle's do. */
static const char *expr_of(const char *type, int is_float) {
  static const struct {
    const char *type, *fexpr, *iexpr;
  } table[] = {
      {"elementwise_add", "a + b", "a + b"},
      {"elementwise_sub", "a - b", "a - b"},
      {"elementwise_mul", "a * b", "a * b"},
      {"elementwise_div", "a / b", "a / b"},
      {"elementwise_max", "a > b ? a : b", "a > b ? a : b"},
      {"elementwise_min", "a < b ? a : b", "a < b ? a : b"},
      {"elementwise_fmax", "fmaxf(a, b)", "a > b ? a : b"},
      {"elementwise_fmin", "fminf(a, b)", "a < b ? a : b"},
      {"elementwise_pow", "powf(a, b)", NULL},
      {"elementwise_floordiv", "floorf(a / b)", "(a / b) - ((a % b != 0) && ((a < 0) != (b < 0)))"},
      {"elementwise_mod", "fmodf(a, b) + ((fmodf(a, b) != 0.0f && ((fmodf(a, b) < 0.0f) != (b < 0.0f))) ? b : 0.0f)",
       "a % b + ((a % b != 0 && ((a % b < 0) != (b < 0))) ? b : 0)"},
      {"elementwise_heaviside", "a == 0.0f ? b : (float)(a > 0.0f)", "a == 0 ? b : (a > 0)"},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (!strcmp(table[i].type, type)) return is_float ? table[i].fexpr : table[i].iexpr;
  return NULL;
}

const char *binary_float_expr(const char *type) { return expr_of(type, 1); }

static int emit_elementwise(EmitCtx *e);

int binary_fusible(const Graph *g, const Op *op) {
  if (!op->def || op->def->emit_c != emit_elementwise || !expr_of(op->type, 1)) return 0;
  for (int s = 0; s < op->nin; s++)
    for (int a = 0; a < op->in[s].n; a++)
      if (op->in[s].vars[a] < 0 || g->vars[op->in[s].vars[a]].dtype != RT_DT_FP32) return 0;
  return 1;
}

static int emit_elementwise(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *y = ctx_in(&c, "Y", 0), *out = ctx_out(&c, "Out", 0);
  if (!x || !y || !out) return em_fail(e, "missing X, Y or Out");
  int is_float = x->dtype == RT_DT_FP32 || x->dtype == RT_DT_FP64;
  if (!is_float && x->dtype != RT_DT_INT64 && x->dtype != RT_DT_INT32)
    return em_fail(e, "%s tensors are not supported yet", rt_dtype_name(x->dtype));
  if (y->dtype != x->dtype) return em_fail(e, "X is %s but Y is %s", rt_dtype_name(x->dtype), rt_dtype_name(y->dtype));
  const char *expr = expr_of(e->op->type, is_float);
  if (!expr) return em_fail(e, "%s of %s tensors is not supported yet", e->op->type, rt_dtype_name(x->dtype));
  if (x->dtype == RT_DT_FP64) expr = ew_expr_double(expr);
  return ew_binary(e, x, y, out, attr_int(e->op, "axis", -1), expr);
}

#define OP_ELEMENTWISE(name) \
  const OpDef op_##name = {.type = #name, .infer = infer_elementwise, .emit_c = emit_elementwise, .inplace = "X:Out"};
OP_ELEMENTWISE(elementwise_add)
OP_ELEMENTWISE(elementwise_div)
OP_ELEMENTWISE(elementwise_floordiv)
OP_ELEMENTWISE(elementwise_fmax)
OP_ELEMENTWISE(elementwise_fmin)
OP_ELEMENTWISE(elementwise_heaviside)
OP_ELEMENTWISE(elementwise_max)
OP_ELEMENTWISE(elementwise_min)
OP_ELEMENTWISE(elementwise_mod)
OP_ELEMENTWISE(elementwise_mul)
OP_ELEMENTWISE(elementwise_pow)
OP_ELEMENTWISE(elementwise_sub)
