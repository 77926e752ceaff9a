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
 * X.  Invalidates: the ops of the chain (removed; the fused op names them). */
#include <string.h>

#include "attr.h"
#include "fuse_util.h"
#include "pass.h"
#include "rewrite.h"
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

static int fuse_one(Graph *g, int prod) {
  int tx, ty;
  if (!product(g, prod, &tx, &ty)) return 0;
  int x = rw_in(g, prod, "X"), y = rw_in(g, prod, "Y"), out = rw_out(g, prod, "Out");
  const Shape *os = &g->vars[out].shape;
  const int64_t n = g->vars[y].shape.d[ty ? 0 : 1];
  int add = fuse_next(g, out), bias;
  if (add < 0 || !fuse_channel_param(g, add, out, os->rank - 1, n, &bias)) return 0;
  int chain[3] = {prod, add}, nc = 2, end = rw_out(g, add, "Out");
  FuseAct act = {"none", 0, 0}, a;
  int next = fuse_next(g, end);
  if (next >= 0 && fuse_act_of(g, next, &a)) {
    act = a;
    chain[nc++] = next;
    end = rw_out(g, next, "Out");
  }
  int f = rw_new_op(g, "fused_gemm_epilogue", chain[nc - 1], 0);
  rw_set_slot(g, f, 0, "X", &x, 1);
  rw_set_slot(g, f, 0, "Y", &y, 1);
  rw_set_slot(g, f, 0, "Bias", &bias, 1);
  rw_set_slot(g, f, 1, "Out", &end, 1);
  rw_attr_bool(g, f, "trans_x", tx);
  rw_attr_bool(g, f, "trans_y", ty);
  rw_attr_str(g, f, "activation", act.name);
  if (act.alpha != 0 || act.beta != 0) {
    rw_attr_float(g, f, "fuse_alpha", act.alpha);
    rw_attr_float(g, f, "fuse_beta", act.beta);
  }
  rw_fuse(g, f, chain, nc);
  return 1;
}

int pass_fuse_gemm_epilogue(Graph *g, PassCtx *c) {
  rw_each_op(g, &c->changes, fuse_one);
  return 0;
}
