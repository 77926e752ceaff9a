/* CTC ops (fluid.layers.ctc_greedy_decoder, warpctc / paddle.nn.CTCLoss).
 *
 *   ctc_align: Input (LoD [T, 1], or padded [N, T] with InputLength),
 *     InputLength† [N, 1] -> Output (= Input dims and dtype: Paddle's
 *     compile-time placeholder, the real length is known at run time),
 *     OutputLength† [N, 1] (dtype of InputLength).  blank=0,
 *     merge_repeated=true, padding_value=0.
 *     Paddle's CTCAlignKernel (int32, int64): in each sequence, a token is
 *     kept unless it is the blank (compared as (size_t)(unsigned)token ==
 *     (size_t)blank) or, with merge_repeated, equal to the token before it
 *     (kept or not; the first is compared with -1).
 *     LoD form: Output [kept, 1] with the LoD of what each sequence kept;
 *     nothing kept at all gives Output [1, 1] = {-1} (the LoD stays all
 *     zeros).  While specializing Output's dim 0 is a run-time extent
 *     bounded by T (at least 1), and its LoD is the kernel's
 *     (OpDef.lod_made).
 *     Padded form: Output [N, T], row b the first InputLength[b] tokens'
 *     kept ones then padding_value; OutputLength [N, 1] their counts (both
 *     of Input's dtype, as the kernel reads and writes them).  A length
 *     outside [0, T] (Paddle reads past the row) stops the run.
 *   warpctc (phi WarpctcKernel, float32 and float64, which calls the
 *     warp-ctc library on the CPU with one thread): Logits, Label (int32:
 *     the kernel reads it so), LogitsLength†, LabelLength† (int64) ->
 *     Loss [N, 1] (Logits' dtype), WarpCTCGrad.  blank=0 (in [0, C)),
 *     norm_by_times=false (the grad's business: the forward ignores it).
 *     Padded form (both lengths): Logits [Tmax, N, C], Label [N, Lmax],
 *     sequence b the first LogitsLength[b] steps and LabelLength[b] labels.
 *     LoD form (neither): Logits [T, C...] and Label [L, 1] over their own
 *     level-1 LoDs (as many sequences).  Per sequence warp-ctc takes the
 *     softmax of each step over the classes (clamped below at the type's
 *     smallest normal), runs the CTC forward-backward in log space over
 *     the label with blanks around and between (2L+1 states), and gives
 *     Loss = -log p(label | logits) and WarpCTCGrad = the gradient of Loss
 *     with respect to the logits (softmax minus the states' posterior;
 *     0 past the sequence).  A label that no alignment fits (L + its
 *     repeated neighbours > T) gives Loss 0 and a zero gradient.
 *     Paddle's WarpCTCGrad is [Tmax, N, C] in both forms (the LoD form's
 *     padded to the longest sequence); its VarDesc says nothing.
 *   warpctc_grad: Logits, LogitsLength†, WarpCTCGrad, Loss@GRAD ->
 *     Logits@GRAD (Logits' shape): WarpCTCGrad of sequence b times
 *     Loss@GRAD[b], with norm_by_times also over b's length (padded:
 *     times 1/len in the type; LoD: times 1.0f/len in float first, as
 *     phi's CopyValidData scales).
 * paddlec computes the same, one sequence at a time, in the element type
 * with warp-ctc's order of operations.  The padded form's WarpCTCGrad is
 * Paddle's [Tmax, N, C].  In the LoD form it is kept in Logits' own rows
 * ([T, C]: Tmax and N are both known only at run time, and one buffer in
 * paddlec grows with the batch alone), which warpctc_grad alone may read;
 * another reader or a fetch is refused.  The forward-backward's table
 * (2L+1 states by T steps, per sequence) must have a bound: Label's rows
 * (LoD) or dim 1 (padded) fixed, or Logits' steps; else refused.
 * Stopping the run: a sequence of no steps (warp-ctc reads a step it
 * lacks), a length outside [0, the padded dim], a label outside [0, C),
 * LoDs of different counts, a Loss@GRAD of another count than the
 * sequences.  One of LogitsLength / LabelLength without the other (the
 * kernel takes the LoD branch and then copies Logits as padded) is
 * refused. */
#include <string.h>

#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_ctc_align(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0);
  if (!x) return -1;
  Var *len = ctx_in(c, "InputLength", 0);
  Shape out = x->shape;
  if (c->g->specializing && !len && x->shape.rank == 2 && x->shape.d[0] >= 0) {
    out.d[0] = x->shape.d[0] > 1 ? x->shape.d[0] : 1;
    ctx_set(c, "Output", 0, &out, x->dtype);
    ctx_set_runtime_extent(c, "Output", 0, 0, pool_printf("the tokens ctc_align keeps of Input ('%s')", x->name));
  } else {
    ctx_set(c, "Output", 0, &out, x->dtype);
  }
  if (len && x->shape.rank >= 1) {
    Shape ol = {2, {x->shape.d[0], 1}};
    ctx_set(c, "OutputLength", 0, &ol, len->dtype);
  }
  return 0;
}

/* The test that keeps token t (a C expression) given the one before it,
 * `prev` (declared with merge_repeated only), as Paddle's kernel makes it. */
static const char *keeps(const Op *op, const char *t) {
  const uint64_t blank = (uint64_t)(int64_t)attr_int(op, "blank", 0);
  const char *merge = attr_bool(op, "merge_repeated", 1) ? pool_printf(" && %s != prev", t) : "";
  return pool_printf("(uint64_t)(uint32_t)%s != UINT64_C(%llu)%s", t, (unsigned long long)blank, merge);
}

static int emit_ctc_align(EmitCtx *e) {
  Var *x = tu_in(e, "Input", 0), *out = tu_out(e, "Output", 0);
  if (!x || !out) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  Var *len = ctx_in(&c, "InputLength", 0);
  if (x->dtype != RT_DT_INT32 && x->dtype != RT_DT_INT64)
    return em_fail(e, "ctc_align of %s is not supported (int32, int64: Paddle's CPU kernels)", rt_dtype_name(x->dtype));
  const char *t = em_ctype(x->dtype);
  const int merge = attr_bool(e->op, "merge_repeated", 1);
  Printer *p = e->p;
  if (len) {
    Var *olen = ctx_out(&c, "OutputLength", 0);
    if (len->dtype != x->dtype)
      return em_fail(e, "InputLength ('%s') must have Input's dtype %s (the kernel reads it as such)", len->name,
                     rt_dtype_name(x->dtype));
    if (x->shape.rank != 2) return em_fail(e, "padded Input %s must have rank 2", shape_str(&x->shape));
    if (!olen)
      return em_fail(e, "InputLength ('%s') makes the padded form, which needs OutputLength (Paddle's kernel writes it)",
                     len->name);
    em_fault(e, "an InputLength is outside [0, T]");
    pr_line(p, "/* each row's first InputLength tokens, repeats merged and blanks dropped, then padding_value */");
    pr_line(p, "const %s *x = %s, *len = %s;", t, em_ptr(e, x, 1), em_ptr(e, len, 1));
    pr_line(p, "%s *out = %s, *out_len = %s;", t, em_ptr(e, out, 0), em_ptr(e, olen, 0));
    pr_line(p, "const int64_t N = %s, T = %s;", em_dim(e, x, 0), em_dim(e, x, 1));
    pr_line(p, "for (int64_t b = 0; b < N; b++) {");
    pr_line(p, "if (len[b] < 0 || len[b] > T) return 1;");
    if (merge) pr_line(p, "%s prev = -1;", t);
    pr_line(p, "int64_t kept = 0;");
    pr_line(p, "for (int64_t i = 0; i < len[b]; i++) {");
    pr_line(p, "const %s tok = x[b * T + i];", t);
    pr_line(p, "if (%s) out[b * T + kept++] = tok;", keeps(e->op, "tok"));
    if (merge) pr_line(p, "prev = tok;");
    pr_line(p, "}");
    pr_line(p, "out_len[b] = (%s)kept;", t);
    pr_line(p, "for (int64_t i = kept; i < T; i++) out[b * T + i] = (%s)%lld;", t,
            (long long)attr_int(e->op, "padding_value", 0));
    pr_line(p, "}");
    return 0;
  }
  if (var_runtime_axis(out) != 0) return em_fail(e, "Output ('%s') must have rows known at run time", out->name);
  const char *why;
  const int in = op_lod_input(e->g, e->spec, x, &why), k = op_lod_input(e->g, e->spec, out, NULL);
  if (in < 0) return em_fail(e, "Input ('%s') must carry a level-1 LoD (a feed's or one an op makes): %s", x->name, why);
  em_reads_lod(e, in);
  SymDim rows = em_spec(e, x)->d[0];
  const char *store = em_makes_lod(e, k, (SymDim){rows.a, rows.c + 1});
  (void)attr_int(e->op, "padding_value", 0); /* looked at: the LoD form has no padding (Paddle ignores it) */
  pr_line(p, "/* the tokens of each sequence of the LoD of '%s', repeats merged and blanks dropped; Output's LoD is what "
          "each kept */", op_lod_name(e->g, in));
  pr_line(p, "const %s *x = %s;", t, em_ptr(e, x, 1));
  pr_line(p, "%s *out = %s;", t, em_ptr(e, out, 0));
  pr_line(p, "const int64_t *lod = m->lod[%d], N = m->lod_count[%d] - 1;", in, in);
  pr_line(p, "int64_t *out_lod = %s, kept = 0;", store);
  pr_line(p, "out_lod[0] = 0;");
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  if (merge) pr_line(p, "%s prev = -1;", t);
  pr_line(p, "for (int64_t r = lod[i]; r < lod[i + 1]; r++) {");
  pr_line(p, "if (%s) out[kept++] = x[r];", keeps(e->op, "x[r]"));
  if (merge) pr_line(p, "prev = x[r];");
  pr_line(p, "}");
  pr_line(p, "out_lod[i + 1] = kept;");
  pr_line(p, "}");
  pr_line(p, "m->lod_count[%d] = N + 1;", k);
  pr_line(p, "if (kept == 0) out[kept++] = -1; /* Paddle's [1, 1] of -1 when nothing is kept */");
  pr_line(p, "%s = kept;", em_dim(e, out, 0));
  return 0;
}

/* The LoD form's Output LoD is the kernel's. */
static int ctc_align_lod_made(const Graph *g, const Op *op, int var) {
  (void)g;
  return slot_first(op->in, op->nin, "InputLength") < 0 && slot_first(op->out, op->nout, "Output") == var;
}

static int infer_warpctc(OpCtx *c) {
  Var *x = ctx_need(c, "Logits", 0);
  if (!x || !ctx_need(c, "Label", 0)) return -1;
  if (x->shape.rank < 2) return ctx_fail(c, "Logits %s must have rank >= 2", shape_str(&x->shape));
  const int padded = ctx_in(c, "LogitsLength", 0) && ctx_in(c, "LabelLength", 0);
  int64_t width = ctx_in(c, "LogitsLength", 0) ? (x->shape.rank == 3 ? x->shape.d[2] : -1)
                                               : dims_prod(&x->shape, 1, x->shape.rank);
  if (ctx_in(c, "LogitsLength", 0) && x->shape.rank != 3)
    return ctx_fail(c, "with LogitsLength, Logits %s must have rank 3 (the padded form)", shape_str(&x->shape));
  int64_t blank = attr_int(c->op, "blank", 0);
  if (blank < 0 || (width >= 0 && blank >= width))
    return ctx_fail(c, "blank %lld is not in [0, %lld)", (long long)blank, (long long)width);
  Shape loss = {2, {DIM_UNKNOWN, 1}};
  if (!c->g->specializing) {
    ctx_set(c, "Loss", 0, &loss, x->dtype);
    return 0;
  }
  /* the kernel's: N sequences (padded: Logits' dim 1; LoD: at most its
   * rows, none empty), WarpCTCGrad as paddlec keeps it (the header) */
  loss.d[0] = x->shape.d[padded ? 1 : 0];
  ctx_set(c, "Loss", 0, &loss, x->dtype);
  ctx_set(c, "WarpCTCGrad", 0, &x->shape, x->dtype);
  if (!padded && x->shape.d[0] >= 0) ctx_set_lod_extent(c, "Loss", 0, "Logits");
  return 0;
}

/* The input whose level-1 LoD var v (slot `slot`) carries, recorded as
 * read; -1 after em_fail. */
static int warpctc_lod(EmitCtx *e, const char *slot, const Var *v) {
  const char *why;
  int k = op_lod_input(e->g, e->spec, v, &why);
  if (k < 0) return em_fail(e, "%s ('%s') must carry a level-1 LoD (a feed's or one an op makes): %s", slot, v->name, why);
  em_reads_lod(e, k);
  return k;
}

/* The C math functions of the element type ("expf" or "exp", ...). */
static const char *fn(int f64, const char *name) { return f64 ? name : pool_printf("%sf", name); }

/* The body of the loop over sequences b, after the emitter declared: T
 * (steps) and L (labels) of sequence b, xs (its step 0 of Logits), g (the
 * same in WarpCTCGrad), step (elements between steps), lab (its labels),
 * C, blank, and the scratch alpha (T * (2L+1)), beta (2L+1), acc (C):
 * warp-ctc's cost_and_grad_kernel. */
static void print_ctc_sequence(Printer *p, const char *t, int f64, const char *min_normal) {
  const char *lg = fn(f64, "log"), *ex = fn(f64, "exp");
  pr_line(p, "int64_t repeats = 0;");
  pr_line(p, "for (int64_t i = 0; i < L; i++) {");
  pr_line(p, "if (lab[i] < 0 || lab[i] >= C) return 1; /* warp-ctc reads past the classes */");
  pr_line(p, "if (i > 0 && lab[i] == lab[i - 1]) repeats++;");
  pr_line(p, "}");
  pr_line(p, "loss[b] = 0;");
  pr_line(p, "if (L + repeats > T) continue; /* no alignment fits: warp-ctc's loss 0, gradient 0 */");
  pr_line(p, "const int64_t S = 2 * L + 1; /* states: blank, label 0, blank, ..., label L-1, blank */");
  pr_line(p, "#define CTC_STATE(s) ((s) %% 2 ? (int64_t)lab[(s) / 2] : blank)");
  pr_line(p, "/* a = log(exp(a) + exp(v)) as warp-ctc's log_plus (-inf gives the other) */");
  pr_line(p, "#define CTC_LOG_PLUS(a, v) do { const %s v_ = (v); if ((a) == -INFINITY) (a) = v_; else if (v_ != -INFINITY) \\", t);
  pr_line(p, "  (a) = %s(%s(-%s(v_ - (a)))) + (v_ > (a) ? v_ : (a)); } while (0)", fn(f64, "log1p"), fn(f64, "exp"),
          fn(f64, "fabs"));
  pr_line(p, "/* the softmax of each step over the classes, into g */");
  pr_line(p, "for (int64_t t = 0; t < T; t++) {");
  pr_line(p, "const %s *row = xs + t * step;", t);
  pr_line(p, "%s *pr = g + t * step;", t);
  pr_line(p, "%s top = -INFINITY, denom = 0;", t);
  pr_line(p, "for (int64_t c = 0; c < C; c++) top = row[c] > top ? row[c] : top;");
  pr_line(p, "for (int64_t c = 0; c < C; c++) {");
  pr_line(p, "pr[c] = %s(row[c] - top);", ex);
  pr_line(p, "denom += pr[c];");
  pr_line(p, "}");
  pr_line(p, "for (int64_t c = 0; c < C; c++) {");
  pr_line(p, "pr[c] /= denom;");
  pr_line(p, "if (pr[c] < %s) pr[c] = %s;", min_normal, min_normal);
  pr_line(p, "}");
  pr_line(p, "}");
  pr_line(p, "/* alpha[t][s]: log of the prefixes' probability ending in state s at step t */");
  pr_line(p, "for (int64_t s = 0; s < S; s++) alpha[s] = -INFINITY;");
  pr_line(p, "if (L + repeats < T) alpha[0] = %s(g[blank]);", lg);
  pr_line(p, "if (S > 1) alpha[1] = %s(g[lab[0]]);", lg);
  pr_line(p, "for (int64_t t = 1; t < T; t++) {");
  pr_line(p, "const %s *prev = alpha + (t - 1) * S;", t);
  pr_line(p, "for (int64_t s = 0; s < S; s++) {");
  pr_line(p, "%s sum = prev[s];", t);
  pr_line(p, "if (CTC_STATE(s) != blank && s != 1 && CTC_STATE(s) != CTC_STATE(s - 2)) {");
  pr_line(p, "CTC_LOG_PLUS(sum, prev[s - 2]);");
  pr_line(p, "}");
  pr_line(p, "if (s != 0) {");
  pr_line(p, "CTC_LOG_PLUS(sum, prev[s - 1]);");
  pr_line(p, "}");
  pr_line(p, "alpha[t * S + s] = sum + %s(g[t * step + CTC_STATE(s)]);", lg);
  pr_line(p, "}");
  pr_line(p, "}");
  pr_line(p, "%s ll = -INFINITY; /* log p(label | logits) */", t);
  pr_line(p, "if (S > 1) {");
  pr_line(p, "CTC_LOG_PLUS(ll, alpha[(T - 1) * S + S - 2]);");
  pr_line(p, "}");
  pr_line(p, "CTC_LOG_PLUS(ll, alpha[(T - 1) * S + S - 1]);");
  pr_line(p, "loss[b] = -ll;");
  pr_line(p, "/* beta[s] (one step at a time, from the last): log of the suffixes' probability from state s; the */");
  pr_line(p, "/* gradient of each step from acc[c], the log of the sum of alpha * beta over the states of class c */");
  pr_line(p, "for (int64_t s = 0; s < S; s++) beta[s] = -INFINITY;");
  pr_line(p, "for (int64_t t = T - 1; t >= 0; t--) {");
  pr_line(p, "%s *pr = g + t * step;", t);
  pr_line(p, "const %s *at = alpha + t * S;", t);
  pr_line(p, "for (int64_t c = 0; c < C; c++) acc[c] = -INFINITY;");
  pr_line(p, "if (t == T - 1) {");
  pr_line(p, "for (int64_t s = S > 1 ? S - 2 : 0; s < (T > L + repeats ? S : S - 1); s++) {");
  pr_line(p, "beta[s] = %s(pr[CTC_STATE(s)]);", lg);
  pr_line(p, "const %s ab = at[s] + beta[s];", t);
  pr_line(p, "CTC_LOG_PLUS(acc[CTC_STATE(s)], ab);");
  pr_line(p, "}");
  pr_line(p, "} else {");
  pr_line(p, "for (int64_t s = 0; s < S - 1; s++) {");
  pr_line(p, "%s sum = beta[s];", t);
  pr_line(p, "if (CTC_STATE(s) != blank && s != S - 2 && CTC_STATE(s) != CTC_STATE(s + 2)) {");
  pr_line(p, "CTC_LOG_PLUS(sum, beta[s + 2]);");
  pr_line(p, "}");
  pr_line(p, "CTC_LOG_PLUS(sum, beta[s + 1]);");
  pr_line(p, "beta[s] = sum + %s(pr[CTC_STATE(s)]);", lg);
  pr_line(p, "const %s ab = at[s] + beta[s];", t);
  pr_line(p, "CTC_LOG_PLUS(acc[CTC_STATE(s)], ab);");
  pr_line(p, "}");
  pr_line(p, "beta[S - 1] += %s(pr[blank]);", lg);
  pr_line(p, "const %s ab = at[S - 1] + beta[S - 1];", t);
  pr_line(p, "CTC_LOG_PLUS(acc[blank], ab);");
  pr_line(p, "}");
  pr_line(p, "for (int64_t c = 0; c < C; c++)");
  pr_line(p, "  if (acc[c] != 0 && acc[c] != -INFINITY && pr[c] != 0) pr[c] -= %s(acc[c] - %s(pr[c]) - ll);", ex, lg);
  pr_line(p, "}");
  pr_line(p, "#undef CTC_STATE");
  pr_line(p, "#undef CTC_LOG_PLUS");
}

/* a * b for bounds: {-1, -1} when not affine (both grow with the batch). */
static SymDim sym_mul(SymDim a, SymDim b) {
  if (a.a && b.a) return (SymDim){-1, -1};
  return (SymDim){a.a * b.c + b.a * a.c, a.c * b.c};
}

static int emit_warpctc(EmitCtx *e) {
  Var *x = tu_in(e, "Logits", 0), *lab = tu_in(e, "Label", 0), *loss = tu_out(e, "Loss", 0);
  Var *grad = tu_out(e, "WarpCTCGrad", 0);
  if (!x || !lab || !loss || !grad) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  Var *xl = ctx_in(&c, "LogitsLength", 0), *ll = ctx_in(&c, "LabelLength", 0);
  if (!xl != !ll)
    return em_fail(e, "%s ('%s') is given without %s: the padded form takes both (Paddle's kernel then takes the LoD "
                   "branch and copies Logits as padded)", xl ? "LogitsLength" : "LabelLength", xl ? xl->name : ll->name,
                   xl ? "LabelLength" : "LogitsLength");
  if (x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64)
    return em_fail(e, "warpctc of %s is not supported (float32, float64: Paddle's CPU kernels)", rt_dtype_name(x->dtype));
  if (loss->dtype != x->dtype || grad->dtype != x->dtype)
    return em_fail(e, "Loss ('%s') and WarpCTCGrad ('%s') must have Logits' dtype %s", loss->name, grad->name,
                   rt_dtype_name(x->dtype));
  if (lab->dtype != RT_DT_INT32)
    return em_fail(e, "Label ('%s') is %s; Paddle's kernel reads int32", lab->name, rt_dtype_name(lab->dtype));
  if (xl && (xl->dtype != RT_DT_INT64 || ll->dtype != RT_DT_INT64))
    return em_fail(e, "LogitsLength ('%s') and LabelLength ('%s') must be int64 (the kernel reads int64)", xl->name,
                   ll->name);
  if (!em_same_shape(e, grad, x)) return em_fail(e, "WarpCTCGrad ('%s') must have Logits' shape", grad->name);
  const int f64 = x->dtype == RT_DT_FP64, rank = tu_rank(e, x);
  const char *t = em_ctype(x->dtype);
  const int64_t blank = attr_int(e->op, "blank", 0);
  (void)attr_bool(e->op, "norm_by_times", 0); /* looked at: only warpctc_grad applies it (the kernel's UNUSED) */
  Printer *p = e->p;
  SymDim steps, labels; /* bounds of a sequence's steps and labels */
  int kx = -1, kl = -1;
  int64_t C = 1; /* the classes: padded dim 2; LoD the rows' elements */
  for (int d = 1; d < rank && C > 0; d++)
    if (!xl || d == 2) C = em_const_dim(e, x, d) < 0 ? -1 : C * em_const_dim(e, x, d);
  if (xl) {
    if (rank != 3 || tu_rank(e, lab) != 2) return em_fail(e, "padded Logits must be [Tmax, N, C] and Label [N, Lmax]");
    const SymDim n = em_spec(e, x)->d[1];
    if (em_spec(e, lab)->d[0].a != n.a || em_spec(e, lab)->d[0].c != n.c ||
        strcmp(em_numel(e, xl), em_dim(e, x, 1)) || strcmp(em_numel(e, ll), em_dim(e, x, 1)))
      return em_fail(e, "Label's dim 0, LogitsLength's and LabelLength's elements must be Logits' dim 1 (N)");
    steps = em_spec(e, x)->d[0], labels = em_spec(e, lab)->d[1];
  } else {
    if (tu_rank(e, lab) != 2 || em_const_dim(e, lab, 1) != 1) return em_fail(e, "Label must be [L, 1] (a LoD tensor)");
    for (int u = 0; u < grad->nusers; u++)
      if (strcmp(e->g->ops[grad->users[u]].type, "warpctc_grad") != 0)
        return em_fail(e, "WarpCTCGrad ('%s') is read by %s: in the LoD form paddlec keeps it in Logits' rows, not "
                       "Paddle's [Tmax, N, C] (both known only at run time), for warpctc_grad alone", grad->name,
                       e->g->ops[grad->users[u]].type);
    if (grad->flags & VAR_FETCH)
      return em_fail(e, "WarpCTCGrad ('%s') is fetched: in the LoD form paddlec keeps it in Logits' rows, not Paddle's "
                     "[Tmax, N, C] (both known only at run time)", grad->name);
    if ((kx = warpctc_lod(e, "Logits", x)) < 0 || (kl = warpctc_lod(e, "Label", lab)) < 0) return -1;
    steps = em_spec(e, x)->d[0], labels = em_spec(e, lab)->d[0];
  }
  if (C < 1) return em_fail(e, "Logits' classes (its last dim%s) must be fixed", xl ? "" : "s");
  /* the forward-backward's table: at most T * (2L+1), L below T (else the
   * label does not fit and no table is made) */
  SymDim states = labels.a == 0 ? (SymDim){0, 2 * labels.c + 1} : (SymDim){2 * steps.a, 2 * steps.c + 1};
  if (steps.a == 0 && labels.a == 0 && steps.c < labels.c) states = (SymDim){0, 2 * steps.c + 1};
  SymDim table = sym_mul(steps, states);
  if (table.a < 0)
    return em_fail(e, "the CTC table (Logits' steps times 2 * Label's %s + 1) grows with the square of the batch: fix "
                   "Label's %s or Logits' %s (--shape)", xl ? "dim 1" : "rows", xl ? "dim 1" : "rows",
                   xl ? "dim 0" : "rows");
  const int size = f64 ? 8 : 4;
  const char *alpha = em_scratch_named(e, t, "alpha", (SymDim){table.a * size, table.c * size});
  const char *beta = em_scratch_named(e, t, "beta", (SymDim){states.a * size, states.c * size});
  const char *acc = em_scratch_named(e, t, "acc", (SymDim){0, C * size});
  const char *min_normal = f64 ? "2.2250738585072014e-308" : "1.17549435e-38f";
  if (xl) {
    pr_line(p, "/* warpctc over padded sequences (LogitsLength, LabelLength), blank %lld: Loss and WarpCTCGrad */",
            (long long)blank);
    pr_line(p, "const int64_t TMAX = %s, N = %s, LMAX = %s, C = %lld, blank = %lld;", em_dim(e, x, 0), em_dim(e, x, 1),
            em_dim(e, lab, 1), (long long)C, (long long)blank);
    pr_line(p, "const int64_t *tlen = %s, *llen = %s;", em_ptr(e, xl, 1), em_ptr(e, ll, 1));
  } else {
    pr_line(p, "/* warpctc over the LoDs of '%s' (Logits) and '%s' (Label), blank %lld: Loss, and WarpCTCGrad in "
            "Logits' rows */", op_lod_name(e->g, kx), op_lod_name(e->g, kl), (long long)blank);
    pr_line(p, "const int64_t *xlod = m->lod[%d], *llod = m->lod[%d];", kx, kl);
    pr_line(p, "const int64_t N = m->lod_count[%d] - 1, C = %lld, blank = %lld;", kx, (long long)C, (long long)blank);
    pr_line(p, "if (m->lod_count[%d] - 1 != N) return 1; /* Paddle: the sequences of Logits and Label differ */", kl);
  }
  pr_line(p, "const %s *x = %s;", t, em_ptr(e, x, 1));
  pr_line(p, "const int32_t *label = %s;", em_ptr(e, lab, 1));
  pr_line(p, "%s *loss = %s, *grad = %s;", t, em_ptr(e, loss, 0), em_ptr(e, grad, 0));
  pr_line(p, "%s *alpha = %s, *beta = %s, *acc = %s;", t, alpha, beta, acc);
  if (em_spec(e, loss)->runtime_dim == 1) pr_line(p, "%s = N;", em_dim(e, loss, 0));
  pr_line(p, "memset(grad, 0, sizeof(%s) * (size_t)%s);", t, em_numel(e, grad));
  pr_line(p, "for (int64_t b = 0; b < N; b++) {");
  if (xl) {
    pr_line(p, "const int64_t T = tlen[b], L = llen[b];");
    pr_line(p, "if (T < 1 || T > TMAX || L < 0 || L > LMAX) return 1;");
    pr_line(p, "const %s *xs = x + b * C;", t);
    pr_line(p, "%s *g = grad + b * C;", t);
    pr_line(p, "const int64_t step = N * C;");
    pr_line(p, "const int32_t *lab = label + b * LMAX;");
  } else {
    pr_line(p, "const int64_t T = xlod[b + 1] - xlod[b], L = llod[b + 1] - llod[b];");
    pr_line(p, "if (T < 1) return 1;");
    pr_line(p, "const %s *xs = x + xlod[b] * C;", t);
    pr_line(p, "%s *g = grad + xlod[b] * C;", t);
    pr_line(p, "const int64_t step = C;");
    pr_line(p, "const int32_t *lab = label + llod[b];");
  }
  print_ctc_sequence(p, t, f64, min_normal);
  pr_line(p, "}");
  em_fault(e, xl ? "a length outside [1, Logits' dim 0] ([0, Label's dim 1]), or a label outside [0, C)"
                 : "a sequence of no steps, a label outside [0, C), or LoDs of different counts");
  return 0;
}

/* warpctc_grad: Logits@GRAD = WarpCTCGrad scaled per sequence. */
static int emit_warpctc_grad(EmitCtx *e) {
  Var *x = tu_in(e, "Logits", 0), *wg = tu_in(e, "WarpCTCGrad", 0), *dl = tu_in(e, "Loss@GRAD", 0);
  Var *dx = tu_out(e, "Logits@GRAD", 0);
  if (!x || !wg || !dl || !dx) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  Var *xl = ctx_in(&c, "LogitsLength", 0);
  if (x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64)
    return em_fail(e, "warpctc_grad of %s is not supported (float32, float64: Paddle's CPU kernels)",
                   rt_dtype_name(x->dtype));
  if (wg->dtype != x->dtype || dl->dtype != x->dtype || dx->dtype != x->dtype)
    return em_fail(e, "WarpCTCGrad, Loss@GRAD and Logits@GRAD must have Logits' dtype %s", rt_dtype_name(x->dtype));
  if (!em_same_shape(e, wg, x) || !em_same_shape(e, dx, x))
    return em_fail(e, "WarpCTCGrad ('%s') and Logits@GRAD ('%s') must have Logits' shape (warpctc's)", wg->name,
                   dx->name);
  const int norm = attr_bool(e->op, "norm_by_times", 0);
  (void)attr_int(e->op, "blank", 0); /* looked at: the grad kernel's UNUSED */
  const char *t = em_ctype(x->dtype);
  const int rank = tu_rank(e, x);
  Printer *p = e->p;
  if (xl) {
    if (xl->dtype != RT_DT_INT64) return em_fail(e, "LogitsLength ('%s') must be int64", xl->name);
    if (rank != 3 || strcmp(em_numel(e, xl), em_dim(e, x, 1)))
      return em_fail(e, "padded Logits must be [Tmax, N, C] with N LogitsLength");
    pr_line(p, "/* warpctc_grad, padded: each sequence's WarpCTCGrad times its Loss@GRAD%s */",
            norm ? " over its LogitsLength" : "");
    pr_line(p, "const int64_t TMAX = %s, N = %s, C = %s;", em_dim(e, x, 0), em_dim(e, x, 1), em_dim(e, x, 2));
    if (strcmp(em_numel(e, dl), em_dim(e, x, 1)) != 0) /* else the same at compile time */
      pr_line(p, "if (%s != N) return 1; /* one Loss@GRAD per sequence */", em_numel(e, dl));
    pr_line(p, "const %s *wg = %s, *dl = %s;", t, em_ptr(e, wg, 1), em_ptr(e, dl, 1));
    if (norm) pr_line(p, "const int64_t *len = %s;", em_ptr(e, xl, 1));
    pr_line(p, "%s *dx = %s;", t, em_ptr(e, dx, 0));
    pr_line(p, "for (int64_t i = 0; i < TMAX; i++)");
    pr_line(p, "  for (int64_t b = 0; b < N; b++)");
    pr_line(p, "    for (int64_t c = 0; c < C; c++)");
    if (norm)
      pr_line(p, "      dx[(i * N + b) * C + c] = wg[(i * N + b) * C + c] * dl[b] * ((%s)1 / (%s)len[b]);", t, t);
    else
      pr_line(p, "      dx[(i * N + b) * C + c] = wg[(i * N + b) * C + c] * dl[b];");
    em_fault(e, "Loss@GRAD's elements are not the sequences' count");
    return 0;
  }
  const int k = warpctc_lod(e, "Logits", x);
  if (k < 0) return -1;
  pr_line(p, "/* warpctc_grad over the LoD of '%s': each sequence's WarpCTCGrad (in Logits' rows)%s times its "
          "Loss@GRAD */", op_lod_name(e->g, k), norm ? " over its length" : "");
  pr_line(p, "const int64_t *lod = m->lod[%d], N = m->lod_count[%d] - 1, W = %s;", k, k, em_prod(e, x, 1, rank));
  pr_line(p, "if (%s != N) return 1; /* one Loss@GRAD per sequence */", em_numel(e, dl));
  pr_line(p, "const %s *wg = %s, *dl = %s;", t, em_ptr(e, wg, 1), em_ptr(e, dl, 1));
  pr_line(p, "%s *dx = %s;", t, em_ptr(e, dx, 0));
  pr_line(p, "for (int64_t b = 0; b < N; b++) {");
  if (norm) pr_line(p, "const float scale = 1.0f / (float)(lod[b + 1] - lod[b]);");
  pr_line(p, "for (int64_t r = lod[b] * W; r < lod[b + 1] * W; r++) {");
  pr_line(p, "%s v = wg[r];", t);
  if (norm) pr_line(p, "v *= scale;");
  pr_line(p, "dx[r] = v * dl[b];");
  pr_line(p, "}");
  pr_line(p, "}");
  em_fault(e, "Loss@GRAD's elements are not the sequences' count");
  return 0;
}

const OpDef op_ctc_align = {.type = "ctc_align", .infer = infer_ctc_align, .emit_c = emit_ctc_align,
                             .lod_made = ctc_align_lod_made};
/* Loss has no LoD (its rows are the sequences). */
const OpDef op_warpctc = {.type = "warpctc", .infer = infer_warpctc, .emit_c = emit_warpctc, .lod_slot = ""};
const OpDef op_warpctc_grad = {.type = "warpctc_grad", .infer = grad_infer, .emit_c = emit_warpctc_grad,
                               .runtime_extents = 1};
