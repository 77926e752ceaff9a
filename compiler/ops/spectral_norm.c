/* spectral_norm (paddle.nn.SpectralNorm): Weight (rank 2..5), U [h], V [w]
 * -> Out, Weight's dims and dtype; dim:INT=0 (0 or 1), power_iters:INT=1,
 * eps:FLOAT=1e-12.  Weight is viewed as the matrix W [h, w] with h =
 * dims[dim] (dim moved to the front, the other dims in order, as w).
 * Shape rule (phi SpectralNormInferMeta): rank 2 to 5, dim 0 or 1,
 * power_iters >= 0, U and V of h and w elements where known.
 * Emission (float32/64): Paddle's kernel on copies of U and V (the inputs
 * are not updated): power_iters times v = W^T u / (|W^T u| + eps), u =
 * W v / (|W v| + eps); then sigma = u . (W v) and Out = W / sigma, moved
 * back to Weight's layout.  W, u, v and W v live in kernel scratch. */
#include "../util.h"
#include "move_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_spectral_norm(OpCtx *c) {
  Var *w = ctx_need(c, "Weight", 0), *u = ctx_need(c, "U", 0), *v = ctx_need(c, "V", 0);
  if (!w || !u || !v) return -1;
  const Shape *ws = &w->shape;
  int64_t dim = attr_int(c->op, "dim", 0);
  if (ws->rank < 2 || ws->rank > 5) return ctx_fail(c, "Weight %s must have rank 2 to 5", shape_str(ws));
  if (dim != 0 && dim != 1) return ctx_fail(c, "dim %lld is not 0 or 1", (long long)dim);
  if (attr_int(c->op, "power_iters", 1) < 0) return ctx_fail(c, "power_iters must not be negative");
  int64_t h = ws->d[dim], wd = 1;
  for (int i = 0; i < ws->rank; i++)
    if (i != dim) wd *= ws->d[i];
  if ((u->shape.rank > 0 && u->shape.d[0] > 0 && h > 0 && u->shape.d[0] != h) ||
      (v->shape.rank > 0 && v->shape.d[0] > 0 && wd > 0 && v->shape.d[0] != wd))
    return ctx_fail(c, "U %s and V %s do not fit Weight %s", shape_str(&u->shape), shape_str(&v->shape), shape_str(ws));
  ctx_set(c, "Out", 0, ws, w->dtype);
  return 0;
}

/* The matrix view of Weight: W [h, w] with h = d[dim], `rest` the dims
 * after the first two. */
typedef struct SnGeo {
  int dim;
  int64_t d[5], h, w, rest;
} SnGeo;

/* Checks Weight, U, V (and `more`, of Weight's shape and dtype when not
 * NULL) and fills g; -1 after em_fail. */
static int sn_geometry(EmitCtx *e, const Var *wt, const Var *u, const Var *v, const Var *const *more, SnGeo *g) {
  int dt = wt->dtype;
  if ((dt != RT_DT_FP32 && dt != RT_DT_FP64) || u->dtype != dt || v->dtype != dt)
    return em_fail(e, "%s of %s tensors is not supported", e->op->type, rt_dtype_name(dt));
  for (int k = 0; more && more[k]; k++)
    if (more[k]->dtype != dt) return em_fail(e, "'%s' is not %s as Weight is", more[k]->name, rt_dtype_name(dt));
  int r = tu_rank(e, wt);
  g->dim = (int)attr_int(e->op, "dim", 0);
  if (r < 2 || r > 5 || (g->dim != 0 && g->dim != 1))
    return em_fail(e, "Weight must have rank 2 to 5 and dim be 0 or 1");
  g->w = 1;
  for (int i = 0; i < 5; i++) g->d[i] = 1;
  for (int i = 0; i < r; i++)
    if ((g->d[i] = em_const_dim(e, wt, i)) < 0) return em_fail(e, "Weight's dims must not depend on the batch");
  g->h = g->d[g->dim];
  for (int i = 0; i < r; i++)
    if (i != g->dim) g->w *= g->d[i];
  g->rest = g->w / (g->dim ? g->d[0] : 1);
  if (spec_numel(em_spec(e, u)).c != g->h || spec_numel(em_spec(e, v)).c != g->w)
    return em_fail(e, "U and V must have %lld and %lld elements", (long long)g->h, (long long)g->w);
  return 0;
}

/* Prints `dst` (a [h, w] scratch matrix) = the matrix view of the tensor
 * at `src` (Weight's layout): a copy for dim 0, [d1, d0 * rest] from
 * [d0, d1, rest] for dim 1. */
static void sn_to_matrix(EmitCtx *e, const SnGeo *g, const char *src, const char *dst) {
  if (g->dim == 0) {
    pr_line(e->p, "memcpy(%s, %s, (size_t)(h * w) * sizeof *%s);", dst, src, dst);
    return;
  }
  const char *dims[3] = {pool_printf("%lld", (long long)g->d[1]), pool_printf("%lld", (long long)g->d[0]),
                         pool_printf("%lld", (long long)g->rest)};
  const char *strides[3] = {pool_printf("%lld", (long long)g->rest), pool_printf("%lld", (long long)(g->d[1] * g->rest)),
                            "1"};
  move_print_c(e->p, &(MoveCall){.kind = MOVE_COPY_STRIDED, .src = src, .dst = dst, .esize = pool_printf("sizeof *%s", dst),
                                  .rank = 3, .dims = dims, .strides = strides});
}

/* Prints `dst[<Weight's layout>] = <expr>` for every element of the
 * matrix view, `expr` reading element k = i * w + j of matrices (and i, j
 * themselves). */
static void sn_from_matrix(EmitCtx *e, const SnGeo *g, const char *dst, const char *expr) {
  if (g->dim == 0) {
    pr_line(e->p, "for (int64_t i = 0; i < h; i++)");
    pr_line(e->p, "  for (int64_t j = 0, k = i * w; j < w; j++, k++) %s[k] = %s;", dst, expr);
    return;
  } /* back to [d0, d1, rest]: column j = a * rest + q of row i */
  pr_line(e->p, "for (int64_t a = 0; a < %lld; a++) {", (long long)g->d[0]);
  pr_line(e->p, "for (int64_t i = 0; i < h; i++) {");
  pr_line(e->p, "for (int64_t q = 0; q < %lld; q++) {", (long long)g->rest);
  pr_line(e->p, "const int64_t j = a * %lld + q, k = i * w + j;", (long long)g->rest);
  pr_line(e->p, "%s[(a * h + i) * %lld + q] = %s;", dst, (long long)g->rest, expr);
  for (int k = 0; k < 3; k++) pr_line(e->p, "}");
}

/* Prints phi's CalcMatrixSigmaAndNormWeight on copies of U and V: wm (the
 * matrix view of Weight), u, v after power_iters steps, wv = W v and
 * sigma = u . (W v), in scratch and locals; h and w are declared. */
static void sn_print_sigma(EmitCtx *e, const SnGeo *g, const Var *wt, const Var *u, const Var *v) {
  const int dt = wt->dtype;
  const char *t = em_ctype(dt), *sq = dt == RT_DT_FP32 ? "sqrtf" : "sqrt";
  const int64_t es = (int64_t)rt_dtype_size(dt), h = g->h, w = g->w;
  pr_line(e->p, "%s *wm = (%s *)%s;", t, t, em_scratch(e, (SymDim){0, h * w * es}));
  pr_line(e->p, "%s *u = (%s *)%s;", t, t, em_scratch(e, (SymDim){0, h * es}));
  pr_line(e->p, "%s *v = (%s *)%s;", t, t, em_scratch(e, (SymDim){0, w * es}));
  pr_line(e->p, "%s *wv = (%s *)%s;", t, t, em_scratch(e, (SymDim){0, h * es}));
  pr_line(e->p, "const int64_t h = %lld, w = %lld;", (long long)h, (long long)w);
  pr_line(e->p, "const %s eps = (%s)%s;", t, t, em_float((float)attr_float(e->op, "eps", 1e-12)));
  sn_to_matrix(e, g, em_ptr(e, wt, 1), "wm");
  pr_line(e->p, "memcpy(u, %s, (size_t)h * sizeof *u);", em_ptr(e, u, 1));
  pr_line(e->p, "memcpy(v, %s, (size_t)w * sizeof *v);", em_ptr(e, v, 1));
  pr_line(e->p, "for (int64_t it = 0; it < %lld; it++) {", (long long)attr_int(e->op, "power_iters", 1));
  pr_line(e->p, "%s norm = 0;", t);
  pr_line(e->p, "for (int64_t j = 0; j < w; j++) {");
  pr_line(e->p, "%s s = 0;", t);
  pr_line(e->p, "for (int64_t i = 0; i < h; i++) s += wm[i * w + j] * u[i];");
  pr_line(e->p, "v[j] = s;");
  pr_line(e->p, "norm += s * s;");
  pr_line(e->p, "}");
  pr_line(e->p, "norm = %s(norm);", sq);
  pr_line(e->p, "for (int64_t j = 0; j < w; j++) v[j] = v[j] / (norm + eps);");
  pr_line(e->p, "norm = 0;");
  pr_line(e->p, "for (int64_t i = 0; i < h; i++) {");
  pr_line(e->p, "%s s = 0;", t);
  pr_line(e->p, "for (int64_t j = 0; j < w; j++) s += wm[i * w + j] * v[j];");
  pr_line(e->p, "u[i] = s;");
  pr_line(e->p, "norm += s * s;");
  pr_line(e->p, "}");
  pr_line(e->p, "norm = %s(norm);", sq);
  pr_line(e->p, "for (int64_t i = 0; i < h; i++) u[i] = u[i] / (norm + eps);");
  pr_line(e->p, "}");
  pr_line(e->p, "%s sigma = 0;", t);
  pr_line(e->p, "for (int64_t i = 0; i < h; i++) {");
  pr_line(e->p, "wv[i] = 0;");
  pr_line(e->p, "for (int64_t j = 0; j < w; j++) wv[i] += wm[i * w + j] * v[j];");
  pr_line(e->p, "sigma += u[i] * wv[i];");
  pr_line(e->p, "}");
}

static int emit_spectral_norm(EmitCtx *e) {
  Var *wt = tu_in(e, "Weight", 0), *u = tu_in(e, "U", 0), *v = tu_in(e, "V", 0), *out = tu_out(e, "Out", 0);
  if (!wt || !u || !v || !out) return -1;
  SnGeo g;
  if (sn_geometry(e, wt, u, v, (const Var *const[]){out, NULL}, &g)) return -1;
  if (wt == out) return em_fail(e, "Out is Weight itself, which is not supported");
  sn_print_sigma(e, &g, wt, u, v);
  pr_line(e->p, "%s *out = %s;", em_ctype(wt->dtype), em_ptr(e, out, 0));
  sn_from_matrix(e, &g, "out", "wm[k] / sigma");
  return 0;
}

const OpDef op_spectral_norm = {.type = "spectral_norm", .infer = infer_spectral_norm, .emit_c = emit_spectral_norm};

/* spectral_norm_grad (Weight, U, V, Out@GRAD -> Weight@GRAD; the forward's
 * attributes), as phi's SpectralNormGradKernel computes it in 2.6: sigma,
 * u and v as the forward finds them, S = the sum of every element of
 * W / sigma, and in the matrix view
 *   dW[i][j] = dOut[i][j] * (1 - (u[i] * v[j]) * S) / sigma
 * (Paddle's formula, not the textbook dOut - u v^T (u^T dOut v): this is
 * what its kernel computes and what its programs train with). */
static int emit_spectral_norm_grad(EmitCtx *e) {
  Var *wt = tu_in(e, "Weight", 0), *u = tu_in(e, "U", 0), *v = tu_in(e, "V", 0);
  Var *dout = tu_in(e, "Out@GRAD", 0), *dw = tu_out(e, "Weight@GRAD", 0);
  if (!wt || !u || !v || !dout || !dw) return -1;
  SnGeo g;
  if (sn_geometry(e, wt, u, v, (const Var *const[]){dout, dw, NULL}, &g)) return -1;
  sn_print_sigma(e, &g, wt, u, v);
  const char *t = em_ctype(wt->dtype);
  const int64_t bytes = g.h * g.w * (int64_t)rt_dtype_size(wt->dtype); /* dOut's matrix view */
  pr_line(e->p, "%s *gm = (%s *)%s;", t, t, em_scratch(e, (SymDim){0, bytes}));
  sn_to_matrix(e, &g, em_ptr(e, dout, 1), "gm");
  pr_line(e->p, "%s sum = 0;", t);
  pr_line(e->p, "for (int64_t k = 0; k < h * w; k++) sum += wm[k] / sigma;");
  pr_line(e->p, "%s *dw = %s;", t, em_ptr(e, dw, 0));
  sn_from_matrix(e, &g, "dw", pool_printf("gm[k] * ((%s)1 - u[i] * v[j] * sum) / sigma", t));
  return 0;
}

const OpDef op_spectral_norm_grad = {.type = "spectral_norm_grad", .infer = grad_infer,
                                     .emit_c = emit_spectral_norm_grad};
