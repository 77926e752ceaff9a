/* while_grad (Paddle's WhileGradOp; spec 7.6, 8.1).
 *
 *   while_grad: X*, Out*, Out@GRAD*, StepScopes -> X@GRAD*; sub_block (the
 *     grad block, whose forward block is the while's body), is_test=false,
 *     original_output_grad (Out@GRAD's names inside the grad block),
 *     skip_eager_deletion_vars.
 *
 * Paddle runs the grad block once per step scope of the while, the last
 * iteration first, each on that iteration's values: the body's own vars as
 * the iteration left them, the outer vars the body writes as it found them
 * (while_steps.h: the while kept them, StepValues / StepCount, and this op
 * writes them back, StepVars).  The grads flow between the iterations by
 * name: an X@GRAD that is also an Out@GRAD (a loop var's) is the one var
 * the grad block reads at the start of a run and writes at its end; any
 * other X@GRAD (a parameter's, an input the loop only reads) is zeroed and
 * then summed over the runs from the grad block's own `<X>@GRAD`
 * (Paddle's sum op: outer + inner).  An Out@GRAD no op wrote before is
 * zeros (Paddle fills it at the first run).  Each X@GRAD has its X's dims
 * and dtype. */
#include <string.h>

#include "../attr.h"
#include "../subblock.h"
#include "../util.h"
#include "control_flow.h"
#include "ops.h"
#include "tensor_util.h"

/* Before the grad block's rules: an Out@GRAD no op wrote before (the
 * grad of a loop var the program does not use after the loop) takes the
 * dims and dtype of the X whose X@GRAD it is, an array its length too
 * (Paddle: an empty array, or zeros; the kernel fills zeros). */
static int entry_while_grad(OpCtx *c) {
  for (int i = 0; i < ctx_nin(c, "Out@GRAD"); i++) {
    Var *og = ctx_in(c, "Out@GRAD", i), *x = NULL;
    if (!og || (og->flags & VAR_INFERRED)) continue;
    for (int k = 0; k < ctx_nout(c, "X@GRAD"); k++)
      if (ctx_out(c, "X@GRAD", k) == og) x = ctx_in(c, "X", k);
    if (!x || x->vtype != og->vtype || !(x->flags & VAR_INFERRED))
      return ctx_fail(c, "Out@GRAD '%s' is read before any op writes it, and is the grad of no X paddlec knows",
                      og->name);
    og->shape = x->shape;
    og->dtype = x->dtype;
    og->flags |= VAR_INFERRED;
    og->arr_len = x->arr_len, og->arr_bounded = x->arr_bounded, og->arr_why = x->arr_why;
  }
  return 0;
}

static int infer_while_grad(OpCtx *c) {
  if (c->op->sub_block < 0 || c->op->sub_block == c->op->block) return ctx_fail(c, "has no sub_block");
  if (attr_bool(c->op, "is_test", 0)) return ctx_fail(c, "has is_test set (Paddle refuses to run it then)");
  for (int i = 0; i < ctx_nout(c, "X@GRAD"); i++) {
    Var *x = ctx_in(c, "X", i);
    if (!ctx_out(c, "X@GRAD", i)) continue;
    if (!x) return ctx_fail(c, "X@GRAD %d has no X", i);
    if (x->shape.rank >= 0 && x->vtype == VT_LOD_TENSOR) ctx_set(c, "X@GRAD", i, &x->shape, x->dtype);
  }
  return 0;
}

int while_keep(EmitCtx *e, const Op *w, const Op *wg, BranchCall *call, int grad) {
  const Slot *kept = slot_use(grad ? wg->in : w->out, grad ? wg->nin : w->nout, "StepValues");
  const Slot *count = slot_use(grad ? wg->in : w->out, grad ? wg->nin : w->nout, "StepCount");
  const Slot *vars = slot_use(wg->out, wg->nout, "StepVars");
  if (!kept || !count || !vars || kept->n != vars->n || count->n != 1 || count->vars[0] < 0)
    return em_fail(e, "the while and its while_grad do not pair (paddlec keeps no iterations for it)");
  call->count = em_ptr(e, &e->g->vars[count->vars[0]], grad);
  StepKeep *keep = pool_alloc(sizeof *keep * (size_t)(kept->n + 1));
  int64_t bound = -1;
  for (int k = 0; k < kept->n; k++) {
    const Var *a = &e->g->vars[kept->vars[k]], *v = &e->g->vars[vars->vars[k]];
    const int outer = !block_inside(e->g, v->block, w->sub_block); /* not the body's own (an outer loop's too) */
    const int64_t slots = em_const_dim(e, a, 0);
    if (slots < 0 || (bound >= 0 && slots - outer != bound))
      return em_fail(e, "the iterations kept of '%s' (%s) are not the loop's count", v->name, em_dim(e, a, 0));
    bound = slots - outer;
    keep[k] = (StepKeep){.var = em_ptr(e, v, grad ? 0 : 1), .steps = em_ptr(e, a, 0),
                         .numel = em_numel(e, v), .type = em_ctype(v->dtype), .outer = outer};
  }
  call->nkeep = kept->n, call->keep = keep;
  call->bound = bound >= 0 ? pool_printf("%lld", (long long)bound) : NULL;
  return 0;
}

/* The while whose StepScopes wg reads, or NULL. */
static const Op *forward_while(const Graph *g, const Op *wg) {
  for (int i = 0; i < g->nops; i++)
    if (!g->ops[i].removed && !strcmp(g->ops[i].type, "while") && while_steps_grad(g, &g->ops[i]) == wg)
      return &g->ops[i];
  return NULL;
}

/* 1 when an op of wg's block before wg writes var v. */
static int written_before(const Graph *g, const Op *wg, int v) {
  const Block *b = &g->blocks[wg->block];
  int pos = 0;
  while (pos < b->nops && &g->ops[b->ops[pos]] != wg) pos++;
  return block_writes(g, b, 0, pos, v);
}

static int is_out_grad(OpCtx *c, const Var *v) {
  for (int i = 0; i < ctx_nin(c, "Out@GRAD"); i++)
    if (ctx_in(c, "Out@GRAD", i) == v) return 1;
  return 0;
}

/* The grads summed over the iterations (the X@GRAD that are no
 * Out@GRAD), from the grad block's own <X>@GRAD. */
static int summed_grads(EmitCtx *e, OpCtx *c, BranchCall *call) {
  const int n = ctx_nout(c, "X@GRAD");
  StepCopy *sums = pool_alloc(sizeof *sums * (size_t)(n + 1));
  for (int i = 0; i < n; i++) {
    if (!ctx_out(c, "X@GRAD", i)) continue; /* @EMPTY@: no grad */
    Var *dx = tu_out(e, "X@GRAD", i), *x = tu_in(e, "X", i);
    if (!dx || !x) return -1;
    const Var *inner = block_own_var(e->g, e->op->sub_block, pool_printf("%s@GRAD", x->name));
    if (is_out_grad(c, dx)) continue; /* the grad block reads and writes it (while_steps.c links it) */
    if (x->vtype != VT_LOD_TENSOR)
      return em_fail(e, "X '%s' is an array the loop only reads: summing its grad is not supported yet", x->name);
    if (!inner) return em_fail(e, "its grad block makes no '%s@GRAD' to sum into X@GRAD '%s'", x->name, dx->name);
    if (inner->dtype != dx->dtype || strcmp(em_numel(e, inner), em_numel(e, dx)))
      return em_fail(e, "the grad block's '%s' is not the size and dtype of X@GRAD '%s'", inner->name, dx->name);
    sums[call->ngrads++] = (StepCopy){.dst = em_ptr(e, dx, 0), .src = em_ptr(e, inner, 1), .numel = em_numel(e, dx),
                                      .type = em_ctype(dx->dtype)};
  }
  call->grads = sums;
  return 0;
}

/* The Out@GRAD no op wrote before: zeros.  Inside the grad block they
 * go by the names original_output_grad gives, here the same vars. */
static int zeroed_out_grads(EmitCtx *e, OpCtx *c, BranchCall *call) {
  const int n = ctx_nin(c, "Out@GRAD");
  char *const *inside;
  if (attr_strs(e->op, "original_output_grad", &inside) != n)
    return em_fail(e, "original_output_grad does not name one var per Out@GRAD");
  for (int i = 0; i < n; i++) {
    const Var *og = ctx_in(c, "Out@GRAD", i);
    if (og && strcmp(inside[i], og->name))
      return em_fail(e, "Out@GRAD '%s' goes by '%s' inside its grad block: not supported yet", og->name, inside[i]);
  }
  StepCopy *zero = pool_alloc(sizeof *zero * (size_t)(n + 1));
  for (int i = 0; i < n; i++) {
    Var *og = tu_in(e, "Out@GRAD", i);
    if (!og) return -1;
    if (written_before(e->g, e->op, (int)(og - e->g->vars))) continue;
    zero[call->nzero] = (StepCopy){.dst = em_ptr(e, og, 0), .numel = em_numel(e, og), .type = em_ctype(og->dtype)};
    if (og->vtype == VT_LOD_TENSOR_ARRAY) /* Paddle: an empty array, whose elements read as zeros */
      zero[call->nzero].src = em_array_len(e, og), zero[call->nzero].src2 = em_dim(e, og, 0);
    call->nzero++;
  }
  call->zero = zero;
  return 0;
}

static int emit_while_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  const Op *w = forward_while(e->g, e->op);
  if (!w && e->op->block != 0)
    return em_fail(e, "a loop inside a trained loop (while_grad inside a grad block) is not supported yet");
  if (!w) return em_fail(e, "no while of its block writes its StepScopes");
  BranchCall call = {.kind = BRANCH_WHILE_GRAD};
  if (while_keep(e, w, e->op, &call, 1) || summed_grads(e, &c, &call) || zeroed_out_grads(e, &c, &call)) return -1;
  if (cf_block_calls(e, &call)) return -1;
  branch_print_c(e->p, &call);
  return 0;
}

/* Out: the forward's results, which the grad block reads itself where it
 * needs them; StepScopes: Paddle's step scopes (here StepValues). */
static const char *const while_grad_ignores[] = {"Out", "StepScopes", NULL};
/* skip_eager_deletion_vars: which vars Paddle's garbage collector keeps. */
static const char *const while_grad_attr_ignores[] = {"skip_eager_deletion_vars", NULL};
const OpDef op_while_grad = {.type = "while_grad", .infer = infer_while_grad, .infer_entry = entry_while_grad,
                             .emit_c = emit_while_grad,
                             .ignores = while_grad_ignores, .attr_ignores = while_grad_attr_ignores};
