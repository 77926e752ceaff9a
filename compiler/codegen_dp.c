/* A trainer's code for data parallelism (codegen_dp.h). */
#include "codegen_dp.h"

#include <string.h>

#include "attr.h"
#include "data_parallel.h"
#include "util.h"

/* 1 when op writes var id. */
static int writes(const Op *op, int id) {
  for (int s = 0; s < op->nout; s++)
    for (int a = 0; a < op->out[s].n; a++)
      if (op->out[s].vars[a] == id) return 1;
  return 0;
}

/* A function `name`(m, B, i, &numel, &dtype) giving the memory, element
 * count and dtype of vars ids[0 .. n). */
static void print_tensor_fn(EmitCtx *e, Printer *p, const char *name, const int *ids, int n) {
  Printer b;
  pr_init(&b);
  b.indent = 1;
  pr_line(&b, "switch (i) {");
  for (int i = 0; i < n; i++) {
    const Var *v = &e->g->vars[ids[i]];
    pr_line(&b, "case %d: /* %s */", i, v->name);
    pr_line(&b, "  *numel = %s;", em_numel(e, v));
    pr_line(&b, "  *dtype = %s;", em_dtype_enum(v->dtype));
    pr_line(&b, "  return %s;", em_ptr(e, v, 0));
  }
  pr_line(&b, "default: break;");
  pr_line(&b, "}");
  pr_line(&b, "*numel = 0;");
  pr_line(&b, "*dtype = -1;");
  pr_line(&b, "return NULL;");
  static const char *const params[] = {"m", "B"};
  const char *mark[2];
  em_unused_marks(b.buf, params, 2, mark);
  pr_line(p, "static void *%s(%s_model *m%s, int64_t B%s, int i, int64_t *numel, int *dtype) {", name, e->prefix,
          mark[0], mark[1]);
  pr_raw(p, "%s", b.buf);
  pr_line(p, "}");
  pr_raw(p, "\n");
  pr_free(&b);
}

/* The gradients the places sum, as a function from their index to their
 * memory (the arena slot part A leaves them in). */
static void print_grads(EmitCtx *e, Printer *p, const unsigned char *written_in_a) {
  const Graph *g = e->g;
  int nranks, *ids, n = dp_grads(g, &ids), kept = 0;
  const int collective = dp_collective(g, &nranks);
  pr_line(p, "/* 1: the program sums its gradients across processes itself (collective");
  pr_line(p, " * ops) and seeds loss@GRAD itself; it runs one place per process, on");
  pr_line(p, " * DP_COLLECTIVE_NRANKS processes when that is not 0. */");
  pr_line(p, "#define DP_COLLECTIVE %d", collective);
  pr_line(p, "#define DP_COLLECTIVE_NRANKS %d", nranks);
  if (collective) n = 0;
  for (int i = 0; i < n; i++)
    if (e->plan->vars[ids[i]].kind == PLAN_ARENA && written_in_a[ids[i]]) ids[kept++] = ids[i];
  pr_line(p, "/* The parameter gradients the places sum (the op_role_var pairs of the");
  pr_line(p, " * backward ops, program order), where part A leaves them. */");
  pr_line(p, "#define DP_NUM_GRADS %d", kept);
  print_tensor_fn(e, p, "dp_grad", ids, kept);
}

/* The place_sum kernels of part A (sync_batch_norm's statistics), where
 * the places stop and sum: their indices, and their tensors. */
static void print_syncs(EmitCtx *e, Printer *p, const Op *const *kops, int first_b) {
  pr_line(p, "/* The place_sum kernels of part A: every place runs up to one, then the");
  pr_line(p, " * places' tensors are summed (sync_batch_norm's statistics). */");
  pr_raw(p, "static const int dp_syncs[] = {");
  int n = 0, *ids = pool_alloc(sizeof *ids * (size_t)(first_b + 1));
  for (int k = 0; k < first_b; k++) {
    if (strcmp(kops[k]->type, "place_sum")) continue;
    pr_raw(p, "%s%d", n ? ", " : "", k);
    ids[n++] = kops[k]->in[0].vars[0];
  }
  pr_raw(p, "%s};\n#define DP_NUM_SYNCS %d\n", n ? "" : "-1", n);
  print_tensor_fn(e, p, "dp_sync", ids, n);
}

/* The loss@GRAD seed: the gradient scale strategy's value instead of the
 * fill_constant's (Paddle's ScaleLossGradOpHandle,
 * details/scale_loss_grad_op_handle.cc). */
static void print_seed(EmitCtx *e, Printer *p, const Op *op) {
  const Slot *out = slot_find(op->out, op->nout, "Out");
  const Var *v = out && out->n == 1 && out->vars[0] >= 0 ? &e->g->vars[out->vars[0]] : NULL;
  pr_line(p, "/* Writes the loss@GRAD seed (%s) with value v. */", v ? v->name : "none");
  const int scalar = v && !strcmp(em_numel(e, v), "1");
  pr_line(p, "#define DP_SEED_SCALAR %d /* 1: one value per place (gradient_scale_strategy Customized) */", scalar);
  Printer b;
  pr_init(&b);
  b.indent = 1;
  if (v && e->plan->vars[v - e->g->vars].kind == PLAN_ARENA) {
    const char *t = em_ctype(v->dtype);
    pr_line(&b, "%s *out = %s;", t, em_ptr(e, v, 0));
    pr_line(&b, "for (int64_t i = 0; i < %s; i++) out[i] = (%s)v;", em_numel(e, v), t);
  }
  static const char *const params[] = {"m", "B", "v"};
  const char *mark[3];
  em_unused_marks(b.buf ? b.buf : "", params, 3, mark);
  pr_line(p, "static void dp_seed(%s_model *m%s, int64_t B%s, double v%s) {", e->prefix, mark[0], mark[1], mark[2]);
  pr_raw(p, "%s", b.buf ? b.buf : "");
  pr_line(p, "}");
  pr_raw(p, "\n");
  pr_free(&b);
}

int dp_is_seed(const Op *op) {
  return op_role(op) == (OP_ROLE_BACKWARD | OP_ROLE_LOSS) && !strcmp(op->type, "fill_constant");
}

DpText dp_text(EmitCtx *e, const Op *const *kops, int nk) {
  const Graph *g = e->g;
  DpText t = {NULL, -1, g->dp_why};
  unsigned char *in_b = pool_alloc((size_t)g->nops + 1); /* per op id: part B */
  int first_b = nk;
  for (int k = 0; k < nk; k++) {
    const int b = dp_part_b(g, kops[k]);
    in_b[kops[k] - g->ops] = (unsigned char)b;
    if (b && first_b == nk) first_b = k;
    if (!b && first_b < nk && !t.why)
      t.why = pool_printf("%s runs after the optimizer op %s", graph_op_where(g, kops[k]),
                          graph_op_where(g, kops[first_b]));
    if (!b && dp_is_seed(kops[k])) {
      if (t.seed_kernel >= 0 && !t.why) t.why = "it has more than one loss@GRAD seed (Backward|Loss fill_constant)";
      if (t.seed_kernel < 0) t.seed_kernel = k;
    }
  }
  if (t.seed_kernel < 0 && !t.why) t.why = "it has no loss@GRAD seed (a Backward|Loss fill_constant)";
  Printer p;
  pr_init(&p);
  pr_line(&p, "/* ---- places (data parallelism, %s_set_places) ----", e->prefix);
  pr_line(&p, " * Kernels [0, DP_FIRST_B) are part A (forward and backward: every place, on");
  pr_line(&p, " * its share of the batch), [DP_FIRST_B, %d) part B (optimizer and learning", nk);
  pr_line(&p, " * rate: once, on place 0, with the gradients summed across places). */");
  pr_line(&p, "#define DP_FIRST_B %d", first_b);
  /* state part A writes is each place's own; part B must not write it too */
  pr_line(&p, "/* 1: part A writes state var i (batch_norm's running statistics): each");
  pr_line(&p, " * place keeps its own, as in Paddle's local scopes; 0: shared. */");
  pr_raw(&p, "static const unsigned char state_per_place[] = {");
  unsigned char *per_place = pool_alloc((size_t)g->nparams + 1);
  const char *reduce_why = g->dp_reduce_why;
  for (int i = 0; i < g->nparams; i++) {
    int a = 0, b = -1;
    for (int k = 0; k < nk; k++)
      if (writes(kops[k], g->params[i])) {
        if (k < first_b) a = 1;
        else if (b < 0) b = k;
      }
    if (a && b >= 0 && !t.why)
      t.why = pool_printf("state var '%s' is written by part A (forward, backward) and by %s", g->vars[g->params[i]].name,
                          graph_op_where(g, kops[b]));
    if (a && !reduce_why)
      reduce_why = pool_printf("part A (forward, backward) writes state var '%s', which Paddle's places share under "
                               "Reduce on CPU (parallel_executor.cc, BCastParamsToDevices shares the memory) and "
                               "all write", g->vars[g->params[i]].name);
    per_place[i] = (unsigned char)a;
    pr_raw(&p, "%s%d", i ? ", " : "", a);
  }
  pr_raw(&p, "%s};\n", g->nparams ? "" : "0");
  pr_line(&p, "/* 1: output i is computed by part B or is shared state (place 0's value is");
  pr_line(&p, " * every place's). */");
  pr_raw(&p, "static const unsigned char output_in_b[] = {");
  for (int i = 0; i < g->nfetches; i++) {
    const Var *v = &g->vars[g->fetches[i]];
    const PlanVar *pv = &e->plan->vars[g->fetches[i]];
    const int b = (pv->kind == PLAN_ARENA && v->producer >= 0 && in_b[v->producer]) ||
                  (pv->kind == PLAN_PARAM && pv->index < g->nparams && !per_place[pv->index]);
    pr_raw(&p, "%s%d", i ? ", " : "", b);
  }
  pr_raw(&p, "%s};\n", g->nfetches ? "" : "0");
  unsigned char *written_in_a = pool_alloc((size_t)g->nvars + 1); /* per var id */
  for (int k = 0; k < first_b; k++)
    for (int s = 0; s < kops[k]->nout; s++)
      for (int a = 0; a < kops[k]->out[s].n; a++)
        if (kops[k]->out[s].vars[a] >= 0) written_in_a[kops[k]->out[s].vars[a]] = 1;
  print_grads(e, &p, written_in_a);
  print_syncs(e, &p, kops, first_b);
  if (t.seed_kernel >= 0) print_seed(e, &p, kops[t.seed_kernel]);
  pr_line(&p, "static void places_free(%s_model *m);", e->prefix);
  pr_line(&p, "/* Why this trainer cannot run on several places (\"\": it can). */");
  pr_line(&p, "static const char dp_why[] = \"%s\";", t.why ? str_c_escape(t.why) : "");
  pr_line(&p, "/* And why not under reduce_strategy Reduce. */");
  pr_line(&p, "static const char dp_reduce_why[] = \"%s\";", reduce_why ? str_c_escape(reduce_why) : "");
  t.code = pool_strdup(p.buf);
  pr_free(&p);
  return t;
}
