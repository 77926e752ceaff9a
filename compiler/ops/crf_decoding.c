/* Linear-chain CRF ops (fluid.layers.linear_chain_crf / crf_decoding).
 * D is the number of tags; Transition is [D + 2, D] (start and end weights
 * first).
 *
 *   crf_decoding: Emission [T, D] (LoD) or [N, S, D] with Length, Transition,
 *     Label†, Length† -> ViterbiPath: [T, 1], or [N, S] with Length.  The
 *     kernel writes int64; Paddle sets no dtype and the 1.x Python API
 *     declared ViterbiPath with Emission's dtype (int64 since 2.0).
 *   linear_chain_crf: Emission, Transition, Label, Length† -> Alpha,
 *     EmissionExps (= Emission), TransitionExps (= Transition), LogLikelihood
 *     [Emission.dims[0], 1] (Paddle's compile-time placeholder: the real
 *     first dim is the number of sequences).
 *   linear_chain_crf_grad: EmissionExps, TransitionExps, ... ->
 *     Emission@GRAD = EmissionExps, Transition@GRAD = TransitionExps. */
#include "ops.h"

enum { DT_INT64 = 3 };

/* crf_decoding's ViterbiPath is declared int64 since Paddle 2.0. */
#define PADDLE_VITERBI_INT64 2000000

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
    return ctx_fail(c, "Emission %s must have rank %d", shape_str(&e->shape), padded ? 3 : 2);
  Shape path = {2, {e->shape.d[0], padded ? e->shape.d[1] : 1}};
  int legacy = c->g->version > 0 && c->g->version < PADDLE_VITERBI_INT64;
  ctx_set(c, "ViterbiPath", 0, &path, legacy ? e->dtype : DT_INT64);
  return 0;
}

static int infer_linear_chain_crf(OpCtx *c) {
  Var *e = ctx_need(c, "Emission", 0), *t = need_transition(c), *l = ctx_need(c, "Label", 0);
  if (!e || !t || !l) return -1;
  int padded = ctx_in(c, "Length", 0) != NULL;
  if (e->shape.rank != (padded ? 3 : 2))
    return ctx_fail(c, "Emission %s must have rank %d", shape_str(&e->shape), padded ? 3 : 2);
  if (padded ? !(l->shape.rank == 2 || (l->shape.rank == 3 && l->shape.d[2] == 1))
             : l->shape.rank != 2)
    return ctx_fail(c, "Label %s does not fit Emission %s", shape_str(&l->shape),
                    shape_str(&e->shape));
  Shape ll = {2, {e->shape.d[0], 1}};
  ctx_set(c, "Alpha", 0, &e->shape, e->dtype);
  ctx_set(c, "EmissionExps", 0, &e->shape, e->dtype);
  ctx_set(c, "TransitionExps", 0, &t->shape, t->dtype);
  ctx_set(c, "LogLikelihood", 0, &ll, e->dtype);
  return 0;
}

static int infer_linear_chain_crf_grad(OpCtx *c) {
  Var *ee = ctx_need(c, "EmissionExps", 0), *te = ctx_need(c, "TransitionExps", 0);
  if (!ee || !te) return -1;
  ctx_set(c, "Emission@GRAD", 0, &ee->shape, ee->dtype);
  ctx_set(c, "Transition@GRAD", 0, &te->shape, te->dtype);
  return 0;
}

const OpDef op_crf_decoding = {.type = "crf_decoding", .infer = infer_crf_decoding};
const OpDef op_linear_chain_crf = {.type = "linear_chain_crf", .infer = infer_linear_chain_crf};
const OpDef op_linear_chain_crf_grad = {.type = "linear_chain_crf_grad",
                                        .infer = infer_linear_chain_crf_grad};
