/* lerp (paddle.lerp): X, Y, Weight -> Out; no attributes.  A Python
 * float weight arrives as a 0-D (or [1]) fill_constant tensor.
 * Shape rule (phi LerpInferMeta): Out = broadcast(X, Y), then broadcast
 * with Weight unless Weight is [1] (NumPy rules, right-aligned); X's
 * dtype.
 * Emission (float32, float64): out = x + w * (y - x) per element of the
 * broadcast shape, in the element type, as the Eigen expression of phi
 * lerp_kernel_impl.h.  X's and Y's dims the run gives pass to Out as an
 * element-wise op passes them (binary_pass_extents, the run checking two
 * that may differ); a Weight's such dims must fall on Out's (a gate of the
 * map's size, paddle.lerp(x, y, F.sigmoid(g))), the run checking they are
 * Out's sizes (Paddle's broadcasting of a 1 there is refused by the run). */
#include "../util.h"
#include "bcast_util.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_lerp(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0), *w = ctx_need(c, "Weight", 0);
  if (!x || !y || !w) return -1;
  Shape o;
  if (shape_broadcast(c, &x->shape, &y->shape, -1, &o)) return -1;
  if (!(w->shape.rank == 1 && w->shape.d[0] == 1)) {
    Shape xy = o;
    if (shape_broadcast(c, &xy, &w->shape, -1, &o)) return -1;
  }
  ctx_set(c, "Out", 0, &o, x->dtype);
  if (binary_pass_extents(c, x, y, -1)) return -1;
  const Var *out = ctx_out(c, "Out", 0);
  const unsigned wo = out ? bcast_run_mask(w, o.rank, -1) : 0, oo = out ? var_runtime_mask(out) : 0;
  if (var_runtime_mask(w) && (wo & ~oo))
    return ctx_fail(c, "Weight ('%s') has dims only the run gives (from its %s) where X and Y have none; lerp takes "
                    "them on dims of X's or Y's run-time sizes only", w->name,
                    w->runtime_from ? w->runtime_from : "inputs");
  return 0;
}

static int emit_lerp(EmitCtx *e) {
  Var *in[3] = {tu_in(e, "X", 0), tu_in(e, "Y", 0), tu_in(e, "Weight", 0)}, *out = tu_out(e, "Out", 0);
  if (!in[0] || !in[1] || !in[2] || !out) return -1;
  for (int k = 0; k < 3; k++)
    if (in[k]->dtype != out->dtype || (out->dtype != RT_DT_FP32 && out->dtype != RT_DT_FP64))
      return em_fail(e, "lerp of %s into %s is not supported (float32 or float64, all alike)",
                     rt_dtype_name(in[k]->dtype), rt_dtype_name(out->dtype));
  int rank;
  SymDim dims[RT_MAX_RANK];
  if (bc_shape(e, 3, in, tu_rank(e, out), &rank, dims)) return -1;
  if (rank != tu_rank(e, out)) return em_fail(e, "Out has rank %d, the broadcast %d", tu_rank(e, out), rank);
  for (int d = 0; d < rank; d++)
    if (em_spec(e, out)->d[d].a != dims[d].a || em_spec(e, out)->d[d].c != dims[d].c)
      return em_fail(e, "Out dim %d is %s, the broadcast gives %s", d, em_dim(e, out, d), em_sym(dims[d]));
  tu_bcast_extents(e, out, 2, (const Var *const[]){in[0], in[1]}, (const int64_t[]){-1, -1});
  const int shift = rank - tu_rank(e, in[2]); /* Weight's run-time sizes: Out's (infer_lerp) */
  for (int d = 0; d < tu_rank(e, in[2]); d++)
    if (em_spec(e, in[2])->runtime_mask >> d & 1)
      tu_run_equal(e, in[2], out, em_dim(e, in[2], d), em_dim(e, out, d + shift),
                   "Weight's size the run gives differs from X's and Y's (a Weight of 1 there, which Paddle "
                   "broadcasts, is not taken)");
  BcastCall k = {.kind = BCAST_LERP, .dtype = out->dtype};
  k.x = em_ptr(e, in[0], 1);
  k.y = em_ptr(e, in[1], 1);
  k.w = em_ptr(e, in[2], 1);
  k.out = em_ptr(e, out, 0);
  if (bc_loop(e, rank, dims, 3, in, &k.loop)) return -1;
  bcast_print_c(e->p, &k);
  return 0;
}

const OpDef op_lerp = {.type = "lerp", .infer = infer_lerp, .emit_c = emit_lerp, .runtime_extents = 2};

/* lerp_grad: X, Y, Weight, Out, Out@GRAD -> X@GRAD, Y@GRAD (X's and Y's
 * shapes; each optional).  phi LerpGradKernel: over Out@GRAD's elements,
 *   dX = sum of (1 - w) * dOut,  dY = sum of w * dOut
 * each summed over the dims its operand was broadcast along (bc_grad),
 * in the element type; a [1] Weight against a 0-D Out is its one element.
 * Paddle computes no Weight gradient. */
static int emit_lerp_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *w = tu_in(e, "Weight", 0), *dout = tu_in(e, "Out@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0), *dy = ctx_out(&c, "Y@GRAD", 0);
  if (!w || !dout) return -1;
  Var *const all[4] = {w, dout, dx, dy};
  for (int k = 0; k < 4; k++)
    if (all[k] && (all[k]->dtype != dout->dtype || (dout->dtype != RT_DT_FP32 && dout->dtype != RT_DT_FP64)))
      return em_fail(e, "lerp_grad of %s (Out@GRAD %s) is not supported (float32 or float64, all alike)",
                     rt_dtype_name(all[k]->dtype), rt_dtype_name(dout->dtype));
  const char *one = tu_literal(dout->dtype, 1.0), *wv = "w";
  EwIn in[2] = {{dout, -1, "pd", "d"}, {w, -1, "pw", "w"}};
  int n = 2;
  if (tu_rank(e, w) > tu_rank(e, dout)) { /* a [1] Weight, a 0-D Out */
    if (spec_numel(em_spec(e, w)).a != 0 || spec_numel(em_spec(e, w)).c != 1)
      return em_fail(e, "Weight has more dims than Out@GRAD");
    wv = pool_printf("(%s)[0]", em_ptr(e, w, 1));
    n = 1;
  }
  const EwIn gx = {dx, -1, "pdx", NULL}, gy = {dy, -1, "pdy", NULL};
  if (dx && bc_grad(e, dout, &gx, n, in, NULL, pool_printf("(%s - %s) * d", one, wv))) return -1;
  if (dy && bc_grad(e, dout, &gy, n, in, NULL, pool_printf("%s * d", wv))) return -1;
  return 0;
}

/* Out: the gradients need Out@GRAD and Weight only (the kernel takes Out
 * for its rank, which Out@GRAD has too). */
static const char *const lerp_grad_ignores[] = {"Out", NULL};
const OpDef op_lerp_grad = {.type = "lerp_grad", .infer = grad_infer, .emit_c = emit_lerp_grad,
                            .ignores = lerp_grad_ignores, .runtime_extents = 2};
