/* sequence_pad and sequence_unpad (fluid.layers.sequence_pad / _unpad):
 * between a LoD tensor and a padded batch of its sequences.
 *
 *   sequence_pad: X [T, ...] (a level-1 LoD), PadValue (a scalar [1] or one
 *     time step X.dims[1:]) -> Out [-1, padded_length, ...], Length [-1]
 *     (int64; [-1, 1] in the first 1.x releases) at compile time.
 *     padded_length=-1 (1 at compile time).  Paddle's SequencePadOpKernel
 *     (float32, float64, int32, int64): row i of Out is sequence i, then
 *     PadValue up to padded_length; Length[i] its length.  A sequence
 *     longer than padded_length stops Paddle's run (here em_fault).
 *     While specializing Out's and Length's dim 0 is the number of
 *     sequences N, a run-time extent bounded by X's rows, rooted at the LoD
 *     (as sequence_pool's Out is: sequence_expand_as and friends can tell
 *     it).  padded_length -1 (the longest sequence) makes Out's dim 1
 *     depend on the data: refused.  A LoD (one an op made) with more
 *     sequences than X's rows stops the run (no room for them).
 *   sequence_unpad: X [N, L, ...], Length [N] (int64) -> Out [-1, ...]
 *     ([-1, 1] when X has rank 2).  SequenceUnpadOpKernel (float32,
 *     float64, int32, int64): Out is the first Length[i] steps of each row
 *     of X, its LoD the running sums of Length.  While specializing Out's
 *     dim 0 is sum(Length), a run-time extent bounded by N*L; its LoD is the
 *     kernel's (OpDef.lod_made).  A Length above L (Paddle raises) or below
 *     0 stops the run.
 * Both take inputs with run-time extents (OpDef.runtime_extents): a pad's
 * X after an unpad, an unpad's X and Length from a pad (their sequences).
 *
 *   sequence_pad_grad: X (its LoD), Out@GRAD [N, padded_length, ...] ->
 *     X@GRAD (SequencePadGradOpKernel: UnpaddingLoDTensorFunctor over X's
 *     LoD, same dtypes): the first h steps of row i of Out@GRAD into the
 *     rows of sequence i.  padded_length as the forward takes it (> 0);
 *     Out@GRAD must have N rows (checked when the kernel runs where
 *     paddlec cannot tell), and no sequence longer than padded_length.
 *   sequence_unpad_grad: X [N, L, ...] (its shape), Out@GRAD (its LoD, as
 *     the kernel reads it: the forward's Out's, or a LoD feed's) ->
 *     X@GRAD (SequenceUnpadGradOpKernel: PaddingLoDTensorFunctor, pad
 *     value 0): row i of X@GRAD is sequence i of Out@GRAD, then zeros up
 *     to L.  The LoD must have N sequences of at most L rows (checked when
 *     the kernel runs). */
#include <string.h>

#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

enum { DT_INT64 = 3 };

/* sequence_pad's Length was [N, 1] in the first releases (1.3-1.5 source)
 * and is [N] in the 1.6+ source; the exact release is not pinned down. */
#define PADDLE_SEQ_PAD_LENGTH_1D 1006000

/* ---- sequence_pad ---- */

static int infer_sequence_pad(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *pv = ctx_need(c, "PadValue", 0);
  if (!x || !pv) return -1;
  if (x->shape.rank < 2 || x->shape.rank + 1 > RT_MAX_RANK)
    return ctx_fail(c, "X %s must have rank >= 2", shape_str(&x->shape));
  Shape step = {x->shape.rank - 1, {0}};
  for (int i = 1; i < x->shape.rank; i++) step.d[i - 1] = x->shape.d[i];
  int scalar = (pv->shape.rank == 1 && pv->shape.d[0] == 1) || pv->shape.rank == 0;
  if (!scalar && !shape_equal(&pv->shape, &step))
    return ctx_fail(c, "PadValue %s is neither a scalar nor one time step %s",
                    shape_str(&pv->shape), shape_str(&step));
  int64_t plen = attr_int(c->op, "padded_length", -1);
  if (plen != -1 && plen < 1) return ctx_fail(c, "padded_length %lld must be -1 or positive", (long long)plen);
  if (c->g->specializing && plen == -1)
    return ctx_fail(c, "padded_length -1 pads to the longest sequence: Out's dim 1 depends on the LoD's values; "
                       "paddlec needs a padded_length > 0");
  Shape out = {x->shape.rank + 1, {DIM_UNKNOWN, plen == -1 ? 1 : plen}};
  for (int i = 0; i < step.rank; i++) out.d[i + 2] = step.d[i];
  Shape len = {1, {DIM_UNKNOWN}};
  if (c->g->version > 0 && c->g->version < PADDLE_SEQ_PAD_LENGTH_1D)
    len = (Shape){2, {DIM_UNKNOWN, 1}};
  if (c->g->specializing && x->shape.d[0] >= 0) { /* N sequences, at most X's rows */
    out.d[0] = len.d[0] = x->shape.d[0];
  }
  ctx_set(c, "Out", 0, &out, x->dtype);
  ctx_set(c, "Length", 0, &len, DT_INT64);
  if (x->shape.d[0] >= 0) { /* the number of sequences of X's LoD, while specializing */
    ctx_set_lod_extent(c, "Out", 0, "X");
    ctx_set_lod_extent(c, "Length", 0, "X");
  }
  return 0;
}

static int emit_sequence_pad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *pv = tu_in(e, "PadValue", 0), *out = tu_out(e, "Out", 0);
  Var *len = tu_out(e, "Length", 0);
  if (!x || !pv || !out || !len || tu_seq_types(e, x, out)) return -1;
  if (pv->dtype != x->dtype)
    return em_fail(e, "PadValue ('%s') is %s, X %s (the kernel reads it as X's type)", pv->name,
                   rt_dtype_name(pv->dtype), rt_dtype_name(x->dtype));
  if (len->dtype != RT_DT_INT64) return em_fail(e, "Length ('%s') must be int64 (the kernel writes int64)", len->name);
  const int64_t plen = attr_int(e->op, "padded_length", -1);
  if (plen < 1) return em_fail(e, "padded_length %lld: paddlec needs a padded_length > 0", (long long)plen);
  if (var_runtime_axis(out) != 0 || var_runtime_axis(len) != 0)
    return em_fail(e, "Out ('%s') and Length must have the number of sequences as a run-time extent", out->name);
  const char *why;
  const int in = op_lod_input(e->g, e->spec, x, &why);
  if (in < 0) return em_fail(e, "X ('%s') must carry a level-1 LoD (a feed's or one an op makes): %s", x->name, why);
  em_reads_lod(e, in);
  const int r = tu_rank(e, x);
  const char *w = em_prod(e, x, 1, r), *t = em_ctype(x->dtype), *pvn = em_numel(e, pv);
  em_fault(e, "a sequence is longer than padded_length, PadValue is neither one value nor one time step, or the "
              "LoD has more sequences than X's rows");
  Printer *p = e->p;
  pr_line(p, "/* each sequence of '%s''s LoD as a row of %lld steps, PadValue after it */", op_lod_name(e->g, in),
          (long long)plen);
  pr_line(p, "const int64_t *lod = m->lod[%d], N = m->lod_count[%d] - 1, W = %s, P = %lld, PV = %s;", in, in, w,
          (long long)plen, pvn);
  pr_line(p, "if (N > %s || (PV != 1 && PV != W)) return 1;", em_sym(em_spec(e, out)->d[0]));
  pr_line(p, "const %s *x = %s, *pad = %s;", t, em_ptr(e, x, 1), em_ptr(e, pv, 1));
  pr_line(p, "%s *out = %s;", t, em_ptr(e, out, 0));
  pr_line(p, "int64_t *len = %s;", em_ptr(e, len, 0));
  pr_line(p, "%s = N;", em_dim(e, out, 0));
  pr_line(p, "%s = N;", em_dim(e, len, 0));
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  pr_line(p, "  const int64_t h = lod[i + 1] - lod[i];");
  pr_line(p, "  if (h > P) return 1;");
  pr_line(p, "  %s *o = out + i * P * W;", t);
  pr_line(p, "  if (h > 0) memcpy(o, x + lod[i] * W, (size_t)(h * W) * sizeof(%s));", t);
  pr_line(p, "  for (int64_t j = h * W; j < P * W; j++) o[j] = pad[PV == 1 ? 0 : j %% W];");
  pr_line(p, "  len[i] = h;");
  pr_line(p, "}");
  return 0;
}

/* ---- sequence_unpad ---- */

static int infer_sequence_unpad(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *len = ctx_need(c, "Length", 0);
  if (!x || !len) return -1;
  if (x->shape.rank < 2) return ctx_fail(c, "X %s must have rank >= 2", shape_str(&x->shape));
  if (len->shape.rank != 1)
    return ctx_fail(c, "Length %s must have rank 1", shape_str(&len->shape));
  if (len->shape.d[0] != x->shape.d[0])
    return ctx_fail(c, "Length %s and X %s differ in dims[0]", shape_str(&len->shape),
                    shape_str(&x->shape));
  Shape out = {1, {DIM_UNKNOWN}};
  if (x->shape.rank == 2) out.d[out.rank++] = 1;
  for (int i = 2; i < x->shape.rank; i++) out.d[out.rank++] = x->shape.d[i];
  /* while specializing: sum(Length) rows, at most N * L */
  const int known = c->g->specializing && x->shape.d[0] >= 0 && x->shape.d[1] >= 0;
  if (known) out.d[0] = x->shape.d[0] * x->shape.d[1];
  ctx_set(c, "Out", 0, &out, x->dtype);
  if (known) ctx_set_runtime_extent(c, "Out", 0, 0, pool_printf("input Length's values ('%s')", len->name));
  return 0;
}

static int emit_sequence_unpad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *len = tu_in(e, "Length", 0), *out = tu_out(e, "Out", 0);
  if (!x || !len || !out || tu_seq_types(e, x, out)) return -1;
  if (len->dtype != RT_DT_INT64)
    return em_fail(e, "Length ('%s') is %s; Paddle's kernel reads int64", len->name, rt_dtype_name(len->dtype));
  if (var_runtime_axis(out) != 0) return em_fail(e, "Out ('%s') must have rows known at run time", out->name);
  const int r = tu_rank(e, x);
  const int k = op_lod_input(e->g, e->spec, out, NULL);
  SymDim n = em_spec(e, x)->d[0];
  const char *store = em_makes_lod(e, k, (SymDim){n.a, n.c + 1});
  em_fault(e, "a Length is outside [0, X's dim 1]");
  const char *t = em_ctype(x->dtype);
  Printer *p = e->p;
  pr_line(p, "/* the first Length[b] steps of each row b of X; Out's LoD their running sums */");
  pr_line(p, "const %s *x = %s;", t, em_ptr(e, x, 1));
  pr_line(p, "const int64_t *len = %s;", em_ptr(e, len, 1));
  pr_line(p, "%s *out = %s;", t, em_ptr(e, out, 0));
  pr_line(p, "const int64_t N = %s, L = %s, W = %s;", em_dim(e, x, 0), em_dim(e, x, 1), em_prod(e, x, 2, r));
  pr_line(p, "int64_t *out_lod = %s;", store);
  pr_line(p, "out_lod[0] = 0;");
  pr_line(p, "for (int64_t b = 0; b < N; b++) {");
  pr_line(p, "  if (len[b] < 0 || len[b] > L) return 1;");
  pr_line(p, "  if (len[b] > 0) memcpy(out + out_lod[b] * W, x + b * L * W, (size_t)(len[b] * W) * sizeof(%s));", t);
  pr_line(p, "  out_lod[b + 1] = out_lod[b] + len[b];");
  pr_line(p, "}");
  pr_line(p, "m->lod_count[%d] = N + 1;", k);
  pr_line(p, "%s = out_lod[N];", em_dim(e, out, 0));
  return 0;
}

static int unpad_lod_made(const Graph *g, const Op *op, int var) {
  (void)g;
  return slot_first(op->out, op->nout, "Out") == var;
}

/* ---- the grads ---- */

static int emit_sequence_pad_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !dout || !dx || tu_seq_types(e, dout, dx)) return -1;
  const int64_t plen = attr_int(e->op, "padded_length", -1);
  if (plen < 1) return em_fail(e, "padded_length %lld: paddlec needs a padded_length > 0", (long long)plen);
  const int r = tu_rank(e, dx);
  if (r < 2 || tu_rank(e, dout) != r + 1 || em_const_dim(e, dout, 1) != plen)
    return em_fail(e, "Out@GRAD ('%s') must be [N, %lld] + X@GRAD's dims[1:]", dout->name, (long long)plen);
  const char *why;
  const int k = op_lod_input(e->g, e->spec, x, &why);
  if (k < 0) return em_fail(e, "X ('%s') must carry a level-1 LoD (a feed's or one an op makes): %s", x->name, why);
  em_reads_lod(e, k);
  const char *t = em_ctype(dx->dtype);
  em_fault(e, "Out@GRAD's rows are not the LoD's sequences, or a sequence is longer than padded_length");
  Printer *p = e->p;
  pr_line(p, "/* the first steps of each row of Out@GRAD back into the rows of its sequence of '%s''s LoD */",
          op_lod_name(e->g, k));
  pr_line(p, "const int64_t *lod = m->lod[%d], N = m->lod_count[%d] - 1, W = %s, P = %lld;", k, k,
          em_prod(e, dx, 1, r), (long long)plen);
  pr_line(p, "if (%s != N) return 1;", em_dim(e, dout, 0));
  pr_line(p, "const %s *g = %s;", t, em_ptr(e, dout, 1));
  pr_line(p, "%s *dx = %s;", t, em_ptr(e, dx, 0));
  pr_line(p, "memset(dx, 0, (size_t)(%s) * sizeof(%s));", em_numel(e, dx), t);
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  pr_line(p, "const int64_t h = lod[i + 1] - lod[i];");
  pr_line(p, "if (h > P) return 1;");
  pr_line(p, "if (h > 0) memcpy(dx + lod[i] * W, g + i * P * W, (size_t)(h * W) * sizeof(%s));", t);
  pr_line(p, "}");
  return 0;
}

static int emit_sequence_unpad_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !dout || !dx || tu_seq_types(e, dout, dx)) return -1;
  const int r = tu_rank(e, dx);
  if (r < 2) return em_fail(e, "X@GRAD ('%s') has rank %d; Paddle wants 2 or more", dx->name, r);
  const char *why;
  const int k = op_lod_input(e->g, e->spec, dout, &why);
  if (k < 0)
    return em_fail(e, "Out@GRAD ('%s') must carry a level-1 LoD (Paddle's kernel reads its sequences): %s", dout->name,
                   why);
  em_reads_lod(e, k);
  const char *t = em_ctype(dx->dtype);
  em_fault(e, "Out@GRAD's LoD has not X's rows of sequences, or one longer than X's dim 1");
  Printer *p = e->p;
  pr_line(p, "/* sequence i of Out@GRAD (the LoD of '%s') as row i of X@GRAD, zeros after it */", op_lod_name(e->g, k));
  pr_line(p, "const int64_t *lod = m->lod[%d], N = %s, L = %s, W = %s;", k, em_dim(e, dx, 0), em_dim(e, dx, 1),
          em_prod(e, dx, 2, r));
  pr_line(p, "if (m->lod_count[%d] - 1 != N) return 1;", k);
  pr_line(p, "const %s *g = %s;", t, em_ptr(e, dout, 1));
  pr_line(p, "%s *dx = %s;", t, em_ptr(e, dx, 0));
  pr_line(p, "memset(dx, 0, (size_t)(%s) * sizeof(%s));", em_numel(e, dx), t);
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  pr_line(p, "const int64_t h = lod[i + 1] - lod[i];");
  pr_line(p, "if (h > L) return 1;");
  pr_line(p, "if (h > 0) memcpy(dx + i * L * W, g + lod[i] * W, (size_t)(h * W) * sizeof(%s));", t);
  pr_line(p, "}");
  return 0;
}

/* Out and Length get no LoD (lod_slot ""): Paddle's kernel sets none. */
const OpDef op_sequence_pad = {.type = "sequence_pad", .infer = infer_sequence_pad, .emit_c = emit_sequence_pad,
                               .runtime_extents = 1, .lod_slot = ""};
/* X may be a sequence_pad's Out (its sequences a run-time extent). */
const OpDef op_sequence_unpad = {.type = "sequence_unpad", .infer = infer_sequence_unpad,
                                 .emit_c = emit_sequence_unpad, .runtime_extents = 1, .lod_made = unpad_lod_made};
/* X@GRAD: X's LoD (pad; Paddle's ShareLoD), none (unpad: X has none). */
const OpDef op_sequence_pad_grad = {.type = "sequence_pad_grad", .infer = grad_infer,
                                    .emit_c = emit_sequence_pad_grad, .runtime_extents = 1, .lod_slot = "X"};
const OpDef op_sequence_unpad_grad = {.type = "sequence_unpad_grad", .infer = grad_infer,
                                      .emit_c = emit_sequence_unpad_grad, .runtime_extents = 1, .lod_slot = ""};
