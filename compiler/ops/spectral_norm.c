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
#include "mat_call.h"
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

/* Checks Weight, U, V (and `more`, of Weight's shape and dtype when not
 * NULL) and fills the record's dtype and geometry; -1 after em_fail. */
static int sn_geometry(EmitCtx *e, const Var *wt, const Var *u, const Var *v, const Var *const *more,
                       SpectralCall *c) {
  int dt = wt->dtype;
  if ((dt != RT_DT_FP32 && dt != RT_DT_FP64) || u->dtype != dt || v->dtype != dt)
    return em_fail(e, "%s of %s tensors is not supported", e->op->type, rt_dtype_name(dt));
  for (int k = 0; more && more[k]; k++)
    if (more[k]->dtype != dt) return em_fail(e, "'%s' is not %s as Weight is", more[k]->name, rt_dtype_name(dt));
  int r = tu_rank(e, wt);
  c->dtype = dt;
  c->dim = (int)attr_int(e->op, "dim", 0);
  if (r < 2 || r > 5 || (c->dim != 0 && c->dim != 1))
    return em_fail(e, "Weight must have rank 2 to 5 and dim be 0 or 1");
  int64_t d[5];
  c->w = 1;
  for (int i = 0; i < 5; i++) d[i] = 1;
  for (int i = 0; i < r; i++)
    if ((d[i] = em_const_dim(e, wt, i)) < 0) return em_fail(e, "Weight's dims must not depend on the batch");
  c->h = d[c->dim];
  for (int i = 0; i < r; i++)
    if (i != c->dim) c->w *= d[i];
  c->d0 = d[0], c->d1 = d[1];
  c->rest = c->w / (c->dim ? d[0] : 1);
  if (spec_numel(em_spec(e, u)).c != c->h || spec_numel(em_spec(e, v)).c != c->w)
    return em_fail(e, "U and V must have %lld and %lld elements", (long long)c->h, (long long)c->w);
  return 0;
}

/* The scratch, literals and inputs of phi's CalcMatrixSigmaAndNormWeight
 * (on copies of U and V) into the record. */
static void sn_sigma(EmitCtx *e, const Var *wt, const Var *u, const Var *v, SpectralCall *c) {
  const int64_t es = (int64_t)rt_dtype_size(wt->dtype);
  c->wm = em_scratch_at(e, "wm", (SymDim){0, c->h * c->w * es});
  c->u = em_scratch_at(e, "u", (SymDim){0, c->h * es});
  c->v = em_scratch_at(e, "v", (SymDim){0, c->w * es});
  c->wv = em_scratch_at(e, "wv", (SymDim){0, c->h * es});
  c->eps = em_float((float)attr_float(e->op, "eps", 1e-12));
  c->power_iters = attr_int(e->op, "power_iters", 1);
  c->weight = em_ptr(e, wt, 1);
  c->u_in = em_ptr(e, u, 1);
  c->v_in = em_ptr(e, v, 1);
}

static int emit_spectral_norm(EmitCtx *e) {
  Var *wt = tu_in(e, "Weight", 0), *u = tu_in(e, "U", 0), *v = tu_in(e, "V", 0), *out = tu_out(e, "Out", 0);
  if (!wt || !u || !v || !out) return -1;
  SpectralCall call = {0};
  if (sn_geometry(e, wt, u, v, (const Var *const[]){out, NULL}, &call)) return -1;
  if (wt == out) return em_fail(e, "Out is Weight itself, which is not supported");
  sn_sigma(e, wt, u, v, &call);
  call.out = em_ptr(e, out, 0);
  spectral_print_c(e->p, &call);
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
  SpectralCall call = {.grad = 1};
  if (sn_geometry(e, wt, u, v, (const Var *const[]){dout, dw, NULL}, &call)) return -1;
  sn_sigma(e, wt, u, v, &call);
  const int64_t bytes = call.h * call.w * (int64_t)rt_dtype_size(wt->dtype); /* dOut's matrix view */
  call.gm = em_scratch_at(e, "gm", (SymDim){0, bytes});
  call.dout = em_ptr(e, dout, 1);
  call.dw = em_ptr(e, dw, 0);
  spectral_print_c(e->p, &call);
  return 0;
}

const OpDef op_spectral_norm_grad = {.type = "spectral_norm_grad", .infer = grad_infer,
                                     .emit_c = emit_spectral_norm_grad};
