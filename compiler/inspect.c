/* `paddlec inspect`: what a saved program holds — writer version, blocks,
 * feeds, fetches, op histogram, parameters, inferred shapes, and the ops
 * paddlec cannot compile yet — as text or one JSON document. */
#include "inspect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen_model.h"
#include "data_parallel.h"
#include "json.h"
#include "ops/ops.h"
#include "pipeline.h"
#include "plan.h"
#include "scratch.h"
#include "spec.h"
#include "train.h"
#include "util.h"

typedef struct TypeCount {
  const char *type; /* op type */
  int n;            /* how many ops of it */
  int first;        /* first op id, for listing order */
} TypeCount;

static int cmp_type(const void *a, const void *b) {
  return strcmp(((const TypeCount *)a)->type, ((const TypeCount *)b)->type);
}

/* The ops of the file: not those a trainer's setup adds (cond_inline.c's
 * selects). */
static int file_ops(const Graph *g) {
  int n = 0;
  for (int i = 0; i < g->nops; i++) n += !g->ops[i].from_pass;
  return n;
}

/* Op-type histogram of the file's ops, sorted by type name. */
static TypeCount *histogram(const Graph *g, int *n) {
  TypeCount *t = pool_alloc(((size_t)g->nops + 1) * sizeof *t);
  *n = 0;
  for (int i = 0; i < g->nops; i++) {
    if (g->ops[i].from_pass) continue;
    int k = 0;
    while (k < *n && strcmp(t[k].type, g->ops[i].type)) k++;
    if (k == *n) t[(*n)++] = (TypeCount){g->ops[i].type, 0, i};
    t[k].n++;
  }
  qsort(t, (size_t)*n, sizeof *t, cmp_type);
  return t;
}

static const char *version_str(int64_t v) {
  if (v < 0) return "not recorded (Paddle 1.x before 1.6 wrote none)";
  if (v == 0) return "0 (a develop build of Paddle)";
  return pool_printf("%lld.%lld.%lld (%lld)", (long long)(v / 1000000), (long long)(v / 1000 % 1000),
                     (long long)(v % 1000), (long long)v);
}

static const char *dtype_str(int dt) {
  const char *n = rt_dtype_name(dt);
  return n ? n : (dt < 0 ? "-" : pool_printf("dtype%d", dt));
}

/* An op can be compiled once its definition has a C emitter. */
/* An op a trainer drops (fluid's reader ops, train.c) needs no code. */
static int compilable(const Op *op) { return op->removed || (op->def && op->def->emit_c); }

static uint64_t param_numel(const Graph *g) {
  uint64_t n = 0;
  for (int i = 0; i < g->nparams; i++) {
    int64_t k = shape_numel(&g->vars[g->params[i]].decl);
    if (k > 0) n += (uint64_t)k;
  }
  return n;
}

static void print_slot_vars(const Graph *g, const Slot *s, int nslots) {
  for (int i = 0; i < nslots; i++) {
    printf(" %s=", s[i].name);
    for (int k = 0; k < s[i].n; k++) {
      const Var *v = s[i].vars[k] >= 0 ? &g->vars[s[i].vars[k]] : NULL;
      printf("%s%s%s", k ? "," : "", v ? v->name : "@EMPTY@", v ? shape_str(&v->shape) : "");
    }
  }
}

static void text_ops(const Graph *g) {
  printf("ops:\n");
  for (int b = 0; b < g->nblocks; b++)
    for (int k = 0; k < g->blocks[b].nops; k++) {
      const Op *op = &g->ops[g->blocks[b].ops[k]];
      printf("  b%d #%-4d %-24s", b, op->index, op->type);
      print_slot_vars(g, op->in, op->nin);
      printf("  ->");
      print_slot_vars(g, op->out, op->nout);
      printf("\n");
    }
}

/* A trainer's data parallelism (data_parallel.h): whether it runs on
 * places and processes, and how. */
static void print_data_parallel(const Graph *g, const BuildStrategy *bs) {
  static const char *const reduce[] = {"AllReduce", "Reduce", "_NoReduce"};
  static const char *const scale[] = {"CoeffNumDevice", "One", "Customized"};
  if (g->dp_why) {
    printf("  data parallel: one place only: %s\n", g->dp_why);
    return;
  }
  int *ids, nranks;
  if (dp_collective(g, &nranks)) {
    printf("  data parallel: a collective program (its own c_allreduce_sum, ...): MPI processes (build --mpi, "
           "mpirun -np P), one place each\n");
    return;
  }
  printf("  data parallel: places (--places N, CPU_NUM, set_places) and MPI processes (build --mpi); %d gradients "
         "summed; reduce_strategy %s, gradient_scale_strategy %s\n", dp_grads(g, &ids),
         bs ? reduce[bs->reduce_strategy] : "AllReduce", bs ? scale[bs->gradient_scale_strategy] : "CoeffNumDevice");
}

static void text_report(const Graph *g, const InferReport *r, const InspectOpts *o) {
  int ntypes;
  TypeCount *t = histogram(g, &ntypes);
  printf("program:    %s\n", g->file);
  printf("written by: Paddle %s\n", version_str(g->version));
  printf("blocks:     %d\n", g->nblocks);
  printf("feeds:      %d\n", g->nfeeds);
  for (int i = 0; i < g->nfeeds; i++) {
    const Var *v = &g->vars[g->feeds[i]];
    printf("  col %d  %-28s %-8s %s%s\n", v->feed_col, v->name, dtype_str(v->dtype), shape_str(&v->shape),
           v->lod_level ? pool_printf("  lod_level %d", v->lod_level) : "");
  }
  printf("fetches:    %d\n", g->nfetches);
  for (int i = 0; i < g->nfetches; i++) {
    const Var *v = &g->vars[g->fetches[i]];
    printf("  col %d  %-28s %-8s %s\n", v->fetch_col, v->name, dtype_str(v->dtype), shape_str(&v->shape));
  }
  if (train_is_training(g)) {
    TrainInfo ti;
    train_info(g, &ti);
    printf("training:   loss %s; ops: %d forward, %d backward, %d optimizer, %d learning-rate\n",
           g->nfetches ? g->vars[g->fetches[0]].name : "(none found)", ti.nforward, ti.nbackward, ti.noptimize,
           ti.nlrsched);
    printf("  trainable parameters: %d\n", ti.nparams);
    for (int i = 0; i < ti.nparams; i++)
      printf("    %-28s %-8s %s\n", g->vars[ti.params[i]].name, dtype_str(g->vars[ti.params[i]].dtype),
             shape_str(&g->vars[ti.params[i]].shape));
    printf("  optimizer state: %d\n", ti.nstate);
    for (int i = 0; i < ti.nstate; i++)
      printf("    %-28s %-8s %s\n", g->vars[ti.state[i]].name, dtype_str(g->vars[ti.state[i]].dtype),
             shape_str(&g->vars[ti.state[i]].shape));
    print_data_parallel(g, o->bs);
  }
  printf("ops:        %d in %d types\n", file_ops(g), ntypes);
  for (int i = 0; i < ntypes; i++) printf("  %-44s %d\n", t[i].type, t[i].n);
  printf("parameters: %d tensors, %llu elements, %llu bytes loaded\n", g->nparams,
         (unsigned long long)param_numel(g), (unsigned long long)g->param_bytes);
  printf("  %s\n", g->params_status);
  printf("shapes:     ");
  if (!r->nunknown && !r->nmismatch) printf("every op output inferred; all agree with the VarDescs\n");
  else printf("%d ops without a shape rule, %d vars differ from their VarDesc\n", r->nunknown, r->nmismatch);
  for (int i = 0; i < r->nunknown; i++) {
    const Op *op = &g->ops[r->unknown[i]];
    printf("  no shape rule: %s at block %d op %d\n", op->type, op->file_block, op->index);
  }
  for (int i = 0; i < r->nmismatch; i++) {
    const Var *v = &g->vars[r->mismatch[i]];
    printf("  differs: %s  VarDesc %s %s, inferred %s %s (by %s)\n", v->name, dtype_str(v->decl_dtype),
           shape_str(&v->decl), dtype_str(v->dtype), shape_str(&v->shape),
           v->producer >= 0 ? graph_op_where(g, &g->ops[v->producer]) : "?");
  }
  int nbad = 0;
  for (int i = 0; i < ntypes; i++)
    if (!compilable(&g->ops[t[i].first])) nbad++;
  printf("cannot compile yet: %d of %d op types\n", nbad, ntypes);
  for (int i = 0; i < ntypes; i++) {
    if (compilable(&g->ops[t[i].first])) continue;
    printf("  %s:", t[i].type);
    int col = 4 + (int)strlen(t[i].type), shown = 0;
    for (int k = 0; k < g->nops; k++) {
      const Op *op = &g->ops[k];
      if (strcmp(op->type, t[i].type)) continue;
      char buf[32];
      int n = snprintf(buf, sizeof buf, " b%d#%d", op->file_block, op->index);
      if (shown++) {
        putchar(',');
        col++;
      }
      if (col + n > 100) {
        printf("\n    ");
        col = 4;
      }
      fputs(buf, stdout);
      col += n;
    }
    printf("\n");
  }
  if (o->ops) text_ops(g);
}

static void json_var_ref(Json *j, const Graph *g, int id) {
  json_obj(j, NULL);
  const Var *v = &g->vars[id];
  json_str(j, "name", v->name);
  json_str(j, "dtype", rt_dtype_name(v->dtype));
  json_shape(j, "shape", &v->shape);
  if (v->lod_level) json_int(j, "lod_level", v->lod_level);
  json_int(j, "col", (v->flags & VAR_FEED) ? v->feed_col : v->fetch_col);
  json_end_obj(j);
}

/* {"type", "block", "op"}: where an op stands in the program. */
static void json_op_ref(Json *j, const Op *op) {
  json_obj(j, NULL);
  json_str(j, "type", op->type);
  json_int(j, "block", op->block);
  json_int(j, "op", op->index);
  json_end_obj(j);
}

static void json_slots(Json *j, const Graph *g, const char *key, const Slot *s, int n) {
  json_obj(j, key);
  for (int i = 0; i < n; i++) {
    json_arr(j, s[i].name);
    for (int k = 0; k < s[i].n; k++) json_str(j, NULL, s[i].vars[k] >= 0 ? g->vars[s[i].vars[k]].name : "@EMPTY@");
    json_end_arr(j);
  }
  json_end_obj(j);
}

static void json_report(const Graph *g, const InferReport *r, const InspectOpts *o) {
  Json j;
  int ntypes;
  TypeCount *t = histogram(g, &ntypes);
  json_begin(&j, stdout);
  json_obj(&j, NULL);
  json_str(&j, "program", g->file);
  json_int(&j, "version", g->version);
  json_int(&j, "blocks", g->nblocks);
  json_arr(&j, "feeds");
  for (int i = 0; i < g->nfeeds; i++) json_var_ref(&j, g, g->feeds[i]);
  json_end_arr(&j);
  json_arr(&j, "fetches");
  for (int i = 0; i < g->nfetches; i++) json_var_ref(&j, g, g->fetches[i]);
  json_end_arr(&j);
  json_int(&j, "op_count", file_ops(g));
  json_obj(&j, "op_types");
  for (int i = 0; i < ntypes; i++) json_int(&j, t[i].type, t[i].n);
  json_end_obj(&j);
  json_obj(&j, "parameters");
  json_int(&j, "count", g->nparams);
  json_int(&j, "elements", (int64_t)param_numel(g));
  json_int(&j, "bytes_loaded", (int64_t)g->param_bytes);
  json_bool(&j, "complete", g->params_file || g->params_dir);
  json_str(&j, "status", g->params_status);
  json_end_obj(&j);
  json_arr(&j, "no_shape_rule");
  for (int i = 0; i < r->nunknown; i++) json_op_ref(&j, &g->ops[r->unknown[i]]);
  json_end_arr(&j);
  json_arr(&j, "shape_mismatches");
  for (int i = 0; i < r->nmismatch; i++) json_str(&j, NULL, g->vars[r->mismatch[i]].name);
  json_end_arr(&j);
  json_arr(&j, "cannot_compile");
  for (int k = 0; k < g->nops; k++)
    if (!compilable(&g->ops[k])) json_op_ref(&j, &g->ops[k]);
  json_end_arr(&j);
  json_arr(&j, "vars");
  for (int i = 0; i < g->nvars; i++) {
    const Var *v = &g->vars[i];
    json_obj(&j, NULL);
    json_str(&j, "name", v->name);
    json_int(&j, "block", v->block);
    json_int(&j, "kind", v->vtype);
    json_str(&j, "dtype", rt_dtype_name(v->dtype));
    json_shape(&j, "shape", &v->shape);
    json_str(&j, "declared_dtype", rt_dtype_name(v->decl_dtype));
    json_shape(&j, "declared_shape", &v->decl);
    json_bool(&j, "inferred", (v->flags & VAR_INFERRED) != 0);
    json_bool(&j, "persistable", (v->flags & VAR_PERSISTABLE) != 0);
    json_bool(&j, "parameter", (v->flags & VAR_PARAM) != 0);
    json_end_obj(&j);
  }
  json_end_arr(&j);
  if (o->ops) {
    json_arr(&j, "ops");
    for (int k = 0; k < g->nops; k++) {
      const Op *op = &g->ops[k];
      json_obj(&j, NULL);
      json_str(&j, "type", op->type);
      json_int(&j, "block", op->block);
      json_int(&j, "op", op->index);
      json_slots(&j, g, "inputs", op->in, op->nin);
      json_slots(&j, g, "outputs", op->out, op->nout);
      json_end_obj(&j);
    }
    json_end_arr(&j);
  }
  json_end_obj(&j);
  json_finish(&j);
}

void inspect_print(const Graph *g, const InferReport *r, const InspectOpts *o) {
  if (o->json) json_report(g, r, o);
  else text_report(g, r, o);
}

/* A training program's bytes by role: the arena's tensors (each its own
 * slot, at batch 1 and 8) as activations or gradients (@GRAD), and the
 * state as parameters (VarDesc.is_parameter) or optimizer state. */
static void memory_split(const Graph *g, const Plan *plan) {
  int64_t act[2] = {0, 0}, grad[2] = {0, 0}, param = 0, opt = 0;
  int nparam = 0, nopt = 0;
  for (int i = 0; i < g->nvars; i++) {
    const PlanVar *pv = &plan->vars[i];
    const SymDim b = pv->bytes;
    if (pv->kind == PLAN_ARENA) {
      int64_t *dst = (g->vars[i].flags & VAR_GRAD) ? grad : act;
      dst[0] += b.a + b.c;
      dst[1] += 8 * b.a + b.c;
    } else if (pv->kind == PLAN_PARAM) {
      const int64_t n = shape_bytes(&g->vars[i].shape, g->vars[i].dtype);
      if (g->vars[i].flags & VAR_IS_PARAMETER) param += n, nparam++;
      else opt += n, nopt++;
    }
  }
  printf("  %-12s %14lld %14lld  bytes (their own slots)\n", "activations", (long long)act[0], (long long)act[1]);
  printf("  %-12s %14lld %14lld  bytes (their own slots)\n", "gradients", (long long)grad[0], (long long)grad[1]);
  printf("  %-12s %14lld %14s  bytes in %d tensors\n", "parameters", (long long)param, "", nparam);
  printf("  %-12s %14lld %14s  bytes in %d tensors\n", "optimizer", (long long)opt, "", nopt);
}

/* The tensors whose sizes the run gives (run-time extents: a feed's
 * dims bounded by --max-shape, a count only the data gives): each planned
 * in the arena at its bound, its dims ("<=" before a bound the run's). */
static void memory_run_sizes(const Graph *g, const Plan *plan, const Spec *spec) {
  int n = 0;
  for (int i = 0; i < g->nvars; i++) n += plan->vars[i].kind == PLAN_ARENA && spec->vars[i].runtime_mask;
  if (!n) return;
  printf("  run-time sizes: %d tensors have dims the run gives, planned in the arena at their bounds:\n", n);
  for (int i = 0; i < g->nvars; i++) {
    const VarSpec *vs = &spec->vars[i];
    if (plan->vars[i].kind != PLAN_ARENA || !vs->runtime_mask) continue;
    const char *dims = "";
    for (int d = 0; d < vs->rank; d++) {
      const SymDim x = vs->d[d];
      const char *t = x.a ? (x.c ? pool_printf("%lldB%+lld", (long long)x.a, (long long)x.c)
                                 : x.a == 1 ? "B" : pool_printf("%lldB", (long long)x.a))
                          : pool_printf("%lld", (long long)x.c);
      dims = pool_printf("%s%s%s%s", dims, d ? ", " : "", vs->runtime_mask >> d & 1 ? "<=" : "", t);
    }
    printf("    %-32s [%s] (from its %s)\n", g->vars[i].name, dims,
           g->vars[i].runtime_from ? g->vars[i].runtime_from : "inputs");
  }
}

int inspect_memory(Graph *g, const CompileOpts *o) {
  ModelText mt = {0}; /* the program as compiled: its plan and its kernels' scratch */
  const int lowered = codegen_lower(g, o, &mt);
  if (!mt.plan) return -1;
  const Plan plan = *mt.plan;
  PlanStats b1 = plan_stats(&plan, 1), b8 = plan_stats(&plan, 8);
  printf("memory (passes: %s; memory_optimize=%s, enable_inplace=%s):\n", mt.passes, plan.reuse ? "true" : "false",
         plan.inplace ? "true" : "false");
  printf("  %-12s %14s %14s\n", "", "batch 1", "batch 8");
  printf("  %-12s %14lld %14lld  bytes\n", "arena", (long long)b1.arena, (long long)b8.arena);
  printf("  %-12s %14lld %14lld  bytes (most bytes alive at one time)\n", "lower bound", (long long)b1.lower_bound,
         (long long)b8.lower_bound);
  printf("  %-12s %14lld %14lld  bytes (every tensor its own slot)\n", "naive", (long long)b1.naive,
         (long long)b8.naive);
  if (!lowered) scratch_print(mt.scratch, stdout);
  else printf("  %-12s not known: a kernel does not compile (the errors above)\n", "scratch slot");
  printf("  %d tensors in %d buffers\n", plan.nslots, plan.nbufs);
  if (mt.classes)
    printf("  size classes: no bound on the dims the run gives; planned for each class, up to %s in them (the\n"
           "  numbers above are the smallest class's; a run takes the least that holds its sizes)\n", mt.classes);
  memory_run_sizes(g, &plan, mt.spec);
  if (o->training) memory_split(g, &plan);
  return lowered;
}
