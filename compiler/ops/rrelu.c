/* rrelu (phi RReluKernel, RReluInferMeta):
 *   inputs:  X (float32 or float64: Paddle's CPU kernels)
 *   outputs: Out, Noise (X's shape and dtype; Noise is intermediate: the
 *            slope of each element, which the grad reads)
 *   attrs:   lower=0.125, upper=1/3 with 0 <= lower <= upper <= 1,
 *            is_test=false.
 * Element by element, x < 0 is multiplied by its slope; any other x (NaN
 * too, measured on Paddle 2.6.2) is kept, with slope 1:
 *   - at inference (is_test, or an rrelu nobody trains: op_trains), the
 *     middle of [lower, upper], the float sum halved, in T;
 *   - in training, a draw of uniform_real_distribution<float>(lower, upper)
 *     from Paddle's global CPU generator, one per such element in order,
 *     converted to T (runtime/rt_random.h rt_rrelu_*), bit for bit with
 *     Paddle after the same paddle.seed.
 * rrelu_grad: X, Noise, Out@GRAD -> X@GRAD (X's shape).  phi
 * RReluGradKernel: dX = x > 0 ? dOut : Noise * dOut, with the slopes the
 * forward wrote; every tensor of one float type. */
#include <string.h>

#include "../attr.h"
#include "../emit_ew.h"
#include "../util.h"
#include "ops.h"
#include "rnn_call.h"
#include "tensor_util.h"

static int infer_rrelu(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  double lo = attr_float(c->op, "lower", 0.125), hi = attr_float(c->op, "upper", 1.0 / 3.0);
  if (!(lo >= 0 && lo <= 1 && hi >= 0 && hi <= 1 && lo <= hi))
    return ctx_fail(c, "lower %g and upper %g must satisfy 0 <= lower <= upper <= 1", lo, hi);
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  ctx_set(c, "Noise", 0, &x->shape, x->dtype);
  return 0;
}

/* The training rrelu draws from the global generator. */
static int rrelu_global_rng(const Graph *g, const Op *op) { return op_trains(g, op, "Noise"); }

/* The slope at inference, as the kernel computes it: the float sum,
 * halved in double, converted to T; a literal of dtype. */
static const char *middle_slope(const Op *op, int dtype) {
  float lo = (float)attr_float(op, "lower", 0.125), hi = (float)attr_float(op, "upper", 1.0 / 3.0);
  return tu_literal(dtype, (double)(lo + hi) / 2.0);
}

static int emit_rrelu_test(EmitCtx *e, const Var *x, const Var *out, const Var *noise, int dt) {
  const char *slope = middle_slope(e->op, dt);
  if (noise) { /* first: Out may be X itself */
    const char *in = em_ptr(e, x, 1), *slopes = em_ptr(e, noise, 0);
    random_print_c(e->p, &(RandomCall){.kind = RANDOM_RRELU_SLOPES, .f64 = dt == RT_DT_FP64, .x = in, .mask = slopes,
                                       .n = em_numel(e, noise), .slope = slope});
  }
  return ew_unary(e, x, out, NULL, pool_printf("%s%s%s", tu_respell(dt, "v < 0.0f ? v * "), slope, " : v"));
}

static int emit_rrelu(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *out = ctx_out(&c, "Out", 0), *noise = ctx_out(&c, "Noise", 0);
  if (!x || !out) return em_fail(e, "missing X or Out");
  const int dt = tu_float_dtype(e, (Var *const[]){x, out, noise}, 3);
  if (dt < 0) return -1;
  if (!op_trains(e->g, e->op, "Noise")) return emit_rrelu_test(e, x, out, noise, dt);
  const char *lo = em_float((float)attr_float(e->op, "lower", 0.125));
  const char *hi = em_float((float)attr_float(e->op, "upper", 1.0 / 3.0));
  random_print_c(e->p, &(RandomCall){.kind = RANDOM_ENGINE}); /* the global generator */
  const char *slopes = noise ? em_ptr(e, noise, 0) : "NULL";
  random_print_c(e->p, &(RandomCall){.kind = RANDOM_RRELU, .mt = "mt", .f64 = dt == RT_DT_FP64, .x = em_ptr(e, x, 1),
                                     .y = em_ptr(e, out, 0), .mask = slopes, .n = em_numel(e, x), .lo = lo, .hi = hi});
  return 0;
}

static int emit_rrelu_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *noise = ctx_in(&c, "Noise", 0), *dy = ctx_in(&c, "Out@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0);
  if (!x || !noise || !dy) return em_fail(e, "missing X, Noise or Out@GRAD");
  if (!dx) return 0;
  const int dt = tu_float_dtype(e, (Var *const[]){x, noise, dy, dx}, 4);
  if (dt < 0) return -1;
  const EwIn in[3] = {{x, -1, "px", "x"}, {noise, -1, "pn", "n"}, {dy, -1, "pdy", "dy"}};
  return ew_nary(e, dx, 3, in, NULL, NULL, tu_respell(dt, "x > 0.0f ? dy : n * dy"));
}

const OpDef op_rrelu = {.type = "rrelu", .infer = infer_rrelu, .emit_c = emit_rrelu, .global_rng = rrelu_global_rng};
const OpDef op_rrelu_grad = {.type = "rrelu_grad", .infer = grad_infer, .emit_c = emit_rrelu_grad};
