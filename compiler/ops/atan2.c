/* atan2: X1, X2 -> Out; no attributes.
 * Shape rule (phi Atan2InferMeta): X1 and X2 have the same rank and
 * X1.dims[0] <= X2.dims[0]; Out has X1's dims, and X1's dtype for float
 * inputs, float64 for int32/int64 ones.
 * Emission: the kernel pairs the elements by flat index, Out[i] =
 * atan2(X1[i], X2[i]) for i < numel(X1) -- no broadcasting -- in double for
 * float64 and in float for everything else: phi's Atan2Functor calls atan2f
 * on the inputs cast to float and only widens the result to double for
 * int32/int64 (atan2_kernel_impl.h), so int64 inputs beyond 2^24 lose
 * precision there as here. */
#include "../util.h"
#include "flat_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_atan2(OpCtx *c) {
  Var *x = ctx_need(c, "X1", 0), *y = ctx_need(c, "X2", 0);
  if (!x || !y) return -1;
  const Shape *xs = &x->shape, *ys = &y->shape;
  if (xs->rank != ys->rank)
    return ctx_fail(c, "X1 %s and X2 %s differ in rank", shape_str(xs), shape_str(ys));
  if (xs->rank > 0 && xs->d[0] >= 0 && ys->d[0] >= 0 && xs->d[0] > ys->d[0])
    return ctx_fail(c, "X1 %s has more rows than X2 %s", shape_str(xs), shape_str(ys));
  int is_int = x->dtype == RT_DT_INT32 || x->dtype == RT_DT_INT64 || y->dtype == RT_DT_INT32 ||
               y->dtype == RT_DT_INT64;
  ctx_set(c, "Out", 0, xs, is_int ? RT_DT_FP64 : x->dtype);
  return 0;
}

static int emit_atan2(EmitCtx *e) {
  Var *x = tu_in(e, "X1", 0), *y = tu_in(e, "X2", 0), *out = tu_out(e, "Out", 0);
  if (!x || !y || !out) return -1;
  if (x->dtype != y->dtype) return em_fail(e, "X1 and X2 differ in dtype");
  int is_f32 = x->dtype == RT_DT_FP32;
  if (!is_f32 && x->dtype != RT_DT_FP64 && x->dtype != RT_DT_INT32 && x->dtype != RT_DT_INT64)
    return em_fail(e, "atan2 of %s tensors is not supported", rt_dtype_name(x->dtype));
  if (out->dtype != (is_f32 ? RT_DT_FP32 : RT_DT_FP64)) return em_fail(e, "Out has the wrong dtype");
  SymDim nx = spec_numel(em_spec(e, x)), ny = spec_numel(em_spec(e, y));
  if (nx.a < 0 || ny.a < 0 || ny.a < nx.a || ny.a + ny.c < nx.a + nx.c)
    return em_fail(e, "X2 must hold at least as many elements as X1");
  FlatCall call = {.kind = FLAT_ATAN2, .dtype = x->dtype, .out_dtype = out->dtype};
  call.x = em_ptr(e, x, 1);
  call.y = em_ptr(e, y, 1);
  call.out = em_ptr(e, out, 0);
  call.numel = em_numel(e, x);
  flat_print_c(e->p, &call);
  return 0;
}

const OpDef op_atan2 = {.type = "atan2", .infer = infer_atan2, .emit_c = emit_atan2};

/* atan2_grad: X1, X2, Out@GRAD -> X1@GRAD, X2@GRAD (each optional; X1's and
 * X2's shapes).  phi Atan2GradFunctor, element by element (flat index):
 *   r = x1 * x1 + x2 * x2;  dX1 = dOut * x2 / r;  dX2 = -dOut * x1 / r
 * in float for float32, in double for float64.  Paddle writes only the
 * first numel(X1) elements of X2@GRAD: an X2 with more is refused. */
static int emit_atan2_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "X1", 0), *y = tu_in(e, "X2", 0), *dout = tu_in(e, "Out@GRAD", 0);
  Var *dx = ctx_out(&c, "X1@GRAD", 0), *dy = ctx_out(&c, "X2@GRAD", 0);
  if (!x || !y || !dout) return -1;
  Var *const all[5] = {x, y, dout, dx, dy};
  for (int k = 0; k < 5; k++)
    if (all[k] && (all[k]->dtype != x->dtype || (x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64)))
      return em_fail(e, "atan2_grad of %s tensors is not supported (float32 or float64, all alike)",
                     rt_dtype_name(all[k]->dtype));
  SymDim nx = spec_numel(em_spec(e, x)), ny = spec_numel(em_spec(e, y));
  if (nx.a != ny.a || nx.c != ny.c)
    return em_fail(e, "X2 holds more elements than X1: Paddle's kernel leaves the rest of X2@GRAD unwritten");
  FlatCall call = {.kind = FLAT_ATAN2_GRAD, .dtype = x->dtype};
  call.x = em_ptr(e, x, 1);
  call.y = em_ptr(e, y, 1);
  call.dout = em_ptr(e, dout, 1);
  if (dx) call.dx = em_ptr(e, dx, 0);
  if (dy) call.dy = em_ptr(e, dy, 0);
  call.numel = em_numel(e, x);
  flat_print_c(e->p, &call);
  return 0;
}

const OpDef op_atan2_grad = {.type = "atan2_grad", .infer = grad_infer, .emit_c = emit_atan2_grad};
