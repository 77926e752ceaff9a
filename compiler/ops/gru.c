/* 1.x GRU ops on LoD sequences (fluid.layers.dynamic_gru, gru_unit).
 *
 *   gru: Input [T, 3D] (LoD), H0† [N, D], Weight [D, 3D], Bias† [1, 3D] ->
 *     BatchGate [T, 3D], BatchResetHiddenPrev [T, D], BatchHidden [T, D],
 *     Hidden [T, D].  activation="tanh", gate_activation="sigmoid",
 *     is_reverse=false, origin_mode=false.  D = Weight.dims[0] (GRUOp).
 *   gru_unit: Input [N, 3D], HiddenPrev [N, D], Weight [D, 3D], Bias† [1, 3D]
 *     -> Gate [N, 3D], ResetHiddenPrev [N, D], Hidden [N, D].
 *     activation:INT=2 (tanh), gate_activation:INT=1 (sigmoid) (0 identity,
 *     1 sigmoid, 2 tanh, 3 relu), origin_mode=false.  D = HiddenPrev.dims[1].
 *
 * C emission of gru (lodrnn_call.h prints the loops, step by step per
 * sequence as Paddle's GRUCPUKernel computes them in its time-major
 * batches): Input, Weight, Bias, H0 and Hidden of one type, float32 or
 * float64 (the CPU kernels'); Input carries the LoD of a level-1 feed
 * (op_lod_input), Hidden keeps it.  activation and gate_activation are
 * sigmoid, tanh, relu or identity.  H0 row i starts sequence i; a sequence
 * past H0's rows (Paddle would read past its end) starts from none.
 * BatchGate, BatchResetHiddenPrev and BatchHidden hold Paddle's reordered
 * intermediates: not written, refused when some op or fetch reads them.
 * is_test only decides whether Paddle keeps those intermediates.
 *
 * gru_grad: Input, H0†, Weight, Bias†, BatchGate, BatchResetHiddenPrev,
 *   BatchHidden, Hidden, Hidden@GRAD -> Input@GRAD†, H0@GRAD†,
 *   Weight@GRAD†, Bias@GRAD† (the generic grad rule); gru's attributes.  C
 *   emission (lodrnn_call.h's LODRNN_GRU_GRAD, as Paddle's GRUGradKernel
 *   computes it): the Batch* inputs, which paddlec's gru does not write,
 *   are not read: the gates are recomputed per sequence from Input,
 *   Weight, Bias, H0 and Hidden as the forward computes them; the same
 *   types, activations and LoD as gru's; each output slot bound is
 *   written (H0 rows past the sequences get 0).
 *
 * C emission of gru_unit (lodrnn_call.h's LODRNN_GRU_UNIT, as Paddle's
 * GRUUnitKernel): Input, HiddenPrev, Weight, Bias and the three outputs of
 * one type, float32 or float64 (the CPU kernels'); every output written
 * (Gate holds the activated gates, ResetHiddenPrev = r * HiddenPrev).  The
 * two products through gemm_print_c; the activations are the plain
 * functors of activation_op.h (not gru's clamped ones).  activation and
 * gate_activation outside 0..3 are refused (Paddle throws Unimplemented
 * when it runs), as are an Input and a HiddenPrev of different rows (Paddle
 * would read past HiddenPrev) and a D that depends on the batch.
 *
 * gru_unit_grad: Input, HiddenPrev, Weight, Bias†, Gate, ResetHiddenPrev,
 *   Hidden@GRAD -> Input@GRAD†, HiddenPrev@GRAD†, Weight@GRAD†, Bias@GRAD†
 *   (the generic grad shape rule); gru_unit's three attributes.  C
 *   emission (lodrnn_call.h's LODRNN_GRU_UNIT_GRAD, as Paddle's
 *   GRUUnitGradKernel): every tensor of one type, float32 or float64 (the
 *   CPU kernels'); the same refusals as gru_unit's (activation ints outside
 *   0..3, rows that differ, a D that depends on the batch); the
 *   unactivated gates' gradient and ResetHiddenPrev's in scratch; each
 *   output slot bound is written, the others are skipped as Paddle skips
 *   them. */
#include <string.h>

#include "../util.h"
#include "lodrnn_call.h"
#include "ops.h"
#include "tensor_util.h"

/* Weight [D, 3D] and an optional Bias [1, 3D]. */
static int check_weights(OpCtx *c, int64_t frame) {
  Var *w = ctx_need(c, "Weight", 0);
  if (!w) return -1;
  if (w->shape.rank != 2 || w->shape.d[0] != frame || w->shape.d[1] != 3 * frame)
    return ctx_fail(c, "Weight %s must be [%lld, %lld]", shape_str(&w->shape), (long long)frame,
                    (long long)(3 * frame));
  Var *b = ctx_in(c, "Bias", 0);
  if (b && (b->shape.rank != 2 || b->shape.d[0] != 1 || b->shape.d[1] != 3 * frame))
    return ctx_fail(c, "Bias %s must be [1, %lld]", shape_str(&b->shape), (long long)(3 * frame));
  return 0;
}

static int infer_gru(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0), *w = ctx_need(c, "Weight", 0);
  if (!x || !w) return -1;
  if (x->shape.rank != 2 || w->shape.rank != 2)
    return ctx_fail(c, "Input %s and Weight %s must have rank 2", shape_str(&x->shape),
                    shape_str(&w->shape));
  int64_t frame = w->shape.d[0];
  if (check_weights(c, frame)) return -1;
  Var *h0 = ctx_in(c, "H0", 0);
  if (h0 && (h0->shape.rank != 2 || h0->shape.d[1] != frame))
    return ctx_fail(c, "H0 %s must have width %lld", shape_str(&h0->shape), (long long)frame);
  Shape h = {2, {x->shape.d[0], frame}};
  ctx_set(c, "BatchGate", 0, &x->shape, x->dtype);
  ctx_set(c, "BatchResetHiddenPrev", 0, &h, x->dtype);
  ctx_set(c, "BatchHidden", 0, &h, x->dtype);
  ctx_set(c, "Hidden", 0, &h, x->dtype);
  return 0;
}

static int infer_gru_unit(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0), *hp = ctx_need(c, "HiddenPrev", 0);
  if (!x || !hp) return -1;
  if (x->shape.rank != 2 || hp->shape.rank != 2)
    return ctx_fail(c, "Input %s and HiddenPrev %s must have rank 2", shape_str(&x->shape),
                    shape_str(&hp->shape));
  int64_t frame = hp->shape.d[1];
  if (x->shape.d[1] >= 0 && x->shape.d[1] != 3 * frame)
    return ctx_fail(c, "Input width %lld must be 3 * %lld", (long long)x->shape.d[1],
                    (long long)frame);
  if (check_weights(c, frame)) return -1;
  Shape gate = {2, {x->shape.d[0], 3 * frame}}, h = {2, {x->shape.d[0], frame}};
  ctx_set(c, "Gate", 0, &gate, x->dtype);
  ctx_set(c, "ResetHiddenPrev", 0, &h, x->dtype);
  ctx_set(c, "Hidden", 0, &h, x->dtype);
  return 0;
}

static int emit_gru(EmitCtx *e) {
  Var *x = tu_in(e, "Input", 0), *w = tu_in(e, "Weight", 0), *out = tu_out(e, "Hidden", 0);
  if (!x || !w || !out) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  Var *b = ctx_in(&c, "Bias", 0), *h0 = ctx_in(&c, "H0", 0);
  const Var *same[] = {w, b, h0, out};
  static const char *const batch[] = {"BatchGate", "BatchResetHiddenPrev", "BatchHidden"};
  LodRnnAct acts[] = {{"activation", "tanh", NULL}, {"gate_activation", "sigmoid", NULL}};
  int in = lodrnn_check(e, x, same, 4, batch, 3, acts, 2);
  if (in < 0) return -1;
  const char *act = acts[0].value, *gate = acts[1].value;
  (void)attr_bool(e->op, "is_test", 0); /* whether Paddle keeps the Batch* intermediates: Hidden is the same */
  int64_t d = em_const_dim(e, w, 0);
  if (d < 1 || em_const_dim(e, x, 1) != 3 * d || em_const_dim(e, w, 1) != 3 * d)
    return em_fail(e, "Input ('%s') and Weight ('%s') must be [T, 3D] and [D, 3D] with D fixed", x->name, w->name);
  const int64_t sz = x->dtype == RT_DT_FP64 ? 8 : 4;
  LodRnnCall call = {.kind = LODRNN_GRU, .f64 = x->dtype == RT_DT_FP64, .input = in,
                     .feed = op_lod_name(e->g, in), .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 0),
                     .rows = em_dim(e, x, 0), .d = d, .weight = em_ptr(e, w, 1), .bias = b ? em_ptr(e, b, 1) : NULL,
                     .h0 = h0 ? em_ptr(e, h0, 1) : NULL, .h0_rows = h0 ? em_dim(e, h0, 0) : NULL, .act = act,
                     .gate_act = gate, .reverse = attr_bool(e->op, "is_reverse", 0),
                     .origin = attr_bool(e->op, "origin_mode", 0)};
  call.ws = em_scratch_named(e, call.f64 ? "double" : "float", "gru_ws", (SymDim){0, 6 * d * sz});
  if (h0) em_fault(e, "H0 has fewer rows than Input has sequences (its LoD)");
  lodrnn_print_c(e->p, &call);
  return 0;
}

const OpDef op_gru = {.type = "gru", .infer = infer_gru, .emit_c = emit_gru};

static int emit_gru_grad(EmitCtx *e) {
  Var *x = tu_in(e, "Input", 0), *w = tu_in(e, "Weight", 0), *hid = tu_in(e, "Hidden", 0);
  Var *dout = tu_in(e, "Hidden@GRAD", 0);
  if (!x || !w || !hid || !dout) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  Var *b = ctx_in(&c, "Bias", 0), *h0 = ctx_in(&c, "H0", 0);
  Var *dx = ctx_out(&c, "Input@GRAD", 0), *dh0 = ctx_out(&c, "H0@GRAD", 0);
  Var *dw = ctx_out(&c, "Weight@GRAD", 0), *db = ctx_out(&c, "Bias@GRAD", 0);
  const Var *same[] = {w, b, h0, hid, dout, dx, dh0, dw, db};
  LodRnnAct acts[] = {{"activation", "tanh", NULL}, {"gate_activation", "sigmoid", NULL}};
  int in = lodrnn_check(e, x, same, 9, NULL, 0, acts, 2);
  if (in < 0) return -1;
  static const char *const bools[] = {"is_reverse", "origin_mode", NULL};
  static const char *const strs[] = {"activation", "gate_activation", NULL};
  if (lodrnn_same_attrs(e, hid, bools, strs)) return -1;
  if (dh0 && !h0) return em_fail(e, "H0@GRAD ('%s') is bound without an H0", dh0->name);
  if (db && !b) return em_fail(e, "Bias@GRAD ('%s') is bound without a Bias", db->name);
  int64_t d = em_const_dim(e, w, 0);
  if (d < 1 || em_const_dim(e, x, 1) != 3 * d || em_const_dim(e, w, 1) != 3 * d)
    return em_fail(e, "Input ('%s') and Weight ('%s') must be [T, 3D] and [D, 3D] with D fixed", x->name, w->name);
  const Var *rowwise[] = {hid, dout};
  for (int i = 0; i < 2; i++)
    if (strcmp(em_dim(e, rowwise[i], 0), em_dim(e, x, 0)) || em_const_dim(e, rowwise[i], 1) != d)
      return em_fail(e, "'%s' must be [T, %lld] with Input's rows", rowwise[i]->name, (long long)d);
  const int64_t sz = x->dtype == RT_DT_FP64 ? 8 : 4;
  SymDim t = em_sym_prod(e, x, 0, 1);
  const int64_t per_row = (dx ? 4 : 7) * d * sz;
  LodRnnCall call = {.kind = LODRNN_GRU_GRAD, .f64 = x->dtype == RT_DT_FP64, .input = in,
                     .feed = op_lod_name(e->g, in), .x = em_ptr(e, x, 1), .out = em_ptr(e, hid, 1),
                     .rows = em_dim(e, x, 0), .d = d, .weight = em_ptr(e, w, 1), .bias = b ? em_ptr(e, b, 1) : NULL,
                     .h0 = h0 ? em_ptr(e, h0, 1) : NULL, .h0_rows = h0 ? em_dim(e, h0, 0) : NULL,
                     .act = acts[0].value, .gate_act = acts[1].value, .reverse = attr_bool(e->op, "is_reverse", 0),
                     .origin = attr_bool(e->op, "origin_mode", 0), .dout = em_ptr(e, dout, 1),
                     .dx = dx ? em_ptr(e, dx, 0) : NULL, .dh0 = dh0 ? em_ptr(e, dh0, 0) : NULL,
                     .dweight = dw ? em_ptr(e, dw, 0) : NULL, .dbias = db ? em_ptr(e, db, 0) : NULL};
  call.ws = em_scratch_named(e, call.f64 ? "double" : "float", "gru_ws",
                             (SymDim){t.a * per_row, t.c * per_row + 4 * d * sz});
  if (h0) em_fault(e, "H0 has fewer rows than Input has sequences (its LoD)");
  lodrnn_print_c(e->p, &call);
  return 0;
}

/* Paddle's time-major intermediates: paddlec's gru does not write them and
 * its gru_grad recomputes the gates instead (the same values). */
static const char *const gru_grad_ignores[] = {"BatchGate", "BatchResetHiddenPrev", "BatchHidden", NULL};

/* No output keeps a LoD (Paddle's Input@GRAD has none). */
const OpDef op_gru_grad = {.type = "gru_grad", .infer = grad_infer, .emit_c = emit_gru_grad,
                           .ignores = gru_grad_ignores, .lod_slot = ""};
/* gru_unit's activation ints (gru_unit_op.h's GRUActivationType). */
static const char *gru_unit_act(EmitCtx *e, const char *attr, int64_t dflt) {
  static const char *const names[] = {"identity", "sigmoid", "tanh", "relu"};
  int64_t a = attr_int(e->op, attr, dflt);
  if (a < 0 || a > 3) {
    em_fail(e, "%s %lld must be 0 (identity), 1 (sigmoid), 2 (tanh) or 3 (relu)", attr, (long long)a);
    return NULL;
  }
  return names[a];
}

static int emit_gru_unit(EmitCtx *e) {
  Var *x = tu_in(e, "Input", 0); /* first alone: one error for a step of an unsupported dtype */
  if (!x) return -1;
  Var *hp = tu_in(e, "HiddenPrev", 0), *w = tu_in(e, "Weight", 0);
  Var *gate = tu_out(e, "Gate", 0), *reset = tu_out(e, "ResetHiddenPrev", 0), *out = tu_out(e, "Hidden", 0);
  if (!hp || !w || !gate || !reset || !out) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  Var *b = ctx_in(&c, "Bias", 0);
  Var *const vs[] = {x, hp, w, b, gate, reset, out};
  int dt = tu_float_dtype(e, vs, 7);
  if (dt < 0) return -1;
  const char *act = gru_unit_act(e, "activation", 2), *gate_act = gru_unit_act(e, "gate_activation", 1);
  if (!act || !gate_act) return -1;
  int64_t d = em_const_dim(e, hp, 1);
  if (d < 1 || em_const_dim(e, x, 1) != 3 * d)
    return em_fail(e, "HiddenPrev ('%s') and Input ('%s') must be [N, D] and [N, 3D] with D fixed", hp->name,
                   x->name);
  if (strcmp(em_dim(e, x, 0), em_dim(e, hp, 0)))
    return em_fail(e, "Input ('%s') and HiddenPrev ('%s') must have the same rows", x->name, hp->name);
  SymDim rows = em_sym_prod(e, x, 0, 1);
  LodRnnCall call = {.kind = LODRNN_GRU_UNIT, .f64 = dt == RT_DT_FP64, .x = em_ptr(e, x, 1), .h0 = em_ptr(e, hp, 1),
                     .weight = em_ptr(e, w, 1), .bias = b ? em_ptr(e, b, 1) : NULL, .gate = em_ptr(e, gate, 0),
                     .reset = em_ptr(e, reset, 0), .out = em_ptr(e, out, 0), .rows = em_dim(e, x, 0), .d = d,
                     .act = act, .gate_act = gate_act, .origin = attr_bool(e->op, "origin_mode", 0)};
  if (!call.f64) call.ws = em_gemm_ws(e, rows, (SymDim){0, 2 * d}, (SymDim){0, d});
  lodrnn_print_c(e->p, &call);
  return 0;
}

const OpDef op_gru_unit = {.type = "gru_unit", .infer = infer_gru_unit, .emit_c = emit_gru_unit};

static int emit_gru_unit_grad(EmitCtx *e) {
  Var *x = tu_in(e, "Input", 0);
  if (!x) return -1;
  Var *hp = tu_in(e, "HiddenPrev", 0), *w = tu_in(e, "Weight", 0), *gate = tu_in(e, "Gate", 0);
  Var *reset = tu_in(e, "ResetHiddenPrev", 0), *dh = tu_in(e, "Hidden@GRAD", 0);
  if (!hp || !w || !gate || !reset || !dh) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  Var *b = ctx_in(&c, "Bias", 0);
  Var *dx = ctx_out(&c, "Input@GRAD", 0), *dhp = ctx_out(&c, "HiddenPrev@GRAD", 0);
  Var *dw = ctx_out(&c, "Weight@GRAD", 0), *db = ctx_out(&c, "Bias@GRAD", 0);
  Var *const vs[] = {x, hp, w, b, gate, reset, dh, dx, dhp, dw, db};
  int dt = tu_float_dtype(e, vs, 11);
  if (dt < 0) return -1;
  if (db && !b) return em_fail(e, "Bias@GRAD ('%s') is bound without a Bias", db->name);
  const char *act = gru_unit_act(e, "activation", 2), *gate_act = gru_unit_act(e, "gate_activation", 1);
  if (!act || !gate_act) return -1;
  int64_t d = em_const_dim(e, hp, 1);
  if (d < 1 || em_const_dim(e, x, 1) != 3 * d)
    return em_fail(e, "HiddenPrev ('%s') and Input ('%s') must be [N, D] and [N, 3D] with D fixed", hp->name,
                   x->name);
  const char *rows = em_dim(e, x, 0);
  const Var *const same_rows[] = {hp, gate, reset, dh};
  for (int i = 0; i < 4; i++)
    if (strcmp(rows, em_dim(e, same_rows[i], 0)))
      return em_fail(e, "Input ('%s') and '%s' must have the same rows", x->name, same_rows[i]->name);
  const int64_t sz = dt == RT_DT_FP64 ? 8 : 4;
  SymDim n = em_sym_prod(e, x, 0, 1);
  LodRnnCall call = {.kind = LODRNN_GRU_UNIT_GRAD, .f64 = dt == RT_DT_FP64, .h0 = em_ptr(e, hp, 1),
                     .weight = em_ptr(e, w, 1), .gate = em_ptr(e, gate, 1), .reset = em_ptr(e, reset, 1),
                     .dout = em_ptr(e, dh, 1), .dx = dx ? em_ptr(e, dx, 0) : NULL,
                     .dh0 = dhp ? em_ptr(e, dhp, 0) : NULL, .dweight = dw ? em_ptr(e, dw, 0) : NULL,
                     .dbias = db ? em_ptr(e, db, 0) : NULL, .rows = rows, .d = d, .act = act, .gate_act = gate_act,
                     .origin = attr_bool(e->op, "origin_mode", 0)};
  call.dgate = em_scratch_named(e, call.f64 ? "double" : "float", "dgate", (SymDim){n.a * 3 * d * sz, n.c * 3 * d * sz});
  call.dreset = em_scratch_named(e, call.f64 ? "double" : "float", "dreset", (SymDim){n.a * d * sz, n.c * d * sz});
  /* the four products: m up to N + D, n up to 2D, k up to N + 2D */
  if (!call.f64) call.ws = em_gemm_ws(e, (SymDim){n.a, n.c + d}, (SymDim){0, 2 * d}, (SymDim){n.a, n.c + 2 * d});
  lodrnn_print_c(e->p, &call);
  return 0;
}

const OpDef op_gru_unit_grad = {.type = "gru_unit_grad", .infer = grad_infer, .emit_c = emit_gru_unit_grad};
