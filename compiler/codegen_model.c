/* Emits the model source: banner, I/O and weight tables, one kernel per op
 * (each preceded by a comment naming the op, its vars and shapes, and the
 * kernels it waits for), the dependency graph and the dispatch of kernels
 * for the scheduler, and the embedded weights when asked. */
#include "codegen_model.h"

#include "codegen_plan.h"
#include "codegen_dp.h"
#include "data_parallel.h"

#include <stdio.h>
#include <string.h>

#include "deps.h"
#include "diag.h"
#include "emit.h"
#include "ops/ops.h"
#include "ops/tensor_util.h"
#include "rt_kernels.h"
#include "subblock.h"
#include "template.h"
#include "train.h"
#include "util.h"

#define PADDLEC_VERSION "0.1.0"

/* A var's dims for a comment: a run-time extent by its name and bound
 * (size classes: by its name; "?" for a dim the class sets that is no
 * tensor's extent, such as an XShape's). */
static const char *shape_text(EmitCtx *e, const Var *v) {
  const VarSpec *vs = em_spec(e, v), *alt = e->class_alt ? &e->class_alt->vars[v - e->g->vars] : NULL;
  const char *s = "[";
  for (int d = 0; d < vs->rank; d++) {
    const char *t = em_sym(vs->d[d]);
    if (vs->runtime_mask >> d & 1) t = e->size_classes ? em_dim(e, v, d) : pool_printf("%s <= %s", em_dim(e, v, d), t);
    else if (alt && alt->known && alt->rank == vs->rank && (alt->d[d].a != vs->d[d].a || alt->d[d].c != vs->d[d].c))
      t = "?";
    s = pool_printf("%s%s%s", s, d ? ", " : "", t);
  }
  return pool_printf("%s]", s);
}

/* The comment before a kernel: the op (and the ops fused into it) and every
 * var it reads or writes (left open for the kernels it waits for). */
typedef struct AttrComment {
  EmitCtx *e;
  Printer *p;
} AttrComment;

/* A tensor passed as an attribute, which the kernel reads: "in value= ...". */
static void comment_attr_var(void *ctx, int id, const char *attr) {
  const AttrComment *c = ctx;
  const Var *v = &c->e->g->vars[id];
  if (em_spec(c->e, v)->known)
    pr_line(c->p, " *   %-3s %-14s %-32s %-8s %s", "in", pool_printf("%s=", attr), v->name, rt_dtype_name(v->dtype),
            shape_text(c->e, v));
}

static void kernel_comment(EmitCtx *e, Printer *p) {
  const Op *op = e->op;
  if (op->nfused) {
    const char *idx = "", *types = "";
    for (int i = 0; i < op->nfused; i++) {
      const Op *f = &e->g->ops[op->fused[i]];
      idx = pool_printf("%s%s%d", idx, i ? ", " : "", f->index);
      types = pool_printf("%s%s%s", types, i ? " + " : "", f->type);
    }
    pr_line(p, "/* block %d ops %s: %s, fusing %s", op->file_block, idx, op->type, types);
  } else {
    pr_line(p, "/* block %d op %d: %s", op->file_block, op->index, op->type);
  }
  for (int side = 0; side < 2; side++) {
    if (side) op_each_attr_var(e->g, op, comment_attr_var, &(AttrComment){e, p});
    const Slot *slots = side ? op->out : op->in;
    int n = side ? op->nout : op->nin;
    for (int s = 0; s < n; s++)
      for (int k = 0; k < slots[s].n; k++) {
        if (slots[s].vars[k] < 0) continue;
        const Var *v = &e->g->vars[slots[s].vars[k]];
        if (!em_spec(e, v)->known) continue;
        pr_line(p, " *   %-3s %-14s %-32s %-8s %s", side ? "out" : "in", slots[s].name, v->name,
                rt_dtype_name(v->dtype), shape_text(e, v));
      }
  }
}

const char *model_io_table(const Graph *g, const Spec *s, const char *name, const int *ids, int n) {
  Printer p;
  pr_init(&p);
  pr_line(&p, "static const IoSpec %s[] = {", name);
  for (int i = 0; i < n; i++) {
    const Var *v = &g->vars[ids[i]];
    const VarSpec *vs = &s->vars[ids[i]];
    pr_raw(&p, "  {\"%s\", %s, %d, {", v->name, em_dtype_enum(v->dtype), vs->rank);
    for (int d = 0; d < vs->rank; d++) pr_raw(&p, "%s%lld", d ? ", " : "", (long long)vs->d[d].a);
    pr_raw(&p, "}, {");
    for (int d = 0; d < vs->rank; d++) pr_raw(&p, "%s%lld", d ? ", " : "", (long long)vs->d[d].c);
    pr_raw(&p, "}},\n");
  }
  if (!n) pr_line(&p, "{0}");
  pr_line(&p, "};");
  char *t = pool_strdup(p.buf ? p.buf : "");
  pr_free(&p);
  return t;
}

/* How parameter v is bound: prepared as its one reader decided
 * (Op.pack), or as saved (rows 0). */
static WeightPack weight_pack(const Graph *g, const Var *v) {
  const int id = (int)(v - g->vars);
  for (int i = 0; i < v->nusers; i++) {
    const WeightPack *wp = &g->ops[v->users[i]].pack;
    if (wp->rows && wp->var == id) return *wp;
  }
  return (WeightPack){0};
}

/* Elements a weight takes once bound: packed ones in the packed layout. */
static uint64_t weight_floats(const Graph *g, const Var *v) {
  const int64_t n = shape_numel(&v->shape);
  const WeightPack wp = weight_pack(g, v);
  return (uint64_t)(wp.rows ? rt_prepack_floats(wp.rows, wp.wino, n) : n);
}

/* 1 when an op of the program draws from the global generator: the model
 * then holds it (model.h.in). */
static int uses_global_rng(const Graph *g) {
  for (int i = 0; i < g->nops; i++)
    if (!g->ops[i].removed && op_global_rng(g, &g->ops[i])) return 1;
  return 0;
}

static const char *weight_table(const Graph *g, uint64_t *bytes) {
  Printer p;
  pr_init(&p);
  *bytes = 0;
  pr_line(&p, "/* Weights in the order of the .pdiparams file (byte-wise sorted names). */");
  pr_line(&p, "static const RtWeightSpec weights_spec[] = {");
  for (int i = 0; i < g->nparams; i++) {
    const Var *v = &g->vars[g->params[i]];
    pr_raw(&p, "  {\"%s\", %s, %d, {", v->name, em_dtype_enum(v->dtype), v->shape.rank);
    for (int d = 0; d < v->shape.rank; d++) pr_raw(&p, "%s%lld", d ? ", " : "", (long long)v->shape.d[d]);
    const WeightPack wp = weight_pack(g, v);
    pr_raw(&p, "}, %lld, %d, %d},\n", (long long)wp.rows, wp.wino, wp.panel);
    *bytes += (weight_floats(g, v) * rt_dtype_size(v->dtype) + 63) / 64 * 64;
  }
  if (!g->nparams) pr_line(&p, "{0}");
  pr_line(&p, "};");
  char *t = pool_strdup(p.buf);
  pr_free(&p);
  return t;
}

/* Weight data as C arrays, exact: hex floats for floating types. */
static const char *weights_file(const Graph *g, const char *prefix, const char *banner) {
  Printer p;
  pr_init(&p);
  pr_line(&p, "/* %s */", banner);
  pr_line(&p, "#include <stdbool.h>");
  pr_line(&p, "#include <stdint.h>");
  for (int i = 0; i < g->nparams; i++) {
    const Var *v = &g->vars[g->params[i]];
    const char *t = em_ctype(v->dtype);
    int64_t n = (int64_t)weight_floats(g, v);
    const uint8_t *data = v->param_data;
    const WeightPack wp = weight_pack(g, v);
    if (wp.rows) {
      float *packed = pool_alloc(sizeof(float) * (size_t)n);
      rt_prepack(data, wp.rows, wp.wino, wp.panel, shape_numel(&v->shape), packed);
      data = (const uint8_t *)packed;
    }
    pr_raw(&p, "\n");
    pr_line(&p, "/* %s %s %s%s */", v->name, rt_dtype_name(v->dtype), shape_str(&v->shape),
            wp.rows ? pool_printf(", prepared for rt_pp_gemm (rt_prepack, panels of %d rows)", wp.panel) : "");
    /* a parameter some op writes (an optimizer's ParamOut, a moment) is
     * updated in place: not const, so it is not placed in read-only memory */
    const char *q = v->producer >= 0 ? "" : "const ";
    pr_line(&p, "extern %s%s %s_w%d[];", q, t, prefix, i);
    pr_raw(&p, "_Alignas(64) %s%s %s_w%d[%lld] = {", q, t, prefix, i, (long long)(n ? n : 1));
    for (int64_t k = 0; k < n; k++) {
      if (k % 8 == 0) pr_raw(&p, "\n  ");
      /* parameter data sits unaligned in the file buffer: copy each element */
      const uint8_t *d = data + (size_t)k * rt_dtype_size(v->dtype);
      union {
        float f;
        double g;
        int64_t l;
        int32_t i;
        int16_t h;
        int8_t b;
        uint8_t u;
      } x;
      memcpy(&x, d, rt_dtype_size(v->dtype));
      switch (v->dtype) {
        case RT_DT_FP32: pr_raw(&p, "%a, ", (double)x.f); break;
        case RT_DT_FP64: pr_raw(&p, "%a, ", x.g); break;
        case RT_DT_INT64: pr_raw(&p, "%lld, ", (long long)x.l); break;
        case RT_DT_INT32: pr_raw(&p, "%d, ", x.i); break;
        case RT_DT_INT16: pr_raw(&p, "%d, ", x.h); break;
        case RT_DT_INT8: pr_raw(&p, "%d, ", x.b); break;
        default: pr_raw(&p, "%d, ", x.u); break;
      }
    }
    pr_raw(&p, "\n};\n");
  }
  char *t = pool_strdup(p.buf);
  pr_free(&p);
  return t;
}

static const char *bind_weights(const Graph *g, const char *prefix, int embedded, int training, int bound,
                                const char *upper) {
  Printer p;
  pr_init(&p);
  p.indent = 1;
  if (bound) {
    pr_line(&p, "/* the weights are the trainer's state: it points m->w at them before each run */");
    pr_line(&p, "(void)m;");
    pr_line(&p, "(void)blob;");
    pr_line(&p, "(void)len;");
    pr_line(&p, "(void)store;");
    pr_line(&p, "(void)weights_spec; /* their dtypes and shapes, the trainer's state's */");
    pr_line(&p, "return %s_OK;", upper);
  } else if (embedded) {
    pr_line(&p, "(void)blob;");
    pr_line(&p, "(void)len;");
    pr_line(&p, "(void)store;");
    for (int i = 0; i < g->nparams; i++) {
      const Var *v = &g->vars[g->params[i]];
      pr_line(&p, "extern %s%s %s_w%d[];", v->producer >= 0 ? "" : "const ", em_ctype(v->dtype), prefix, i);
      pr_line(&p, "m->w[%d] = %s_w%d;", i, prefix, i);
    }
    pr_line(&p, "return %s_OK;", upper);
  } else {
    if (training) {
      pr_line(&p, "/* no file: the state starts at zeros, for the startup program or a checkpoint */");
      pr_line(&p, "if (!blob) {");
      pr_line(&p, "rt_state_zero(weights_spec, %d, store, m->w);", g->nparams);
      pr_line(&p, "return %s_OK;", upper);
      pr_line(&p, "}");
    }
    pr_line(&p, "char err[128];");
    pr_line(&p, "if (rt_weights_bind(blob, len, weights_spec, %d, store, m->w, err, sizeof err))", g->nparams);
    pr_line(&p, "  return fail(m, %s_ERR_WEIGHTS, err);", upper);
    pr_line(&p, "return %s_OK;", upper);
  }
  char *t = pool_strdup(p.buf);
  pr_free(&p);
  return t;
}

/* 1 when var `vid` is one of op's inputs (an output bound to its own input
 * var, such as batch_norm's MeanOut in inference: unchanged by the kernel). */
static int is_input_of(const Op *op, int vid) {
  for (int si = 0; si < op->nin; si++)
    for (int a = 0; a < op->in[si].n; a++)
      if (op->in[si].vars[a] == vid) return 1;
  return 0;
}

/* 1 when op r reads var `vid`: binds it to an input slot that its OpDef
 * does not list in `ignores` (nanmedian_grad's MedianIndex, found again
 * from X, is bound but not read). */
static int reads_var(const Op *r, int vid) {
  for (int si = 0; si < r->nin; si++)
    for (int a = 0; a < r->in[si].n; a++)
      if (r->in[si].vars[a] == vid && !(r->def && op_def_ignores(r->def, r->in[si].name))) return 1;
  return 0;
}

/* Every output of the op just emitted that the program reads or fetches
 * must have been computed by its kernel (e->written, see em_wrote): the
 * emitters skip outputs that serve only training (SavedMean, Mask, XShape,
 * ...), and a fetch of one would otherwise copy whatever the arena held.
 * Reports each such output, naming its slot and who reads it. */
static int check_outputs(EmitCtx *e) {
  const Graph *g = e->g;
  const Op *op = e->op;
  int bad = 0;
  for (int so = 0; so < op->nout; so++)
    for (int a = 0; a < op->out[so].n; a++) {
      const int vid = op->out[so].vars[a];
      if (vid < 0 || e->written[vid] || is_input_of(op, vid)) continue;
      const Var *v = &g->vars[vid];
      const VarSpec *vs = em_spec(e, v);
      const SymDim n = vs->known ? spec_numel(vs) : (SymDim){-1, -1};
      if (n.a == 0 && n.c == 0) continue; /* empty: nothing to compute */
      const char *reader = NULL;
      for (int u = 0; u < v->nusers && !reader; u++) {
        const Op *r = &g->ops[v->users[u]];
        if (v->users[u] != e->op_id && !r->removed && (!strcmp(r->type, "fetch") || reads_var(r, vid)))
          reader = strcmp(r->type, "fetch") ? pool_printf("op %d (%s) reads it", r->index, r->type)
                                            : "the program fetches it";
      }
      if (!reader && (v->flags & VAR_FETCH)) reader = "the program fetches it";
      if (!reader) continue;
      em_fail(e, "output %s ('%s') is not computed by paddlec's %s kernel (it serves training, or Paddle leaves it "
                 "unwritten in inference too), but %s",
              op->out[so].name, v->name, op->type, reader);
      bad = 1;
    }
  return bad ? -1 : 0;
}

/* 1 when kernel text `code` writes runtime_dims[slot]: assigns it, or
 * hands a runtime function its address. */
static int writes_extent(const char *code, int slot) {
  const char *set = pool_printf("runtime_dims[%d] =", slot), *addr = pool_printf("&m->runtime_dims[%d]", slot);
  for (const char *at = code; (at = strstr(at, set)); at++)
    if (at[strlen(set)] != '=') return 1; /* not a comparison (==) */
  return strstr(code, addr) != NULL;
}

/* Every run-time extent of an output the kernel computed (e->written)
 * must be written by it too: a kernel that sizes its loops by an extent no
 * one wrote would read whatever runtime_dims[] held from the run before.
 * An extent neither the shape rule passed on (tu_pass_recorded_extents) nor
 * the emitter computed is paddlec's bug: reported as such rather than
 * compiled. */
static void check_extents(EmitCtx *e, const char *code) {
  const Op *op = e->op;
  for (int so = 0; so < op->nout; so++)
    for (int a = 0; a < op->out[so].n; a++) {
      const int vid = op->out[so].vars[a];
      if (vid < 0 || !e->written[vid] || is_input_of(op, vid)) continue;
      const VarSpec *vs = em_spec(e, &e->g->vars[vid]);
      for (int d = 0; vs->known && d < vs->rank; d++)
        if (vs->runtime_mask >> d & 1 && !writes_extent(code, vs->runtime_slots[d]))
          diag_internal("%s: the kernel of %s leaves the run-time extent of dim %d of its output %s ('%s') "
                        "unwritten", e->g->file, graph_op_where(e->g, op), d, op->out[so].name,
                        e->g->vars[vid].name);
    }
}

static uint64_t fnv1a(const Graph *g) {
  uint64_t h = 1469598103934665603ull;
  for (int i = 0; i < g->nops; i++)
    for (const char *s = g->ops[i].type; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211ull;
  return h ^ g->file_hash;
}

/* Emitters take the shapes of an op's inputs as known: one that nothing
 * computes (read before any op writes it) is an error here.  A scope
 * (conditional_block_grad's Scope: Paddle's executor's) holds no tensor. */
static int operands_known(EmitCtx *e) {
  int bad = 0;
  const Op *op = e->op;
  for (int si = 0; si < op->nin; si++)
    for (int a = 0; a < op->in[si].n; a++) {
      int v = op->in[si].vars[a];
      if (v >= 0 && e->g->vars[v].vtype == VT_STEP_SCOPES) continue;
      if (v >= 0 && !e->spec->vars[v].known)
        bad = em_fail(e, "input %s '%s' has no shape known at compile time (nothing computes it)", op->in[si].name,
                      e->g->vars[v].name);
    }
  return bad;
}

/* A trainer's state (its weight slots): which are Parameters, saved to
 * .pdparams rather than .pdopt (rt_state.h). */
static const char *state_table(const Graph *g, const char *prefix) {
  Printer p;
  pr_init(&p);
  pr_raw(&p, "#include \"paddlec_rt/rt_state.h\"\n\n");
  pr_line(&p, "/* 1: state var i is a Parameter (checkpoints: .pdparams), 0: other state (.pdopt). */");
  pr_raw(&p, "static const unsigned char state_is_param[] = {");
  for (int i = 0; i < g->nparams; i++)
    pr_raw(&p, "%s%d", i ? ", " : "", (g->vars[g->params[i]].flags & VAR_IS_PARAMETER) ? 1 : 0);
  pr_raw(&p, "%s};\n", g->nparams ? "" : "0");
  /* the optimizers' learning rates: LearningRate inputs of optimizer ops */
  pr_line(&p, "/* The state vars the optimizer ops read as LearningRate (%s_set_learning_rate). */", prefix);
  pr_raw(&p, "static const int state_learning_rates[] = {");
  int nlr = 0;
  for (int i = 0; i < g->nparams; i++) {
    if (train_is_learning_rate(g, g->params[i])) pr_raw(&p, "%s%d", nlr++ ? ", " : "", i);
  }
  pr_raw(&p, "%s};\n#define NUM_LEARNING_RATES %d\n\n", nlr ? "" : "-1", nlr);
  const char *t = pool_strdup(p.buf);
  pr_free(&p);
  return t;
}

/* The tensor arrays of the program (one length each, em_array_len). */
static int count_arrays(const Graph *g) {
  int n = 0;
  for (int i = 0; i < g->nvars; i++) n += g->vars[i].vtype == VT_LOD_TENSOR_ARRAY;
  return n;
}

/* The model's field for the tensor arrays' run-time lengths, and what
 * starts each run with them empty; "" when the program has none. */
static const char *arrays_field(const Graph *g) {
  const int n = count_arrays(g);
  return n ? pool_printf("\n  int64_t array_len[%d];       /* the tensor arrays' lengths (ops/array_call.h) */", n) : "";
}
static const char *arrays_reset(const Graph *g) {
  return count_arrays(g) ? "\n    memset(m->array_len, 0, sizeof m->array_len); /* every run starts with empty arrays */" : "";
}

/* The model's field for the run-time extents (spec.h), "" when it has none. */
static const char *runtime_dims_field(const Spec *s) {
  if (!s->nruntime_dims) return "";
  return pool_printf("\n  int64_t runtime_dims[%d];    /* extents only known at run time, as kernels find them */",
                     s->nruntime_dims);
}

/* The LoD pieces of the generated files (templates/lod*.in), all "" for a
 * model whose kernels read no feed's LoD (e->lod_read, recorded by the
 * sequence ops' emitters: em_reads_lod) and make none (e->lod_bound:
 * em_makes_lod). */
typedef struct LodText {
  const char *field, *api, *funcs, *check, *destroy;       /* model.h, model.c */
  const char *decls, *args, *set, *fetch, *free_, *parse; /* main.c */
  const char *usage, *doc;
  const char *run_ok;                                       /* main.c: run_dims_text's */
} LodText;

/* The model's LoDs that kernels make (templates/lod_made.c.in): their
 * storage, kept across runs, each with room for its bound at the run's
 * batch; "" when none. */
static void lod_made_text(EmitCtx *e, const char *P, LodText *t) {
  const Graph *g = e->g;
  const int nmade = op_lod_made_count(g);
  if (!nmade) return;
  const char *bounds = "";
  for (int j = 0; j < nmade; j++) {
    const int arr = e->lod_bound_array[j];
    if (arr >= 0) { /* read back from an array: its slots' room, as all its writes ask */
      const SymDim room = e->array_lod_room[arr];
      if (room.a < 0)
        diag_internal("the LoD of '%s' is read from an array no write gave room", g->vars[op_lod_made_var(g, j)].name);
      if (room.a > e->lod_bound[j].a) e->lod_bound[j].a = room.a;
      if (room.c > e->lod_bound[j].c) e->lod_bound[j].c = room.c;
    }
    if (e->lod_bound[j].a < 0)
      diag_internal("the LoD of '%s' has no bound (its op's emitter calls em_makes_lod)",
                    g->vars[op_lod_made_var(g, j)].name);
    bounds = pool_printf("%s%s{%lld, %lld} /* %s */", bounds, j ? ", " : "", (long long)e->lod_bound[j].a,
                         (long long)e->lod_bound[j].c, g->vars[op_lod_made_var(g, j)].name);
  }
  TplVar v[] = {{"PREFIX", P}, {"UPPER", str_upper(P)}, {"NUM_MADE", pool_printf("%d", nmade)},
                {"NUM_INPUTS", pool_printf("%d", g->nfeeds)}, {"MADE_BOUNDS", bounds}};
  t->field = pool_printf("%s\n  int64_t *lod_store[%d];   /* the offsets kernels make (lod_reserve), */"
                         "\n  int64_t lod_cap[%d];       /* and how many each holds */", t->field, nmade, nmade);
  t->funcs = pool_printf("%s%s", t->funcs, tpl_render("templates/lod_made.c.in", v, 5));
  t->check = pool_printf("%s\n  if ((st = lod_reserve(m, batch))) return st;", t->check);
  t->destroy = pool_printf("\n  for (int j = 0; j < %d; j++) rt_free(m->lod_store[j]);", nmade);
}

/* The slots of the tensor arrays of LoD tensors (templates/lod_array.c.in;
 * e->array_lod_room, em_array_lod): their storage, kept across runs; ""
 * when no kernel writes such an array. */
static void lod_array_text(EmitCtx *e, const char *P, LodText *t) {
  const Graph *g = e->g;
  const int n = count_arrays(g);
  const char *rooms = "";
  int any = 0;
  for (int i = 0, j = 0; i < g->nvars; i++) {
    const Var *v = &g->vars[i];
    if (v->vtype != VT_LOD_TENSOR_ARRAY) continue;
    const SymDim r = e->array_lod_room[j];
    any |= r.a >= 0;
    rooms = pool_printf("%s%s{%lld, %lld, %lld} /* %s */", rooms, j ? ", " : "", (long long)r.a, (long long)r.c,
                        (long long)(r.a >= 0 ? v->arr_len : 0), v->name);
    j++;
  }
  if (!any) return;
  TplVar v[] = {{"PREFIX", P}, {"UPPER", str_upper(P)}, {"NUM_ARRAYS", pool_printf("%d", n)}, {"ROOMS", rooms}};
  t->field = pool_printf("%s\n  int64_t *array_lod[%d];   /* the arrays' elements' rows and LoDs (array_lod_reserve), */"
                         "\n  int64_t array_lod_cap[%d]; /* and the offsets a level of each slot holds */",
                         t->field, n, n);
  t->funcs = pool_printf("%s%s", t->funcs, tpl_render("templates/lod_array.c.in", v, 4));
  t->check = pool_printf("%s\n  if ((st = array_lod_reserve(m, batch))) return st;", t->check);
  t->destroy = pool_printf("%s\n  for (int j = 0; j < %d; j++) rt_free(m->array_lod[j]);", t->destroy, n);
}

/* The pieces of a model whose inputs have dims the run gives (a feed
 * --max-shape bounds; templates/run_dims*.in), added to t; nothing when
 * none has. */
static void run_dims_text(EmitCtx *e, const char *P, LodText *t) {
  const char *rows = "";
  for (int i = 0; i < e->g->nfeeds; i++) {
    const VarSpec *vs = em_spec(e, &e->g->vars[e->g->feeds[i]]);
    for (int d = 0; d < vs->rank; d++)
      if (vs->runtime_mask >> d & 1)
        rows = pool_printf("%s%s{%d, %d, %d}", rows, *rows ? ", " : "", i, d, vs->runtime_slots[d]);
  }
  if (!*rows) return;
  const char *bound = e->size_classes ? "--max-shape, or the largest size class" : "--max-shape";
  TplVar v[] = {{"PREFIX", P}, {"UPPER", str_upper(P)}, {"RUN_DIMS", rows}, {"BOUND_NAME", bound},
                {"RUN_DIMS_CLASS", e->size_classes ? "\n  choose_class(m); /* the class of the sizes set */" : ""}};
  t->api = pool_printf("%s%s", t->api, tpl_render("templates/run_dims.h.in", v, 2));
  if (e->size_classes)
    t->api = pool_printf("%s%s", t->api, tpl_render("templates/size_class.h.in", v, 2));
  t->funcs = pool_printf("%s%s", t->funcs, tpl_render("templates/run_dims.c.in", v, 5));
  t->check = pool_printf("%s\n  if ((st = run_dims_check(m))) return st;", t->check);
  t->run_ok = pool_printf(
      "  for (int d = 0; d < rank && a->rank == rank; d++) { /* dims the run gives: from 1 to the bound */"
      "\n    if (!(%s_input_run_dims(i) >> d & 1)) continue;"
      "\n    if (a->dims[d] < 1 || a->dims[d] > want[d]) {"
      "\n      fprintf(stderr, \"error: input '%%s' has %%lld in dim %%d; the model takes 1 to %%lld there (%s)\\n\","
      " name, (long long)a->dims[d], d, (long long)want[d]);"
      "\n      return -1;"
      "\n    }"
      "\n    numel = numel / want[d] * a->dims[d];"
      "\n    want[d] = a->dims[d];"
      "\n  }\n", P, e->size_classes ? "its --max-shape, or the largest size class" : "its --max-shape");
  t->set = pool_printf("%s\n  for (int k = 0; k < %s_NUM_INPUTS; k++)"
                       "\n    if (%s_input_run_dims(k) && %s_set_input_dims(m, k, arrays[k].dims)) {"
                       "\n      fprintf(stderr, \"error: %%s\\n\", %s_last_error(m));"
                       "\n      goto destroy;"
                       "\n    }", t->set, str_upper(P), P, P, P);
  t->doc = pool_printf("%s\n *              an input whose dims the run gives (compiled with --max-shape) takes any "
                       "sizes\n *              from 1 to the bound in them", t->doc);
}

static LodText lod_text(EmitCtx *e, const char *P) {
  Graph *g = e->g;
  LodText t = {"", "", "", "", "", "", "", "", "", "", "", "", "", ""};
  const char *ins = "", *outs = "", *levels = "";
  const int nmade = op_lod_made_count(g), nlods = g->nfeeds + nmade;
  int any = nmade > 0;
  /* the LoD each fetch carries; a fed one no kernel reads: the run takes it if given */
  char *carried = pool_alloc((size_t)g->nfeeds + 1);
  int *fetch_lod = pool_alloc(sizeof *fetch_lod * ((size_t)g->nfetches + 1));
  memset(carried, 0, (size_t)g->nfeeds + 1);
  for (int i = 0; i < g->nfetches; i++) {
    const int k = fetch_lod[i] = op_lod_input_levels(g, e->spec, &g->vars[g->fetches[i]], NULL, NULL);
    if (k >= 0 && k < g->nfeeds) carried[k] = 1;
  }
  const char *required = "";
  for (int i = 0; i < g->nfeeds; i++) {
    const int on = e->lod_read[i] || carried[i];
    any |= on;
    ins = pool_printf("%s%s%d", ins, i ? ", " : "", on ? op_lod_levels(g, i) : 0);
    required = pool_printf("%s%s%d", required, i ? ", " : "", e->lod_read[i]);
  }
  if (!any) return t;
  for (int k = 0; k < nlods; k++) levels = pool_printf("%s%s%d", levels, k ? ", " : "", op_lod_levels(g, k));
  for (int i = 0; i < g->nfetches; i++) outs = pool_printf("%s%s%d", outs, i ? ", " : "", fetch_lod[i]);
  const char *n_in = pool_printf("%d", g->nfeeds ? g->nfeeds : 1), *U = str_upper(P);
  const char *n_lods = pool_printf("%d", nlods ? nlods : 1);
  TplVar v[] = {{"PREFIX", P}, {"UPPER", U}, {"NUM_INPUTS_1", n_in},
                {"NUM_OUTPUTS_1", pool_printf("%d", g->nfetches ? g->nfetches : 1)},
                {"LOD_INPUTS", *ins ? ins : "0"}, {"LOD_REQUIRED", *required ? required : "0"},
                {"LOD_OUTPUTS", *outs ? outs : "-1"},
                {"NUM_LODS_1", n_lods}, {"LOD_LEVELS", *levels ? levels : "0"}};
  t.field = pool_printf("\n  const int64_t *lod[%s];    /* each LoD's offsets (the level of the rows): %s, */"
                        "\n  int64_t lod_count[%s];     /* and their count; */"
                        "\n  const int64_t *lod_outer[%s]; /* a 2-level LoD's level 0, */"
                        "\n  int64_t lod_outer_count[%s];  /* and its count */",
                        n_lods, nmade ? "an input's (set_input_lod), then those kernels make" : "an input's (set_input_lod)",
                        n_lods, n_lods, n_lods);
  t.api = tpl_render("templates/lod.h.in", v, 2);
  t.funcs = tpl_render("templates/lod.c.in", v, 9);
  t.check = "\n  if ((st = lod_check(m, batch))) return st;";
  lod_made_text(e, P, &t);
  lod_array_text(e, P, &t);
  t.parse = tpl_render("templates/lod_main.c.in", v, 1);
  t.decls = "\n  const char *lod_names[MAX_ARGS] = {0};"
            "\n  int64_t *lods[MAX_ARGS] = {0}, lod_counts[MAX_ARGS] = {0}, lod_splits[MAX_ARGS] = {0};"
            "\n  int nlods = 0;";
  t.args = "\n    } else if (!strcmp(a, \"--lod\")) {"
           "\n      if (nlods >= MAX_ARGS || parse_lod(v, &lod_names[nlods], &lods[nlods], &lod_counts[nlods], "
           "&lod_splits[nlods]))"
           "\n        return usage(argv[0]);"
           "\n      nlods++;";
  t.set = pool_printf("\n  for (int l = 0; l < nlods; l++) {"
                      "\n    const int k = %s_input_index(lod_names[l]);"
                      "\n    const int64_t s = lod_splits[l]; /* two levels: the first s offsets are level 0's */"
                      "\n    if (k < 0 || (s ? %s_set_input_lod_level(m, k, 0, lods[l], s) ||"
                      "\n                          %s_set_input_lod_level(m, k, 1, lods[l] + s, lod_counts[l] - s)"
                      "\n                    : %s_set_input_lod(m, k, lods[l], lod_counts[l]))) {"
                      "\n      fprintf(stderr, \"error: --lod %%s: %%s\\n\", lod_names[l], k < 0 ? \"the model has no such input\" : %s_last_error(m));"
                      "\n      goto destroy;"
                      "\n    }"
                      "\n  }", P, P, P, P, P);
  t.fetch = "\n    if (write_lod(m, i, outdir, name)) goto destroy;";
  t.usage = "\n                  \"       --lod NAME=0,3,7 for each LoD input (its offsets; NAME=0,2/0,3,7 for two "
            "levels)\\n\"";
  t.doc = "\n *              --lod NAME=0,3,7 for each LoD input: its offsets (the last its rows; two levels:\n"
          " *              NAME=0,2/0,3,7, level 0 first); an output that carries one gets\n"
          " *              D/<name>.lod.json ([[offsets], ...]) beside its .npy";
  t.free_ = "\n  for (int l = 0; l < nlods; l++) {\n    free(lods[l]);\n    free((char *)lod_names[l]);\n  }";
  return t;
}

static const char *train_fields(const char *P) {
  return pool_printf("\n  /* a trainer on places (%s_set_places) */\n"
                     "  int part_lo, part_hi;         /* the kernels a run runs: [part_lo, part_hi) */\n"
                     "  int seed_on;                  /* 1: loss@GRAD is seed_value (gradient scale) */\n"
                     "  double seed_value;\n"
                     "  struct %s_places *places;     /* the other places, NULL: one */\n"
                     "  void *eval;                   /* the evaluation program's model (%s_eval), NULL: none yet */",
                     P, P, P);
}

/* The training API's declarations and definitions (templates/train.*.in). */
static const char *train_api(const char *P, const char *U, const ModelText *mt, const BuildStrategy *bs) {
  TplVar v[] = {{"PREFIX", P},
                {"UPPER", U},
                {"HAS_STARTUP", mt->startup_source ? "1" : "0"},
                {"HAS_EVAL", mt->eval_source ? "1" : "0"},
                {"GRADIENT_SCALE", pool_printf("%d", bs->gradient_scale_strategy)},
                {"REDUCE_STRATEGY", pool_printf("%d", bs->reduce_strategy)},
                {"NUM_TRAINERS", pool_printf("%d", bs->num_trainers)},
                {"TRAINER_ID", pool_printf("%d", bs->trainer_id)},
                {"SYNC_BATCH_NORM", bs->sync_batch_norm ? "1" : "0"}};
  return tpl_render("templates/train.h.in", v, 9);
}

/* The body of PREFIX_set_eval_input_dims after it has the evaluation
 * program's model `e` (train.c.in): its set_input_dims, or an error when
 * its inputs have no dims the run gives (`run_dims` 0). */
static const char *eval_set_dims(const char *P, const char *U, int run_dims) {
  if (!run_dims)
    return pool_printf("(void)e;\n  (void)i;\n  (void)dims;\n  return fail(m, %s_ERR_ARG, \"set_eval_input_dims: the "
                       "evaluation program's inputs have no dims the run gives\");", U);
  return pool_printf("const int st = %s_eval_set_input_dims(e, i, dims);\n  if (st) snprintf(m->error, sizeof "
                     "m->error, \"set_eval_input_dims: %%.260s\", %s_eval_last_error(e));\n  return st;", P, P);
}

/* The trainer's functions (train.c.in, places.c.in, procs.c.in); run_dims:
 * 1 when feeds have dims the run gives (run_dims.c.in's table). */
static const char *train_funcs(const char *P, const char *U, const ModelText *mt, const Graph *g, const char *place,
                               int run_dims) {
  const char *run = mt->run_startup ? mt->run_startup : train_state_defaults(g, U);
  TplVar v[] = {{"PREFIX", P},
                {"UPPER", U},
                {"RUN_STARTUP", run},
                {"LR_CHECK", mt->run_startup ? "" : train_lr_check(g, P, U)},
                {"STARTUP_INCLUDE", mt->startup_source ? pool_printf("\n#include \"%s_startup.h\"", P) : ""},
                {"EVAL_INCLUDE", mt->eval_source ? pool_printf("\n#include \"%s_eval.h\"", P) : ""},
                {"EVAL_TABLE", mt->eval_table ? mt->eval_table : ""},
                {"EVAL_SET_DIMS", eval_set_dims(P, U, mt->eval_run_dims)}};
  const char *train = tpl_render("templates/train.c.in", v, 8);
  TplVar pv[] = {{"PREFIX", P},
                 {"UPPER", U},
                 {"PLAN_PLACE", place},
                 {"INPUT_RUN_DIMS", run_dims ? "\n  for (int k = 0; k < NUM_RUN_DIMS; k++) /* set_input_dims's */"
                                              "\n    if (run_dims[k].input == i) d[run_dims[k].dim] = "
                                              "m->runtime_dims[run_dims[k].slot];"
                                            : "\n  (void)m; /* no dims the run gives */"},
                 {"PLACE_RUN_DIMS", run_dims ? "\n      for (int k = 0; k < NUM_RUN_DIMS; k++) /* the inputs' dims, "
                                              "set on the model */"
                                              "\n        pm[p]->runtime_dims[run_dims[k].slot] = "
                                              "m->runtime_dims[run_dims[k].slot];"
                                            : ""},
                 {"NUM_INPUTS_1", pool_printf("%d", g->nfeeds ? g->nfeeds : 1)},
                 {"NUM_OUTPUTS_1", pool_printf("%d", g->nfetches ? g->nfetches : 1)},
                 {"NUM_WEIGHTS_1", pool_printf("%d", g->nparams ? g->nparams : 1)}};
  return pool_printf("%s%s%s", tpl_render("templates/procs.c.in", pv, 2), tpl_render("templates/places.c.in", pv, 8),
                     train);
}

/* OpDef.decide of every op of block b and of the blocks its control-flow
 * ops run (subblock.h). */
static void decide_block(EmitCtx *e, int b, int depth) {
  const Graph *g = e->g;
  for (int k = 0; k < g->blocks[b].nops; k++) {
    const Op *op = &g->ops[g->blocks[b].ops[k]];
    if (op_runs_block(g, op) && depth < 64) decide_block(e, op->sub_block, depth + 1);
    e->op = op;
    e->op_id = g->blocks[b].ops[k];
    if (!e->op->def || !e->op->def->decide) continue; /* every op has its OpDef here (codegen checked) */
    e->deciding = 1;
    (void)e->op->def->decide(e);
    e->deciding = 0;
  }
}

/* One op's kernel: the comment before it (left open for the kernels it
 * waits for) and its function, named fn; bad when the op cannot be emitted
 * (the errors are printed). */
typedef struct KernelText {
  const char *comment, *code;
  int bad;
} KernelText;

static KernelText kernel_text(EmitCtx *e, const Op *op, int id, const char *fn) {
  Graph *g = e->g;
  KernelText kt = {0};
  e->op = op;
  e->op_id = id;
  Printer body, text, com;
  pr_init(&body);
  pr_init(&text);
  pr_init(&com);
  body.indent = 1;
  e->p = &body;
  e->tasks = &text; /* the task functions, then the kernel */
  scratch_kernel(e->scratch, fn);
  e->kernel = fn;
  e->ntask_fns = 0;
  memset(e->written, 0, (size_t)g->nvars + 1);
  int errs = diag_count();
  e->naming = 1;
  e->nlocals = 0;
  e->fault = NULL;
  int failed = operands_known(e);
  if (!failed) tu_pass_recorded_extents(e); /* the extents the shape rule passed on */
  failed = failed || op->def->emit_c(e) || diag_count() > errs;
  e->naming = 0;
  /* every op's slots are checked, not only those before the first error */
  if (failed || check_outputs(e) || op_check_slots(g, (Op *)op)) kt.bad = 1;
  kernel_comment(e, &com);
  const char *decls, *kbody = em_locals(e, body.buf ? body.buf : "", NULL, 1, &decls);
  const char *all = pool_printf("%s%s", decls, kbody);
  static const char *const params[] = {"m", "B", "ws"};
  const char *mark[3];
  em_unused_marks(all, params, 3, mark);
  pr_line(&text, "static %s %s(%s_model *m%s, int64_t B%s, unsigned char *ws%s) {", e->fault ? "int" : "void", fn,
          e->prefix, mark[0], mark[1], mark[2]);
  pr_raw(&text, "%s%s", decls, kbody);
  if (e->fault) pr_line(&text, "return 0;");
  pr_line(&text, "}");
  pr_raw(&text, "\n");
  kt.comment = pool_strdup(com.buf);
  kt.code = pool_strdup(text.buf);
  if (strchr(kt.code, '\001')) diag_internal("kernel %s: an operand placeholder outside em_locals", fn);
  if (!kt.bad) check_extents(e, kt.code);
  pr_free(&body);
  pr_free(&text);
  pr_free(&com);
  return kt;
}

/* EmitCtx.sub_kernel (em_sub_kernel). */
static const char *sub_kernel(EmitCtx *e, int id, const char *fn, const char **fault) {
  EmitCtx sub = *e;
  sub.written = pool_alloc((size_t)e->g->nvars + 1);
  sub.locals = NULL;
  sub.nlocals = sub.locals_cap = 0;
  sub.outer = sub.task_body = NULL;
  sub.task_fn = sub.task_work = sub.task_outer = NULL;
  const KernelText kt = kernel_text(&sub, &e->g->ops[id], id, fn);
  *fault = sub.fault;
  if (kt.bad) return NULL;
  pr_raw(e->tasks, "%s */\n%s", kt.comment, kt.code);
  return pool_printf("%s(m, B, ws)", fn);
}

int model_emit(Graph *g, const Spec *s, const Plan *pl, const CompileOpts *o, const char *passes, ModelText *mt) {
  const char *P = o->prefix, *U = str_upper(P);
  const char *banner = pool_printf("Generated by paddlec %s from %s (program fnv1a-64 %016llx). Do not edit.\n"
                                   " * Command: %s\n * Passes (rewrites): %s\n * Memory: %s", PADDLEC_VERSION,
                                   g->file, (unsigned long long)fnv1a(g), o->command, passes,
                                   o->size_classes ? SIZE_CLASS_MEMORY : plan_summary(g, pl));
  mt->banner_hash = pool_printf("Generated by paddlec %s from %s (program fnv1a-64 %016llx).", PADDLEC_VERSION,
                                g->file, (unsigned long long)fnv1a(g));
  ScratchPlan *scratch = pool_alloc(sizeof *scratch);
  *scratch = (ScratchPlan){0};
  mt->scratch = scratch;
  unsigned char *written = pool_alloc((size_t)g->nvars + 1), *lod_read = pool_alloc((size_t)g->nfeeds + 1);
  memset(lod_read, 0, (size_t)g->nfeeds + 1);
  const int nmade = op_lod_made_count(g);
  SymDim *lod_bound = pool_alloc(sizeof *lod_bound * ((size_t)nmade + 1));
  int *lod_bound_array = pool_alloc(sizeof *lod_bound_array * ((size_t)nmade + 1));
  for (int j = 0; j < nmade; j++) lod_bound[j] = (SymDim){-1, 0}, lod_bound_array[j] = -1;
  const int narrays = count_arrays(g);
  SymDim *array_lod_room = pool_alloc(sizeof *array_lod_room * ((size_t)narrays + 1));
  for (int j = 0; j < narrays; j++) array_lod_room[j] = (SymDim){-1, 0};
  /* no scratch while deciding (scratch.h: asked for by a kernel's lowering) */
  EmitCtx e = {.g = g, .spec = s, .plan = pl, .prefix = P, .blas = o->blas, .pp_panel = o->pp_panel,
               .size_classes = o->size_classes, .class_alt = o->class_alt,
               .written = written, .lod_read = lod_read, .lod_bound = lod_bound,
               .array_lod_room = array_lod_room, .lod_bound_array = lod_bound_array, .sub_kernel = sub_kernel};
  Printer unused; /* a decision prints nothing; this catches what would */
  pr_init(&unused);
  e.p = e.tasks = &unused;
  decide_block(&e, 0, 0); /* the kernels' decisions first (OpDef.decide) */
  if (unused.buf && *unused.buf) diag_internal("an OpDef.decide printed: %s", unused.buf);
  e.scratch = scratch;
  int bad = 0, nk = 0;
  const Op **kops = pool_alloc(sizeof *kops * (size_t)(g->blocks[0].nops ? g->blocks[0].nops : 1));
  const char **comment = pool_alloc(sizeof *comment * (size_t)(g->blocks[0].nops ? g->blocks[0].nops : 1));
  const char **code = pool_alloc(sizeof *code * (size_t)(g->blocks[0].nops ? g->blocks[0].nops : 1));
  Printer calls;
  pr_init(&calls);
  calls.indent = 2;
  const char *names = ""; /* the kernels' names, for profiling */
  for (int k = 0; k < g->blocks[0].nops; k++) {
    int id = g->blocks[0].ops[k];
    const Op *op = &g->ops[id];
    if (!strcmp(op->type, "feed") || !strcmp(op->type, "fetch")) continue;
    const char *fn = pool_printf("%s_k%03d_%s", P, nk + 1, op->type);
    const KernelText kt = kernel_text(&e, op, id, fn);
    bad |= kt.bad;
    kops[nk] = op;
    comment[nk] = kt.comment;
    code[nk] = kt.code;
    pr_line(&calls, "case %d:", nk);
    if (o->training && dp_is_seed(op)) /* the gradient scale strategy's seed on places */
      pr_line(&calls, "  if (m->seed_on) {\n      dp_seed(m, B, m->seed_value);\n      break;\n    }");
    if (e.fault) /* a value the kernel cannot take (em_fault) */
      pr_line(&calls, "  PADDLEC_KERNEL(%d, if (%s(m, B, ws)) return fail(m, %s_ERR_SHAPE, \"%s: %s\"));", nk, fn, U, fn,
              str_c_escape(e.fault));
    else
      pr_line(&calls, "  PADDLEC_KERNEL(%d, %s(m, B, ws));", nk, fn);
    names = pool_printf("%s%s\"%s\"", names, nk ? ", " : "", fn);
    for (int so = 0; so < op->nout; so++) /* debug builds: report the first kernel that makes a NaN */
      for (int a = 0; a < op->out[so].n; a++) {
        int vid = op->out[so].vars[a];
        if (vid < 0 || pl->vars[vid].kind != PLAN_ARENA || g->vars[vid].dtype != RT_DT_FP32) continue;
        if (!g->vars[vid].nusers && !(g->vars[vid].flags & VAR_FETCH)) continue; /* e.g. layer_norm's Mean */
        pr_line(&calls, "  PADDLEC_CHECK_NAN(\"%s\", %s, %s);", fn, em_ptr(&e, &g->vars[vid], 1),
                em_numel(&e, &g->vars[vid]));
      }
    pr_line(&calls, "  break;");
    nk++;
  }
  if (bad) {
    pr_free(&calls);
    return -1;
  }
  Printer fetch;
  pr_init(&fetch);
  fetch.indent = 1;
  const char *run_extents = "";
  for (int i = 0; i < g->nfetches; i++) {
    const Var *v = &g->vars[g->fetches[i]];
    e.op = NULL;
    pr_line(&fetch, "memcpy(outputs[%d], %s, (size_t)%s * sizeof(%s)); /* %s */", i, em_ptr(&e, v, 1),
            em_numel(&e, v), em_ctype(v->dtype), v->name);
    const VarSpec *vs = em_spec(&e, v);
    if (!vs->runtime_dim) continue;
    if (o->training || o->bound_state) /* a trainer's fetches go through its places' merge, its evaluation
                                        * program's into the driver's [evaluations, batches, ...]: sized by the batch */
      bad = diag_error("%s: fetched '%s' has dim %d only known at run time (%s); a trainer%s cannot fetch such a "
                       "tensor yet", g->file, v->name, vs->runtime_dim - 1,
                       v->runtime_from ? v->runtime_from : "its producer",
                       o->bound_state ? "'s evaluation program" : "");
    for (int d = 0; d < vs->rank; d++)
      if (vs->runtime_mask >> d & 1)
        run_extents = pool_printf("%s\n  if (i == %d) d[%d] = %s; /* %s: %s */", run_extents, i, d, em_dim(&e, v, d),
                                  v->name, v->runtime_from ? v->runtime_from : "its producer");
  }
  if (bad) {
    pr_free(&fetch);
    pr_free(&calls);
    return -1;
  }
  /* the kernels, each after its comment and the kernels it waits for */
  Deps deps;
  if (o->nclass_plans) /* size classes: a conflict in any class orders the kernels */
    deps_build(g, o->class_plans, o->nclass_plans, kops, nk, &deps);
  else
    deps_build(g, &pl, 1, kops, nk, &deps);
  Printer kernels;
  pr_init(&kernels);
  for (int k = 0; k < nk; k++) {
    const char *after = "";
    for (int i = deps.pred_off[k]; i < deps.pred_off[k + 1]; i++)
      after = pool_printf("%s%sk%03d", after, *after ? ", " : "", deps.pred[i] + 1);
    pr_raw(&kernels, "%s", comment[k]);
    pr_line(&kernels, " *   after %s", *after ? after : "(none: may start first)");
    pr_line(&kernels, " */");
    pr_raw(&kernels, "%s", code[k]);
  }
  const char *places = "";
  if (o->training) {
    static const char *const reduce[] = {"AllReduce", "Reduce", "_NoReduce"};
    static const char *const scale[] = {"CoeffNumDevice", "One", "Customized"};
    const DpText dt = dp_text(&e, kops, nk);
    pr_raw(&kernels, "%s", dt.code);
    pr_line(&kernels, "static void eval_free(%s_model *m);", P);
    int nranks;
    places = dt.why ? pool_printf("\n * Data parallel: one place only (%s)", dt.why)
             : dp_collective(g, &nranks)
                 ? pool_printf("\n * Data parallel: a collective program (its own c_allreduce_sum, ...): processes "
                               "%s, one place each", o->mpi ? "under mpirun (built with --mpi)" : "no (build with --mpi)")
                    : pool_printf("\n * Data parallel: places at run time (%s_set_places, --places N, CPU_NUM); "
                                  "processes %s; reduce_strategy %s, gradient_scale_strategy %s", P,
                                  o->mpi ? "under mpirun (built with --mpi)" : "no (build with --mpi)",
                                  reduce[o->pipe.bs.reduce_strategy], scale[o->pipe.bs.gradient_scale_strategy]);
  }
  if (o->eval) places = pool_printf("%s\n * Evaluation program: %s, on the trainer's state (%s_eval)", places,
                                    o->eval->file, P);
  banner = pool_printf("%s%s", banner, places);
  uint64_t wbytes;
  const char *wtable = weight_table(g, &wbytes);
  if (o->embed_weights) wtable = "/* Weights: embedded, see the _weights.c file. */\n";
  const char *io = o->size_classes ? SIZE_CLASS_IO
                                    : pool_printf("%s\n%s", model_io_table(g, s, "inputs_spec", g->feeds, g->nfeeds),
                                                  model_io_table(g, s, "outputs_spec", g->fetches, g->nfetches));
  const char *tables = pool_printf("%s%s\n%s\n%s", o->training ? state_table(g, P) : "", io, wtable,
                                   deps_tables(&deps, P));
  const char *n_in = pool_printf("%d", g->nfeeds), *n_out = pool_printf("%d", g->nfetches);
  const char *n_w = pool_printf("%d", g->nparams);
  const BuildStrategy *bs = &o->pipe.bs;
  const PlanText pt = o->size_classes ? size_class_plan_text(pl, scratch) : plan_text(pl, P);
  const char *place = pool_printf("%s%s", pt.place, arrays_reset(g));
  const char *scratch_a = pool_printf("%lld", (long long)scratch->slot.a);
  const char *scratch_c = pool_printf("%lld", (long long)scratch->slot.c);
  const char *task_bytes = pool_printf("%lld", (long long)scratch->task_floats * (long long)sizeof(float));
  const char *act_scratch_a = scratch_a, *act_scratch_c = scratch_c;
  const char *ws_at = pool_printf("%s_TENSOR_BYTES(B) + (size_t)slot * %s_SCRATCH_BYTES(B)", U, U);
  if (o->size_classes) { /* the class's (size_class.c puts the smallest class's into the header) */
    scratch_a = SIZE_CLASS_SCRATCH_A;
    scratch_c = SIZE_CLASS_SCRATCH_C;
    task_bytes = SIZE_CLASS_TASK_BYTES;
    act_scratch_a = "size_classes[m->size_class].ws_a";
    act_scratch_c = "size_classes[m->size_class].ws_c";
    ws_at = "m->ws_base + (size_t)slot * m->ws_slot";
  }
  LodText lt = lod_text(&e, P);
  run_dims_text(&e, P, &lt);
  if (o->training && *lt.field) {
    pr_free(&kernels);
    pr_free(&fetch);
    pr_free(&calls);
    return diag_error("%s: the sequence ops read the LoD of an input or make one; a trainer cannot take LoDs yet", g->file);
  }
  const char *weight_bytes =
      o->embed_weights || o->bound_state ? "0" : pool_printf("%llu", (unsigned long long)wbytes);
  TplVar hv[] = {
      {"BANNER", banner}, {"PREFIX", P}, {"UPPER", U}, {"NUM_INPUTS", n_in}, {"NUM_OUTPUTS", n_out},
      {"NUM_WEIGHTS", n_w}, {"NUM_INPUTS_1", pool_printf("%d", g->nfeeds ? g->nfeeds : 1)},
      {"NUM_WEIGHTS_1", pool_printf("%d", g->nparams ? g->nparams : 1)},
      {"NUM_KERNELS", pool_printf("%d", nk)}, {"NUM_KERNELS_1", pool_printf("%d", nk ? nk : 1)},
      {"FIXED_BATCH", s->symbolic_batch ? "0" : "1"}, {"TENSOR_BYTES", pt.tensor_bytes}, {"PLAN_FIELD", pool_printf("%s%s%s%s", pt.field, runtime_dims_field(s), arrays_field(g), lt.field)},
      {"SCRATCH_A", scratch_a}, {"SCRATCH_C", scratch_c}, {"WEIGHT_BYTES", weight_bytes},
      {"TASK_BYTES", task_bytes},
      {"TRAIN_API", o->training ? train_api(P, U, mt, bs) : ""},
      {"USES_GLOBAL_RNG", uses_global_rng(g) ? "1" : "0"},
      {"TRAIN_FIELDS", o->training ? train_fields(P) : ""}, {"LOD_API", lt.api},
  };
  mt->header = tpl_render("templates/model.h.in", hv, (int)(sizeof hv / sizeof hv[0]));
  TplVar sv[] = {{"BANNER", banner}, {"PREFIX", P}, {"UPPER", U}, {"TABLES", tables},
                 {"KERNEL_NAMES", *names ? names : "\"(none)\""},
                 {"KERNELS", kernels.buf ? kernels.buf : ""}, {"CALLS", calls.buf ? calls.buf : ""},
                 {"FETCHES", fetch.buf ? fetch.buf : ""}, {"RUN_EXTENTS", run_extents},
                 {"BIND_WEIGHTS", bind_weights(g, P, o->embed_weights, o->training, o->bound_state, U)},
                 {"WEIGHTS_MISSING", o->training ? "rs" : "!weights_path || rs"},
                 {"TRAIN_FUNCS", o->training ? train_funcs(P, U, mt, g, place, *lt.run_ok) : ""},
                 {"WEIGHTS_IN_BLOCK", o->embed_weights || o->bound_state ? "0" : "1"}, {"PLAN_CODE", pt.code}, {"PLAN_PLACE", place},
                 {"TRAIN_DESTROY", o->training ? "\n  places_free(m);\n  eval_free(m);" : ""}, {"LOD_DESTROY", lt.destroy},
                 {"TRAIN_INIT", o->training ? pool_printf("\n  m->part_hi = %s_NUM_KERNELS; /* every kernel */", U) : ""},
                 {"KERNEL_FILTER", o->training ? pool_printf("\n  if (k < m->part_lo || k >= m->part_hi) return %s_OK; /* "
                                                            "the other part (places) */", U) : ""},
                 {"ACT_SCRATCH_A", act_scratch_a}, {"ACT_SCRATCH_C", act_scratch_c}, {"WEIGHT_BYTES", weight_bytes},
                 {"ACT_PARAM", o->size_classes ? pool_printf("const %s_model *m, ", P) : ""},
                 {"ACT_M", o->size_classes ? "m, " : ""}, {"WS_AT", ws_at},
                 {"NUM_THREADS", pool_printf("%d", o->es.num_threads)},
                 {"ITERATIONS_PER_RUN", pool_printf("%d", o->es.num_iteration_per_run)},
                 {"ITERATIONS_PER_DROP", pool_printf("%d", o->es.num_iteration_per_drop_scope)},
                 {"SEQUENTIAL", bs->enable_sequential_execution || bs->sequential_run ? "1" : "0"},
                 {"LOD_FUNCS", lt.funcs}, {"LOD_CHECK", lt.check}};
  mt->source = tpl_render("templates/model.c.in", sv, (int)(sizeof sv / sizeof sv[0]));
  TplVar mv[] = {{"BANNER", banner}, {"PREFIX", P}, {"UPPER", U},
                 {"NUM_INPUTS_1", pool_printf("%d", g->nfeeds ? g->nfeeds : 1)},
                 {"NUM_OUTPUTS_1", pool_printf("%d", g->nfetches ? g->nfetches : 1)},
                 {"LOD_DECLS", lt.decls}, {"LOD_ARGS", lt.args}, {"LOD_SET", lt.set}, {"LOD_FETCH", lt.fetch},
                 {"LOD_FREE", lt.free_}, {"LOD_PARSE", lt.parse}, {"LOD_USAGE", lt.usage}, {"LOD_DOC", lt.doc},
                 {"RUN_DIMS_OK", lt.run_ok},
                 {"OUTPUT_BOUND", o->size_classes ? pool_printf("%s_output_bound(m, i, batch, dims[i])", P)
                                                  : pool_printf("%s_output_shape(i, batch, dims[i])", P)}};
  TplVar tv[] = {mv[0], mv[1], mv[2], mv[3], mv[4], /* a trainer's main takes no LoD */
                 {"RUN_DIMS_OF", *lt.run_ok ? pool_printf("%s_input_run_dims(i)", P) : "0u"},
                 {"SET_RUN_DIMS", *lt.run_ok ? pool_printf("%s_set_input_dims(m, i, dims)", P)
                                             : "0 /* no input has dims the run gives */"},
                 {"EVAL_RUN_DIMS_OF", mt->eval_run_dims ? pool_printf("%s_eval_input_run_dims(i)", P) : "0u"}};
  mt->main = o->training ? tpl_render("templates/train_main.c.in", tv, (int)(sizeof tv / sizeof tv[0]))
                         : tpl_render("templates/main.c.in", mv, (int)(sizeof mv / sizeof mv[0]));
  mt->weights = o->embed_weights ? weights_file(g, P, mt->banner_hash) : NULL;
  mt->run_dims = *lt.run_ok != 0;
  pr_free(&kernels);
  pr_free(&calls);
  pr_free(&fetch);
  return 0;
}
