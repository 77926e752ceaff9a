/* Code generation driver (see codegen.h): checks that every op can be
 * compiled, specializes shapes, plans memory, emits the kernels, and writes
 * the model header and source, the standalone driver, build files, weights
 * and the runtime sources. */
#include "codegen.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "block_feeds.h"
#include "codegen_model.h"
#include "size_class.h"
#include "diag.h"
#include "emit.h"
#include "ops/ops.h"
#include "subblock.h"
#include "template.h"
#include "train.h"
#include "util.h"

/* Every op of every block must have a C emitter; control flow and ops
 * without one are listed together, with where they are. */
static int check_supported(const Graph *g) {
  int bad = 0;
  for (int i = 0; i < g->nops; i++) {
    const Op *op = &g->ops[i];
    if (op->removed || (op->def && op->def->emit_c && block_compiled(g, op->block))) continue;
    int first = 1;
    for (int k = 0; k < i && first; k++) {
      const Op *o = &g->ops[k];
      first = strcmp(o->type, op->type) || (o->def && o->def->emit_c && block_compiled(g, o->block));
    }
    if (!first) continue;
    char *where = pool_printf("block %d op %d", op->file_block, op->index);
    int n = 1;
    for (int k = i + 1; k < g->nops; k++)
      if (!strcmp(g->ops[k].type, op->type) &&
          !(g->ops[k].def && g->ops[k].def->emit_c && block_compiled(g, g->ops[k].block))) {
        if (n < 8) where = pool_printf("%s, %d:%d", where, g->ops[k].file_block, g->ops[k].index);
        n++;
      }
    const char *why = op->def && op->def->emit_c ? "inside a block whose op paddlec does not compile" : "no C emitter yet";
    diag_error("%s: cannot compile op '%s' (%s): %d at %s%s", g->file, op->type, why, n, where, n > 8 ? ", ..." : "");
    bad = 1;
  }
  return bad ? -1 : 0;
}

/* The outputs that Paddle 2.6's op protos mark extra, which
 * save_inference_model drops from every op (Program._remove_training_info
 * with clip_extra, its default).  A saved program that still reads one of
 * them (it fetched it when saved) names a tensor that nothing writes. */
static const struct {
  const char *type;  /* op type */
  const char *slots; /* its extra outputs */
} extra_outputs[] = {
    {"batch_norm", "ReserveSpace"},
    {"dequantize_linear", "OutState, OutAccum or OutScale"},
    {"dropout", "Mask"},
    {"dropout_nd", "Mask"},
    {"einsum", "InnerCache or XShape"},
    {"flatten2", "XShape"},
    {"flatten_contiguous_range", "XShape"},
    {"fused_transpose", "XShape"},
    {"gru", "BatchGate, BatchResetHiddenPrev or BatchHidden"},
    {"instance_norm", "SavedMean or SavedVariance"},
    {"lstm", "BatchGate or BatchCellPreAct"},
    {"nanmedian", "MedianIndex"},
    {"nce", "SampleLogits or SampleLabels"},
    {"norm", "Norm"},
    {"quantize_linear", "OutState, OutAccum or OutScale"},
    {"rrelu", "Noise"},
    {"squeeze2", "XShape"},
    {"transpose2", "XShape"},
    {"unsqueeze2", "XShape"},
};

/* The op of block 0 that most likely wrote var `name` before its output
 * was dropped: one whose outputs share the name's unique prefix
 * ("instance_norm_0" of "instance_norm_0.tmp_1"), or NULL. */
static const Op *dropped_from(const Graph *g, const char *name) {
  const char *dot = strstr(name, ".tmp_");
  if (!dot || dot == name) return NULL;
  const size_t n = (size_t)(dot - name) + 1; /* with the dot */
  for (int k = 0; k < g->blocks[0].nops; k++) {
    const Op *op = &g->ops[g->blocks[0].ops[k]];
    for (int so = 0; so < op->nout; so++)
      for (int a = 0; a < op->out[so].n; a++)
        if (op->out[so].vars[a] >= 0 && !strncmp(g->vars[op->out[so].vars[a]].name, name, n)) return op;
  }
  return NULL;
}

/* Every tensor an op of block 0 reads is a feed, a persistable var, or
 * the output of some op; otherwise the program reads memory nothing wrote
 * (Paddle's executor stops with "Tensor holds no memory"): reported for
 * each such read, with the op whose output was probably dropped. */
static int check_reads_written(const Graph *g) {
  int bad = 0;
  for (int k = 0; k < g->blocks[0].nops; k++) {
    const Op *op = &g->ops[g->blocks[0].ops[k]];
    for (int si = 0; si < op->nin; si++)
      for (int a = 0; a < op->in[si].n; a++) {
        const int vid = op->in[si].vars[a];
        if (vid < 0) continue;
        const Var *v = &g->vars[vid];
        if (v->vtype != VT_LOD_TENSOR || v->producer >= 0 || (v->flags & (VAR_FEED | VAR_PERSISTABLE | VAR_PARAM)))
          continue;
        const char *hint = "";
        const Op *src = dropped_from(g, v->name);
        for (size_t t = 0; src && t < sizeof extra_outputs / sizeof *extra_outputs; t++)
          if (!strcmp(extra_outputs[t].type, src->type))
            hint = pool_printf(": probably output %s of block 0 op %d (%s), which save_inference_model drops "
                               "(Paddle marks it extra)",
                               extra_outputs[t].slots, src->index, src->type);
        diag_error("%s: %s: input %s reads '%s', which no op writes, nor is it a feed or a parameter (Paddle "
                   "stops here too: \"Tensor holds no memory\")%s",
                   g->file, graph_op_where(g, op), op->in[si].name, v->name, hint);
        bad = 1;
      }
  }
  return bad ? -1 : 0;
}

/* A slot where a tensor array goes: the array of the array ops
 * (ops/tensor_array.c) and of beam_search_decode, a control-flow op's
 * lists. */
static int array_slot(const Graph *g, const Op *op, const char *slot) {
  static const char *const ops[][2] = {{"write_to_array", "Out"}, {"read_from_array", "X"},
                                       {"lod_array_length", "X"}, {"tensor_array_to_tensor", "X"},
                                       {"tensor_array_to_tensor_grad", "X"}, {"tensor_array_to_tensor_grad", "X@GRAD"},
                                       {"beam_search_decode", "Ids"}, {"beam_search_decode", "Scores"}};
  for (size_t k = 0; k < sizeof ops / sizeof *ops; k++)
    if (!strcmp(op->type, ops[k][0]) && !strcmp(slot, ops[k][1])) return 1;
  return op_runs_block(g, op) && strcmp(slot, "Condition") && strcmp(slot, "Cond");
}

/* The compiled code holds dense tensors and tensor arrays (one buffer of
 * their elements: array_len.h): a var of another kind (reader, an unknown
 * type number), or an array in a slot that takes a tensor, that an op other
 * than feed/fetch reads or writes has no storage (a communicator's handles are
 * unlinked before: data_parallel.c dp_rings). */
static int check_tensors(const Graph *g) {
  int bad = 0;
  for (int i = 0; i < g->nops; i++) {
    const Op *op = &g->ops[i];
    if (op->removed || !block_compiled(g, op->block) || !strcmp(op->type, "feed") || !strcmp(op->type, "fetch"))
      continue;
    for (int side = 0; side < 2; side++)
      for (int s = 0; s < (side ? op->nout : op->nin); s++) {
        const Slot *sl = side ? &op->out[s] : &op->in[s];
        /* a control-flow op's scopes are Paddle's executor's business */
        if (op_runs_block(g, op) &&
            (!strcmp(sl->name, "Scope") || !strcmp(sl->name, "StepScopes") || !strcmp(sl->name, "step_scopes")))
          continue;
        for (int a = 0; a < sl->n; a++)
          if (sl->vars[a] >= 0 && g->vars[sl->vars[a]].vtype != VT_LOD_TENSOR &&
              !(g->vars[sl->vars[a]].vtype == VT_LOD_TENSOR_ARRAY && array_slot(g, op, sl->name)))
            bad = diag_error("%s: %s: %s '%s' is a variable of kind %d, not a dense tensor (7)", g->file,
                             graph_op_where(g, op), sl->name, g->vars[sl->vars[a]].name, g->vars[sl->vars[a]].vtype);
      }
  }
  return bad;
}

/* mkdir -p */
static int make_dir(const char *path) {
  char *p = pool_strdup(path);
  for (char *s = p + 1; *s; s++) {
    if (*s != '/') continue;
    *s = 0;
    if (mkdir(p, 0777) && errno != EEXIST) return diag_error("%s: cannot create directory: %s", p, strerror(errno));
    *s = '/';
  }
  if (mkdir(p, 0777) && errno != EEXIST) return diag_error("%s: cannot create directory: %s", p, strerror(errno));
  return 0;
}

static int write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) return diag_error("%s: cannot write: %s", path, strerror(errno));
  fputs(text, f);
  if (fclose(f)) return diag_error("%s: write failed", path);
  return 0;
}

/* The runtime sources the generated code builds with. */
static int write_runtime(const char *dir) {
  char *rt = path_join(dir, "paddlec_rt");
  if (make_dir(rt)) return -1;
  for (int i = 0; i < embedded_count; i++) {
    const EmbeddedFile *f = &embedded_files[i];
    if (strncmp(f->path, "runtime/", 8)) continue;
    if (write_text(path_join(rt, f->path + 8), f->data)) return -1;
  }
  return 0;
}

static void write_le(FILE *f, uint64_t v, int n) {
  for (int i = 0; i < n; i++) fputc((int)(v >> (8 * i)) & 0xff, f);
}

static void put_varint(FILE *f, uint64_t v) {
  do {
    int b = v & 0x7f;
    v >>= 7;
    fputc(b | (v ? 0x80 : 0), f);
  } while (v);
}

static int varint_len(uint64_t v) {
  int n = 1;
  while (v >= 0x80) v >>= 7, n++;
  return n;
}

int params_write_combined(const Graph *g, const char *path) {
  FILE *f = fopen(path, "wb");
  if (!f) return diag_error("%s: cannot write: %s", path, strerror(errno));
  for (int i = 0; i < g->nparams; i++) {
    const Var *v = &g->vars[g->params[i]];
    int desc = 1 + varint_len((uint64_t)v->dtype);
    for (int d = 0; d < v->shape.rank; d++) desc += 1 + varint_len((uint64_t)v->shape.d[d]);
    write_le(f, 0, 4);  /* lod version */
    write_le(f, 0, 8);  /* no LoD levels */
    write_le(f, 0, 4);  /* tensor version */
    write_le(f, (uint64_t)desc, 4);
    fputc(0x08, f);
    put_varint(f, (uint64_t)v->dtype);
    for (int d = 0; d < v->shape.rank; d++) {
      fputc(0x10, f);
      put_varint(f, (uint64_t)v->shape.d[d]);
    }
    const int64_t bytes = shape_bytes(&v->shape, v->dtype); /* checked when read */
    if (bytes < 0) diag_internal("%s: parameter '%s' has no size", path, v->name);
    if (bytes && fwrite(v->param_data, 1, (size_t)bytes, f) != (size_t)bytes) break;
  }
  if (fclose(f)) return diag_error("%s: write failed", path);
  return 0;
}

static int valid_prefix(const char *p) {
  if (!*p || (*p >= '0' && *p <= '9')) return 0;
  for (; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_')) return 0;
  return 1;
}

/* The options of a model compiled alongside trainer o (its startup or
 * evaluation program): PREFIX_<suffix>, no training, no programs of its
 * own, one iteration per run, no --shape or --dump-memplan. */
static CompileOpts side_opts(const CompileOpts *o, const char *suffix) {
  CompileOpts so = *o;
  so.prefix = pool_printf("%s_%s", o->prefix, suffix);
  so.training = 0;
  so.startup = NULL;
  so.eval = NULL;
  so.nshapes = 0;
  so.dump_memplan = 0;
  so.es.num_iteration_per_run = 1;
  return so;
}

/* The startup program of training program g, as the model PREFIX_startup
 * whose outputs are g's state vars; and the body of PREFIX_run_startup,
 * which runs it into the trainer's state. */
static int startup_generate(const Graph *g, const CompileOpts *o, ModelText *mt) {
  Graph *st = o->startup;
  if (train_startup_setup(st, g)) return -1;
  CompileOpts so = side_opts(o, "startup");
  so.es.num_threads = 1; /* runs once, before training */
  so.nmax_shapes = 0;     /* the bounds are of main's feeds: the startup program has none */
  ModelText smt = {0};
  if (codegen_generate(st, &so, &smt)) return -1;
  mt->startup_header = smt.header;
  mt->startup_source = smt.source;
  const char *P = o->prefix, *SP = so.prefix, *U = str_upper(o->prefix);
  Printer p;
  pr_init(&p);
  p.indent = 1;
  pr_line(&p, "%s_model *s;", SP);
  pr_line(&p, "int st = %s_create(&s, NULL);", SP);
  pr_line(&p, "if (st) return fail(m, st == %s_ERR_NOMEM ? %s_ERR_NOMEM : %s_ERR_ARG, \"startup program: cannot create it\");",
          str_upper(SP), U, U);
  pr_line(&p, "void *const outputs[%d] = {", st->nfetches ? st->nfetches : 1);
  for (int i = 0; i < st->nfetches; i++)
    for (int k = 0; k < g->nparams; k++)
      if (!strcmp(g->vars[g->params[k]].name, st->vars[st->fetches[i]].name))
        pr_line(&p, "  (void *)m->w[%d], /* %s */", k, g->vars[g->params[k]].name);
  if (!st->nfetches) pr_line(&p, "  NULL,");
  pr_line(&p, "};");
  pr_line(&p, "%s_seed(s, seed);", SP);
  pr_line(&p, "st = %s_run(s, 1, NULL, outputs);", SP);
  pr_line(&p, "if (st) snprintf(m->error, sizeof m->error, \"startup program: %%.120s\", %s_last_error(s));", SP);
  pr_line(&p, "/* the main program's random ops go on where the startup program's left the generator */");
  pr_raw(&p, "#if %s_USES_GLOBAL_RNG && %s_USES_GLOBAL_RNG\n", U, str_upper(SP));
  pr_line(&p, "if (!st) m->rng = s->rng;");
  pr_raw(&p, "#else\n");
  pr_line(&p, "%s_seed(m, seed);", P);
  pr_raw(&p, "#endif\n");
  pr_line(&p, "%s_destroy(s);", SP);
  pr_line(&p, "return st ? %s_ERR_ARG : %s_OK;", U, U);
  (void)P;
  p.buf[p.len - 1] = 0; /* the template ends the line */
  mt->run_startup = pool_strdup(p.buf);
  pr_free(&p);
  return 0;
}

/* The evaluation program of training program g, as the model PREFIX_eval
 * whose weights are g's state vars of the same names, bound at run time
 * (PREFIX_eval in train.c.in); and the table that binds them. */
static int eval_generate(const Graph *g, const CompileOpts *o, ModelText *mt) {
  Graph *ev = o->eval;
  if (train_eval_setup(ev, g)) return -1;
  CompileOpts eo = side_opts(o, "eval");
  ShapeArg *bounds = pool_alloc(sizeof *bounds * (size_t)(o->nmax_shapes + 1));
  eo.nmax_shapes = 0; /* main's bounds of the feeds it has too (a test program may read fewer) */
  for (int k = 0; k < o->nmax_shapes; k++)
    for (int i = 0; i < ev->nfeeds; i++)
      if (!strcmp(ev->vars[ev->feeds[i]].name, o->max_shapes[k].name)) bounds[eo.nmax_shapes++] = o->max_shapes[k];
  eo.max_shapes = bounds;
  eo.bound_state = 1;
  eo.embed_weights = 0;
  ModelText emt = {0};
  if (codegen_generate(ev, &eo, &emt)) return -1;
  mt->eval_header = emt.header;
  mt->eval_source = emt.source;
  mt->eval_run_dims = emt.run_dims;
  Printer p;
  pr_init(&p);
  pr_line(&p, "/* Weight i of %s is the trainer's state var eval_state[i]. */", eo.prefix);
  pr_raw(&p, "static const int eval_state[] = {");
  for (int i = 0; i < ev->nparams; i++)
    for (int k = 0; k < g->nparams; k++)
      if (!strcmp(g->vars[g->params[k]].name, ev->vars[ev->params[i]].name))
        pr_raw(&p, "%s%d /* %s */", i ? ", " : "", k, ev->vars[ev->params[i]].name);
  pr_raw(&p, "%s};", ev->nparams ? "" : "0");
  mt->eval_table = pool_strdup(p.buf);
  pr_free(&p);
  return 0;
}

/* codegen_generate to its memory plan: the checks, the passes, the
 * specialization (need_params: the parameters' data must be there). */
static int prepare(Graph *g, const CompileOpts *o, int need_params, const char **ran, Spec *spec, Plan *plan) {
  if (!valid_prefix(o->prefix)) return diag_error("--name %s: the prefix must be a C identifier", o->prefix);
  if (check_supported(g) || check_reads_written(g)) return -1;
  if (need_params && g->nparams && !(g->params_file || g->params_dir) && !o->training && !o->bound_state)
    return diag_error("%s: the parameters were not found (%s); give them with --params", g->file, g->params_status);
  if (o->training && o->embed_weights)
    return diag_error("%s: --embed-weights: a training program's state changes at every step; it cannot be const "
                      "arrays", g->file);
  block_copy_feeds(g);
  g->max_shapes = o->max_shapes; /* the passes' rules see the bounds too (constant_folding runs them) */
  g->nmax_shapes = o->nmax_shapes;
  g->nclass_shapes = o->nclass_feeds;
  g->max_iterations = o->max_iterations;
  g->max_shape_used = pool_alloc(sizeof *g->max_shape_used * (size_t)(o->nmax_shapes + 1));
  if (pipeline_run(g, &o->pipe, ran) || check_tensors(g)) return -1;
  for (int i = 0; i < g->nparams; i++) {
    const Var *v = &g->vars[g->params[i]];
    if (!em_ctype(v->dtype))
      return diag_error("%s: parameter '%s' is %s, which paddlec cannot compile yet", g->file, v->name,
                        rt_dtype_name(v->dtype));
  }
  if (o->size_classes) return 0; /* specialized and planned per class (emit) */
  if (spec_build(g, o->shapes, o->nshapes, spec) || plan_build(g, spec, plan, plan_options(&o->pipe.bs))) return -1;
  if (o->dump_memplan) plan_dump(g, plan, stdout);
  return 0;
}

/* model_emit, or for a model of size classes (o->size_classes) its
 * specializations, plans and emissions (size_class.c); *spec and *plan
 * then become the smallest class's. */
static int emit(Graph *g, const CompileOpts *o, const char *ran, ModelText *mt, Spec **spec, Plan **plan) {
  if (!o->size_classes) return model_emit(g, *spec, *plan, o, ran, mt);
  if (size_class_emit(g, o, ran, mt, spec, plan)) return -1;
  if (o->dump_memplan) plan_dump(g, *plan, stdout);
  return 0;
}

int codegen_generate(Graph *g, const CompileOpts *o, ModelText *mt) {
  const char *ran = NULL;
  Spec *spec = pool_alloc(sizeof *spec);
  Plan *plan = pool_alloc(sizeof *plan);
  CompileOpts co = *o;
  size_class_feeds(g, &co);
  if (prepare(g, &co, 1, &ran, spec, plan)) return -1;
  if (o->startup && startup_generate(g, o, mt)) return -1;
  if (o->eval && eval_generate(g, o, mt)) return -1;
  return emit(g, &co, ran, mt, &spec, &plan);
}

int codegen_lower(Graph *g, const CompileOpts *o, ModelText *mt) {
  const char *ran = NULL;
  Spec *spec = pool_alloc(sizeof *spec);
  Plan *plan = pool_alloc(sizeof *plan);
  CompileOpts co = *o;
  size_class_feeds(g, &co);
  if (prepare(g, &co, 0, &ran, spec, plan)) return -1;
  mt->passes = ran;
  if (!co.size_classes) { /* shown even when a kernel then fails */
    mt->plan = plan;
    mt->spec = spec;
  }
  if (emit(g, &co, ran, mt, &spec, &plan)) return -1;
  mt->plan = plan; /* size classes: the smallest's */
  mt->spec = spec;
  return 0;
}

int codegen_compile(Graph *g, const CompileOpts *o) {
  ModelText mt = {0};
  if (codegen_generate(g, o, &mt)) return -1;
  const char *d = o->out_dir, *p = o->prefix;
  if (make_dir(d) || write_runtime(d)) return -1;
  TplVar build[] = {{"PREFIX", p}, {"BLAS", o->blas ? "openblas" : "none"}, {"BANNER", mt.banner_hash},
                    {"MPI", o->mpi ? "1" : "0"}};
  if (write_text(path_join(d, pool_printf("%s.h", p)), mt.header) ||
      write_text(path_join(d, pool_printf("%s.c", p)), mt.source) ||
      write_text(path_join(d, "main.c"), mt.main) ||
      write_text(path_join(d, "Makefile"), tpl_render("templates/Makefile.in", build, 4)) ||
      write_text(path_join(d, pool_printf("%s.cmake", p)), tpl_render("templates/model.cmake.in", build, 4)))
    return -1;
  if (mt.startup_source && (write_text(path_join(d, pool_printf("%s_startup.h", p)), mt.startup_header) ||
                            write_text(path_join(d, pool_printf("%s_startup.c", p)), mt.startup_source)))
    return -1;
  if (mt.eval_source && (write_text(path_join(d, pool_printf("%s_eval.h", p)), mt.eval_header) ||
                         write_text(path_join(d, pool_printf("%s_eval.c", p)), mt.eval_source)))
    return -1;
  if (o->embed_weights) return write_text(path_join(d, pool_printf("%s_weights.c", p)), mt.weights);
  if (o->training) return 0; /* the state comes from the startup program or a checkpoint */
  return params_write_combined(g, path_join(d, pool_printf("%s.pdiparams", p)));
}

