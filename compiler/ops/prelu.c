/* prelu (Paddle PReluInferMeta): X, Alpha -> Out, X's shape and dtype.
 *   attrs: mode="all" (Alpha has one element), "channel" (one per channel:
 *          C = X.dims[1] for data_format "NCHW", the last dim for "NHWC"),
 *          "element" (one per element of a sample); data_format="NCHW".
 * The Alpha size is checked when every dim involved is known.  Dims the
 * run gives pass to Out, but not those Alpha has values for (the channel,
 * a sample's elements).
 *
 * C emission (float32 and float64, as Paddle's CPU kernels; every tensor
 * of X's dtype): Out = X > 0 ? X : alpha * X, with alpha the one value
 * (all), the channel's (channel: X viewed as [N, C, inner] or [outer, C]),
 * or the element's within a sample (element).
 *
 * prelu_grad (phi PReluGradKernel): X, Alpha, Out@GRAD -> X@GRAD,
 * Alpha@GRAD (either may be absent): X@GRAD = X > 0 ? dOut : alpha * dOut,
 * and Alpha@GRAD sums X * dOut over the elements with X <= 0 that share
 * the alpha, in element order (Paddle's loop; one sum, not split).  With
 * mode "channel" Paddle's grad reads data_format "NCHW" as channel 1 and
 * any other value as the last dim; values other than NCHW and NHWC are
 * refused. */
#include <string.h>

#include "../emit_ew.h"
#include "../util.h"
#include "chan_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_prelu(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  Var *alpha = ctx_need(c, "Alpha", 0);
  if (!x || !alpha) return -1;
  const Shape *xs = &x->shape;
  const char *mode = attr_str(c->op, "mode", "all");
  int64_t want = -1, have = shape_numel(&alpha->shape);
  if (strcmp(mode, "all") == 0) {
    want = 1;
  } else if (strcmp(mode, "channel") == 0) {
    if (xs->rank < 2)
      return ctx_fail(c, "mode 'channel' needs X of rank >= 2, got %s", shape_str(xs));
    want = strcmp(attr_str(c->op, "data_format", "NCHW"), "NHWC") == 0 ? xs->d[xs->rank - 1]
                                                                       : xs->d[1];
  } else if (strcmp(mode, "element") == 0) {
    want = xs->rank >= 1 ? dims_prod(xs, 1, xs->rank) : 1;
  } else {
    return ctx_fail(c, "unknown mode '%s'", mode);
  }
  const unsigned run = var_runtime_mask(x); /* dims the run gives: Alpha's count must not depend on them */
  const int ci = strcmp(attr_str(c->op, "data_format", "NCHW"), "NHWC") == 0 ? xs->rank - 1 : 1;
  if ((!strcmp(mode, "element") && run & ~1u) || (!strcmp(mode, "channel") && run >> ci & 1))
    return ctx_fail(c, "X ('%s') has a run-time extent (from its %s) on a dim that Alpha has one value for, in "
                    "mode '%s': not supported", x->name, x->runtime_from ? x->runtime_from : "inputs", mode);
  if (want > 0 && have > 0 && want != have)
    return ctx_fail(c, "Alpha %s has %lld values, mode '%s' of X %s needs %lld",
                    shape_str(&alpha->shape), (long long)have, mode, shape_str(xs),
                    (long long)want);
  ctx_set(c, "Out", 0, xs, x->dtype);
  ctx_pass_runtime_extent(c, x, "Out", 0);
  return 0;
}

/* X viewed as [outer, n, inner] with alpha indexed by the middle index, as
 * each mode indexes it; -1 after em_fail. */
static int prelu_view(EmitCtx *e, const Var *x, const char **outer, const char **n, const char **inner,
                      SymDim *nsym) {
  const char *mode = attr_str(e->op, "mode", "all"), *fmt = attr_str(e->op, "data_format", "NCHW");
  int rank = em_spec(e, x)->rank;
  if (strcmp(fmt, "NCHW") && strcmp(fmt, "NHWC")) return em_fail(e, "data_format '%s' is not supported", fmt);
  if (!strcmp(mode, "all")) {
    *outer = "1", *n = "1", *inner = em_numel(e, x), *nsym = (SymDim){0, 1};
  } else if (!strcmp(mode, "channel")) {
    if (rank < 2) return em_fail(e, "mode 'channel' needs X of rank >= 2");
    int ci = strcmp(fmt, "NCHW") ? rank - 1 : 1;
    *outer = em_prod(e, x, 0, ci), *n = em_dim(e, x, ci), *inner = em_prod(e, x, ci + 1, rank);
    *nsym = em_sym_prod(e, x, ci, ci + 1);
  } else if (!strcmp(mode, "element")) {
    *outer = em_dim(e, x, 0), *n = em_prod(e, x, 1, rank), *inner = "1", *nsym = em_sym_prod(e, x, 1, rank);
  } else {
    return em_fail(e, "unknown mode '%s'", mode);
  }
  return 0;
}

/* 1 when every tensor of vs (NULL entries skipped) has dtype dt, float32
 * or float64 (Paddle's CPU kernels: float, double). */
static int prelu_dtype_ok(int dt, Var *const *vs, int n) {
  if (dt != RT_DT_FP32 && dt != RT_DT_FP64) return 0;
  for (int i = 0; i < n; i++)
    if (vs[i] && vs[i]->dtype != dt) return 0;
  return 1;
}

static int emit_prelu(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *alpha = ctx_in(&c, "Alpha", 0), *out = ctx_out(&c, "Out", 0);
  if (!x || !alpha || !out) return em_fail(e, "missing X, Alpha or Out");
  const int dt = x->dtype;
  if (!prelu_dtype_ok(dt, (Var *const[]){alpha, out}, 2))
    return em_fail(e, "prelu of %s X and %s Alpha is not supported (float32 or float64, alike)", rt_dtype_name(dt),
                   rt_dtype_name(alpha->dtype));
  const char *a = em_ptr(e, alpha, 1);
  if (!strcmp(attr_str(e->op, "mode", "all"), "all"))
    return ew_unary(e, x, out, tu_respell(dt, pool_printf("const float a = %s[0];", a)),
                    tu_respell(dt, "v > 0.0f ? v : a * v"));
  const char *outer = "", *n = "", *inner = "";
  SymDim nsym;
  if (prelu_view(e, x, &outer, &n, &inner, &nsym)) return -1;
  SymDim na = spec_numel(em_spec(e, alpha));
  if (na.a) return em_fail(e, "Alpha must not depend on the batch");
  chan_print_c(e->p, &(ChanCall){.kind = CHAN_PRELU, .dtype = dt, .outer = outer, .channels = n, .inner = inner,
                                 .x = em_ptr(e, x, 1), .slope = a, .out = em_ptr(e, out, 0)});
  return 0;
}

static int emit_prelu_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *alpha = ctx_in(&c, "Alpha", 0), *dout = ctx_in(&c, "Out@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0), *dalpha = ctx_out(&c, "Alpha@GRAD", 0);
  if (!x || !alpha || !dout) return em_fail(e, "needs X, Alpha and Out@GRAD");
  const int dt = x->dtype;
  if (!prelu_dtype_ok(dt, (Var *const[]){alpha, dout, dx, dalpha}, 4))
    return em_fail(e, "prelu_grad of %s X is not supported (float32 or float64, every tensor alike)",
                   rt_dtype_name(dt));
  if (em_spec(e, x)->rank < 1) return em_fail(e, "X must have rank >= 1");
  const char *outer = "", *n = "", *inner = "";
  SymDim nsym = {0, 0}, na = spec_numel(em_spec(e, alpha));
  if (prelu_view(e, x, &outer, &n, &inner, &nsym)) return -1;
  if (na.a || nsym.a || na.c != nsym.c)
    return em_fail(e, "Alpha has %s values where mode '%s' needs %s", em_sym(na), attr_str(e->op, "mode", "all"),
                   em_sym(nsym));
  chan_print_c(e->p, &(ChanCall){.kind = CHAN_PRELU_GRAD, .dtype = dt, .outer = outer, .channels = n, .inner = inner,
                                 .x = em_ptr(e, x, 1), .dout = em_ptr(e, dout, 1),
                                 .slope = dx ? em_ptr(e, alpha, 1) : NULL, .dx = dx ? em_ptr(e, dx, 0) : NULL,
                                 .dslope = dalpha ? em_ptr(e, dalpha, 0) : NULL,
                                 .numel = dalpha ? em_numel(e, dalpha) : NULL});
  return 0;
}

const OpDef op_prelu = {.type = "prelu", .infer = infer_prelu, .emit_c = emit_prelu, .runtime_extents = 2};
const OpDef op_prelu_grad = {.type = "prelu_grad", .infer = grad_infer, .emit_c = emit_prelu_grad,
                             .runtime_extents = 2};
