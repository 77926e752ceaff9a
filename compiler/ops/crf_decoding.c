/* crf_decoding (fluid.layers.crf_decoding): the Viterbi path of a linear
 * chain CRF.  D is the number of tags; Transition is [D + 2, D] (start and
 * end weights first).  (linear_chain_crf, its training op: linear_chain_crf.c.)
 *
 *   crf_decoding: Emission [T, D] (LoD) or [N, S, D] with Length, Transition,
 *     Label†, Length† -> ViterbiPath: [T, 1], or [N, S] with Length.  The
 *     kernel writes int64; Paddle sets no dtype and the 1.x Python API
 *     declared ViterbiPath with Emission's dtype (int64 since 2.0).
 *
 * C emission (lodrnn_call.h prints the loops) over an
 * Emission [T, D] of float32 or float64 (the CPU kernels') that carries the
 * LoD of a level-1 feed (op_lod_input), Transition of its type, Label†
 * int64 [T, 1] (a sequence, as Paddle requires: its feed takes a LoD,
 * whose offsets the kernel does not read); ViterbiPath keeps the LoD.  Or
 * the padded form: Emission [N, S, D] with a fixed S, Length int64 [N],
 * Label† [N, S] -> ViterbiPath [N, S]. */
#include <string.h>

#include "../util.h"
#include "lodrnn_call.h"
#include "ops.h"
#include "tensor_util.h"

enum { DT_INT64 = 3 };

/* Transition [D + 2, D] (checked when both dims are known). */
static Var *need_transition(OpCtx *c) {
  Var *t = ctx_need(c, "Transition", 0);
  if (!t) return NULL;
  if (t->shape.rank != 2) {
    ctx_fail(c, "Transition %s must have rank 2", shape_str(&t->shape));
    return NULL;
  }
  if (t->shape.d[0] > 0 && t->shape.d[1] > 0 && t->shape.d[0] != t->shape.d[1] + 2) {
    ctx_fail(c, "Transition %s must be [D + 2, D]", shape_str(&t->shape));
    return NULL;
  }
  return t;
}

static int infer_crf_decoding(OpCtx *c) {
  Var *e = ctx_need(c, "Emission", 0);
  if (!e || !need_transition(c)) return -1;
  int padded = ctx_in(c, "Length", 0) != NULL;
  if (e->shape.rank != (padded ? 3 : 2))
    return ctx_fail(c, "Emission %s must have rank %d (%s)", shape_str(&e->shape), padded ? 3 : 2,
                    padded ? "[N, S, D] with Length, the padded form" : "[T, D] over a LoD, without Length");
  Shape path = {2, {e->shape.d[0], padded ? e->shape.d[1] : 1}};
  ctx_set(c, "ViterbiPath", 0, &path, DT_INT64);
  return 0;
}

static int emit_crf_decoding(EmitCtx *e) {
  Var *x = tu_in(e, "Emission", 0), *t = tu_in(e, "Transition", 0), *out = tu_out(e, "ViterbiPath", 0);
  if (!x || !t || !out) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  Var *label = ctx_in(&c, "Label", 0);
  Var *len = ctx_in(&c, "Length", 0);
  if (len && len->dtype != RT_DT_INT64)
    return em_fail(e, "Length ('%s') is %s; Paddle's kernel reads int64", len->name, rt_dtype_name(len->dtype));
  if (lodrnn_crf_dtypes(e, x, t)) return -1;
  if (out->dtype != RT_DT_INT64) return em_fail(e, "ViterbiPath ('%s') must be int64", out->name);
  const int r = len ? 3 : 2;
  int64_t k = em_const_dim(e, x, r - 1);
  if (tu_rank(e, x) != r || k < 1 || em_const_dim(e, t, 0) != k + 2 || em_const_dim(e, t, 1) != k)
    return em_fail(e, "Emission ('%s') %s and Transition ('%s') [D + 2, D] must have a fixed D", x->name,
                   len ? "[N, S, D]" : "[T, D]", t->name);
  const SymDim nl = label ? spec_numel(em_spec(e, label)) : (SymDim){0, 0}, no = spec_numel(em_spec(e, out));
  if (label && (label->dtype != RT_DT_INT64 || nl.a != no.a || nl.c != no.c))
    return em_fail(e, "Label ('%s') must be int64 with one element per row of Emission", label->name);
  const char *why;
  int in = -1;
  if (len) {
    if (tu_rank(e, len) != 1 || strcmp(em_dim(e, len, 0), em_dim(e, x, 0)))
      return em_fail(e, "Length ('%s') must be [N], one length per sequence of Emission", len->name);
  } else {
    in = op_lod_input(e->g, e->spec, x, &why);
    if (in < 0)
      return em_fail(e, "Emission ('%s') must carry a level-1 LoD (a feed's or one an op makes): %s", x->name, why);
    em_reads_lod(e, in);
    if (label) { /* Paddle's kernel requires a sequence (one LoD level) but reads only its values */
      int li = op_lod_input(e->g, e->spec, label, &why);
      if (li < 0) return em_fail(e, "Label ('%s') must carry a level-1 LoD (a feed's or one an op makes): %s", label->name, why);
      em_reads_lod(e, li);
    }
  }
  SymDim rows = em_spec(e, x)->d[0];
  if (len) {
    int64_t s = em_const_dim(e, x, 1);
    if (s < 1) return em_fail(e, "Emission's padded length (dim 1) must be fixed");
    rows = (SymDim){rows.a * s, rows.c * s};
  }
  const int64_t sz = x->dtype == RT_DT_FP64 ? 8 : 4;
  LodRnnCall call = {.kind = LODRNN_CRF, .f64 = x->dtype == RT_DT_FP64, .input = in,
                     .feed = in >= 0 ? op_lod_name(e->g, in) : NULL, .x = em_ptr(e, x, 1),
                     .out = em_ptr(e, out, 0), .rows = em_dim(e, x, 0), .k = k, .trans = em_ptr(e, t, 1),
                     .label = label ? em_ptr(e, label, 1) : NULL, .length = len ? em_ptr(e, len, 1) : NULL,
                     .n = em_dim(e, x, 0), .s = len ? em_dim(e, x, 1) : NULL};
  call.alpha = em_scratch_named(e, call.f64 ? "double" : "float", "alpha", (SymDim){rows.a * k * sz, rows.c * k * sz});
  call.track = em_scratch_named(e, "int", "track", (SymDim){rows.a * k * 4, rows.c * k * 4});
  if (len) em_fault(e, "a Length value is negative or above Emission's padded length (dim 1)");
  lodrnn_print_c(e->p, &call);
  return 0;
}

/* ViterbiPath carries Emission's LoD (Label has its own). */
const OpDef op_crf_decoding = {.type = "crf_decoding", .infer = infer_crf_decoding, .emit_c = emit_crf_decoding,
                               .lod_slot = "Emission"};
