/* linear_chain_crf (fluid.layers.linear_chain_crf): the negative log
 * likelihood of each labelled sequence under a linear chain CRF, with the
 * forward vectors the grad op reads.  D is the number of tags; Transition
 * is [D + 2, D]: row 0 the start weights, row 1 the end weights, then the
 * D x D weights from tag to tag.
 *
 * Paddle (linear_chain_crf_op.{cc,h}, CPU kernels float and double):
 *   Emission [T, D], Transition, Label int64 [T, 1] over a LoD (the
 *   sequences are Label's: the kernel reads Label's level-1 LoD, Emission's
 *   is not looked at), or the padded form with Length int64 [N]: Emission
 *   [N, S, D], Label [N, S] or [N, S, 1], sequence i the first Length[i]
 *   rows of row block i ->
 *   EmissionExps = exp(x - the row's largest x), every row;
 *   TransitionExps = exp(Transition);
 *   Alpha: per sequence, a[0] = exp(w_start) * xe[0], then
 *     a[k][j] = xe[k][j] * sum_q a[k-1][q] * exp(w[q][j]), each row divided
 *     by its sum (NormalizeL1, which stops the run on a sum <= 0); the padded
 *     form zeroes Alpha first (rows past a length stay 0);
 *   LogLikelihood [N, 1] (compile time: [Emission.dims[0], 1]):
 *     -ll with ll = -sum_k (rowmax[k] + log(rowsum[k])) - log(sum_j a[last][j]
 *     * exp(w_end[j])) + the labelled path's score (start + end weights, its
 *     emissions and transitions); 0 for an empty sequence.  A label
 *     outside [0, D) stops the run (Paddle checks the largest label only:
 *     a negative one reads before the weights).
 *   No output carries a LoD.
 *   linear_chain_crf_grad: Emission, Transition, Label, Length†, Alpha,
 *     EmissionExps, TransitionExps, LogLikelihood@GRAD -> Emission@GRAD
 *     (EmissionExps' shape), Transition@GRAD† (TransitionExps'):
 *     Emission@GRAD zeroed (rows past a length stay 0), Transition@GRAD
 *     zeroed; per non-empty sequence i with g = LogLikelihood@GRAD[i]:
 *     beta[last] = w_end exps, beta[k][q] = sum_j we[q][j] * xe[k+1][j] *
 *     beta[k+1][j], each row NormalizeL1'd; Emission@GRAD[k] = (alpha[k] *
 *     beta[k]) / its row sum * g, minus g at the label; with
 *     Transition@GRAD: the start and end rows add Emission@GRAD's first and
 *     last rows, and for k >= 1, with tmp[k] = (beta[k] * xe[k]) / its row
 *     sum and z = 1 / sum_qj we[q][j] * alpha[k-1][q] * tmp[k][j], each
 *     [q][j] adds z * we[q][j] * alpha[k-1][q] * tmp[k][j] * g, and the
 *     labelled transition subtracts g.
 *
 * paddlec compiles the forward op exactly so, float32 and float64, in the
 * kernel's order of operations: over the LoD of the level-1 feed Label
 * carries (op_lod_input; LogLikelihood's dim 0 a run-time extent, the
 * number of its sequences), Emission with Label's rows; or the padded form
 * with a fixed S, where a Length outside [0, S] stops the run (Paddle
 * would read past the row block).  Label and Length must be int64 (the
 * kernel reads them so).  The grad op likewise, over the same LoD or padded
 * form, beta in scratch; a Label outside [0, D), a Length outside [0, S],
 * a backward vector that sums to 0 or less, or a LogLikelihood@GRAD of
 * fewer rows than sequences stop the run (the forward stops on the first
 * two before); Emission@GRAD carries Emission's LoD, none when Emission
 * has none (Paddle's InferShape: ShareLoD from Emission); an unbound Emission@GRAD is refused (Paddle's kernel always
 * writes it). */
#include "../util.h"
#include "lodrnn_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_linear_chain_crf(OpCtx *c) {
  Var *e = ctx_need(c, "Emission", 0), *t = ctx_need(c, "Transition", 0), *l = ctx_need(c, "Label", 0);
  if (!e || !t || !l) return -1;
  if (t->shape.rank != 2 || (t->shape.d[0] > 0 && t->shape.d[1] > 0 && t->shape.d[0] != t->shape.d[1] + 2))
    return ctx_fail(c, "Transition %s must be [D + 2, D]", shape_str(&t->shape));
  int padded = ctx_in(c, "Length", 0) != NULL;
  if (e->shape.rank != (padded ? 3 : 2))
    return ctx_fail(c, "Emission %s must have rank %d (%s)", shape_str(&e->shape), padded ? 3 : 2,
                    padded ? "[N, S, D] with Length, the padded form" : "[T, D] over a LoD, without Length");
  if (padded ? !(l->shape.rank == 2 || (l->shape.rank == 3 && l->shape.d[2] == 1))
             : l->shape.rank != 2)
    return ctx_fail(c, "Label %s does not fit Emission %s", shape_str(&l->shape),
                    shape_str(&e->shape));
  Shape ll = {2, {e->shape.d[0], 1}};
  ctx_set(c, "Alpha", 0, &e->shape, e->dtype);
  ctx_set(c, "EmissionExps", 0, &e->shape, e->dtype);
  ctx_set(c, "TransitionExps", 0, &t->shape, t->dtype);
  ctx_set(c, "LogLikelihood", 0, &ll, e->dtype);
  if (!padded) ctx_set_lod_extent(c, "LogLikelihood", 0, "Label"); /* one row per sequence of Label's LoD */
  return 0;
}

static int infer_linear_chain_crf_grad(OpCtx *c) {
  Var *ee = ctx_need(c, "EmissionExps", 0), *te = ctx_need(c, "TransitionExps", 0);
  if (!ee || !te) return -1;
  ctx_set(c, "Emission@GRAD", 0, &ee->shape, ee->dtype);
  ctx_set(c, "Transition@GRAD", 0, &te->shape, te->dtype);
  return 0;
}

static int same_dim(SymDim a, SymDim b) { return a.a == b.a && a.c == b.c; }

/* The sequences the kernel walks: N, D, T and Length (padded form, each
 * checked against S) or Label's LoD. */
static void print_frame(EmitCtx *e, const char *op, Var *x, Var *len, int in, int64_t d) {
  Printer *p = e->p;
  if (len) {
    pr_line(p, "/* %s over padded sequences (Length): %lld tags */", op, (long long)d);
    pr_line(p, "const int64_t N = %s, S = %s, D = %lld, T = N * S;", em_dim(e, x, 0), em_dim(e, x, 1), (long long)d);
    pr_line(p, "const int64_t *length = %s;", em_ptr(e, len, 1));
    pr_line(p, "for (int64_t i = 0; i < N; i++)");
    pr_line(p, "  if (length[i] < 0 || length[i] > S) return 1; /* Paddle would read past the row block */");
  } else {
    pr_line(p, "/* %s over the LoD of input %d ('%s', Label's): %lld tags */", op, in,
            op_lod_name(e->g, in), (long long)d);
    pr_line(p, "const int64_t *lod = m->lod[%d];", in);
    pr_line(p, "const int64_t N = m->lod_count[%d] - 1, D = %lld, T = %s;", in, (long long)d, em_dim(e, x, 0));
  }
}

/* What the forward and the grad both check and need: Label (and Length)
 * int64; Emission [T, D] over Label's LoD, or [N, S, D] padded with Length
 * [N]; Transition [D + 2, D], D fixed.  Fills *g: D, Emission's rows (T,
 * or N * S), Label's LoD (-1 padded). */
typedef struct CrfGeo {
  int64_t d;
  SymDim rows;
  int in;
} CrfGeo;

static int crf_geometry(EmitCtx *e, Var *x, Var *t, Var *l, Var *len, CrfGeo *g) {
  if (l->dtype != RT_DT_INT64)
    return em_fail(e, "Label ('%s') is %s; Paddle's kernel reads int64", l->name, rt_dtype_name(l->dtype));
  if (len && len->dtype != RT_DT_INT64)
    return em_fail(e, "Length ('%s') is %s; Paddle's kernel reads int64", len->name, rt_dtype_name(len->dtype));
  const int r = len ? 3 : 2;
  const int64_t d = em_const_dim(e, x, r - 1);
  if (tu_rank(e, x) != r || d < 1 || tu_rank(e, t) != 2 || em_const_dim(e, t, 0) != d + 2 ||
      em_const_dim(e, t, 1) != d)
    return em_fail(e, "Emission ('%s') %s and Transition ('%s') [D + 2, D] must have a fixed D", x->name,
                   len ? "[N, S, D]" : "[T, D]", t->name);
  const VarSpec *xs = em_spec(e, x);
  SymDim rows = xs->d[0];
  int in = -1;
  if (len) {
    const int64_t s = em_const_dim(e, x, 1);
    if (s < 1) return em_fail(e, "Emission's padded length (dim 1) must be fixed");
    rows = (SymDim){rows.a * s, rows.c * s};
    if (tu_rank(e, len) != 1 || !same_dim(em_spec(e, len)->d[0], xs->d[0]))
      return em_fail(e, "Length ('%s') must be [N], one length per row block of Emission", len->name);
    const VarSpec *ls = em_spec(e, l);
    if (!same_dim(ls->d[0], xs->d[0]) || !same_dim(spec_numel(ls), rows))
      return em_fail(e, "Label ('%s') must be [N, S] or [N, S, 1], one label per row of Emission", l->name);
  } else {
    const char *why;
    in = op_lod_input(e->g, e->spec, l, &why);
    if (in < 0)
      return em_fail(e, "Label ('%s') must carry a level-1 LoD (a feed's or one an op makes) (its sequences are the ones the "
                        "kernel reads): %s", l->name, why);
    em_reads_lod(e, in);
    if (tu_rank(e, l) != 2 || em_const_dim(e, l, 1) != 1 || !same_dim(em_spec(e, l)->d[0], rows))
      return em_fail(e, "Label ('%s') must be [T, 1] with Emission's rows", l->name);
  }
  *g = (CrfGeo){d, rows, in};
  return 0;
}

/* ll[i] for sequence i (rows start .. start + len - 1), as Paddle's
 * ForwardOneSequence; rmax holds each row's largest emission. */
static void print_sequence(Printer *p, const char *t, int f64, const char *rmax) {
  const char *lg = f64 ? "log" : "logf";
  pr_line(p, "if (len == 0) {");
  pr_line(p, "ll[i] = 0; /* Paddle's cost of an empty sequence */");
  pr_line(p, "continue;");
  pr_line(p, "}");
  pr_line(p, "const %s *xs = x + start * D, *es = xe + start * D, *mx = %s + start;", t, rmax);
  pr_line(p, "const int64_t *lb = label + start;");
  pr_line(p, "%s *a = alpha + start * D;", t);
  pr_line(p, "for (int64_t k = 0; k < len; k++)");
  pr_line(p, "  if (lb[k] < 0 || lb[k] >= D) return 1; /* a tag label outside [0, D) */");
  pr_line(p, "for (int64_t j = 0; j < D; j++) a[j] = we[j] * es[j];");
  pr_line(p, "%s v = 0;", t);
  pr_line(p, "for (int64_t k = 0; k < len; k++) {");
  pr_line(p, "%s *ak = a + k * D;", t);
  pr_line(p, "for (int64_t j = 0; k > 0 && j < D; j++) {");
  pr_line(p, "%s sum = 0;", t);
  pr_line(p, "for (int64_t q = 0; q < D; q++) sum += ak[q - D] * we[(q + 2) * D + j];");
  pr_line(p, "ak[j] = es[k * D + j] * sum;");
  pr_line(p, "}");
  pr_line(p, "/* NormalizeL1: the row divided by its sum, which must be > 0 */");
  pr_line(p, "%s s = 0;", t);
  pr_line(p, "for (int64_t j = 0; j < D; j++) s += ak[j];");
  pr_line(p, "if (!(s > 0)) return 1;");
  pr_line(p, "const %s inv = (%s)(1.0 / s);", t, t);
  pr_line(p, "for (int64_t j = 0; j < D; j++) ak[j] *= inv;");
  pr_line(p, "v = k == 0 ? -mx[0] - %s(s) : v - (mx[k] + %s(s));", lg, lg);
  pr_line(p, "}");
  pr_line(p, "%s s = 0;", t);
  pr_line(p, "for (int64_t j = 0; j < D; j++) s += a[(len - 1) * D + j] * we[D + j];");
  pr_line(p, "v -= %s(s); /* v = -log(Z) */", lg);
  pr_line(p, "v += w[lb[0]] + xs[lb[0]] + w[D + lb[len - 1]];");
  pr_line(p, "for (int64_t k = 1; k < len; k++) v += xs[k * D + lb[k]] + w[(lb[k - 1] + 2) * D + lb[k]];");
  pr_line(p, "ll[i] = -v;");
}

static int emit_linear_chain_crf(EmitCtx *e) {
  Var *x = tu_in(e, "Emission", 0), *t = tu_in(e, "Transition", 0), *l = tu_in(e, "Label", 0);
  Var *alpha = tu_out(e, "Alpha", 0), *xe = tu_out(e, "EmissionExps", 0), *te = tu_out(e, "TransitionExps", 0);
  Var *ll = tu_out(e, "LogLikelihood", 0);
  if (!x || !t || !l || !alpha || !xe || !te || !ll) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  Var *len = ctx_in(&c, "Length", 0);
  if (lodrnn_crf_dtypes(e, x, t)) return -1;
  Var *outs[4] = {alpha, xe, te, ll};
  for (int i = 0; i < 4; i++)
    if (outs[i]->dtype != x->dtype)
      return em_fail(e, "output '%s' is %s, Emission %s", outs[i]->name, rt_dtype_name(outs[i]->dtype),
                     rt_dtype_name(x->dtype));
  CrfGeo geo;
  if (crf_geometry(e, x, t, l, len, &geo)) return -1;
  const int64_t d = geo.d;
  SymDim rows = geo.rows;
  int in = geo.in;
  const int f64 = x->dtype == RT_DT_FP64;
  const char *ty = f64 ? "double" : "float", *ex = f64 ? "exp" : "expf";
  const int64_t sz = f64 ? 8 : 4;
  const char *rmax = em_scratch_named(e, ty, "rmax", (SymDim){rows.a * sz, rows.c * sz});
  Printer *p = e->p;
  print_frame(e, "linear_chain_crf", x, len, in, d);
  pr_line(p, "const %s *x = %s, *w = %s;", ty, em_ptr(e, x, 1), em_ptr(e, t, 1));
  pr_line(p, "const int64_t *label = %s;", em_ptr(e, l, 1));
  pr_line(p, "%s *alpha = %s, *xe = %s, *we = %s, *ll = %s;", ty, em_ptr(e, alpha, 0), em_ptr(e, xe, 0),
          em_ptr(e, te, 0), em_ptr(e, ll, 0));
  if (em_spec(e, ll)->runtime_dim == 1) pr_line(p, "%s = N;", em_dim(e, ll, 0));
  if (len) pr_line(p, "for (int64_t r = 0; r < T * D; r++) alpha[r] = 0;");
  pr_line(p, "/* EmissionExps: exp(x - the row's largest), every row; TransitionExps: exp(w) */");
  pr_line(p, "for (int64_t r = 0; r < T; r++) {");
  pr_line(p, "const %s *xr = x + r * D;", ty);
  pr_line(p, "%s mx = xr[0];", ty);
  pr_line(p, "for (int64_t j = 1; j < D; j++) if (xr[j] > mx) mx = xr[j];");
  pr_line(p, "%s[r] = mx;", rmax);
  pr_line(p, "for (int64_t j = 0; j < D; j++) xe[r * D + j] = %s(xr[j] - mx);", ex);
  pr_line(p, "}");
  pr_line(p, "for (int64_t k = 0; k < (D + 2) * D; k++) we[k] = %s(w[k]);", ex);
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  if (len)
    pr_line(p, "const int64_t start = i * S, len = length[i];");
  else
    pr_line(p, "const int64_t start = lod[i], len = lod[i + 1] - lod[i];");
  print_sequence(p, ty, f64, rmax);
  pr_line(p, "}");
  em_fault(e, len ? "a Length outside [0, S], a Label outside [0, D), or a forward vector that sums to 0 or less"
                  : "a Label outside [0, D), or a forward vector that sums to 0 or less");
  return 0;
}

/* Emission@GRAD and Transition@GRAD of sequence i (rows start ..
 * start + len - 1), as Paddle's BackwardOneSequence. */
static void print_backward(Printer *p, const char *t, int dw) {
  pr_line(p, "if (len == 0) continue;");
  pr_line(p, "const %s *es = xe + start * D, *a = alpha + start * D, g = dll[i];", t);
  pr_line(p, "const int64_t *lb = label + start;");
  pr_line(p, "%s *b = beta + start * D, *dxs = dx + start * D;", t);
  pr_line(p, "for (int64_t k = 0; k < len; k++)");
  pr_line(p, "  if (lb[k] < 0 || lb[k] >= D) return 1; /* a tag label outside [0, D) */");
  pr_line(p, "/* the backward vectors, each row NormalizeL1'd */");
  pr_line(p, "for (int64_t k = len - 1; k >= 0; k--) {");
  pr_line(p, "%s *bk = b + k * D;", t);
  pr_line(p, "for (int64_t q = 0; q < D; q++) {");
  pr_line(p, "if (k == len - 1) {");
  pr_line(p, "bk[q] = we[D + q];");
  pr_line(p, "continue;");
  pr_line(p, "}");
  pr_line(p, "%s sum = 0;", t);
  pr_line(p, "for (int64_t j = 0; j < D; j++) sum += we[(q + 2) * D + j] * es[(k + 1) * D + j] * bk[D + j];");
  pr_line(p, "bk[q] = sum;");
  pr_line(p, "}");
  pr_line(p, "%s s = 0;", t);
  pr_line(p, "for (int64_t j = 0; j < D; j++) s += bk[j];");
  pr_line(p, "if (!(s > 0)) return 1;");
  pr_line(p, "const %s inv = (%s)(1.0 / s);", t, t);
  pr_line(p, "for (int64_t j = 0; j < D; j++) bk[j] *= inv;");
  pr_line(p, "}");
  pr_line(p, "/* Emission@GRAD: alpha * beta over its row sum, times g; minus g at the label */");
  pr_line(p, "for (int64_t k = 0; k < len; k++) {");
  pr_line(p, "%s s = 0;", t);
  pr_line(p, "for (int64_t j = 0; j < D; j++) s += a[k * D + j] * b[k * D + j];");
  pr_line(p, "for (int64_t j = 0; j < D; j++) dxs[k * D + j] = a[k * D + j] * b[k * D + j] / s * g;");
  pr_line(p, "dxs[k * D + lb[k]] -= g;");
  pr_line(p, "}");
  if (!dw) return;
  pr_line(p, "/* Transition@GRAD: the start and end rows, then tag to tag */");
  pr_line(p, "for (int64_t j = 0; j < D; j++) {");
  pr_line(p, "dw[j] += dxs[j];");
  pr_line(p, "dw[D + j] += dxs[(len - 1) * D + j];");
  pr_line(p, "}");
  pr_line(p, "for (int64_t k = 1; k < len; k++) {");
  pr_line(p, "%s s = 0;", t);
  pr_line(p, "for (int64_t j = 0; j < D; j++) s += b[k * D + j] * es[k * D + j];");
  pr_line(p, "for (int64_t j = 0; j < D; j++) tmp[j] = b[k * D + j] * es[k * D + j] / s;");
  pr_line(p, "%s z = 0;", t);
  pr_line(p, "for (int64_t q = 0; q < D; q++)");
  pr_line(p, "  for (int64_t j = 0; j < D; j++) z += we[(q + 2) * D + j] * a[(k - 1) * D + q] * tmp[j];");
  pr_line(p, "z = (%s)(1.0 / z);", t);
  pr_line(p, "for (int64_t q = 0; q < D; q++)");
  pr_line(p, "  for (int64_t j = 0; j < D; j++)");
  pr_line(p, "    dw[(q + 2) * D + j] += z * we[(q + 2) * D + j] * a[(k - 1) * D + q] * tmp[j] * g;");
  pr_line(p, "dw[(lb[k - 1] + 2) * D + lb[k]] -= g;");
  pr_line(p, "}");
}

static int emit_linear_chain_crf_grad(EmitCtx *e) {
  Var *x = tu_in(e, "Emission", 0), *t = tu_in(e, "Transition", 0), *l = tu_in(e, "Label", 0);
  Var *alpha = tu_in(e, "Alpha", 0), *xe = tu_in(e, "EmissionExps", 0), *te = tu_in(e, "TransitionExps", 0);
  Var *dll = tu_in(e, "LogLikelihood@GRAD", 0);
  if (!x || !t || !l || !alpha || !xe || !te || !dll) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  Var *len = ctx_in(&c, "Length", 0), *dx = ctx_out(&c, "Emission@GRAD", 0), *dw = ctx_out(&c, "Transition@GRAD", 0);
  if (!dx) return em_fail(e, "Emission@GRAD is not bound; Paddle's kernel always writes it");
  if (lodrnn_crf_dtypes(e, x, t)) return -1;
  Var *same[6] = {alpha, xe, te, dll, dx, dw};
  for (int i = 0; i < 6; i++)
    if (same[i] && same[i]->dtype != x->dtype)
      return em_fail(e, "'%s' is %s, Emission %s", same[i]->name, rt_dtype_name(same[i]->dtype),
                     rt_dtype_name(x->dtype));
  CrfGeo geo;
  if (crf_geometry(e, x, t, l, len, &geo)) return -1;
  const int64_t d = geo.d;
  SymDim rows = geo.rows;
  int in = geo.in;
  const Var *rowwise[3] = {alpha, xe, dx};
  for (int i = 0; i < 3; i++)
    if (!em_same_shape(e, rowwise[i], x))
      return em_fail(e, "'%s' must have Emission's shape", rowwise[i]->name);
  if (dw && !em_same_shape(e, dw, t)) return em_fail(e, "Transition@GRAD ('%s') must have Transition's shape", dw->name);
  const int f64 = x->dtype == RT_DT_FP64;
  const char *ty = f64 ? "double" : "float";
  const int64_t sz = f64 ? 8 : 4;
  const char *beta = em_scratch_named(e, ty, "beta", (SymDim){rows.a * d * sz, rows.c * d * sz});
  Printer *p = e->p;
  print_frame(e, "linear_chain_crf_grad", x, len, in, d);
  pr_line(p, "if (%s < N) return 1; /* LogLikelihood@GRAD holds one row per sequence */", em_dim(e, dll, 0));
  pr_line(p, "const %s *alpha = %s, *xe = %s, *we = %s, *dll = %s;", ty, em_ptr(e, alpha, 1), em_ptr(e, xe, 1),
          em_ptr(e, te, 1), em_ptr(e, dll, 1));
  pr_line(p, "const int64_t *label = %s;", em_ptr(e, l, 1));
  pr_line(p, "%s *dx = %s, *beta = %s;", ty, em_ptr(e, dx, 0), beta);
  pr_line(p, "for (int64_t r = 0; r < T * D; r++) dx[r] = 0;");
  if (dw) {
    pr_line(p, "%s *dw = %s, *tmp = %s;", ty, em_ptr(e, dw, 0),
            em_scratch_named(e, ty, "tmp", (SymDim){0, d * sz}));
    pr_line(p, "for (int64_t k = 0; k < (D + 2) * D; k++) dw[k] = 0;");
  }
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  if (len)
    pr_line(p, "const int64_t start = i * S, len = length[i];");
  else
    pr_line(p, "const int64_t start = lod[i], len = lod[i + 1] - lod[i];");
  print_backward(p, ty, dw != NULL);
  pr_line(p, "}");
  em_fault(e, len ? "a Length outside [0, S], a Label outside [0, D), a backward vector that sums to 0 or less, "
                    "or a LogLikelihood@GRAD of fewer rows than sequences"
                  : "a Label outside [0, D), a backward vector that sums to 0 or less, or a LogLikelihood@GRAD of "
                    "fewer rows than sequences");
  return 0;
}

/* No output keeps a LoD (Paddle 2.6 shares none). */
const OpDef op_linear_chain_crf = {.type = "linear_chain_crf", .infer = infer_linear_chain_crf,
                                   .emit_c = emit_linear_chain_crf, .lod_slot = ""};
const OpDef op_linear_chain_crf_grad = {.type = "linear_chain_crf_grad", .infer = infer_linear_chain_crf_grad,
                                        .emit_c = emit_linear_chain_crf_grad, .lod_slot = "Emission"};
