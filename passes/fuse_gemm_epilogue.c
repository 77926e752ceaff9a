/* fuse_gemm_epilogue: a matrix product, the bias added to it and an
 * activation become one fused_gemm_epilogue, whose GEMM adds the bias and
 * applies the activation to each block of the output while it is in cache
 * (Paddle's fuse_gemm_epilogue_pass; BuildStrategy.fuse_gemm_epilogue).
 *
 *   mul | matmul | matmul_v2 (X [..., K], Y [K, N] 2-D)
 *     -> elementwise_add (a float32 parameter [N] along the last dim)
 *     -> [activation]
 *
 * Requires: the product's and the add's outputs read by the next op alone and
 * not fetched; matmul with alpha 1 and no oneDNN reshape attributes; mul
 * whose x_num_col_dims keeps all of X's leading dims; trans_x only for a 2-D
 * X.  Invalidates: the ops of the chain (removed; the fused op names them).
 *
 * On a training program (one with grad ops) the pass takes what Paddle
 * 2.6's pass takes there: the matmul_v2 of paddle.nn.Linear alone (its
 * IsGemmFromLinear_: no transposes, no oneDNN reshape attributes, X rank
 * >= 2, Y rank 2), relu and gelu alone, in Paddle's order:
 *
 *   1. the chains above whose intermediates no grad op reads;
 *   2. matmul_v2 -> elementwise_add -> relu | gelu whose product is read
 *      by the add and the add's elementwise_add_grad (X) alone
 *        -> fused_gemm_epilogue(X, Y, Bias) -> Out, ReserveSpace,
 *      for relu when N % 128 == 0 and the sum is read by the relu alone,
 *      for gelu when N % 8 == 0 and the sum is read by the gelu and its
 *      gelu_grad (X) alone (cuBLASLt's rule, kept so that the same ops fuse
 *      as in Paddle).  ReserveSpace (Paddle: relu's bit mask or gelu's
 *      input, for the backward) is here the sum, the activation's input,
 *      float32 of Out's shape; the gelu_grad then reads it as X.  The
 *      gelu's `approximate` travels on the fused op;
 *   3. otherwise the same without the activation: matmul_v2 ->
 *      elementwise_add -> fused_gemm_epilogue -> Out;
 *   4. backward: elementwise_add_grad(Out@GRAD = dOut, Y = bias) -> d,
 *      dBias, then matmul_v2_grad(X, Y, Out@GRAD = d) -> dX, dY, then,
 *      when X is the Out of a fused_gemm_epilogue of step 2 (the previous
 *      layer's) and dX is read by its act grad alone (relu_grad reading
 *      Out = X; gelu_grad reading X = that op's ReserveSpace), that act
 *      grad -> dA:
 *        -> fused_gemm_epilogue_grad(DOut, X, Y[, ReserveSpace])
 *             -> DX (dA, or dX; none when X has no gradient), DY, DBias
 *      with activation_grad relu_grad / gelu_grad / none; d read by the
 *      matmul grad alone, dOut [..., N] and the bias [N] at the last dim.
 *
 * Steps 2 and 3 take out the product's output, which the add's grad
 * reads: they run only where step 4 then takes that add grad (Paddle's
 * pass removes the var regardless).  The fused kernels compute the floats
 * of the ops they replace. */
#include <string.h>

#include "attr.h"
#include "fuse_util.h"
#include "pass.h"
#include "rewrite.h"
#include "train.h"
#include "util.h"

/* The product's transposes, when op `id` is one this pass can take. */
static int product(const Graph *g, int id, int *tx, int *ty) {
  const Op *op = &g->ops[id];
  int x = rw_in(g, id, "X"), y = rw_in(g, id, "Y");
  if (x < 0 || y < 0 || g->vars[x].dtype != RT_DT_FP32 || g->vars[y].dtype != RT_DT_FP32) return 0;
  const int xr = g->vars[x].shape.rank, yr = g->vars[y].shape.rank;
  if (xr < 2 || yr != 2) return 0;
  *tx = *ty = 0;
  if (!strcmp(op->type, "matmul_v2")) {
    *tx = attr_bool(op, "trans_x", 0), *ty = attr_bool(op, "trans_y", 0);
  } else if (!strcmp(op->type, "matmul")) {
    int64_t *v;
    static const char *const fused[] = {"fused_reshape_X", "fused_reshape_Y", "fused_reshape_Out",
                                        "fused_transpose_X", "fused_transpose_Y", "fused_transpose_Out"};
    for (size_t i = 0; i < sizeof fused / sizeof fused[0]; i++)
      if (attr_ints(op, fused[i], &v)) return 0;
    if (attr_float(op, "alpha", 1.0) != 1.0 || attr_int(op, "head_number", 1) != 1) return 0;
    *tx = attr_bool(op, "transpose_X", 0), *ty = attr_bool(op, "transpose_Y", 0);
  } else if (!strcmp(op->type, "mul")) {
    if (attr_int(op, "x_num_col_dims", 1) != xr - 1 || attr_int(op, "y_num_col_dims", 1) != 1) return 0;
  } else {
    return 0;
  }
  return !*tx || xr == 2;
}

/* 1 when op `id` (matmul_v2 or matmul_v2_grad) is a product Paddle's
 * IsGemmFromLinear_ takes: float32, X rank >= 2, Y rank 2, no transposes,
 * no oneDNN reshape / transpose attributes. */
static int from_linear(const Graph *g, int id) {
  const Op *op = &g->ops[id];
  int x = rw_in(g, id, "X"), y = rw_in(g, id, "Y");
  if (x < 0 || y < 0 || g->vars[x].dtype != RT_DT_FP32 || g->vars[y].dtype != RT_DT_FP32) return 0;
  if (g->vars[x].shape.rank < 2 || g->vars[y].shape.rank != 2) return 0;
  static const char *const fused[] = {"fused_reshape_X", "fused_reshape_Y", "fused_reshape_Out",
                                      "fused_transpose_X", "fused_transpose_Y", "fused_transpose_Out"};
  int64_t *v;
  for (size_t i = 0; i < sizeof fused / sizeof fused[0]; i++)
    if (attr_ints(op, fused[i], &v)) return 0;
  return !attr_bool(op, "trans_x", 0) && !attr_bool(op, "trans_y", 0);
}

/* 1 and *mg when elementwise_add_grad `ag` and the matmul_v2_grad reading
 * its X@GRAD fuse (step 4): dOut [..., N] float32 of X's shape, the bias
 * [N] at the last dim, both gradients wanted, X@GRAD read by the matmul
 * grad alone as Out@GRAD, whose X [..., K] and Y [K, N] make dOut's shape
 * and whose Y@GRAD is wanted. */
static int grad_pair(const Graph *g, int ag, int *mg) {
  if (!fuse_is(g, ag, "elementwise_add_grad")) return 0;
  int dout = rw_in(g, ag, "Out@GRAD"), xv = rw_in(g, ag, "X"), b = rw_in(g, ag, "Y");
  int d = rw_out(g, ag, "X@GRAD"), db = rw_out(g, ag, "Y@GRAD");
  if (dout < 0 || xv < 0 || b < 0 || d < 0 || db < 0 || g->vars[dout].dtype != RT_DT_FP32) return 0;
  const Shape *ds = &g->vars[dout].shape, *bs = &g->vars[b].shape;
  const int r = ds->rank;
  const int64_t axis = attr_int(&g->ops[ag], "axis", -1);
  if (r < 2 || !shape_equal(&g->vars[xv].shape, ds) || !shape_equal(&g->vars[d].shape, ds) || bs->rank != 1 ||
      bs->d[0] <= 0 || bs->d[0] != ds->d[r - 1] || (axis != -1 && axis != r - 1) || g->vars[b].dtype != RT_DT_FP32)
    return 0;
  int m = fuse_next(g, d);
  if (!fuse_is(g, m, "matmul_v2_grad") || rw_in(g, m, "Out@GRAD") != d || !from_linear(g, m) ||
      rw_out(g, m, "Y@GRAD") < 0)
    return 0;
  const Shape *xs = &g->vars[rw_in(g, m, "X")].shape, *ws = &g->vars[rw_in(g, m, "Y")].shape;
  if (xs->rank != r || ws->d[1] != bs->d[0] || ws->d[0] != xs->d[r - 1]) return 0;
  for (int k = 0; k < r - 1; k++)
    if (xs->d[k] != ds->d[k]) return 0;
  *mg = m;
  return 1;
}

/* Sets the fused op's chain and slots; act_op < 0: none. */
static void rewrite_fwd(Graph *g, int prod, int add, int act_op, const FuseAct *act, int bias, int train) {
  int x = rw_in(g, prod, "X"), y = rw_in(g, prod, "Y"), tx = 0, ty = 0;
  if (!train) product(g, prod, &tx, &ty);
  int chain[3] = {prod, add, act_op}, nc = act_op >= 0 ? 3 : 2, end = rw_out(g, chain[nc - 1], "Out");
  int f = rw_new_op(g, "fused_gemm_epilogue", chain[nc - 1], 0);
  rw_set_slot(g, f, 0, "X", &x, 1);
  rw_set_slot(g, f, 0, "Y", &y, 1);
  rw_set_slot(g, f, 0, "Bias", &bias, 1);
  rw_set_slot(g, f, 1, "Out", &end, 1);
  rw_attr_bool(g, f, "trans_x", tx);
  rw_attr_bool(g, f, "trans_y", ty);
  if (train && act_op >= 0) { /* step 2: the sum kept for the backward */
    int sum = rw_out(g, add, "Out");
    int rs = rw_new_var(g, pool_printf("%s.reserve_space", g->vars[end].name), RT_DT_FP32, &g->vars[sum].shape);
    rw_set_slot(g, f, 1, "ReserveSpace", &rs, 1);
    rw_attr_str(g, f, "activation", g->ops[act_op].type);
    if (!strcmp(g->ops[act_op].type, "gelu")) {
      rw_attr_bool(g, f, "approximate", attr_bool(&g->ops[act_op], "approximate", 0));
      rw_replace_uses(g, sum, rs); /* the gelu_grad's X */
    }
  } else {
    rw_attr_str(g, f, "activation", act_op >= 0 ? act->name : "none");
    if (act_op >= 0 && (act->alpha != 0 || act->beta != 0)) {
      rw_attr_float(g, f, "fuse_alpha", act->alpha);
      rw_attr_float(g, f, "fuse_beta", act->beta);
    }
  }
  if (train) rw_attr_int(g, f, "op_role", attr_int(&g->ops[prod], "op_role", 0));
  rw_fuse(g, f, chain, nc);
}

/* Whether the program being rewritten has grad ops (set once per run). */
static int training;

/* Steps 1-3 from product `prod`. */
static int fuse_one(Graph *g, int prod) {
  int tx = 0, ty = 0;
  if (training ? !from_linear(g, prod) || !fuse_is(g, prod, "matmul_v2") : !product(g, prod, &tx, &ty)) return 0;
  int y = rw_in(g, prod, "Y"), out = rw_out(g, prod, "Out");
  if (out < 0) return 0;
  const Shape *os = &g->vars[out].shape;
  const int64_t n = g->vars[y].shape.d[training ? 1 : ty ? 0 : 1];
  /* the add, and the add's grad when the product's output has one */
  int add = fuse_next(g, out), addg = -1, mg, bias;
  if (add < 0 && training) {
    for (int u = 0; u < g->vars[out].nusers && add < 0; u++) {
      int a = g->vars[out].users[u];
      if (fuse_is(g, a, "elementwise_add") && (addg = fuse_next_beside(g, out, a)) >= 0) add = a;
    }
    if (add < 0 || rw_in(g, addg, "X") != out || !grad_pair(g, addg, &mg)) return 0;
  }
  if (add < 0 || !fuse_channel_param(g, add, out, os->rank - 1, n, &bias)) return 0;
  if (training && (rw_in(g, add, "X") != out || g->vars[bias].shape.rank != 1)) return 0;
  int sum = rw_out(g, add, "Out"), act_op = -1;
  FuseAct act = {"none", 0, 0};
  if (addg < 0) { /* step 1 (and inference) */
    int next = fuse_next(g, sum);
    if (next >= 0 && fuse_act_of(g, next, &act) &&
        (!training || !strcmp(g->ops[next].type, "relu") || !strcmp(g->ops[next].type, "gelu")))
      act_op = next;
  } else { /* step 2, else 3 */
    int next = fuse_next(g, sum), relu = fuse_is(g, next, "relu");
    if (next < 0) { /* a gelu and its grad */
      for (int u = 0; u < g->vars[sum].nusers && next < 0; u++) {
        int a = g->vars[sum].users[u], ag = fuse_next_beside(g, sum, a);
        if (fuse_is(g, a, "gelu") && fuse_is(g, ag, "gelu_grad") && rw_in(g, ag, "X") == sum &&
            rw_in(g, a, "X") == sum)
          next = a;
      }
    }
    /* (a gelu read by itself alone: Paddle's pattern wants its grad) */
    if ((relu && n % 128 == 0) || (fuse_is(g, next, "gelu") && g->vars[sum].nusers == 2 && n % 8 == 0))
      act_op = next;
  }
  rewrite_fwd(g, prod, add, act_op, &act, bias, addg >= 0);
  return 1;
}

/* Step 4 from elementwise_add_grad `ag`. */
static int fuse_grad(Graph *g, int ag) {
  int mg;
  if (!grad_pair(g, ag, &mg)) return 0;
  int dout = rw_in(g, ag, "Out@GRAD"), x = rw_in(g, mg, "X"), y = rw_in(g, mg, "Y");
  int dx = rw_out(g, mg, "X@GRAD"), dy = rw_out(g, mg, "Y@GRAD"), db = rw_out(g, ag, "Y@GRAD");
  /* the previous layer's activation grad, when that layer fused as step 2 */
  int act_g = -1, rs = -1, f = g->vars[x].producer;
  const char *act = "none";
  if (dx >= 0 && fuse_is(g, f, "fused_gemm_epilogue") && rw_out(g, f, "Out") == x &&
      (rs = rw_out(g, f, "ReserveSpace")) >= 0) {
    const char *fa = attr_str(&g->ops[f], "activation", "none");
    int a = fuse_next(g, dx);
    if (a >= 0 && rw_in(g, a, "Out@GRAD") == dx && rw_out(g, a, "X@GRAD") >= 0 &&
        ((!strcmp(fa, "relu") && fuse_is(g, a, "relu_grad") && rw_in(g, a, "Out") == x) ||
         (!strcmp(fa, "gelu") && fuse_is(g, a, "gelu_grad") && rw_in(g, a, "X") == rs)))
      act_g = a, act = g->ops[a].type;
  }
  int fg = rw_new_op(g, "fused_gemm_epilogue_grad", ag, 0);
  if (act_g >= 0) rw_copy_attrs(g, fg, act_g); /* gelu_grad's approximate */
  rw_attr_int(g, fg, "op_role", attr_int(&g->ops[ag], "op_role", 1));
  rw_attr_bool(g, fg, "trans_x", 0);
  rw_attr_bool(g, fg, "trans_y", 0);
  rw_attr_str(g, fg, "activation_grad", act);
  rw_set_slot(g, fg, 0, "DOut", &dout, 1);
  rw_set_slot(g, fg, 0, "X", &x, 1);
  rw_set_slot(g, fg, 0, "Y", &y, 1);
  if (act_g >= 0) rw_set_slot(g, fg, 0, "ReserveSpace", &rs, 1);
  int gx = act_g >= 0 ? rw_out(g, act_g, "X@GRAD") : dx;
  if (gx >= 0) rw_set_slot(g, fg, 1, "DX", &gx, 1);
  rw_set_slot(g, fg, 1, "DY", &dy, 1);
  rw_set_slot(g, fg, 1, "DBias", &db, 1);
  int chain[3] = {ag, mg, act_g};
  rw_fuse(g, fg, chain, act_g >= 0 ? 3 : 2);
  return 1;
}

int pass_fuse_gemm_epilogue(Graph *g, PassCtx *c) {
  training = train_is_training(g);
  rw_each_op(g, &c->changes, fuse_one);
  if (training) rw_each_op(g, &c->changes, fuse_grad);
  return 0;
}
