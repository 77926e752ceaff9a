/* kron: X, Y -> Out; no attributes.  The Kronecker product.
 * Shape rule (phi KronInferMeta): the lower-rank operand is padded with
 * leading 1s; Out.dims[i] = X.dims[i] * Y.dims[i] (-1 when either is
 * unknown), with X's dtype.
 * Emission: Out's index along dim i is a_i * Y.dims[i] + b_i, so loops over
 * a_0, b_0, a_1, b_1, ... visit Out in memory order: Out[o++] = X[a] *
 * Y[b]. */
#include "../util.h"
#include "kron_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_kron(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!x || !y) return -1;
  const Shape *xs = &x->shape, *ys = &y->shape;
  int r = xs->rank > ys->rank ? xs->rank : ys->rank;
  Shape s = {r, {0}};
  for (int i = 0; i < r; i++) {
    int64_t a = i < r - xs->rank ? 1 : xs->d[i - (r - xs->rank)];
    int64_t b = i < r - ys->rank ? 1 : ys->d[i - (r - ys->rank)];
    s.d[i] = a == DIM_UNKNOWN || b == DIM_UNKNOWN ? DIM_UNKNOWN : a * b;
  }
  ctx_set(c, "Out", 0, &s, x->dtype);
  return 0;
}

/* X's and Y's dims padded with leading 1s to rank r and their strides
 * (NULL along the padding), into the record. */
static void kron_operands(EmitCtx *e, const Var *x, const Var *y, int r, KronCall *call) {
  const char *xst[RT_MAX_RANK], *yst[RT_MAX_RANK];
  int rx = tu_rank(e, x), ry = tu_rank(e, y);
  tu_strides(e, x, xst);
  tu_strides(e, y, yst);
  call->rank = r;
  for (int i = 0; i < r; i++) {
    int jx = i - (r - rx), jy = i - (r - ry);
    call->xdims[i] = jx >= 0 ? em_dim(e, x, jx) : "1", call->xstrides[i] = jx >= 0 ? xst[jx] : NULL;
    call->ydims[i] = jy >= 0 ? em_dim(e, y, jy) : "1", call->ystrides[i] = jy >= 0 ? yst[jy] : NULL;
  }
}

static int emit_kron(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *y = tu_in(e, "Y", 0), *out = tu_out(e, "Out", 0);
  if (!x || !y || !out) return -1;
  if (x->dtype != y->dtype || x->dtype != out->dtype) return em_fail(e, "X, Y and Out differ in dtype");
  if (x->dtype == RT_DT_BOOL) return em_fail(e, "kron of bool tensors is not supported");
  if (x == out || y == out) return em_fail(e, "Out is an input itself (an in-place kron), which is not supported");
  int rx = tu_rank(e, x), ry = tu_rank(e, y);
  KronCall call = {.kind = KRON_FORWARD, .type = em_ctype(x->dtype), .x = em_ptr(e, x, 1), .y = em_ptr(e, y, 1),
                   .out = em_ptr(e, out, 0)};
  kron_operands(e, x, y, rx > ry ? rx : ry, &call);
  kron_print_c(e->p, &call);
  return 0;
}

const OpDef op_kron = {.type = "kron", .infer = infer_kron, .emit_c = emit_kron};

/* kron_grad: X, Y, Out@GRAD -> X@GRAD, Y@GRAD (each optional).  phi
 * KronGradKernel: with Out's index a_i * Y.dims[i] + b_i along dim i,
 *   dX[a] = sum over b of dOut[a, b] * Y[b],  dY[b] = sum over a of
 *   dOut[a, b] * X[a]
 * each product rounded, then summed in the other operand's memory order
 * (the rows of Paddle's [numel(X), numel(Y)] and [numel(Y), numel(X)]
 * products). */
static int emit_kron_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "X", 0), *y = tu_in(e, "Y", 0), *dout = tu_in(e, "Out@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0), *dy = ctx_out(&c, "Y@GRAD", 0);
  if (!x || !y || !dout) return -1;
  Var *const all[5] = {x, y, dout, dx, dy};
  for (int k = 0; k < 5; k++)
    if (all[k] && (all[k]->dtype != x->dtype || (x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64)))
      return em_fail(e, "kron_grad of %s tensors is not supported (float32 or float64, all alike)",
                     rt_dtype_name(all[k]->dtype));
  int rx = tu_rank(e, x), ry = tu_rank(e, y), r = tu_rank(e, dout);
  if (rx > r || ry > r) return em_fail(e, "Out@GRAD has fewer dims than X or Y");
  KronCall call = {.kind = KRON_GRAD, .type = em_ctype(x->dtype), .x = em_ptr(e, x, 1), .y = em_ptr(e, y, 1),
                   .dout = em_ptr(e, dout, 1), .dx = dx ? em_ptr(e, dx, 0) : NULL, .dy = dy ? em_ptr(e, dy, 0) : NULL};
  kron_operands(e, x, y, r, &call);
  tu_strides(e, dout, call.ostrides);
  kron_print_c(e->p, &call);
  return 0;
}

const OpDef op_kron_grad = {.type = "kron_grad", .infer = grad_infer, .emit_c = emit_kron_grad};
