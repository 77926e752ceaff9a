/* fusion_group: a chain of element-wise ops computed in one loop, written
 * by passes/enable_auto_fusion.c (named after the op of Paddle's
 * fusion_group pass).  Inputs: the chain's outside operands; Outs: its
 * result.  The chain itself is the list of ops the group fuses (Op.fused, in
 * order): each reads the previous one's result and outside operands, and
 * every one of them has the result's shape, so the loop runs over the
 * result's elements and broadcasts each outside operand as its own op did.
 * Every tensor of the chain is float32 (the loop computes in float; another
 * dtype is refused).
 * Shapes: the fused ops' own rules, run in order; a run-time extent passes
 * through the ops that take one (unary ones) and is refused by the others;
 * so are several (a --max-shape bounded tensor) by ops that take one alone.  Its body exists only as
 * that list: IR text shows it in the "# fuses" comment and cannot read it
 * back. */
#include <string.h>

#include "../emit_ew.h"
#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_fusion_group(OpCtx *c) {
  if (!c->op->nfused) return ctx_fail(c, "a fusion_group needs the ops it fuses (IR text cannot give them)");
  for (int i = 0; i < c->op->nfused; i++) {
    Op *f = &c->g->ops[c->op->fused[i]];
    OpCtx fc = {c->g, f};
    op_clear_moves(f);
    if (!f->def || (c->g->specializing && !f->def->runtime_extents && ctx_refuse_runtime_extents(&fc)) ||
        (c->g->specializing && f->def->runtime_extents < 2 && ctx_refuse_runtime_more(&fc)) || f->def->infer(&fc))
      return -1;
  }
  return 0;
}

static int emit_fusion_group(EmitCtx *e) {
  const Graph *g = e->g;
  const Op *op = e->op;
  EwIn in[16];
  int n = 0, chain = -1;
  const char *body = "";
  for (int i = 0; i < op->nfused; i++) {
    const Op *f = &g->ops[op->fused[i]];
    const char *step;
    if (!strcmp(f->type, "fused_elemwise_activation")) return em_fail(e, "nested fused ops are not supported");
    const int x = slot_first(f->in, f->nin, "X"), y = slot_first(f->in, f->nin, "Y");
    const int o = slot_first(f->out, f->nout, "Out");
    /* the loop computes in float: a float64 chain (its ops take double) is
     * never fused (enable_auto_fusion), so one here is refused, not rounded */
    for (int k = 0; k < 3; k++) {
      const int v = k == 0 ? x : k == 1 ? y : o;
      if (v >= 0 && g->vars[v].dtype != RT_DT_FP32)
        return em_fail(e, "%s's '%s' is %s: a fusion_group computes float32 alone", f->type, g->vars[v].name,
                       rt_dtype_name(g->vars[v].dtype));
    }
    if (y < 0) { /* unary: v is the chain's value (or an outside operand) */
      const char *u = unary_float_expr(e, f, f->type), *v = pool_printf("t%d", i - 1);
      if (!u) return em_fail(e, "no C expression for %s", f->type);
      if (x != chain) {
        if (n == 16) return em_fail(e, "too many operands");
        in[n] = (EwIn){&g->vars[x], -1, pool_printf("p%d", n), pool_printf("e%d", n)};
        v = in[n++].elem;
      }
      step = pool_printf("float t%d;\n{\nconst float v = %s;\nt%d = %s;\n}", i, v, i, u);
    } else { /* binary: a and b are the chain's value or outside operands */
      const char *ab[2], *bin = binary_float_expr(f->type);
      const int xy[2] = {x, y};
      if (!bin) return em_fail(e, "no C expression for %s", f->type);
      for (int k = 0; k < 2; k++) {
        if (xy[k] == chain) {
          ab[k] = pool_printf("t%d", i - 1);
          continue;
        }
        if (n == 16) return em_fail(e, "too many operands");
        in[n] = (EwIn){&g->vars[xy[k]], attr_int(f, "axis", -1), pool_printf("p%d", n), pool_printf("e%d", n)};
        ab[k] = in[n++].elem;
      }
      step = pool_printf("float t%d;\n{\nconst float a = %s, b = %s;\nt%d = %s;\n}", i, ab[0], ab[1], i, bin);
    }
    body = pool_printf("%s%s/* %s */\n%s", body, *body ? "\n" : "", f->type, step);
    chain = o;
  }
  OpCtx c = {e->g, (Op *)op};
  (void)ctx_nin(&c, "Inputs"); /* read above, through the fused ops' own slots */
  Var *out = ctx_out(&c, "Outs", 0);
  if (!out || &g->vars[chain] != out) return em_fail(e, "the group's result is not its last op's output");
  /* run-time extents came down the chain (infer_fusion_group let only ops
   * that take them pass them on): the group's result has them, from the
   * outside operands broadcast as their ops did, checked where two meet */
  const Var *vars[16];
  int64_t axes[16];
  for (int k = 0; k < n; k++) vars[k] = in[k].v, axes[k] = in[k].axis;
  if (em_spec(e, out)->runtime_mask) tu_bcast_extents(e, out, n, vars, axes);
  return ew_nary(e, out, n, in, NULL, body, pool_printf("t%d", op->nfused - 1));
}

const OpDef op_fusion_group = {.type = "fusion_group", .infer = infer_fusion_group, .emit_c = emit_fusion_group,
                               .runtime_extents = 2};
