/* A training program's while keeps each iteration's values for its
 * while_grad (while_steps.h). */
#include "while_steps.h"

#include <string.h>

#include "subblock.h"
#include "util.h"

/* The StepScopes var of a while (output). */
static int step_scopes(const Op *op) { return slot_first(op->out, op->nout, "StepScopes"); }

typedef struct Marks {
  char *mark; /* per var: bit 1 read, bit 2 written */
} Marks;

static void mark_var(void *ctx, int v, int write) { ((Marks *)ctx)->mark[v] |= (char)(write ? 2 : 1); }

/* Paddle's no_copy_var_names: parameters, and vars some op of the body's
 * own list reads and writes (in place: increment). */
static int no_copy(const Graph *g, const Block *body, int v) {
  if (g->vars[v].flags & VAR_IS_PARAMETER) return 1;
  for (int k = 0; k < body->nops; k++) {
    const Op *op = &g->ops[body->ops[k]];
    int in = 0, out = 0;
    for (int s = 0; s < op->nin; s++)
      for (int a = 0; a < op->in[s].n; a++) in |= op->in[s].vars[a] == v;
    for (int s = 0; s < op->nout; s++)
      for (int a = 0; a < op->out[s].n; a++) out |= op->out[s].vars[a] == v;
    if (in && out) return 1;
  }
  return 0;
}

/* A fresh var of block b named base + suffix (+ a number when taken). */
static int fresh_var(Graph *g, int b, const char *base, const char *suffix, int vtype) {
  const char *n = pool_printf("%s%s", base, suffix);
  for (int k = 0; graph_find_var(g, b, n) >= 0; k++) n = pool_printf("%s%s%d", base, suffix, k);
  const int id = graph_new_var(g, b, n);
  g->vars[id].vtype = vtype;
  return id;
}

/* Appends slot `name` holding vars[0..n) to one side of op. */
static void add_slot(Slot **slots, int *nslots, const char *name, const int *vars, int n) {
  Slot *s = pool_alloc(sizeof *s * (size_t)(*nslots + 1));
  if (*nslots) memcpy(s, *slots, sizeof *s * (size_t)*nslots);
  int *ids = pool_alloc(sizeof *ids * (size_t)(n ? n : 1));
  if (n) memcpy(ids, vars, sizeof *ids * (size_t)n);
  s[*nslots] = (Slot){.name = name, .n = n, .vars = ids};
  *slots = s;
  (*nslots)++;
}

/* 1 when var v is one of op's X. */
static int in_x(const Op *op, int v) {
  const Slot *x = slot_find(op->in, op->nin, "X");
  for (int a = 0; x && a < x->n; a++)
    if (x->vars[a] == v) return 1;
  return 0;
}

/* Marks kept[v] for each var a while keeps of its iterations (StepValues,
 * StepCount): a loop inside w's body keeps them per iteration of w. */
static void mark_kept_by_loops(const Graph *g, char *kept) {
  for (int i = 0; i < g->nops; i++) {
    const Op *op = &g->ops[i];
    if (op->removed || strcmp(op->type, "while")) continue;
    for (int s = 0; s < op->nout; s++)
      if (!strcmp(op->out[s].name, "StepValues") || !strcmp(op->out[s].name, "StepCount"))
        for (int a = 0; a < op->out[s].n; a++)
          if (op->out[s].vars[a] >= 0) kept[op->out[s].vars[a]] = 1;
  }
}

/* 1 when block b (inside while w's body) is inside the body of a loop of
 * w's body that keeps its own iterations (paired already): that loop
 * keeps the vars of b. */
static int in_a_kept_loop(const Graph *g, const Op *w, int b) {
  for (int i = 0; i < g->nops; i++) {
    const Op *op = &g->ops[i];
    if (op == w || op->removed || strcmp(op->type, "while") || !slot_find(op->out, op->nout, "StepCount")) continue;
    if (op->sub_block > 0 && block_inside(g, op->block, w->sub_block) && block_inside(g, b, op->sub_block)) return 1;
  }
  return 0;
}

/* The step vars of while w for while_grad wg: the dense tensors the grad
 * block reads that are the body's own, or outer vars of w's X the body
 * writes and Paddle copies into each step scope.  Arrays are not copied
 * (Paddle's step scopes copy dense tensors only), but for what a loop
 * inside the body keeps of its own iterations (its StepValues arrays), and
 * the vars of such a loop's body are its own to keep. */
static int step_vars(const Graph *g, const Op *w, const Op *wg, int *out) {
  Marks body = {pool_alloc((size_t)g->nvars + 1)}, grad = {pool_alloc((size_t)g->nvars + 1)};
  memset(body.mark, 0, (size_t)g->nvars + 1);
  memset(grad.mark, 0, (size_t)g->nvars + 1);
  char *kept = pool_alloc((size_t)g->nvars + 1); /* what loops inside keep: marked once, not per var */
  memset(kept, 0, (size_t)g->nvars + 1);
  mark_kept_by_loops(g, kept);
  op_each_var(g, w, mark_var, &body);
  const Block *gb = &g->blocks[wg->sub_block];
  for (int k = 0; k < gb->nops; k++)
    if (!g->ops[gb->ops[k]].removed) op_each_var(g, &g->ops[gb->ops[k]], mark_var, &grad);
  int n = 0;
  for (int v = 0; v < g->nvars; v++) {
    const Var *x = &g->vars[v];
    const int inner_keeps = kept[v];
    if (!(grad.mark[v] & 1) || (x->vtype != VT_LOD_TENSOR && !inner_keeps)) continue;
    if (!inner_keeps && in_a_kept_loop(g, w, x->block)) continue; /* a var of a loop inside the body: it keeps it */
    const int own = block_inside(g, x->block, w->sub_block);
    if (own || ((body.mark[v] & 2) && in_x(w, v) && !no_copy(g, &g->blocks[w->sub_block], v))) out[n++] = v;
  }
  return n;
}

/* Paddle links each Out@GRAD into every step scope under its own name
 * (sharing the outer tensor or array) and shares a grad block's result of
 * that name back: one var.  The grad block may declare its own var of
 * such a name (an array's grad): its ops are bound to the outer one. */
static void link_out_grads(Graph *g, const Op *wg) {
  const Slot *og = slot_find(wg->in, wg->nin, "Out@GRAD");
  for (int i = 0; og && i < g->nops; i++) {
    Op *op = &g->ops[i];
    if (op->removed || !block_inside(g, op->block, wg->sub_block)) continue;
    for (int side = 0; side < 2; side++)
      for (int s = 0; s < (side ? op->nout : op->nin); s++) {
        const Slot *sl = side ? &op->out[s] : &op->in[s];
        for (int a = 0; a < sl->n; a++)
          for (int k = 0; sl->vars[a] >= 0 && k < og->n; k++)
            if (og->vars[k] >= 0 && sl->vars[a] != og->vars[k] && block_inside(g, g->vars[sl->vars[a]].block, wg->sub_block) &&
                !strcmp(g->vars[sl->vars[a]].name, g->vars[og->vars[k]].name))
              sl->vars[a] = og->vars[k];
      }
  }
}

/* How deep block b sits (block 0: 0). */
static int depth_of(const Graph *g, int b) {
  int d = 0;
  for (; b > 0 && d < 64; d++) b = g->blocks[b].parent;
  return d;
}

int while_steps_link(Graph *g) {
  int pairs = 0, deepest = 0;
  const int nops = g->nops;
  for (int i = 0; i < nops; i++)
    if (!g->ops[i].removed && !strcmp(g->ops[i].type, "while")) {
      const int d = depth_of(g, g->ops[i].block);
      deepest = d > deepest ? d : deepest;
    }
  /* the loops inside others first: theirs are step vars of the outer ones */
  for (int depth = deepest; depth >= 0; depth--)
    for (int i = 0; i < nops; i++) {
      Op *w = &g->ops[i];
      if (w->removed || strcmp(w->type, "while") || depth_of(g, w->block) != depth || !op_runs_block(g, w)) continue;
      const Op *wg = while_steps_grad(g, w);
      if (!wg || wg->sub_block <= 0 || wg->sub_block >= g->nblocks) continue;
      link_out_grads(g, wg);
      int *vars = pool_alloc(sizeof *vars * ((size_t)g->nvars + 1));
      const int n = step_vars(g, w, wg, vars);
      int *vals = pool_alloc(sizeof *vals * (size_t)(n + 1));
      for (int k = 0; k < n; k++)
        vals[k] = fresh_var(g, w->block, g->vars[vars[k]].name, "@STEPS", VT_LOD_TENSOR_ARRAY);
      const int count = fresh_var(g, w->block, g->vars[step_scopes(w)].name, "@COUNT", VT_LOD_TENSOR);
      w = &g->ops[i]; /* fresh vars may have moved nothing, but the ops are re-read after them */
      Op *grad = &g->ops[wg - g->ops];
      add_slot(&w->out, &w->nout, "StepValues", vals, n);
      add_slot(&w->out, &w->nout, "StepCount", &count, 1);
      add_slot(&grad->in, &grad->nin, "StepValues", vals, n);
      add_slot(&grad->in, &grad->nin, "StepCount", &count, 1);
      add_slot(&grad->out, &grad->nout, "StepVars", vars, n);
      graph_relink(g); /* the outer loops read the users of what this one keeps */
      pairs++;
    }
  return pairs;
}
