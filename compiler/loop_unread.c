/* Loop-carried vars no op reads (loop_unread.h). */
#include "loop_unread.h"

#include <string.h>

#include "util.h"

/* 1 when every reader of var v is op w itself (its X). */
static int read_by_none_but(const Graph *g, int v, int w) {
  for (int u = 0; u < g->vars[v].nusers; u++)
    if (g->vars[v].users[u] != w) return 0;
  return 1;
}

/* Takes var v out of slot s. */
static void drop_from(Slot *s, int v) {
  int k = 0;
  for (int a = 0; s && a < s->n; a++)
    if (s->vars[a] != v) s->vars[k++] = s->vars[a];
  if (s) s->n = k;
}

/* Whether var v of while w (block body) qualifies and, if so, the rewrite. */
static int drop_one(Graph *g, int w, int v) {
  const Op *op = &g->ops[w];
  const int body = op->sub_block;
  int writers[8];
  if (g->vars[v].block == body || g->vars[v].vtype != VT_LOD_TENSOR || !read_by_none_but(g, v, w) ||
      slot_first(op->in, op->nin, "Condition") == v)
    return 0;
  /* a writer outside the var's own block and the body (a deeper block) leaves it be */
  int n = 0;
  for (int i = 0; i < g->nops; i++) {
    const Op *o = &g->ops[i];
    for (int s = 0; !o->removed && s < o->nout; s++)
      for (int a = 0; a < o->out[s].n; a++) {
        if (o->out[s].vars[a] != v) continue;
        if (o->block != body && o->block != g->vars[v].block) return 0;
        if (o->block == body && (!n || writers[n - 1] != i)) {
          if (n == (int)(sizeof writers / sizeof writers[0])) return 0;
          writers[n++] = i;
        }
      }
  }
  if (!n) return 0;
  const int inner = graph_new_var(g, body, g->vars[v].name);
  g->vars[inner].vtype = VT_LOD_TENSOR;
  for (int k = 0; k < n; k++) {
    Op *o = &g->ops[writers[k]];
    for (int s = 0; s < o->nout; s++)
      for (int a = 0; a < o->out[s].n; a++)
        if (o->out[s].vars[a] == v) o->out[s].vars[a] = inner;
  }
  Op *wo = &g->ops[w];
  drop_from(slot_use(wo->out, wo->nout, "Out"), v);
  drop_from(slot_use(wo->in, wo->nin, "X"), v);
  return 1;
}

int loop_drop_unread(Graph *g) {
  int dropped = 0;
  const int nops = g->nops;
  for (int w = 0; w < nops; w++) {
    const Op *op = &g->ops[w];
    if (op->removed || strcmp(op->type, "while") || op->sub_block <= 0 || op->sub_block >= g->nblocks) continue;
    const Slot *out = slot_find(op->out, op->nout, "Out");
    for (int a = 0; out && a < out->n; a++) {
      const int v = out->vars[a];
      if (v >= 0 && drop_one(g, w, v)) {
        dropped++;
        a = -1; /* the slot shrank: look again from its start */
        out = slot_find(g->ops[w].out, g->ops[w].nout, "Out");
      }
    }
  }
  if (dropped) graph_relink(g);
  return dropped;
}
