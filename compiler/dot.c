/* `paddlec graph`: the data-flow graph as Graphviz DOT.  Ops are boxes, vars
 * are ellipses (parameters shaded, feeds and fetches bold), and each edge
 * carries the shape of the var it moves.  Feed/fetch holder vars are left
 * out: they carry no data. */
#include "dot.h"

#include <stdio.h>

#include "util.h"

static void put_id(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '\n') { /* a line break in the label */
      fputs("\\n", f);
      continue;
    }
    if (*s == '"' || *s == '\\') fputc('\\', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static int holder(const Var *v) {
  return v->vtype == VT_FEED_MINIBATCH || v->vtype == VT_FETCH_LIST;
}

static void var_node(FILE *f, const Var *v, int id) {
  fprintf(f, "  v%d [label=", id);
  put_id(f, v->name);
  fprintf(f, ", shape=ellipse");
  if (v->flags & VAR_PARAM) fprintf(f, ", style=filled, fillcolor=\"#e8e8e8\"");
  if (v->flags & (VAR_FEED | VAR_FETCH)) fprintf(f, ", penwidth=2");
  fprintf(f, "];\n");
}

static void edge(FILE *f, const Var *v, const char *from, int fid, const char *to, int tid,
                 const char *slot) {
  fprintf(f, "  %s%d -> %s%d [label=", from, fid, to, tid);
  put_id(f, pool_printf("%s %s", slot, shape_str(&v->shape)));
  fprintf(f, "];\n");
}

int dot_write(const Graph *g, FILE *f) {
  fprintf(f, "digraph paddle_program {\n  rankdir=TB;\n  node [fontname=\"Helvetica\", fontsize=10];\n"
             "  edge [fontname=\"Helvetica\", fontsize=8];\n");
  for (int b = 0; b < g->nblocks; b++) {
    if (g->nblocks > 1) fprintf(f, "  subgraph cluster_block%d {\n  label=\"block %d\";\n", b, b);
    for (int k = 0; k < g->blocks[b].nvars; k++) {
      int id = g->blocks[b].vars[k];
      const Var *v = &g->vars[id];
      if (holder(v) || (!v->nusers && v->producer < 0)) continue;
      var_node(f, v, id);
    }
    for (int k = 0; k < g->blocks[b].nops; k++) {
      int id = g->blocks[b].ops[k];
      const Op *op = &g->ops[id];
      fprintf(f, "  o%d [label=", id);
      put_id(f, pool_printf("%s\n#%d", op->type, op->index));
      fprintf(f, ", shape=box, style=rounded];\n");
    }
    if (g->nblocks > 1) fprintf(f, "  }\n");
  }
  for (int i = 0; i < g->nops; i++) {
    const Op *op = &g->ops[i];
    if (op->removed) continue; /* taken out by a pass */
    for (int s = 0; s < op->nin; s++)
      for (int k = 0; k < op->in[s].n; k++) {
        int v = op->in[s].vars[k];
        if (v >= 0 && !holder(&g->vars[v])) edge(f, &g->vars[v], "v", v, "o", i, op->in[s].name);
      }
    for (int s = 0; s < op->nout; s++)
      for (int k = 0; k < op->out[s].n; k++) {
        int v = op->out[s].vars[k];
        if (v >= 0 && !holder(&g->vars[v])) edge(f, &g->vars[v], "o", i, "v", v, op->out[s].name);
      }
  }
  fprintf(f, "}\n");
  return ferror(f) ? -1 : 0;
}
