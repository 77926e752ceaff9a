/* Control-flow ops (spec 7.6).  The driver (infer.c) runs the rules of an
 * op's sub-block before the op itself, so every outer variable the sub-block
 * writes (through assign, or any op whose output lives in a parent block)
 * already has the shape the sub-block gives it.  Paddle registers no
 * InferShape for these ops either: their outputs keep what the sub-block or
 * the Python front end declared, and the rules below only check the inputs.
 *
 *   conditional_block: Cond*, Input* -> Out*, Scope; sub_block:BLOCK (very
 *     old files: `block`, inputs X and Params), is_scalar_condition=false,
 *     skip_eager_deletion_vars=[].  With is_scalar_condition, Cond[0] is a
 *     one-element bool tensor.
 *   conditional_block_infer: the same op in inference programs (no Scope).
 *   while: X*, Condition -> Out*, StepScopes; sub_block:BLOCK, is_test=false,
 *     skip_eager_deletion_vars=[].  Condition is a one-element bool tensor.
 *   recurrent (StaticRNN): inputs*, initial_states*, parameters* -> outputs*,
 *     step_scopes; sub_block, ex_states, states, reverse=false, is_train=true,
 *     has_states=false.  Paddle's RecurrentOp: every input is time-major
 *     [T, ...] (one T); at step i (time t = i, or T - 1 - i with reverse)
 *     the step block's var of an input's name holds its slice t, each
 *     ex_states var the matching initial state (i = 0) or the states var of
 *     step i - 1, and after the block ran, slice t of each output is the
 *     step block's var of its name (StepLinks, subblock.h).  The rules: the
 *     step vars are bound before the block's rules (entry_recurrent), each
 *     state keeps its ex-state's dims and dtype, each output is [T] ++ its
 *     step var's dims.
 *   select_input: X*, Mask (int32, one element) -> Out.  Out = X[Mask].  Paddle
 *     has no InferShape; the Python front end declares Out: up to 2.3 with
 *     X[0]'s shape and dtype, since 2.4 with the dims of X[0] and X[1] merged
 *     (equal dims kept, others -1; X[1]'s shape if the ranks differ) and
 *     X[1]'s dtype.  The rule computes the same, so a branch result of a
 *     different shape shows as unknown dims.
 *   select_output: X, Mask -> Out*.  Out[Mask] = X.  No InferShape; the outputs
 *     (grads of the branch results, in cond's backward) keep their declared
 *     shapes, which may be more precise than X's (while specializing, X's
 *     where those fit: the batch).
 *   conditional_block_grad: see infer_conditional_block_grad.
 * Emission: select_input copies X[Mask] to Out (every X of Out's dtype and
 * size), select_output X to Out[Mask] (every Out of X's).  A Mask outside
 * [0, n), where Paddle stops with an error, stops the run of either.  while and conditional_block run
 * their sub-blocks' kernels in a C loop or branch (branch_call.h,
 * subblock.h); cond_inline.c turns the small conditional blocks of
 * training programs' learning-rate schedules into straight-line code ending
 * in select_input.  recurrent runs its step block's kernels in a C loop
 * over the time steps, copying the step inputs, states and outputs
 * (BRANCH_STEPS). */
#include <string.h>

#include "../subblock.h"
#include "../util.h"
#include "control_flow.h"
#include "ops.h"
#include "tensor_util.h"

/* Python's select_input() merges the branch shapes since Paddle 2.4
 * (PaddlePaddle/Paddle#45916, cherry-picked to 2.4 as #46020). */
#define PADDLE_SELECT_INPUT_MERGE 2004000

enum { DT_BOOL = 0, DT_INT32 = 2, DT_INT64 = 3 };

/* A condition or mask input: one element (when known) of an allowed dtype. */
static int check_scalar(OpCtx *c, const char *slot, int dt1, int dt2) {
  Var *v = ctx_need(c, slot, 0);
  if (!v) return -1;
  int64_t n = shape_numel(&v->shape);
  if (n >= 0 && n != 1)
    return ctx_fail(c, "%s ('%s') has %lld elements, expected 1", slot, v->name, (long long)n);
  if (v->dtype != dt1 && v->dtype != dt2)
    return ctx_fail(c, "%s ('%s') has dtype %d", slot, v->name, v->dtype);
  return 0;
}

static int check_sub_block(OpCtx *c) {
  if (c->op->sub_block < 0 || c->op->sub_block == c->op->block)
    return ctx_fail(c, "has no sub_block");
  return 0;
}

static int infer_conditional_block(OpCtx *c) {
  if (check_sub_block(c)) return -1;
  /* very old files name the condition X (and the inputs Params) */
  if (!ctx_nin(c, "Cond") && !ctx_nin(c, "X")) return ctx_fail(c, "input Cond is missing");
  const char *cond = ctx_nin(c, "Cond") ? "Cond" : "X";
  if (attr_bool(c->op, "is_scalar_condition", 0)) return check_scalar(c, cond, DT_BOOL, DT_BOOL);
  return 0;
}

/* Sets inner var v to the shape s and dtype of a tensor the op gives it. */
static void bind_inner(Var *v, const Shape *s, int dtype) {
  v->shape = *s;
  v->dtype = dtype;
  v->nvals = -1;
  v->flags = (v->flags | VAR_INFERRED) & ~(unsigned)VAR_RUNTIME_EXTENT;
}

/* A training program's while: each array that keeps a var's iterations
 * (while_steps.h) has elements of that var's dims and dtype, its length set
 * by array_len_loop; the count of iterations is int64 [1]. */
static int infer_while_steps(OpCtx *c) {
  const Slot *kept = slot_use(c->op->out, c->op->nout, "StepValues");
  if (!slot_use(c->op->out, c->op->nout, "StepCount")) return 0;
  const Op *wg = while_steps_grad(c->g, c->op);
  const Slot *vars = wg ? slot_find(wg->out, wg->nout, "StepVars") : NULL;
  if (!kept || !vars || kept->n != vars->n) return ctx_fail(c, "its while_grad does not pair with it");
  for (int k = 0; k < kept->n; k++) {
    const Var *v = &c->g->vars[vars->vars[k]];
    if (v->shape.rank < 0) return ctx_fail(c, "keeps '%s' for its while_grad, which has no known shape", v->name);
    if (var_runtime_axis(v) >= 0)
      return ctx_fail(c, "keeps '%s' for its while_grad, whose dim %d only the run knows: not supported yet", v->name,
                      v->runtime_axis);
    bind_inner(&c->g->vars[kept->vars[k]], &v->shape, v->dtype);
  }
  const Shape one = {1, {1}};
  ctx_set(c, "StepCount", 0, &one, DT_INT64);
  return 0;
}

/* The loop takes inputs whose sizes the run gives (a range over a fed
 * count: dy2static's `for k in range(n)`) where its body only reads them:
 * their extents hold for every iteration. */
static int loop_reads_run_sizes(OpCtx *c) {
  const Block *body = &c->g->blocks[c->op->sub_block];
  for (int i = 0; i < ctx_nin(c, "X"); i++) {
    const Var *x = ctx_in(c, "X", i);
    if (!x || !var_runtime_mask(x)) continue;
    if (block_writes(c->g, body, 0, body->nops, (int)(x - c->g->vars)))
      return ctx_fail(c, "its body writes '%s', whose dim %d only the run knows (from its %s): a loop var of such "
                      "sizes is not supported yet", x->name, var_runtime_axis(x),
                      x->runtime_from ? x->runtime_from : "inputs");
  }
  return 0;
}

static int infer_while(OpCtx *c) {
  if (check_sub_block(c)) return -1;
  if (infer_while_steps(c) || loop_reads_run_sizes(c)) return -1;
  return check_scalar(c, "Condition", DT_BOOL, DT_BOOL);
}

/* recurrent, before its step block's rules: each step input is one time
 * step of its outer input (the dims after the first), each ex-state its
 * initial state; the outer inputs agree on T. */
static int entry_recurrent(OpCtx *c) {
  StepLinks l;
  const char *why;
  if (check_sub_block(c)) return -1;
  if (step_links(c->g, c->op, &l, &why)) return ctx_fail(c, "%s", why);
  if (!l.nin) return ctx_fail(c, "has no inputs (Paddle: \"RecurrentOp gets empty input\")");
  int64_t steps = DIM_UNKNOWN;
  for (int k = 0; k < l.nin; k++) {
    const Var *x = &c->g->vars[l.in_outer[k]];
    if (x->shape.rank < 1) return ctx_fail(c, "input '%s' %s has no time dim", x->name, shape_str(&x->shape));
    if (k && x->shape.d[0] >= 0 && steps >= 0 && x->shape.d[0] != steps)
      return ctx_fail(c, "inputs of %lld and %lld time steps ('%s')", (long long)steps, (long long)x->shape.d[0],
                      x->name);
    if (x->shape.d[0] >= 0) steps = x->shape.d[0];
    Shape s = {x->shape.rank - 1, {0}};
    memcpy(s.d, x->shape.d + 1, sizeof s.d[0] * (size_t)s.rank);
    bind_inner(&c->g->vars[l.in_inner[k]], &s, x->dtype);
  }
  for (int k = 0; k < l.nstate; k++) {
    const Var *init = &c->g->vars[l.init[k]];
    if (init->shape.rank < 0) return ctx_fail(c, "initial state '%s' has no known shape", init->name);
    bind_inner(&c->g->vars[l.ex_state[k]], &init->shape, init->dtype);
  }
  return 0;
}

/* recurrent, after its step block's rules: each state keeps its
 * ex-state's dims and dtype; each output is [T] ++ its step's. */
static int infer_recurrent(OpCtx *c) {
  StepLinks l;
  const char *why;
  if (step_links(c->g, c->op, &l, &why)) return ctx_fail(c, "%s", why);
  for (int k = 0; k < l.nstate; k++) {
    const Var *ex = &c->g->vars[l.ex_state[k]], *cur = &c->g->vars[l.state[k]];
    if (!(cur->flags & VAR_INFERRED)) return ctx_fail(c, "its step block does not write state '%s'", cur->name);
    if (cur->dtype != ex->dtype || !shape_equal(&cur->shape, &ex->shape))
      return ctx_fail(c, "state '%s' is %s %s, its ex_state '%s' %s %s: a state must keep its shape and dtype",
                      cur->name, rt_dtype_name(cur->dtype), shape_str(&cur->shape), ex->name,
                      rt_dtype_name(ex->dtype), shape_str(&ex->shape));
  }
  const int64_t steps = c->g->vars[l.in_outer[0]].shape.d[0];
  for (int k = 0; k < l.nout; k++) {
    const Var *o = &c->g->vars[l.out_inner[k]];
    if (!(o->flags & VAR_INFERRED)) return ctx_fail(c, "its step block does not write output '%s'", o->name);
    if (o->shape.rank + 1 > RT_MAX_RANK) return ctx_fail(c, "output '%s' has too many dims", o->name);
    Shape s = {o->shape.rank + 1, {steps}};
    memcpy(s.d + 1, o->shape.d, sizeof s.d[0] * (size_t)o->shape.rank);
    ctx_set(c, "outputs", k, &s, o->dtype);
  }
  return 0;
}

static int infer_select_input(OpCtx *c) {
  int n = ctx_nin(c, "X");
  if (n < 1) return ctx_fail(c, "input X is missing");
  if (check_scalar(c, "Mask", DT_INT32, DT_INT64)) return -1;
  Var *first = ctx_need(c, "X", 0);
  if (!first) return -1;
  if (c->g->version > 0 && c->g->version < PADDLE_SELECT_INPUT_MERGE) {
    ctx_set(c, "Out", 0, &first->shape, first->dtype);
    return 0;
  }
  Shape s = first->shape;
  int dtype = first->dtype;
  for (int i = 1; i < n; i++) {
    Var *x = ctx_need(c, "X", i);
    if (!x) return -1;
    dtype = x->dtype;
    if (x->shape.rank != s.rank) {
      s = x->shape;
      continue;
    }
    for (int k = 0; k < s.rank; k++)
      if (s.d[k] != x->shape.d[k]) s.d[k] = DIM_UNKNOWN;
  }
  ctx_set(c, "Out", 0, &s, dtype);
  return 0;
}

/* While specializing, an output whose declared dims fit X's (each -1 or
 * equal) takes X's: the run copies X into it (cond's backward declares the
 * branch results' grads with -1 for the batch). */
static int infer_select_output(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  if (!ctx_nout(c, "Out")) return ctx_fail(c, "output Out is missing");
  for (int i = 0; c->g->specializing && i < ctx_nout(c, "Out"); i++) {
    Var *o = ctx_out(c, "Out", i);
    int fits = o && o->decl.rank == x->shape.rank && o->decl_dtype == x->dtype;
    for (int d = 0; fits && d < x->shape.rank; d++) fits = o->decl.d[d] < 0 || o->decl.d[d] == x->shape.d[d];
    if (fits) ctx_set(c, "Out", i, &x->shape, x->dtype);
  }
  return check_scalar(c, "Mask", DT_INT32, DT_INT64);
}

int cf_block_calls(EmitCtx *e, BranchCall *call) {
  const Graph *g = e->g;
  const Block *b = &g->blocks[e->op->sub_block];
  const char **calls = pool_alloc(sizeof *calls * (size_t)(b->nops ? b->nops : 1));
  int *faults = pool_alloc(sizeof *faults * (size_t)(b->nops ? b->nops : 1)), n = 0, bad = 0;
  const char *why = NULL;
  for (int k = 0; k < b->nops; k++) {
    const int id = b->ops[k];
    if (g->ops[id].removed) continue;
    const char *fault, *fn = pool_printf("%s_%d_%s", e->kernel, n + 1, g->ops[id].type);
    calls[n] = em_sub_kernel(e, id, fn, &fault);
    if (!calls[n]) {
      bad = 1;
      continue;
    }
    faults[n] = fault != NULL;
    if (fault) why = why ? pool_printf("%s; or %s: %s", why, fn, fault) : pool_printf("%s: %s", fn, fault);
    n++;
  }
  if (bad) return -1;
  if (why) em_fault(e, why);
  /* the block's kernels computed the op's outputs */
  for (int s = 0; s < e->op->nout; s++)
    for (int a = 0; a < e->op->out[s].n; a++)
      if (e->op->out[s].vars[a] >= 0) em_wrote(e, &g->vars[e->op->out[s].vars[a]]);
  call->ncalls = n, call->calls = calls, call->faults = faults;
  return 0;
}

/* The sub-block's kernels, run while or if the condition holds. */
static int emit_block(EmitCtx *e, BranchKind kind, const char *cond) {
  BranchCall call = {.kind = kind, .cond = cond};
  if (cf_block_calls(e, &call)) return -1;
  branch_print_c(e->p, &call);
  return 0;
}

/* Paddle's condition: the one bool of Cond (is_scalar_condition), else
 * every Cond tensor holding at least one element; NULL after em_fail. */
static const char *block_cond(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  const char *slot = ctx_nin(&c, "Cond") ? "Cond" : "X";
  const char *cond = "";
  if (attr_bool(e->op, "is_scalar_condition", 0)) {
    Var *v = tu_in(e, slot, 0);
    return v ? pool_printf("%s[0]", em_ptr(e, v, 1)) : NULL;
  }
  for (int i = 0; i < ctx_nin(&c, slot); i++) {
    Var *v = tu_in(e, slot, i);
    if (!v) return NULL;
    cond = pool_printf("%s%s%s != 0", cond, *cond ? " && " : "", em_numel(e, v));
  }
  return *cond ? cond : "1";
}

static int emit_conditional_block(EmitCtx *e) {
  const char *cond = block_cond(e);
  return cond ? emit_block(e, BRANCH_IF, cond) : -1;
}

/* conditional_block_grad: Cond, Input*, Out*, Out@GRAD*, Scope ->
 * Input@GRAD*; the forward's attributes, sub_block the grad block (whose
 * ops read the forward block's vars: graph_find_var follows
 * forward_block_idx).  Each Input@GRAD has its Input's dims and dtype. */
static int infer_conditional_block_grad(OpCtx *c) {
  if (infer_conditional_block(c)) return -1;
  for (int i = 0; i < ctx_nout(c, "Input@GRAD"); i++) {
    Var *x = ctx_in(c, "Input", i);
    if (!ctx_out(c, "Input@GRAD", i)) continue;
    if (!x) return ctx_fail(c, "Input@GRAD %d has no Input", i);
    if (x->shape.rank >= 0) ctx_set(c, "Input@GRAD", i, &x->shape, x->dtype);
  }
  return 0;
}

static int emit_conditional_block_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  const char *cond = block_cond(e);
  if (!cond) return -1;
  BranchCall call = {.kind = BRANCH_GRAD, .cond = cond};
  const int n = ctx_nout(&c, "Input@GRAD");
  StepCopy *grads = pool_alloc(sizeof *grads * (size_t)(n + 1));
  for (int i = 0; i < n; i++) {
    if (!ctx_out(&c, "Input@GRAD", i)) continue; /* an input without a grad (@EMPTY@) */
    Var *dx = tu_out(e, "Input@GRAD", i), *x = tu_in(e, "Input", i);
    if (!dx || !x) return -1;
    /* Paddle looks it up in the block's local scope (AssignLocalGradientToParentScope) */
    const Var *inner = block_own_var(e->g, e->op->sub_block, pool_printf("%s@GRAD", x->name));
    if (inner && (inner->dtype != dx->dtype || strcmp(em_numel(e, inner), em_numel(e, dx))))
      return em_fail(e, "the grad block's '%s' is not the size and dtype of Input@GRAD '%s'", inner->name, dx->name);
    grads[call.ngrads++] = (StepCopy){.dst = em_ptr(e, dx, 0), .src = inner ? em_ptr(e, inner, 1) : NULL,
                                      .numel = em_numel(e, dx), .type = em_ctype(dx->dtype)};
  }
  call.grads = grads;
  if (cf_block_calls(e, &call)) return -1;
  branch_print_c(e->p, &call);
  return 0;
}

/* The copy of `inner`'s elements between an inner var and an outer one
 * (src2: an ex-state's source after the first step). */
static StepCopy step_copy(EmitCtx *e, const Var *dst, const Var *src, const Var *src2, const Var *inner) {
  StepCopy c = {.dst = em_ptr(e, dst, 0), .src = em_ptr(e, src, 1), .src2 = src2 ? em_ptr(e, src2, 1) : NULL};
  if (inner) c.numel = em_numel(e, inner), c.type = em_ctype(inner->dtype);
  return c;
}

/* recurrent: a C loop over the time steps around the step block's kernels
 * (BRANCH_STEPS). */
static int emit_recurrent(EmitCtx *e) {
  const Graph *g = e->g;
  StepLinks l;
  const char *why;
  OpCtx c = {e->g, (Op *)e->op};
  (void)ctx_nin(&c, "inputs"), (void)ctx_nin(&c, "initial_states"); /* read through step_links */
  if (step_links(g, e->op, &l, &why)) return em_fail(e, "%s", why);
  BranchCall call = {.kind = BRANCH_STEPS, .reverse = attr_bool(e->op, "reverse", 0), .nin = l.nin,
                     .nstate = l.nstate, .nout = l.nout};
  StepCopy *in = pool_alloc(sizeof *in * (size_t)(l.nin + 1)), *st = pool_alloc(sizeof *st * (size_t)(l.nstate + 1));
  StepCopy *out = pool_alloc(sizeof *out * (size_t)(l.nout + 1));
  call.steps = em_dim(e, &g->vars[l.in_outer[0]], 0);
  for (int k = 0; k < l.nin; k++) {
    const Var *x = &g->vars[l.in_outer[k]];
    if (strcmp(em_dim(e, x, 0), call.steps))
      return em_fail(e, "input '%s' has %s time steps, the first input %s", x->name, em_dim(e, x, 0), call.steps);
    in[k] = step_copy(e, &g->vars[l.in_inner[k]], x, NULL, &g->vars[l.in_inner[k]]);
  }
  for (int k = 0; k < l.nstate; k++)
    st[k] = step_copy(e, &g->vars[l.ex_state[k]], &g->vars[l.init[k]], &g->vars[l.state[k]], &g->vars[l.ex_state[k]]);
  for (int k = 0; k < l.nout; k++)
    out[k] = step_copy(e, &g->vars[l.out_outer[k]], &g->vars[l.out_inner[k]], NULL, &g->vars[l.out_inner[k]]);
  call.step_in = in, call.step_state = st, call.step_out = out;
  if (cf_block_calls(e, &call)) return -1;
  branch_print_c(e->p, &call);
  return 0;
}

/* A training program's while keeps each iteration's values for its
 * while_grad (while_steps.h). */
static int emit_while(EmitCtx *e) {
  Var *v = tu_in(e, "Condition", 0);
  if (!v) return -1;
  BranchCall call = {.kind = BRANCH_WHILE, .cond = pool_printf("%s[0]", em_ptr(e, v, 1))};
  const Op *wg = while_steps_grad(e->g, e->op);
  if (wg && while_keep(e, e->op, wg, &call, 0)) return -1;
  if (cf_block_calls(e, &call)) return -1;
  if (call.bound) {
    const char *why = e->g->max_iterations > 0
                          ? pool_printf("while: more iterations than the compiler counted or --max-iterations %lld allows",
                                        (long long)e->g->max_iterations)
                          : "while: more iterations than the compiler counted";
    em_fault(e, e->fault ? pool_printf("%s; or %s", e->fault, why) : why);
  }
  branch_print_c(e->p, &call);
  return 0;
}

/* Input / X list the outer vars the sub-block reads, for Paddle's executor
 * (which vars to keep alive, and to share with the step scopes); the
 * sub-block's ops read them themselves, and the kernel's memory plan and
 * order follow from those reads (subblock.h). */
static const char *const cond_ignores[] = {"Input", "Params", NULL};
static const char *const while_ignores[] = {"X", NULL};
/* is_test: Paddle then keeps no step scopes for a backward pass; the
 * forward values are the same. */
static const char *const while_attr_ignores[] = {"is_test", NULL};

const OpDef op_conditional_block = {.type = "conditional_block", .infer = infer_conditional_block,
                                    .emit_c = emit_conditional_block, .ignores = cond_ignores};
const OpDef op_conditional_block_infer = {.type = "conditional_block_infer", .infer = infer_conditional_block,
                                          .emit_c = emit_conditional_block, .ignores = cond_ignores};
/* Out: the forward's results, which the grad block reads itself when it
 * needs them; Out@GRAD: read by the grad block's ops; Scope: the
 * forward's scope in Paddle's executor (here its vars stay planned). */
static const char *const cond_grad_ignores[] = {"Out", "Out@GRAD", "Scope", NULL};
const OpDef op_conditional_block_grad = {.type = "conditional_block_grad", .infer = infer_conditional_block_grad,
                                         .emit_c = emit_conditional_block_grad, .ignores = cond_grad_ignores};
const OpDef op_while = {.type = "while", .infer = infer_while, .emit_c = emit_while, .ignores = while_ignores,
                        .attr_ignores = while_attr_ignores, .runtime_extents = 2};
/* parameters: the outer vars the step block reads (its ops read them
 * themselves); step_scopes: Paddle's executor's. */
static const char *const recurrent_ignores[] = {"parameters", NULL};
/* is_train: whether Paddle keeps every step's scope for a backward pass;
 * skip_eager_deletion_vars: which vars its garbage collector keeps.  The
 * forward values are the same. */
static const char *const recurrent_attr_ignores[] = {"is_train", "skip_eager_deletion_vars", NULL};
const OpDef op_recurrent = {.type = "recurrent", .infer = infer_recurrent, .infer_entry = entry_recurrent,
                            .emit_c = emit_recurrent, .ignores = recurrent_ignores,
                            .attr_ignores = recurrent_attr_ignores};
static int emit_select_input(EmitCtx *e) {
  Var *mask = tu_in(e, "Mask", 0), *out = tu_out(e, "Out", 0);
  if (!mask || !out) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  const int n = ctx_nin(&c, "X");
  const char **xs = pool_alloc(sizeof *xs * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++) {
    Var *x = tu_in(e, "X", i);
    if (!x) return -1;
    if (x->dtype != out->dtype || strcmp(em_numel(e, x), em_numel(e, out)))
      return em_fail(e, "X[%d] ('%s') is %s%s, Out is %s%s: branches of another size or dtype are not supported", i,
                     x->name, rt_dtype_name(x->dtype), shape_str(&x->shape), rt_dtype_name(out->dtype),
                     shape_str(&out->shape));
    xs[i] = em_ptr(e, x, 1);
  }
  BranchCall call = {.kind = BRANCH_SELECT_INPUT, .type = em_ctype(out->dtype), .n = n, .x = xs};
  call.mask = em_ptr(e, mask, 1);
  call.out = em_ptr(e, out, 0);
  call.numel = em_numel(e, out);
  em_fault(e, "select_input: Mask names no input");
  branch_print_c(e->p, &call);
  return 0;
}

const OpDef op_select_input = {.type = "select_input", .infer = infer_select_input, .emit_c = emit_select_input};
static int emit_select_output(EmitCtx *e) {
  Var *mask = tu_in(e, "Mask", 0), *x = tu_in(e, "X", 0);
  if (!mask || !x) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  const int n = ctx_nout(&c, "Out");
  const char **outs = pool_alloc(sizeof *outs * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++) {
    Var *o = tu_out(e, "Out", i);
    if (!o) return -1;
    if (o->dtype != x->dtype || strcmp(em_numel(e, o), em_numel(e, x)))
      return em_fail(e, "Out[%d] ('%s') is %s%s, X is %s%s: outputs of another size or dtype are not supported", i,
                     o->name, rt_dtype_name(o->dtype), shape_str(&o->shape), rt_dtype_name(x->dtype),
                     shape_str(&x->shape));
    outs[i] = em_ptr(e, o, 0);
  }
  const char *xp = em_ptr(e, x, 1);
  BranchCall call = {.kind = BRANCH_SELECT_OUTPUT, .type = em_ctype(x->dtype), .n = n, .x = &xp, .outs = outs};
  call.mask = em_ptr(e, mask, 1);
  call.numel = em_numel(e, x);
  em_fault(e, "select_output: Mask names no output");
  branch_print_c(e->p, &call);
  return 0;
}

const OpDef op_select_output = {.type = "select_output", .infer = infer_select_output, .emit_c = emit_select_output};
