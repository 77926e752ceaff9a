/* fused_gemm_epilogue: Out = act(op(X) @ op(Y) + Bias), the op Paddle's
 * fuse_gemm_epilogue pass makes and paddlec's pass of the same name
 * (passes/fuse_gemm_epilogue.c) writes.
 *   X [..., K] (or [K, M] with trans_x, rank 2), Y [K, N] (or [N, K] with
 *   trans_y), Bias [N] -> Out [..., N] [, ReserveSpace].
 *   Attributes: trans_x=false, trans_y=false, activation="none" (Paddle:
 *   none, relu, gelu; paddlec also every name em_act knows, with fuse_alpha
 *   and fuse_beta).
 *   With ReserveSpace (the training form, whose grad op reads it): the
 *   activation is relu or gelu (with gelu's `approximate`), and
 *   ReserveSpace, float32 of Out's shape, gets the activation's input
 *   op(X) @ op(Y) + Bias.  (Paddle's GPU kernel stores relu's mask or
 *   gelu's input there, in its own layout.)
 * Emission: one rt_sgemm_ep, the bias and activation applied to each block
 * of the output as soon as it is computed; with ReserveSpace, the GEMM and
 * bias into ReserveSpace, then the activation op's loop (activation.c) from
 * it into Out: the floats of matmul_v2, elementwise_add and the activation.
 * X may have a dim known only at run time among its rows (a box head's
 * RoIs after mul + elementwise_add were fused): M is the run's, Out (and
 * ReserveSpace) have the same extent.
 *
 * fused_gemm_epilogue_grad: the backward of Out = act'(X) @ Y + Bias, where
 * act' is the activation of the layer before (whose output X is):
 *   DOut [..., N], X [..., K], Y [K, N] [, ReserveSpace of X's shape]
 *     -> DX [..., K] (optional), DY [K, N], DBias [N] (optional)
 *   Attributes: trans_x=false, trans_y=false (true is refused: Paddle's
 *   pass writes neither), activation_grad = none | relu_grad | gelu_grad
 *   (gelu_grad with its `approximate`).
 *   DBias = the sum of DOut's rows, DY = X^T DOut, DX = DOut Y^T and then
 *   the activation grad of it: gelu_grad's from ReserveSpace (the gelu's
 *   input), relu_grad's from ReserveSpace in place of Out (relu_grad looks
 *   at Out > 0 alone, and Out > 0 exactly where its input > 0).
 * Emission: the loops and GEMM calls of elementwise_add_grad (bc_grad),
 * matmul_v2_grad (X's leading dims folded into the rows) and the
 * activation grad (activation.c), in that order, so the floats are those of
 * the ops the pass fused. */
#include <string.h>

#include "../emit_ew.h"
#include "../util.h"
#include "bcast_util.h"
#include "gemm_call.h"
#include "ops.h"
#include "tensor_util.h"

/* 1 when K is a run-time dim of X, not transposed, and Y's K is fixed: a
 * map of the run's size flattened into a Linear made for one size
 * (AlexNet's classifier, GoogLeNet's auxiliary heads), or an output
 * sized by a --max-shape bound (every dim the run's), which Paddle runs
 * where the sizes agree and stops on elsewhere; the kernel checks it
 * (tu_run_equal).  X's rows may be the run's too. */
static int run_k(const Var *x, const Var *y, int tx, int ty) {
  return !tx && var_runtime_mask(x) >> (x->shape.rank - 1) & 1 && var_runtime_axis(y) < 0 &&
         y->shape.d[ty ? 1 : 0] >= 0;
}

/* run_k's check fails: what the run stops with */
static const char run_k_differs[] = "X's contracted dim (K) is not Y's (a map of another size than the Linear was "
                                    "made for), which Paddle's matmul stops on too";

/* Where X's run-time dims go in Out: M's (X's dim 1 with trans_x, Out's
 * dim 0; else X's leading dims, in place); K none of Out's. */
static void rows_to(int tx, int rank, int *to) {
  for (int d = 0; d < RT_MAX_RANK; d++) to[d] = tx ? (d == 1 ? 0 : -1) : d == rank - 1 ? -1 : d;
}

static int infer_fused_gemm(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!x || !y) return -1;
  const int tx = attr_bool(c->op, "trans_x", 0), ty = attr_bool(c->op, "trans_y", 0);
  if (x->shape.rank < 2 || y->shape.rank != 2 || (tx && x->shape.rank != 2))
    return ctx_fail(c, "X %s and Y %s: X must have rank >= 2 (2 with trans_x) and Y rank 2", shape_str(&x->shape),
                    shape_str(&y->shape));
  Shape s = x->shape;
  if (tx) s.d[0] = x->shape.d[1];
  s.d[s.rank - 1] = ty ? y->shape.d[0] : y->shape.d[1];
  ctx_set(c, "Out", 0, &s, x->dtype);
  if (ctx_out(c, "ReserveSpace", 0)) ctx_set(c, "ReserveSpace", 0, &s, x->dtype);
  /* run-time extents among X's rows (M: the RoIs of a box head, a
   * channel-last map's height and width) are Out's; K the run's must be
   * Y's (run_k: checked by the kernel); one in Y or Bias is refused */
  const unsigned rows = tx ? 2u : (1u << (x->shape.rank - 1)) - 1; /* X's dims that M multiplies */
  if (var_runtime_axis(y) >= 0 || var_runtime_axis(ctx_in(c, "Bias", 0)) >= 0 ||
      (var_runtime_mask(x) & ~rows && !run_k(x, y, tx, ty)))
    return ctx_refuse_runtime_extents(c);
  int to[RT_MAX_RANK];
  rows_to(tx, x->shape.rank, to);
  ctx_pass_runtime_extents_to(c, x, "Out", 0, to);
  ctx_pass_runtime_extents_to(c, x, "ReserveSpace", 0, to);
  return 0;
}

/* The training form: GEMM + bias into ReserveSpace, then Out = act of it. */
static int emit_with_reserve(EmitCtx *e, const Var *x, const Var *y, const Var *b, const Var *rs, const Var *out,
                             SymDim m, SymDim n, SymDim k) {
  const char *act = attr_str(e->op, "activation", "none");
  if (strcmp(act, "relu") && strcmp(act, "gelu"))
    return em_fail(e, "activation '%s' with ReserveSpace: only relu and gelu (Paddle's) are supported", act);
  if (!b) return em_fail(e, "ReserveSpace needs Bias");
  const int r = em_spec(e, x)->rank;
  MatmulCall mc = {.block = 1, .m = em_prod(e, x, 0, r - 1), .n = em_sym(n), .k = em_sym(k), .ep = 1,
                   .act = "RT_ACT_NONE", .act_alpha = "0.0f", .act_beta = "0.0f"};
  mc.bias = em_ptr(e, b, 1);
  mc.ptr[GEMM_X] = em_ptr(e, x, 1);
  mc.ptr[GEMM_Y] = em_ptr(e, y, 1);
  mc.ptr[GEMM_OUT] = em_ptr(e, rs, 0); /* the product and bias go to ReserveSpace */
  mc.prod[mc.nprod++] = (GemmProduct){.m = "M", .n = "N", .k = "K", .a = GEMM_X, .lda = "K", .b = GEMM_Y, .ldb = "N",
                                      .c = GEMM_OUT, .ldc = "N", .ws = em_gemm_ws(e, m, n, k)};
  matmul_print_c(e->p, &mc);
  const char *expr = unary_float_expr(e, e->op, act);
  if (!expr) return em_fail(e, "no forward for '%s'", act);
  return ew_unary(e, rs, out, NULL, expr);
}

static int emit_fused_gemm(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *y = ctx_in(&c, "Y", 0), *b = ctx_in(&c, "Bias", 0), *out = ctx_out(&c, "Out", 0);
  if (!x || !y || !out) return em_fail(e, "missing X, Y or Out");
  if (x->dtype != RT_DT_FP32 || y->dtype != RT_DT_FP32 || (b && b->dtype != RT_DT_FP32))
    return em_fail(e, "only float32 is supported");
  const int tx = attr_bool(e->op, "trans_x", 0), ty = attr_bool(e->op, "trans_y", 0), r = em_spec(e, x)->rank;
  if (!em_spec(e, x)->known || !em_spec(e, y)->known || r < 2 || em_spec(e, y)->rank != 2)
    return em_fail(e, "X and Y need known shapes of rank >= 2 and 2");
  Var *rs = ctx_out(&c, "ReserveSpace", 0);
  if (rs && (tx || ty)) return em_fail(e, "ReserveSpace with trans_x or trans_y is not supported");
  int to[RT_MAX_RANK]; /* M (em_prod, em_dim) then the run's rows */
  rows_to(tx, r, to);
  if (rs) tu_pass_extents_to(e, x, rs, to);
  if (rs) {
    SymDim m = em_sym_prod(e, x, 0, r - 1), k = em_spec(e, y)->d[0], n = em_spec(e, y)->d[1];
    tu_run_equal(e, x, NULL, em_dim(e, x, r - 1), em_sym(k), run_k_differs);
    if (b && (spec_numel(em_spec(e, b)).a || spec_numel(em_spec(e, b)).c != n.c))
      return em_fail(e, "Bias must have N = %lld elements", (long long)n.c);
    return emit_with_reserve(e, x, y, b, rs, out, m, n, k);
  }
  RtAct act;
  float fa, fb;
  if (em_act(e, attr_str(e->op, "activation", "none"), attr_float(e->op, "fuse_alpha", 0),
             attr_float(e->op, "fuse_beta", 0), &act, &fa, &fb))
    return -1;
  SymDim m = tx ? em_spec(e, x)->d[1] : em_sym_prod(e, x, 0, r - 1), k = em_spec(e, y)->d[ty ? 1 : 0];
  SymDim n = em_spec(e, y)->d[ty ? 0 : 1];
  tu_run_equal(e, x, NULL, em_dim(e, x, tx ? 0 : r - 1), em_sym(k), run_k_differs);
  if (b && (spec_numel(em_spec(e, b)).a || spec_numel(em_spec(e, b)).c != n.c))
    return em_fail(e, "Bias must have N = %lld elements", (long long)n.c);
  MatmulCall mc = {.m = tx ? em_dim(e, x, 1) : em_prod(e, x, 0, r - 1), .n = em_sym(n), .k = em_sym(k), .ep = 1,
                   .act = em_act_name(act), .act_alpha = em_float(fa), .act_beta = em_float(fb)};
  if (b) mc.bias = em_ptr(e, b, 1);
  mc.ptr[GEMM_X] = em_ptr(e, x, 1);
  mc.ptr[GEMM_Y] = em_ptr(e, y, 1);
  mc.ptr[GEMM_OUT] = em_ptr(e, out, 0);
  mc.prod[mc.nprod++] = (GemmProduct){.trans_a = tx, .trans_b = ty, .m = "M", .n = "N", .k = "K", .a = GEMM_X,
                                      .lda = tx ? "M" : "K", .b = GEMM_Y, .ldb = ty ? "K" : "N", .c = GEMM_OUT,
                                      .ldc = "N", .ws = em_gemm_ws(e, m, n, k)};
  matmul_print_c(e->p, &mc);
  return 0;
}

const OpDef op_fused_gemm_epilogue = {.type = "fused_gemm_epilogue", .infer = infer_fused_gemm,
                                      .emit_c = emit_fused_gemm, .runtime_extents = 2};

static int infer_fused_gemm_grad(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!x || !y) return -1;
  if (y->shape.rank != 2) return ctx_fail(c, "Y %s must have rank 2", shape_str(&y->shape));
  ctx_set(c, "DX", 0, &x->shape, x->dtype);
  ctx_set(c, "DY", 0, &y->shape, y->dtype);
  Shape b = {.rank = 1};
  b.d[0] = y->shape.d[attr_bool(c->op, "trans_y", 0) ? 0 : 1];
  ctx_set(c, "DBias", 0, &b, y->dtype);
  /* X's rows the run gives (M, as the forward took them) are DX's; K the run's is not taken */
  if (var_runtime_mask(x) >> (x->shape.rank - 1) & 1 || var_runtime_axis(y) >= 0) return ctx_refuse_runtime_extents(c);
  ctx_pass_runtime_extent(c, x, "DX", 0);
  return 0;
}

static int emit_fused_gemm_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *dout = ctx_in(&c, "DOut", 0), *x = ctx_in(&c, "X", 0), *y = ctx_in(&c, "Y", 0);
  Var *rs = ctx_in(&c, "ReserveSpace", 0);
  Var *dx = ctx_out(&c, "DX", 0), *dy = ctx_out(&c, "DY", 0), *db = ctx_out(&c, "DBias", 0);
  if (!dout || !x || !y) return em_fail(e, "missing DOut, X or Y");
  if (attr_bool(e->op, "trans_x", 0) || attr_bool(e->op, "trans_y", 0))
    return em_fail(e, "trans_x / trans_y = true is not supported (Paddle's pass writes neither)");
  const char *ag = attr_str(e->op, "activation_grad", "none");
  const int act = strcmp(ag, "none") != 0;
  if (act && strcmp(ag, "relu_grad") && strcmp(ag, "gelu_grad"))
    return em_fail(e, "activation_grad '%s' is not supported (none, relu_grad, gelu_grad)", ag);
  if (act && !rs) return em_fail(e, "activation_grad %s needs ReserveSpace", ag);
  if (!act && rs) return em_fail(e, "ReserveSpace without activation_grad is not supported");
  Var *const all[7] = {dout, x, y, rs, dx, dy, db};
  for (int i = 0; i < 7; i++)
    if (all[i] && all[i]->dtype != RT_DT_FP32)
      return em_fail(e, "'%s' is %s: only float32 is supported", all[i]->name, rt_dtype_name(all[i]->dtype));
  const VarSpec *xs = em_spec(e, x), *ys = em_spec(e, y), *ds = em_spec(e, dout);
  const int r = xs->rank;
  int ok = xs->known && ys->known && ds->known && r >= 2 && ys->rank == 2 && ds->rank == r;
  for (int i = 0; ok && i < r - 1; i++) ok = xs->d[i].a == ds->d[i].a && xs->d[i].c == ds->d[i].c;
  ok = ok && ys->d[0].a == xs->d[r - 1].a && ys->d[0].c == xs->d[r - 1].c && ys->d[1].a == ds->d[r - 1].a &&
       ys->d[1].c == ds->d[r - 1].c;
  const VarSpec *rss = rs ? em_spec(e, rs) : NULL;
  if (rss) ok = ok && rss->rank == r;
  for (int i = 0; ok && rss && i < r; i++) ok = rss->d[i].a == xs->d[i].a && rss->d[i].c == xs->d[i].c;
  if (!ok) return em_fail(e, "DOut [..., N], X [..., K], Y [K, N] and ReserveSpace of X's shape expected");
  SymDim m = em_sym_prod(e, x, 0, r - 1), k = xs->d[r - 1], n = ys->d[1];
  if (db) { /* elementwise_add_grad's Y@GRAD */
    if (spec_numel(em_spec(e, db)).a || spec_numel(em_spec(e, db)).c != n.c || n.a)
      return em_fail(e, "DBias must have N elements");
    const EwIn in[1] = {{dout, -1, "pd", "d"}}, gb = {db, -1, "pdy", NULL};
    if (bc_grad(e, dout, &gb, 1, in, NULL, "d")) return -1;
  }
  MatmulCall mc = {.block = 1, .m = em_prod(e, x, 0, r - 1), .n = em_sym(n), .k = em_sym(k)};
  matmul_grad_products(e, &mc, x, y, dout, dx, dy, m, k, n); /* matmul_v2_grad's; dx then gets the activation's */
  matmul_print_c(e->p, &mc);
  if (act && dx) return unary_grad_emit(e, e->op, ag, dx, rs, rs, dx);
  return 0;
}

const OpDef op_fused_gemm_epilogue_grad = {.type = "fused_gemm_epilogue_grad", .infer = infer_fused_gemm_grad,
                                           .emit_c = emit_fused_gemm_grad, .runtime_extents = 2};
