/* meshgrid: X* -> Out*; no attributes.
 * Shape rule (phi MeshgridInferMeta): every Out has the dims [n_0, ...,
 * n_{k-1}], n_i the length of X[i] (1 for a 0-D X[i]), and X[0]'s dtype.
 * Emission: Out[i] repeats X[i] along every dim but i -- a strided copy with
 * stride 1 along dim i and 0 elsewhere.
 * An X[i] whose length the run gives (an arange to a feature map's
 * height) makes dim i of every Out that run-time extent; the Outs share
 * one root. */
#include "../util.h"
#include "axis_call.h"
#include "move_call.h"
#include "ops.h"
#include "run_hw.h"
#include "tensor_util.h"

static int infer_meshgrid(OpCtx *c) {
  int n = ctx_nin(c, "X");
  if (n < 1 || n > RT_MAX_RANK) return ctx_fail(c, "meshgrid takes 1 to %d inputs, not %d", RT_MAX_RANK, n);
  Var *x0 = ctx_need(c, "X", 0);
  if (!x0) return -1;
  Shape s = {n, {0}};
  for (int i = 0; i < n; i++) {
    Var *xi = ctx_need(c, "X", i);
    if (!xi) return -1;
    if (xi->shape.rank > 1) return ctx_fail(c, "X[%d] %s must be 0-D or 1-D", i, shape_str(&xi->shape));
    s.d[i] = xi->shape.rank ? xi->shape.d[0] : 1;
  }
  ctx_set_all(c, "Out", &s, x0->dtype);
  unsigned mask = 0;
  const char *key = "meshgrid", *from = NULL;
  for (int i = 0; i < n; i++) {
    const Var *xi = ctx_in(c, "X", i);
    if (!var_runtime_mask(xi)) continue;
    mask |= 1u << i, from = xi->runtime_from;
    key = pool_printf("%s %d:%d", key, i, xi->runtime_root);
  }
  for (int i = 0; i < n && mask; i++) {
    ctx_set_runtime_extents(c, "Out", i, mask, from);
    Var *out = ctx_out(c, "Out", i);
    if (out) run_hw_share_root(c->g, out, key);
  }
  return 0;
}

static int emit_meshgrid(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  int n = ctx_nin(&c, "X");
  if (ctx_nout(&c, "Out") != n) return em_fail(e, "%d inputs but %d outputs", n, ctx_nout(&c, "Out"));
  for (int i = 0; i < n; i++) {
    Var *x = tu_in(e, "X", i), *out = tu_out(e, "Out", i);
    if (!x || !out) return -1;
    if (x->dtype != out->dtype) return em_fail(e, "X[%d] and Out[%d] differ in dtype", i, i);
    if (tu_rank(e, out) != n) return em_fail(e, "Out[%d] must have rank %d", i, n);
    const char *dims[RT_MAX_RANK], *st[RT_MAX_RANK];
    for (int k = 0; k < n; k++) {
      const Var *xk = ctx_in(&c, "X", k);
      if (em_spec(e, out)->runtime_mask >> k & 1) /* infer_meshgrid: X[k]'s length, the run's */
        move_print_c(e->p, &(MoveCall){.kind = MOVE_EXTENT, .dst = em_dim(e, out, k), .src = em_dim(e, xk, 0)});
      dims[k] = em_dim(e, out, k);
      st[k] = k == i ? "1" : "0";
    }
    MoveCall call;
    if (tu_strided_call(e, x, "0", out, n, dims, st, &call)) return -1;
    call.note = pool_printf("Out[%d]: X[%d] along dim %d", i, i, i);
    move_print_c(e->p, &call);
  }
  return 0;
}

const OpDef op_meshgrid = {.type = "meshgrid", .infer = infer_meshgrid, .emit_c = emit_meshgrid,
                           .runtime_extents = 2};

/* meshgrid_grad (X*, outputs@GRAD* -> X@GRAD*; phi MeshgridGradKernel):
 * X@GRAD[i][j] = the sum of outputs@GRAD[i] over every element whose index
 * along dim i is j, added in memory order; an X@GRAD nobody asked for is
 * skipped.  X gives only the shapes (its rule). */
static int emit_meshgrid_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  int n = ctx_nout(&c, "X@GRAD");
  if (ctx_nin(&c, "outputs@GRAD") != n) return em_fail(e, "%d X@GRAD but %d outputs@GRAD", n, ctx_nin(&c, "outputs@GRAD"));
  for (int i = 0; i < n; i++) {
    if (!ctx_out(&c, "X@GRAD", i)) continue;
    Var *dx = tu_out(e, "X@GRAD", i), *dout = tu_in(e, "outputs@GRAD", i);
    if (!dx || !dout) return -1;
    if ((dx->dtype != RT_DT_FP32 && dx->dtype != RT_DT_FP64) || dout->dtype != dx->dtype)
      return em_fail(e, "X@GRAD[%d] and outputs@GRAD[%d] must be float32 or float64 of one dtype", i, i);
    if (tu_rank(e, dout) != n) return em_fail(e, "outputs@GRAD[%d] must have rank %d", i, n);
    axis_print_c(e->p, &(AxisCall){.kind = AXIS_MESHGRID_GRAD, .type = em_ctype(dx->dtype), .slot = i,
                                   .dout = em_ptr(e, dout, 1), .dx = em_ptr(e, dx, 0), .outer = em_prod(e, dout, 0, i),
                                   .n = em_dim(e, dout, i), .inner = em_prod(e, dout, i + 1, n)});
  }
  return 0;
}

/* X's lengths the run gives: outputs@GRAD has them (the forward's Out),
 * its loops read them */
const OpDef op_meshgrid_grad = {.type = "meshgrid_grad", .infer = grad_infer, .emit_c = emit_meshgrid_grad,
                                .runtime_extents = 2};
