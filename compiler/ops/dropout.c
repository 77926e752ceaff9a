/* dropout (Paddle DropoutInferMeta):
 *   inputs:  X, Seed? (int32 tensor overriding the seed)
 *   outputs: Out (X's shape and dtype), Mask? (X's shape, uint8; intermediate)
 *   attrs:   dropout_prob=0.5 (may be a VAR), is_test=false, fix_seed=false,
 *            seed=0, dropout_implementation="downgrade_in_infer"
 *            ("upscale_in_train").
 * dropout_grad: Mask, Out@GRAD -> X@GRAD (Out@GRAD's shape and dtype);
 *   the forward op's attributes.
 *
 * Emission, inference: what phi's DropoutRawKernel does when is_test is set:
 * downgrade_in_infer scales by 1 - dropout_prob, upscale_in_train copies.
 * save_inference_model sets is_test on every op, and Paddle Inference's
 * is_test_pass does the same for any program it loads, so a compiled
 * program runs dropout this way, Mask not written, unless it trains.
 *
 * Training: a dropout with is_test false in a training program, or whose
 * Mask is read (by dropout_grad, in the program as loaded) or fetched
 * (op_trains), runs as Paddle's Executor runs it, bit for bit
 * (runtime/rt_random.h rt_dropout_*): the engine is a fresh mt19937_64
 * seeded with the Seed input's value when it is not 0 (read at run time),
 * else with `seed` when fix_seed is set and seed is not 0, else the model's
 * global generator (in program order with the other random ops); one
 * uniform float draw per element, dropped when below dropout_prob; kept
 * elements are x / (1 - p) (upscale_in_train) or x.  dropout_prob 1 zeroes
 * Out and Mask without drawing.
 *
 * dropout_grad (phi DropoutNdGradKernel, no axis): with is_test,
 * upscale_in_train gives 1 * dout and downgrade_in_infer dout * (1 - p);
 * training gives dout * mask / (1 - p) (upscale_in_train; 0 * dout when p
 * is 1) or dout * mask, in T, with 1 - p computed in float.
 *
 * A dropout_prob given by a tensor is not supported. */
#include <string.h>

#include "../emit_ew.h"
#include "../util.h"
#include "ops.h"
#include "rnn_call.h"
#include "tensor_util.h"

static int infer_dropout(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  ctx_set(c, "Out", 0, &x->shape, x->dtype);
  ctx_set(c, "Mask", 0, &x->shape, RT_DT_UINT8);
  ctx_pass_runtime_extent(c, x, "Out", 0); /* each kernel's count is the run's */
  ctx_pass_runtime_extent(c, x, "Mask", 0);
  return 0;
}

/* 1 when the dropout runs as in training (op_trains). */
static int dropout_training(const Graph *g, const Op *op) { return op_trains(g, op, "Mask"); }

/* dropout_prob as Paddle's kernel reads it (a float); -1 for a tensor. */
static float dropout_prob(const Op *op) {
  return attr_is_var(op, "dropout_prob") ? -1.0f : (float)attr_float(op, "dropout_prob", 0.5);
}

/* The seed of a training dropout without a Seed input: fix_seed ? seed : 0. */
static int64_t dropout_seed(const Op *op) { return attr_bool(op, "fix_seed", 0) ? attr_int(op, "seed", 0) : 0; }

static int has_seed_input(const Op *op) { return slot_first(op->in, op->nin, "Seed") >= 0; }

/* OpDef.global_rng: a training dropout that draws, from the global
 * generator unless a seed is fixed (a Seed input may be 0 at run time). */
static int dropout_global_rng(const Graph *g, const Op *op) {
  if (!dropout_training(g, op) || dropout_prob(op) == 1.0f) return 0;
  return has_seed_input(op) || dropout_seed(op) == 0;
}

int op_dropout_identity(const Op *op) {
  /* inference whatever is_test says (Paddle Inference's is_test_pass, above):
   * no mask, so no seed */
  attr_superseded(op, "is_test"), attr_superseded(op, "fix_seed"), attr_superseded(op, "seed");
  if (!strcmp(attr_str(op, "dropout_implementation", "downgrade_in_infer"), "upscale_in_train")) {
    attr_superseded(op, "dropout_prob"); /* inference copies, whatever the probability */
    return 1;
  }
  return !attr_is_var(op, "dropout_prob") && attr_float(op, "dropout_prob", 0.5) == 0;
}

/* dropout_implementation: 1 for upscale_in_train, 0 for
 * downgrade_in_infer, -1 after em_fail. */
static int dropout_upscale(EmitCtx *e) {
  const char *mode = attr_str(e->op, "dropout_implementation", "downgrade_in_infer");
  if (strcmp(mode, "upscale_in_train") && strcmp(mode, "downgrade_in_infer"))
    return em_fail(e, "dropout_implementation '%s' is unknown", mode);
  return !strcmp(mode, "upscale_in_train");
}

static int emit_dropout_train(EmitCtx *e, Var *x, Var *out, int upscale) {
  Var *mask = tu_out(e, "Mask", 0);
  if (!mask) return -1;
  if (x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64)
    return em_fail(e, "%s X is not supported (float32 or float64)", rt_dtype_name(x->dtype));
  float p = dropout_prob(e->op);
  if (attr_is_var(e->op, "dropout_prob")) return em_fail(e, "dropout_prob comes from a tensor, which is not supported");
  if (!(p >= 0.0f && p <= 1.0f)) return em_fail(e, "dropout_prob %g is not in [0, 1]", (double)p);
  const char *t = em_ctype(x->dtype), *n = em_numel(e, x);
  if (p == 1.0f) { /* Paddle zeroes both and draws nothing: no seed to read */
    attr_superseded(e->op, "fix_seed"), attr_superseded(e->op, "seed");
    const char *y = em_ptr(e, out, 0);
    random_print_c(e->p, &(RandomCall){.kind = RANDOM_DROPOUT_ALL, .y = y, .mask = em_ptr(e, mask, 0), .n = n,
                                       .type = t});
    return 0;
  }
  Var *seed = has_seed_input(e->op) ? tu_in(e, "Seed", 0) : NULL;
  int64_t fixed = dropout_seed(e->op);
  RandomCall engine = {.kind = RANDOM_ENGINE};
  if (has_seed_input(e->op)) {
    if (!seed) return -1;
    if (seed->dtype != RT_DT_INT32) return em_fail(e, "Seed of dtype %s is not supported (int32)", rt_dtype_name(seed->dtype));
    engine.seed_from = em_ptr(e, seed, 1);
  } else if (fixed) {
    if (fixed < INT32_MIN || fixed > INT32_MAX) return em_fail(e, "seed %lld is not an int32", (long long)fixed);
    engine.seed = pool_printf("(uint64_t)INT64_C(%lld)", (long long)fixed);
    engine.note = "fix_seed";
  }
  random_print_c(e->p, &engine);
  random_print_c(e->p, &(RandomCall){.kind = RANDOM_DROPOUT, .mt = "mt", .f64 = x->dtype == RT_DT_FP64,
                                     .x = em_ptr(e, x, 1), .y = em_ptr(e, out, 0), .mask = em_ptr(e, mask, 0), .n = n,
                                     .p = em_float(p), .upscale = upscale});
  return 0;
}

static int emit_dropout_kernel(EmitCtx *e, Var *x, Var *out) {
  int upscale = dropout_upscale(e);
  if (upscale < 0) return -1;
  if (dropout_training(e->g, e->op)) return emit_dropout_train(e, x, out, upscale);
  if (op_dropout_identity(e->op)) return tu_copy(e, x, out);
  if (attr_is_var(e->op, "dropout_prob")) return em_fail(e, "dropout_prob comes from a tensor, which is not supported");
  if (x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64)
    return em_fail(e, "%s X is not supported", rt_dtype_name(x->dtype));
  /* Paddle computes 1 - p in float and multiplies in T */
  float keep = 1.0f - (float)attr_float(e->op, "dropout_prob", 0.5);
  return ew_unary(e, x, out, NULL, pool_printf("v * (%s)%s", em_ctype(x->dtype), em_float(keep)));
}

static int emit_dropout(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  return emit_dropout_kernel(e, x, out);
}

static int infer_dropout_grad(OpCtx *c) {
  Var *dout = ctx_need(c, "Out@GRAD", 0);
  if (!dout) return -1;
  ctx_set(c, "X@GRAD", 0, &dout->shape, dout->dtype);
  ctx_pass_runtime_extent(c, dout, "X@GRAD", 0); /* the lengths the run gives, as the forward's */
  return 0;
}

static int emit_dropout_grad(EmitCtx *e) {
  Var *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!dout || !dx) return -1;
  int upscale = dropout_upscale(e);
  if (upscale < 0) return -1;
  if (dout->dtype != RT_DT_FP32 && dout->dtype != RT_DT_FP64)
    return em_fail(e, "%s Out@GRAD is not supported (float32 or float64)", rt_dtype_name(dout->dtype));
  if (attr_is_var(e->op, "dropout_prob")) return em_fail(e, "dropout_prob comes from a tensor, which is not supported");
  float p = dropout_prob(e->op);
  const char *t = em_ctype(dout->dtype), *keep = pool_printf("(%s)%s", t, em_float(1.0f - p));
  if (attr_bool(e->op, "is_test", 0)) /* Mask unused: the forward wrote none */
    return ew_unary(e, dout, dx, NULL, upscale ? pool_printf("(%s)1 * v", t) : pool_printf("v * %s", keep));
  Var *mask = tu_in(e, "Mask", 0);
  if (!mask) return -1;
  if (mask->dtype != RT_DT_UINT8) return em_fail(e, "Mask of dtype %s is not supported (uint8)", rt_dtype_name(mask->dtype));
  if (!em_same_shape(e, mask, dout) || em_spec(e, mask)->runtime_mask != em_spec(e, dout)->runtime_mask)
    return em_fail(e, "Mask and Out@GRAD differ in shape");
  if (upscale && p == 1.0f) return ew_unary(e, dout, dx, NULL, pool_printf("(%s)0 * v", t));
  const char *expr = upscale ? pool_printf("a * (%s)b / %s", t, keep) : pool_printf("a * (%s)b", t);
  return ew_binary(e, dout, mask, dx, -1, expr);
}

/* The forward op's seed and fix_seed, which the grad op maker copies: the
 * gradient reads the Mask the forward drew. */
static const char *const dropout_grad_attr_ignores[] = {"seed", "fix_seed", NULL};

const OpDef op_dropout = {.type = "dropout", .infer = infer_dropout, .emit_c = emit_dropout, .inplace = "X:Out",
                          .runtime_extents = 2,
                          .global_rng = dropout_global_rng};
const OpDef op_dropout_grad = {.type = "dropout_grad", .infer = infer_dropout_grad, .emit_c = emit_dropout_grad,
                               .attr_ignores = dropout_grad_attr_ignores, .runtime_extents = 2};
