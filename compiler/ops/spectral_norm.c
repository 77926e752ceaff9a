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

static int emit_spectral_norm(EmitCtx *e) {
  Var *wt = tu_in(e, "Weight", 0), *u = tu_in(e, "U", 0), *v = tu_in(e, "V", 0), *out = tu_out(e, "Out", 0);
  if (!wt || !u || !v || !out) return -1;
  int dt = wt->dtype;
  if ((dt != RT_DT_FP32 && dt != RT_DT_FP64) || u->dtype != dt || v->dtype != dt || out->dtype != dt)
    return em_fail(e, "spectral_norm of %s tensors is not supported", rt_dtype_name(dt));
  if (wt == out) return em_fail(e, "Out is Weight itself, which is not supported");
  int r = tu_rank(e, wt), dim = (int)attr_int(e->op, "dim", 0);
  int64_t d[5] = {1, 1, 1, 1, 1}, h, w = 1;
  if (r < 2 || r > 5 || (dim != 0 && dim != 1)) return em_fail(e, "Weight must have rank 2 to 5 and dim be 0 or 1");
  for (int i = 0; i < r; i++)
    if ((d[i] = em_const_dim(e, wt, i)) < 0) return em_fail(e, "Weight's dims must not depend on the batch");
  h = d[dim];
  for (int i = 0; i < r; i++)
    if (i != dim) w *= d[i];
  if (spec_numel(em_spec(e, u)).c != h || spec_numel(em_spec(e, v)).c != w)
    return em_fail(e, "U and V must have %lld and %lld elements", (long long)h, (long long)w);
  const char *t = em_ctype(dt), *sq = dt == RT_DT_FP32 ? "sqrtf" : "sqrt";
  const int64_t es = (int64_t)rt_dtype_size(dt), rest = w / (dim ? d[0] : 1);
  pr_line(e->p, "%s *wm = (%s *)%s;", t, t, em_scratch(e, (SymDim){0, h * w * es}));
  pr_line(e->p, "%s *u = (%s *)%s;", t, t, em_scratch(e, (SymDim){0, h * es}));
  pr_line(e->p, "%s *v = (%s *)%s;", t, t, em_scratch(e, (SymDim){0, w * es}));
  pr_line(e->p, "%s *wv = (%s *)%s;", t, t, em_scratch(e, (SymDim){0, h * es}));
  pr_line(e->p, "const int64_t h = %lld, w = %lld;", (long long)h, (long long)w);
  pr_line(e->p, "const %s eps = (%s)%s;", t, t, em_float((float)attr_float(e->op, "eps", 1e-12)));
  if (dim == 0) {
    pr_line(e->p, "memcpy(wm, %s, (size_t)(h * w) * sizeof *wm);", em_ptr(e, wt, 1));
  } else { /* W [d1, d0 * rest] from Weight [d0, d1, rest] */
    const char *dims[3] = {pool_printf("%lld", (long long)d[1]), pool_printf("%lld", (long long)d[0]),
                           pool_printf("%lld", (long long)rest)};
    const char *strides[3] = {pool_printf("%lld", (long long)rest), pool_printf("%lld", (long long)(d[1] * rest)), "1"};
    move_print_c(e->p, &(MoveCall){.kind = MOVE_COPY_STRIDED, .src = em_ptr(e, wt, 1), .dst = "wm",
                                    .esize = "sizeof *wm", .rank = 3, .dims = dims, .strides = strides});
  }
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
  pr_line(e->p, "%s *out = %s;", t, em_ptr(e, out, 0));
  if (dim == 0) {
    pr_line(e->p, "for (int64_t k = 0; k < h * w; k++) out[k] = wm[k] / sigma;");
  } else { /* back to [d0, d1, rest] */
    pr_line(e->p, "for (int64_t a = 0; a < %lld; a++)", (long long)d[0]);
    pr_line(e->p, "  for (int64_t i = 0; i < h; i++)");
    pr_line(e->p, "    for (int64_t q = 0; q < %lld; q++)", (long long)rest);
    pr_line(e->p, "      out[(a * h + i) * %lld + q] = wm[i * w + a * %lld + q] / sigma;", (long long)rest,
            (long long)rest);
  }
  return 0;
}

const OpDef op_spectral_norm = {.type = "spectral_norm", .infer = infer_spectral_norm, .emit_c = emit_spectral_norm};
