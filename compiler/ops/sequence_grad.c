/* Gradients of the 1.x sequence ops of sequence.c over a level-1 LoD (the
 * forward X's, or Y's for the expands, as op_lod_input finds it; a feed's
 * the run is given, or one an op makes).  The shape rule is the generic
 * grad rule (X@GRAD = X); these ops take run-time extents (Out@GRAD of a
 * sequence_pool has one row per sequence).
 *
 *   sequence_pool_grad: X (only its LoD read), MaxIndex (MAX), Out@GRAD
 *     -> X@GRAD; pooltype, is_test, pad_value (the kernel reads neither of
 *     the last two).  phi SequencePoolGradKernel on CPU (float32, float64;
 *     funcs/sequence_pooling.cc): per non-empty sequence i of h rows, SUM
 *     copies row i of Out@GRAD into each of its rows, AVERAGE divides it
 *     by h first, SQRT by sqrt(h) (in the type); LAST and FIRST write it
 *     into the last / first row and zero elsewhere; MAX (MaxIndex int32 as
 *     the forward wrote it, -1 skipped) scatters it into the rows MaxIndex
 *     names, zero elsewhere.  Out@GRAD must have one row per sequence: one
 *     that paddlec cannot tell has (a feed, say) is checked when the
 *     kernel runs (Paddle's kernel reads past a shorter one).  paddlec
 *     zeroes X@GRAD first for every pooltype: for SUM, AVERAGE and SQRT
 *     Paddle writes every row a LoD covers, which a feed's LoD (its last
 *     offset X's rows) covers all of.  MAX with is_test: the forward
 *     leaves MaxIndex unwritten, refused.
 *   sequence_softmax_grad: Out, Out@GRAD, X (its LoD) -> X@GRAD (float32,
 *     float64; sequence_softmax_op.h): per sequence, s = sum(dout * out)
 *     in row order, dx = (dout - s) * out.  use_cudnn and data_format
 *     (the CPU kernel is the same).
 *   sequence_expand_as_grad: X, Y (its LoD), Out@GRAD -> X@GRAD (float32,
 *     float64, int32, int64; sequence_expand_as_op.h): row i of X@GRAD is
 *     the sum of the rows of Out@GRAD in sequence i of Y's LoD (0 for an
 *     empty one).  X as its forward takes it: one row per sequence of Y's
 *     LoD (a sequence_pool over it); X@GRAD then has that run-time extent.
 *   sequence_expand_grad: the same for the X its forward takes (no LoD:
 *     each row a sequence of one; ref_level -1 or 0), Paddle's
 *     SequenceExpandGradFunctor then summing the same rows in the same
 *     order (ColwiseSum).
 *   sequence_conv_grad: X, Filter, PaddingData, Out@GRAD -> X@GRAD,
 *     Filter@GRAD, PaddingData@GRAD (sequence_conv_op.h, float32: the
 *     forward's float64 kernel fails in 2.6.2, refused as the forward
 *     refuses it), for what the forward takes: contextStride 1,
 *     paddingTrainable false (PaddingData unread; PaddingData@GRAD is
 *     written only with paddingTrainable: refused when bound).  X@GRAD:
 *     col [T, L*C] = Out@GRAD x Filter^T, then (ContextProjectGradFunctor's
 *     col2im) X@GRAD[t + start + j] += col[t, j*C..] for the rows of t's
 *     sequence, t and then j ascending, from zeros.  Filter@GRAD = col^T x
 *     Out@GRAD with col the forward's context rows of X (zeros outside
 *     each sequence), written over the col above sequence by sequence: as
 *     in Paddle's kernel, the rows of a sequence no longer than a positive
 *     contextStart (which ContextProjectFunctor skips) keep Out@GRAD x
 *     Filter^T. */
#include <string.h>

#include "../util.h"
#include "gemm_call.h"
#include "ops.h"
#include "tensor_util.h"

/* The LoD var v carries (op_lod_input), recorded as read; -1 after
 * em_fail naming slot. */
static int grad_lod(EmitCtx *e, const char *slot, const Var *v) {
  const char *why;
  int k = op_lod_input(e->g, e->spec, v, &why);
  if (k < 0)
    return em_fail(e, "%s ('%s') must carry a level-1 LoD (a feed's or one an op makes): %s", slot, v->name, why);
  em_reads_lod(e, k);
  return k;
}

/* 1 when v has one row per sequence of LoD k as paddlec can tell (its
 * run-time extent is that LoD's count, sequence.c's lod_root). */
static int rows_are_sequences(const Var *v, int k) {
  return var_runtime_axis(v) == 0 && v->runtime_root == -1 - k;
}

static int float_grad_types(EmitCtx *e, const Var *dout, const Var *dx) {
  if (dx->dtype != RT_DT_FP32 && dx->dtype != RT_DT_FP64)
    return em_fail(e, "X@GRAD ('%s') is %s; Paddle's CPU kernel takes float32 and float64", dx->name,
                   rt_dtype_name(dx->dtype));
  if (dout->dtype != dx->dtype)
    return em_fail(e, "Out@GRAD ('%s') is %s, X@GRAD %s", dout->name, rt_dtype_name(dout->dtype),
                   rt_dtype_name(dx->dtype));
  return 0;
}

/* Out@GRAD must have N rows (the LoD's sequences): when paddlec cannot
 * tell, a line that stops the run otherwise. */
static void check_sequence_rows(EmitCtx *e, const Var *dout, int k) {
  if (rows_are_sequences(dout, k)) return;
  em_fault(e, "Out@GRAD's rows are not the number of sequences of the LoD");
  pr_line(e->p, "if (%s != N) return 1;", em_dim(e, dout, 0));
}

static int emit_sequence_pool_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !dout || !dx || float_grad_types(e, dout, dx)) return -1;
  const char *pt = attr_str(e->op, "pooltype", "AVERAGE");
  static const char *const types[] = {"AVERAGE", "SUM", "SQRT", "MAX", "LAST", "FIRST"};
  int known = 0;
  for (int i = 0; i < 6; i++) known |= !strcmp(pt, types[i]);
  if (!known) return em_fail(e, "pooltype '%s' is none of AVERAGE, SUM, SQRT, MAX, LAST, FIRST", pt);
  const int max = !strcmp(pt, "MAX"), r = tu_rank(e, dx);
  if (r < (max ? 2 : 1))
    return em_fail(e, "X@GRAD ('%s') has rank %d; %s pooling needs %d", dx->name, r, pt, max ? 2 : 1);
  Var *mi = NULL;
  if (max) {
    if (attr_bool(e->op, "is_test", 0))
      return em_fail(e, "pooltype MAX with is_test: the forward kernel leaves MaxIndex unwritten");
    mi = tu_in(e, "MaxIndex", 0);
    if (!mi) return -1;
    if (mi->dtype != RT_DT_INT32)
      return em_fail(e, "MaxIndex ('%s') is %s; Paddle's kernel reads int32 row indices", mi->name,
                     rt_dtype_name(mi->dtype));
  }
  (void)attr_float(e->op, "pad_value", 0.0); /* the forward's: an empty sequence gets no gradient */
  const int k = grad_lod(e, "X", x);
  if (k < 0) return -1;
  const char *t = em_ctype(dx->dtype), *sqrt_fn = dx->dtype == RT_DT_FP64 ? "sqrt" : "sqrtf";
  Printer *p = e->p;
  pr_line(p, "/* sequence_pool_grad %s over the LoD of '%s' */", pt, op_lod_name(e->g, k));
  if (!max) pr_line(p, "const int64_t *lod = m->lod[%d];", k); /* MAX: MaxIndex names the rows */
  pr_line(p, "const int64_t N = m->lod_count[%d] - 1, W = %s;", k, em_prod(e, dx, 1, r));
  check_sequence_rows(e, dout, k);
  if (mi) check_sequence_rows(e, mi, k);
  pr_line(p, "const %s *g = %s;", t, em_ptr(e, dout, 1));
  pr_line(p, "%s *dx = %s;", t, em_ptr(e, dx, 0));
  pr_line(p, "memset(dx, 0, (size_t)(%s) * sizeof(%s));", em_numel(e, dx), t);
  if (max) {
    pr_line(p, "const int32_t *ix = %s;", em_ptr(e, mi, 1));
    pr_line(p, "for (int64_t i = 0; i < N * W; i++)");
    pr_line(p, "  if (ix[i] != -1) dx[(int64_t)ix[i] * W + i %% W] = g[i];");
    return 0;
  }
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  pr_line(p, "const int64_t h = lod[i + 1] - lod[i];");
  pr_line(p, "const %s *gi = g + i * W;", t);
  pr_line(p, "%s *d = dx + lod[i] * W;", t);
  pr_line(p, "if (h == 0) continue;");
  if (!strcmp(pt, "FIRST")) {
    pr_line(p, "memcpy(d, gi, (size_t)W * sizeof(%s));", t);
  } else if (!strcmp(pt, "LAST")) {
    pr_line(p, "memcpy(d + (h - 1) * W, gi, (size_t)W * sizeof(%s));", t);
  } else {
    const char *v = !strcmp(pt, "SUM") ? "gi[j]"
                    : !strcmp(pt, "AVERAGE") ? pool_printf("gi[j] / (%s)h", t)
                                             : pool_printf("gi[j] / %s((%s)h)", sqrt_fn, t);
    pr_line(p, "for (int64_t r = 0; r < h; r++)");
    pr_line(p, "  for (int64_t j = 0; j < W; j++) d[r * W + j] = %s;", v);
  }
  pr_line(p, "}");
  return 0;
}

static int emit_sequence_softmax_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_in(e, "Out", 0), *dout = tu_in(e, "Out@GRAD", 0);
  Var *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !out || !dout || !dx || float_grad_types(e, dout, dx)) return -1;
  if (out->dtype != dx->dtype)
    return em_fail(e, "Out ('%s') is %s, X@GRAD %s", out->name, rt_dtype_name(out->dtype), rt_dtype_name(dx->dtype));
  int r = tu_rank(e, x);
  if (r < 1 || r > 2 || (r == 2 && em_const_dim(e, x, 1) != 1))
    return em_fail(e, "X ('%s') must be [T] or [T, 1] (Paddle's kernel wants one element a time step)", x->name);
  (void)attr_bool(e->op, "use_cudnn", 0);              /* the CPU kernel either way */
  (void)attr_str(e->op, "data_format", "AnyLayout"); /* one element a step: no layout */
  const int k = grad_lod(e, "X", x);
  if (k < 0) return -1;
  const char *t = em_ctype(dx->dtype);
  Printer *p = e->p;
  pr_line(p, "/* sequence_softmax_grad over the LoD of '%s' */", op_lod_name(e->g, k));
  pr_line(p, "const int64_t *lod = m->lod[%d], N = m->lod_count[%d] - 1;", k, k);
  pr_line(p, "const %s *o = %s, *g = %s;", t, em_ptr(e, out, 1), em_ptr(e, dout, 1));
  pr_line(p, "%s *dx = %s;", t, em_ptr(e, dx, 0));
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  pr_line(p, "%s s = 0;", t);
  pr_line(p, "for (int64_t r = lod[i]; r < lod[i + 1]; r++) s += g[r] * o[r];");
  pr_line(p, "for (int64_t r = lod[i]; r < lod[i + 1]; r++) dx[r] = (g[r] - s) * o[r];");
  pr_line(p, "}");
  return 0;
}

/* X@GRAD of the expands: X's run-time extent (one row per sequence of Y's
 * LoD) passed on, so that a sequence_pool_grad after it knows its rows. */
static int infer_sequence_expand_grad(OpCtx *c) {
  if (grad_infer(c)) return -1;
  Var *x = ctx_in(c, "X", 0);
  if (x) ctx_pass_runtime_extent(c, x, "X@GRAD", 0);
  return 0;
}

static int emit_sequence_expand_as_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *y = tu_in(e, "Y", 0), *dout = tu_in(e, "Out@GRAD", 0);
  Var *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !y || !dout || !dx) return -1;
  if (dx->dtype != RT_DT_FP32 && dx->dtype != RT_DT_FP64 && dx->dtype != RT_DT_INT32 && dx->dtype != RT_DT_INT64)
    return em_fail(e, "X@GRAD ('%s') is %s; Paddle's CPU kernel takes float32, float64, int32 and int64", dx->name,
                   rt_dtype_name(dx->dtype));
  if (dout->dtype != dx->dtype)
    return em_fail(e, "Out@GRAD ('%s') is %s, X@GRAD %s", dout->name, rt_dtype_name(dout->dtype),
                   rt_dtype_name(dx->dtype));
  const int expand = !strcmp(e->op->type, "sequence_expand_grad");
  const int64_t level = attr_int(e->op, "ref_level", -1);
  if (expand && level != -1 && level != 0)
    return em_fail(e, "ref_level %lld: Y has one level of LoD (use -1 or 0)", (long long)level);
  const int k = grad_lod(e, "Y", y);
  if (k < 0) return -1;
  if (!rows_are_sequences(x, k) || !rows_are_sequences(dx, k))
    return em_fail(e, "X ('%s') must have one row per sequence of Y's LoD (that of '%s'), as a sequence_pool over it "
                      "gives; paddlec cannot tell that its rows are that many", x->name, op_lod_name(e->g, k));
  const VarSpec *gs = em_spec(e, dout), *ys = em_spec(e, y);
  if (gs->runtime_dim || !ys->known || gs->d[0].a != ys->d[0].a || gs->d[0].c != ys->d[0].c)
    return em_fail(e, "Out@GRAD ('%s') must have Y's rows", dout->name);
  const int r = tu_rank(e, dx);
  const char *t = em_ctype(dx->dtype);
  Printer *p = e->p;
  pr_line(p, "/* %s: row i the sum of the rows of Out@GRAD in sequence i of '%s''s LoD */", e->op->type,
          op_lod_name(e->g, k));
  pr_line(p, "const int64_t *lod = m->lod[%d], N = m->lod_count[%d] - 1, W = %s;", k, k, em_prod(e, dx, 1, r));
  pr_line(p, "const %s *g = %s;", t, em_ptr(e, dout, 1));
  pr_line(p, "%s *dx = %s;", t, em_ptr(e, dx, 0));
  pr_line(p, "%s = N;", em_dim(e, dx, 0));
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  pr_line(p, "for (int64_t j = 0; j < W; j++) {");
  pr_line(p, "%s s = 0;", t);
  pr_line(p, "for (int64_t row = lod[i]; row < lod[i + 1]; row++) s += g[row * W + j];");
  pr_line(p, "dx[i * W + j] = s;");
  pr_line(p, "}");
  pr_line(p, "}");
  return 0;
}

static int emit_sequence_conv_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "X", 0), *f = tu_in(e, "Filter", 0), *dout = tu_in(e, "Out@GRAD", 0);
  if (!x || !f || !dout) return -1;
  Var *dx = ctx_out(&c, "X@GRAD", 0) ? tu_out(e, "X@GRAD", 0) : NULL;
  Var *df = ctx_out(&c, "Filter@GRAD", 0) ? tu_out(e, "Filter@GRAD", 0) : NULL;
  if ((ctx_out(&c, "X@GRAD", 0) && !dx) || (ctx_out(&c, "Filter@GRAD", 0) && !df)) return -1;
  if (x->dtype != RT_DT_FP32)
    return em_fail(e, "X ('%s') is %s; paddlec takes float32 (Paddle 2.6.2's float64 sequence_conv fails, so there "
                      "is nothing to check it against)", x->name, rt_dtype_name(x->dtype));
  const Var *same[] = {f, dout, dx, df};
  for (int i = 0; i < 4; i++)
    if (same[i] && same[i]->dtype != x->dtype)
      return em_fail(e, "'%s' is %s, X %s", same[i]->name, rt_dtype_name(same[i]->dtype), rt_dtype_name(x->dtype));
  if (attr_bool(e->op, "paddingTrainable", 0))
    return em_fail(e, "paddingTrainable is true (the padding rows from PaddingData); paddlec pads with zeros only");
  if (ctx_out(&c, "PaddingData@GRAD", 0))
    return em_fail(e, "PaddingData@GRAD is bound; Paddle writes it only with paddingTrainable, which paddlec refuses");
  if (attr_int(e->op, "contextStride", 1) != 1) return em_fail(e, "contextStride must be 1");
  const int64_t len = attr_int(e->op, "contextLength", 0), start = attr_int(e->op, "contextStart", 0);
  if (len < 1 || len > 4096 || start < -4096 || start > 4096)
    return em_fail(e, "contextLength %lld / contextStart %lld out of range", (long long)len, (long long)start);
  if (tu_rank(e, x) != 2 || tu_rank(e, f) != 2 || tu_rank(e, dout) != 2)
    return em_fail(e, "X, Filter and Out@GRAD must have rank 2");
  const int64_t ch = em_const_dim(e, x, 1), m = em_const_dim(e, f, 1);
  if (ch < 0 || m < 0) return em_fail(e, "X's and Filter's widths must not depend on the batch");
  if (em_const_dim(e, f, 0) != len * ch)
    return em_fail(e, "Filter ('%s') must have contextLength * %lld rows", f->name, (long long)ch);
  const VarSpec *xs = em_spec(e, x), *gs = em_spec(e, dout);
  if (em_const_dim(e, dout, 1) != m || gs->runtime_dim || gs->d[0].a != xs->d[0].a || gs->d[0].c != xs->d[0].c)
    return em_fail(e, "Out@GRAD ('%s') must be [X's rows, %lld]", dout->name, (long long)m);
  const int k = grad_lod(e, "X", x);
  if (k < 0) return -1;
  (void)ctx_in(&c, "PaddingData", 0); /* read only with paddingTrainable (refused above) */
  if (!dx && !df) return 0;
  const SymDim rows = xs->d[0];
  const char *col = em_scratch_named(e, "float", "col", (SymDim){rows.a * len * ch * 4, rows.c * len * ch * 4});
  Printer *p = e->p;
  pr_line(p, "/* sequence_conv_grad over the LoD of '%s': contextStart %lld, contextLength %lld */",
          op_lod_name(e->g, k), (long long)start, (long long)len);
  pr_line(p, "const int64_t *lod = m->lod[%d], N = m->lod_count[%d] - 1;", k, k);
  pr_line(p, "const int64_t T = %s, C = %lld, M = %lld, LC = %lld * C;", em_dim(e, x, 0), (long long)ch,
          (long long)m, (long long)len);
  pr_line(p, "const float *g = %s;", em_ptr(e, dout, 1));
  pr_line(p, "/* col = Out@GRAD x Filter^T */");
  gemm_print_c(p, &(GemmCall){.trans_b = 1, .m = "T", .n = "LC", .k = "M", .alpha = "1.0f", .a = "g", .lda = "M",
                              .b = em_ptr(e, f, 1), .ldb = "M", .beta = "0.0f", .c = col, .ldc = "LC",
                              .ws = em_gemm_ws_as(e, "gemm_ws_dx", rows, (SymDim){0, len * ch}, (SymDim){0, m})});
  if (dx) {
    pr_line(p, "/* each row's context added back into the rows it came from */");
    pr_line(p, "float *dx = %s;", em_ptr(e, dx, 0));
    pr_line(p, "memset(dx, 0, (size_t)(T * C) * sizeof(float));");
    pr_line(p, "for (int64_t i = 0; i < N; i++) {");
    pr_line(p, "for (int64_t r = lod[i]; r < lod[i + 1]; r++) {");
    pr_line(p, "for (int64_t j = 0; j < %lld; j++) {", (long long)len);
    pr_line(p, "const int64_t to = r + j %s %lld;", start < 0 ? "-" : "+", (long long)(start < 0 ? -start : start));
    pr_line(p, "if (to < lod[i] || to >= lod[i + 1]) continue;");
    pr_line(p, "for (int64_t c = 0; c < C; c++) dx[to * C + c] += %s[r * LC + j * C + c];", col);
    pr_line(p, "}");
    pr_line(p, "}");
    pr_line(p, "}");
  }
  if (df) {
    pr_line(p, "/* Filter@GRAD = col^T x Out@GRAD, col the forward's context rows of X, but for the rows of a");
    pr_line(p, " * sequence no longer than contextStart, which keep Out@GRAD x Filter^T (as Paddle's kernel) */");
    pr_line(p, "const float *x = %s;", em_ptr(e, x, 1));
    pr_line(p, "for (int64_t i = 0; i < N; i++) {");
    pr_line(p, "if (lod[i] + %lld >= lod[i + 1]) continue;", (long long)(start > 0 ? start : 0));
    pr_line(p, "memset(%s + lod[i] * LC, 0, (size_t)((lod[i + 1] - lod[i]) * LC) * sizeof(float));", col);
    pr_line(p, "for (int64_t r = lod[i]; r < lod[i + 1]; r++) {");
    pr_line(p, "for (int64_t j = 0; j < %lld; j++) {", (long long)len);
    pr_line(p, "const int64_t from = r + j %s %lld;", start < 0 ? "-" : "+", (long long)(start < 0 ? -start : start));
    pr_line(p, "if (from >= lod[i] && from < lod[i + 1])");
    pr_line(p, "  memcpy(%s + r * LC + j * C, x + from * C, (size_t)C * sizeof(float));", col);
    pr_line(p, "}");
    pr_line(p, "}");
    pr_line(p, "}");
    gemm_print_c(p, &(GemmCall){.trans_a = 1, .m = "LC", .n = "M", .k = "T", .alpha = "1.0f", .a = col, .lda = "LC",
                                .b = "g", .ldb = "M", .beta = "0.0f", .c = em_ptr(e, df, 0), .ldc = "M",
                                .ws = em_gemm_ws_as(e, "gemm_ws_df", (SymDim){0, len * ch}, (SymDim){0, m}, rows)});
  }
  return 0;
}

/* X@GRAD carries X's LoD (Paddle's ShareLoD); the expands' X has none. */
const OpDef op_sequence_pool_grad = {.type = "sequence_pool_grad", .infer = grad_infer,
                                     .emit_c = emit_sequence_pool_grad, .runtime_extents = 1, .lod_slot = "X"};
const OpDef op_sequence_softmax_grad = {.type = "sequence_softmax_grad", .infer = grad_infer,
                                        .emit_c = emit_sequence_softmax_grad, .lod_slot = "X"};
const OpDef op_sequence_expand_as_grad = {.type = "sequence_expand_as_grad", .infer = infer_sequence_expand_grad,
                                          .emit_c = emit_sequence_expand_as_grad, .runtime_extents = 1,
                                          .lod_slot = ""};
const OpDef op_sequence_expand_grad = {.type = "sequence_expand_grad", .infer = infer_sequence_expand_grad,
                                       .emit_c = emit_sequence_expand_as_grad, .runtime_extents = 1,
                                       .lod_slot = ""};
const OpDef op_sequence_conv_grad = {.type = "sequence_conv_grad", .infer = grad_infer,
                                     .emit_c = emit_sequence_conv_grad, .lod_slot = "X"};
