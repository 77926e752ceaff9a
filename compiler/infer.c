/* Shape and dtype inference (see infer.h). */
#include "infer.h"

#include <string.h>

#include "array_len.h"
#include "consteval.h"
#include "diag.h"
#include "ops/ops.h"
#include "subblock.h"
#include "util.h"

static int infer_block(Graph *g, int b, InferReport *r, int *ucap, int depth);

/* Every output an op's rule shaped has a size that fits (graph.h): dims
 * computed from attributes (fill_constant, expand, tile, ...) may not. */
static int check_sizes(const Graph *g, const Op *op) {
  int bad = 0;
  for (int s = 0; s < op->nout; s++)
    for (int k = 0; k < op->out[s].n; k++) {
      const int id = op->out[s].vars[k];
      if (id < 0) continue;
      const Var *v = &g->vars[id];
      const char *why = shape_size_problem(&v->shape, v->dtype, 0);
      if (why) bad = diag_error("%s: %s: output '%s': %s", g->file, graph_op_where(g, op), v->name, why);
    }
  return bad ? -1 : 0;
}

/* 1 when block b is `root` or nested in it. */
static int block_within(const Graph *g, int b, int root) {
  for (int n = 0; b >= 0 && b < g->nblocks && n < 64; n++, b = g->blocks[b].parent)
    if (b == root) return 1;
  return 0;
}

/* The vars outside a control-flow op's sub-block that the sub-block
 * writes, with what they were before it ran. */
typedef struct Carried {
  const Graph *g;
  int root;   /* the sub-block */
  int n, cap;
  int *ids;
  Var *before;
} Carried;

static void carry(void *ctx, int id, int write) {
  Carried *c = ctx;
  const Var *v = &c->g->vars[id];
  if (!write || block_within(c->g, v->block, c->root)) return;
  for (int k = 0; k < c->n; k++)
    if (c->ids[k] == id) return;
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 8;
    int *ids = pool_alloc(sizeof *ids * (size_t)c->cap);
    Var *before = pool_alloc(sizeof *before * (size_t)c->cap);
    if (c->n) {
      memcpy(ids, c->ids, sizeof *ids * (size_t)c->n);
      memcpy(before, c->before, sizeof *before * (size_t)c->n);
    }
    c->ids = ids;
    c->before = before;
  }
  c->ids[c->n] = id;
  c->before[c->n++] = *v;
}

/* Before a while's sub-block is inferred: the vars it carries from one
 * iteration to the next lose their compile-time values (consteval.h), so
 * that no op of the body folds the first iteration's. */
static void forget_values(Graph *g, const Carried *c) {
  for (int k = 0; k < c->n; k++) g->vars[c->ids[k]].nvals = -1;
}

/* Whether var v is the Condition of while `w` and no op but w reads it:
 * only its one value matters then, not its rank (dynamic_decode's loop
 * condition is bool [] before the loop and [1] in it). */
static int only_the_condition(const Graph *g, const Op *w, int v) {
  if (strcmp(w->type, "while") || slot_first(w->in, w->nin, "Condition") != v) return 0;
  for (int u = 0; u < g->vars[v].nusers; u++)
    if (&g->ops[g->vars[v].users[u]] != w) return 0;
  return 1;
}

/* After a control-flow op and its sub-block: an outer var the sub-block
 * writes keeps the dtype and shape it had before (a loop that changes a
 * shape, or a branch that gives a var another one, leaves a tensor whose
 * size only the run knows: refused until run-time shapes are planned), and
 * has no compile-time value after it (the branch may not run, the loop runs
 * a number of times only the run knows).  A loop's condition may go from
 * [] to [1] (only_the_condition). */
static int check_carried(Graph *g, const Op *op, const Carried *c) {
  int bad = 0;
  for (int k = 0; k < c->n; k++) {
    Var *v = &g->vars[c->ids[k]];
    const Var *b = &c->before[k];
    v->nvals = -1;
    if (!(b->flags & (VAR_INFERRED | VAR_FEED | VAR_LOADED)) || b->shape.rank < 0) continue;
    if (v->dtype == b->dtype && shape_equal(&v->shape, &b->shape)) continue;
    if (v->arr_rows && v->dtype == b->dtype && v->shape.rank == b->shape.rank && v->shape.rank >= 1 &&
        !memcmp(v->shape.d + 1, b->shape.d + 1, sizeof v->shape.d[0] * (size_t)(v->shape.rank - 1)))
      continue; /* an array whose elements' rows the body grew (infer_loop_body) */
    if (v->dtype == b->dtype && only_the_condition(g, op, c->ids[k]) && shape_numel(&v->shape) == 1 &&
        shape_numel(&b->shape) == 1)
      continue; /* [] before the loop, [1] in it: one element all the same */
    if (g->specializing && v->dtype == b->dtype && (shape_numel(&v->shape) < 0 || shape_numel(&b->shape) < 0))
      continue; /* dims only the run knows: spec.c reports them where they come from */
    bad = diag_error("%s: %s: its block writes '%s' as %s %s, which is %s %s before it: a %s that changes a "
                     "tensor's shape or dtype is not supported yet",
                     g->file, graph_op_where(g, op), v->name, rt_dtype_name(v->dtype) ? rt_dtype_name(v->dtype) : "?",
                     shape_str(&v->shape), rt_dtype_name(b->dtype) ? rt_dtype_name(b->dtype) : "?",
                     shape_str(&b->shape), strcmp(op->type, "while") ? "branch" : "loop");
  }
  return bad;
}

enum { GROW_PASSES = 8 }; /* a loop's body inferred at most this often */

/* A tensor array of elements whose rows vary may grow them in a loop's
 * body (Var.arr_rows: the most rows a write brings), which the reads at
 * the top of the body see only on the next trip: 1 when such an array the
 * loop carries has more rows than rows[k] (then updated; -1 while the
 * array was one of plain tensors). */
static int arrays_grew(const Graph *g, const Carried *c, int64_t *rows) {
  int grew = 0;
  for (int k = 0; k < c->n; k++) {
    const Var *v = &g->vars[c->ids[k]];
    if (!v->arr_rows || v->shape.rank < 1 || v->shape.d[0] <= rows[k]) continue;
    rows[k] = v->shape.d[0];
    grew = 1;
  }
  return grew;
}

/* A while's sub-block, inferred again while the arrays of rows it writes
 * grow their elements' rows (at most GROW_PASSES times: the rows
 * the reads see settle at the most the writes bring). */
static int infer_loop_body(Graph *g, const Op *op, const Carried *c, InferReport *r, int *ucap, int depth) {
  int64_t *rows = pool_alloc(sizeof *rows * ((size_t)c->n + 1));
  for (int k = 0; k < c->n; k++) {
    const Var *b = &c->before[k];
    rows[k] = b->arr_rows && b->shape.rank >= 1 ? b->shape.d[0] : -1;
  }
  int bad = 0;
  for (int pass = 0;; pass++) {
    const int failed = r->nfailed;
    bad |= infer_block(g, op->sub_block, r, ucap, depth + 1);
    if (bad || r->nfailed != failed || r->overflow || !g->specializing || strcmp(op->type, "while") ||
        !arrays_grew(g, c, rows))
      return bad;
    if (pass + 1 == GROW_PASSES) {
      r->nfailed++;
      return diag_error("%s: %s: the rows of the LoD tensors its body writes into an array still grow after %d "
                        "passes over the body: paddlec cannot bound them", g->file, graph_op_where(g, op),
                        GROW_PASSES);
    }
  }
}

static int infer_op(Graph *g, int id, InferReport *r, int *ucap, int depth) {
  Op *op = &g->ops[id];
  int bad = 0;
  Carried carried = {g, op->sub_block, 0, 0, NULL, NULL};
  const int runs = op_runs_block(g, op) && depth < 64;
  if (runs) {
    op_each_var(g, op, carry, &carried);
    if (!strcmp(op->type, "while")) forget_values(g, &carried);
  }
  if (runs && op->def && op->def->infer_entry) {
    OpCtx c = {g, op};
    if (op->def->infer_entry(&c)) {
      r->nfailed++;
      return -1;
    }
  }
  if (op->sub_block >= 0 && op->sub_block != op->block && depth < 64)
    bad |= runs ? infer_loop_body(g, op, &carried, r, ucap, depth) : infer_block(g, op->sub_block, r, ucap, depth + 1);
  if (!op->def) {
    VEC_PUSH(r->unknown, r->nunknown, *ucap, id);
    return bad;
  }
  /* a loaded parameter the op writes (in place, like batch_norm's
   * VarianceOut) keeps the dtype and element count of its data */
  int nout = 0;
  for (int s = 0; s < op->nout; s++) nout += op->out[s].n;
  Var **pv = pool_alloc(sizeof *pv * (size_t)(nout + 1));
  Var *before = pool_alloc(sizeof *before * (size_t)(nout + 1));
  int np = 0;
  for (int s = 0; s < op->nout; s++)
    for (int a = 0; a < op->out[s].n; a++)
      if (op->out[s].vars[a] >= 0 && (g->vars[op->out[s].vars[a]].flags & VAR_LOADED)) {
        pv[np] = &g->vars[op->out[s].vars[a]];
        before[np] = *pv[np];
        np++;
      }
  OpCtx c = {g, op};
  if (g->specializing && ((!op->def->runtime_extents && ctx_refuse_runtime_extents(&c)) ||
                           (op->def->runtime_extents < 2 && ctx_refuse_runtime_more(&c)))) {
    r->nfailed++;
    return -1;
  }
  op_clear_moves(op);
  if (op->def->infer(&c)) {
    r->nfailed++;
    return -1;
  }
  if (check_sizes(g, op)) {
    r->nfailed++;
    r->overflow = 1;
    return -1;
  }
  int clash = 0;
  for (int k = 0; k < np; k++) {
    Var *v = pv[k];
    if (v->dtype == before[k].dtype && shape_numel(&v->shape) == shape_numel(&before[k].shape)) continue;
    const char *now = pool_printf("%s %s", rt_dtype_name(v->dtype) ? rt_dtype_name(v->dtype) : "?", shape_str(&v->shape));
    v->dtype = before[k].dtype;
    v->shape = before[k].shape;
    ctx_fail(&c, "writes parameter '%s' as %s, but its data is %s %s", v->name, now,
             rt_dtype_name(v->dtype) ? rt_dtype_name(v->dtype) : "?", shape_str(&v->shape));
    clash = 1;
  }
  if (clash) {
    r->nfailed++;
    return -1;
  }
  consteval_op(g, op);
  if (runs) array_len_loop(g, op, carried.ids, carried.before, carried.n);
  if (runs && check_carried(g, op, &carried)) {
    r->nfailed++;
    return -1;
  }
  return bad;
}

static int infer_block(Graph *g, int b, InferReport *r, int *ucap, int depth) {
  int bad = 0;
  for (int k = 0; k < g->blocks[b].nops && !r->overflow; k++)
    bad |= infer_op(g, g->blocks[b].ops[k], r, ucap, depth);
  return bad;
}

int infer_program(Graph *g, InferReport *r) {
  int ucap = 0, mcap = 0;
  *r = (InferReport){0};
  if (g->specializing) consteval_params(g);
  array_len_reset(g);
  int bad = infer_block(g, 0, r, &ucap, 0);
  for (int i = 0; i < g->nvars; i++) {
    Var *v = &g->vars[i];
    if (!(v->flags & VAR_INFERRED) || v->decl.rank < 0) continue;
    if (!shape_equal(&v->decl, &v->shape) || v->dtype != v->decl_dtype)
      VEC_PUSH(r->mismatch, r->nmismatch, mcap, i);
  }
  return bad ? -1 : 0;
}
