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
 *   warpctc: Logits ([T, C] LoD, or [Tmax, N, C] with LogitsLength), Label,
 *     LogitsLength†, LabelLength† -> Loss [-1, 1] (dtype of Logits),
 *     WarpCTCGrad (left as declared: Paddle sets it only at run time).
 *     blank=0, norm_by_times=false.  blank must lie in [0, C). */
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
  int64_t width = ctx_in(c, "LogitsLength", 0) ? (x->shape.rank == 3 ? x->shape.d[2] : -1)
                                               : dims_prod(&x->shape, 1, x->shape.rank);
  if (ctx_in(c, "LogitsLength", 0) && x->shape.rank != 3)
    return ctx_fail(c, "padded Logits %s must have rank 3", shape_str(&x->shape));
  int64_t blank = attr_int(c->op, "blank", 0);
  if (blank < 0 || (width >= 0 && blank >= width))
    return ctx_fail(c, "blank %lld is not in [0, %lld)", (long long)blank, (long long)width);
  Shape loss = {2, {DIM_UNKNOWN, 1}};
  ctx_set(c, "Loss", 0, &loss, x->dtype);
  return 0;
}

const OpDef op_ctc_align = {.type = "ctc_align", .infer = infer_ctc_align, .emit_c = emit_ctc_align,
                             .lod_made = ctc_align_lod_made};
const OpDef op_warpctc = {.type = "warpctc", .infer = infer_warpctc};
