/* Size classes (size_class.h): one specialization, plan and emission per
 * bound, the kernels' text compared, the differences made table rows. */
#include "size_class.h"

#include <string.h>

#include "diag.h"
#include "emit.h"
#include "plan.h"
#include "template.h"
#include "util.h"

/* The bounds tried, smallest first: a dim the run gives up to 16384 (an
 * image of 16384 x 16384, a sequence of 16384 tokens). */
static const int64_t class_bounds[] = {32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384};
enum { MAX_CLASSES = (int)(sizeof class_bounds / sizeof class_bounds[0]) };

/* The bound whose errors are shown when no class compiles. */
enum { REPORT_CLASS = 4 };

int size_class_feeds(const Graph *g, CompileOpts *o) {
  if (o->training) return 0; /* a trainer refuses feeds of run-time dims (model_emit) */
  ShapeArg *all = NULL;
  int n = 0;
  for (int i = 0; i < g->nfeeds; i++) {
    const Var *v = &g->vars[g->feeds[i]];
    int unknown = 0, named = 0;
    for (int d = 1; d < v->decl.rank; d++) unknown |= v->decl.d[d] < 0;
    for (int k = 0; k < o->nshapes; k++) named |= !strcmp(o->shapes[k].name, v->name);
    for (int k = 0; k < o->nmax_shapes; k++) named |= !strcmp(o->max_shapes[k].name, v->name);
    if (!unknown || named || v->decl.rank > RT_MAX_RANK) continue;
    if (!all) {
      all = pool_alloc(sizeof *all * (size_t)(o->nmax_shapes + g->nfeeds));
      if (o->nmax_shapes) memcpy(all, o->max_shapes, sizeof *all * (size_t)o->nmax_shapes);
    }
    ShapeArg *a = &all[o->nmax_shapes + n++];
    a->name = v->name;
    a->rank = v->decl.rank;
    for (int d = 0; d < a->rank; d++) a->d[d] = v->decl.d[d] >= 0 ? v->decl.d[d] : d ? class_bounds[0] : 1;
  }
  if (!n) return 0;
  o->max_shapes = all;
  o->nmax_shapes += n;
  o->nclass_feeds = n;
  o->size_classes = 1;
  return n;
}

/* Points g's --max-shape list at a copy of o's whose class entries bound
 * their unknown dims by `bound`. */
static void set_bound(Graph *g, const CompileOpts *o, int64_t bound) {
  ShapeArg *all = pool_alloc(sizeof *all * (size_t)o->nmax_shapes);
  memcpy(all, o->max_shapes, sizeof *all * (size_t)o->nmax_shapes);
  for (int k = o->nmax_shapes - o->nclass_feeds; k < o->nmax_shapes; k++) {
    const int id = graph_find_var(g, 0, all[k].name);
    for (int d = 1; id >= 0 && d < all[k].rank; d++)
      if (g->vars[id].decl.d[d] < 0) all[k].d[d] = bound;
  }
  g->max_shapes = all;
  g->nmax_shapes = o->nmax_shapes;
  g->nclass_shapes = o->nclass_feeds;
  g->max_shape_used = pool_alloc(sizeof *g->max_shape_used * (size_t)(o->nmax_shapes + 1));
  memset(g->max_shape_used, 0, sizeof *g->max_shape_used * (size_t)(o->nmax_shapes + 1));
}

/* Specializes and plans g for class k; quiet: no error printed (and none
 * counted).  Returns 0 or -1. */
static int specialize(Graph *g, const CompileOpts *o, int k, int quiet, Spec *s, Plan *p) {
  set_bound(g, o, class_bounds[k]);
  const int errors = diag_count(), was = diag_quiet(quiet);
  PlanOpts po = plan_options(&o->pipe.bs);
  po.program_order = 1; /* each buffer the same number in every class */
  const int bad = spec_build(g, o->shapes, o->nshapes, s) || plan_build(g, s, p, po);
  diag_quiet(was);
  if (quiet) diag_set_count(errors);
  return bad ? -1 : 0;
}

/* The line of `text` at `at`, and the kernel function it is in ("" when
 * none), for the error naming where two classes' code differ. */
static const char *line_at(const char *text, size_t at, const char **kernel) {
  const char *start = text + at, *end;
  while (start > text && start[-1] != '\n') start--;
  end = strchr(start, '\n');
  *kernel = "";
  for (const char *k = strstr(text, "\nstatic int "); k && k < start; k = strstr(k + 1, "\nstatic int ")) {
    const char *name = k + strlen("\nstatic int "), *paren = strchr(name, '(');
    if (paren) *kernel = pool_printf(" (in %.*s)", (int)(paren - name), name);
  }
  return pool_printf("%.*s", (int)(end ? end - start : (ptrdiff_t)strlen(start)), start);
}

/* 0 when class b's text equals class a's; else the error naming the first
 * line that differs. */
static int same_text(const Graph *g, const char *what, const char *a, const char *b, int64_t ba, int64_t bb) {
  if (!strcmp(a, b)) return 0;
  size_t i = 0;
  while (a[i] && a[i] == b[i]) i++;
  const char *ka, *kb, *la = line_at(a, i, &ka), *lb = line_at(b, i, &kb);
  diag_error("%s: built without a bound on the dims the run gives, the generated %s depends on the bound%s: `%s` "
             "for sizes up to %lld, `%s` up to %lld; bound the feed with --max-shape NAME=d0,d1,... or fix it "
             "with --shape", g->file, what, ka, la, (long long)ba, lb, (long long)bb);
  return -1;
}

/* row(k) of every class lo..hi, one after another. */
static const char *class_rows(int lo, int hi, const char *(*row)(int k, const void *ctx), const void *ctx) {
  const char *s = "";
  for (int k = lo; k <= hi; k++) s = pool_printf("%s%s", s, row(k, ctx));
  return s;
}

typedef struct ClassData {
  Spec spec;
  Plan plan;
  ModelText mt;
} ClassData;

typedef struct TableCtx {
  const Graph *g;
  const ClassData *cd;
  const char *prefix;
  int nbufs, nregions;
} TableCtx;

static const char *size_row(int k, const void *ctx) {
  const TableCtx *t = ctx;
  const ClassData *c = &t->cd[k];
  return pool_printf("    {%lld, %lld, %lld},\n", (long long)class_bounds[k], (long long)c->mt.scratch->slot.a,
                     (long long)c->mt.scratch->slot.c);
}

static const char *piece_row(int k, const void *ctx) {
  const TableCtx *t = ctx;
  const Plan *p = &t->cd[k].plan;
  const char *s = "";
  for (int i = 0; i < p->npieces; i++)
    s = pool_printf("%s    {%lld, %lld, %lld},\n", s, (long long)p->pieces[i].hi, (long long)p->pieces[i].arena.a,
                    (long long)p->pieces[i].arena.c);
  return s;
}

/* "{a, c}, ..." of n SymDims, six to a line. */
static const char *pairs(const SymDim *d, int n) {
  const char *s = "";
  for (int i = 0; i < n; i++)
    s = pool_printf("%s%s{%lld, %lld},", s, i % 6 ? " " : i ? "\n        " : "        ", (long long)d[i].a,
                    (long long)d[i].c);
  return s;
}

static const char *offset_row(int k, const void *ctx) {
  const TableCtx *t = ctx;
  const Plan *p = &t->cd[k].plan;
  const char *s = "";
  for (int i = 0; i < p->npieces; i++) s = pool_printf("%s    {\n%s\n    },\n", s, pairs(p->pieces[i].offset, t->nbufs));
  return s;
}

static const char *ws_row(int k, const void *ctx) {
  const TableCtx *t = ctx;
  const ScratchPlan *s = t->cd[k].mt.scratch;
  SymDim *at = pool_alloc(sizeof *at * (size_t)(t->nregions + 1));
  int r = 0;
  for (int i = 0; i < s->nkernels; i++)
    for (int j = 0; j < s->kernels[i].nregions; j++) at[r++] = s->kernels[i].regions[j].offset;
  return pool_printf("    {\n%s\n    },\n", pairs(at, t->nregions));
}

static const char *outputs_row(int k, const void *ctx) {
  const TableCtx *t = ctx;
  const char *table = model_io_table(t->g, &t->cd[k].spec, "x", t->g->fetches, t->g->nfetches);
  /* the rows of the table, without its first and last line */
  const char *first = strchr(table, '\n') + 1, *last = strstr(table, "};");
  return pool_printf("  {\n%.*s  },\n", (int)(last - first), first);
}

/* The class tables and functions that replace SIZE_CLASS_PLAN. */
static const char *plan_code(const TableCtx *t, int lo, int hi, const char *slots) {
  const char *P = t->prefix, *first = "";
  int rows = 0;
  for (int k = lo; k <= hi; k++) {
    first = pool_printf("%s%d, ", first, rows);
    rows += t->cd[k].plan.npieces;
  }
  Printer p;
  pr_init(&p);
  pr_raw(&p, "/* Size classes: the model was built without a bound on the dims the run\n");
  pr_raw(&p, " * gives; it is planned for each class below, and a run takes the smallest\n");
  pr_raw(&p, " * whose bound holds every such dim set (choose_class).  Per class: the\n");
  pr_raw(&p, " * bound and the bytes of one scratch slot (a * batch + c), its plan's pieces\n");
  pr_raw(&p, " * from class_first (each for the batches up to hi, 0: no end; the bytes of\n");
  pr_raw(&p, " * the tensors, and where each of the %d arena buffers starts: a * batch + c;\n", t->nbufs);
  pr_raw(&p, " * the dump of `paddlec compile --dump-memplan` names the smallest class's\n");
  pr_raw(&p, " * tensors), where each of the %d scratch regions starts in a slot, and the\n", t->nregions);
  pr_raw(&p, " * outputs' bounds. */\n");
  pr_raw(&p, "enum { NUM_CLASSES = %d, NUM_CLASS_PIECES = %d };\n", hi - lo + 1, rows);
  pr_raw(&p, "static const struct {\n  int64_t bound, ws_a, ws_c;\n} size_classes[NUM_CLASSES] = {\n");
  pr_raw(&p, "%s};\n", class_rows(lo, hi, size_row, t));
  pr_raw(&p, "static const int class_first[NUM_CLASSES + 1] = {%s%d};\n", first, rows);
  pr_raw(&p, "static const struct {\n  int64_t hi, a, c;\n} class_pieces[NUM_CLASS_PIECES] = {\n%s};\n",
         class_rows(lo, hi, piece_row, t));
  if (t->nbufs)
    pr_raw(&p, "static const int64_t class_offsets[NUM_CLASS_PIECES][%d][2] = {\n%s};\n", t->nbufs,
           class_rows(lo, hi, offset_row, t));
  if (t->nregions)
    pr_raw(&p, "static const int64_t class_ws_offsets[NUM_CLASSES][%d][2] = {\n%s};\n", t->nregions,
           class_rows(lo, hi, ws_row, t));
  pr_raw(&p, "static const IoSpec class_outputs[NUM_CLASSES][%d] = {\n%s};\n", t->g->nfetches ? t->g->nfetches : 1,
         class_rows(lo, hi, outputs_row, t));
  const char *place = "";
  if (t->nbufs)
    place = pool_printf("\n  for (int i = 0; i < %d; i++)\n    m->off[i] = (size_t)(class_offsets[piece][i][0] * batch + "
                        "class_offsets[piece][i][1]);", t->nbufs);
  if (t->nregions)
    place = pool_printf("%s\n  for (int i = 0; i < %d; i++)\n    m->ws_off[i] = (size_t)(class_ws_offsets[k][i][0] * "
                        "batch + class_ws_offsets[k][i][1]);", place, t->nregions);
  TplVar v[] = {{"PREFIX", P}, {"UPPER", str_upper(P)}, {"CLASS_SLOTS", slots}, {"PLACE", place}};
  pr_raw(&p, "%s", tpl_render("templates/size_class.c.in", v, 4));
  const char *r = pool_strdup(p.buf);
  pr_free(&p);
  return r;
}

/* The runtime_dims[] slots of the class feeds' unknown dims, "a, b". */
static const char *class_slots(const Graph *g, const CompileOpts *o, const Spec *s) {
  const char *r = "";
  for (int k = o->nmax_shapes - o->nclass_feeds; k < o->nmax_shapes; k++) {
    const int id = graph_find_var(g, 0, o->max_shapes[k].name);
    if (id < 0) continue;
    const Var *v = &g->vars[id];
    const VarSpec *vs = &s->vars[id];
    for (int d = 1; d < vs->rank; d++)
      if (v->decl.d[d] < 0 && vs->runtime_mask >> d & 1)
        r = pool_printf("%s%s%d", r, *r ? ", " : "", vs->runtime_slots[d]);
  }
  return r;
}

/* The texts of class lo with every placeholder replaced. */
static void fill(ModelText *mt, const char *from, const char *to) {
  mt->header = str_replace_all(mt->header, from, to);
  mt->source = str_replace_all(mt->source, from, to);
  mt->main = str_replace_all(mt->main, from, to);
}

int size_class_emit(Graph *g, const CompileOpts *o, const char *passes, ModelText *mt, Spec **spec, Plan **plan) {
  ClassData *cd = pool_alloc(sizeof *cd * MAX_CLASSES);
  memset(cd, 0, sizeof *cd * MAX_CLASSES);
  int lo = -1, hi = -1;
  for (int k = 0; k < MAX_CLASSES; k++) { /* the classes that compile: a run of them from the first */
    const int ok = !specialize(g, o, k, 1, &cd[k].spec, &cd[k].plan);
    if (ok && lo < 0) lo = k;
    if (ok) hi = k;
    if (!ok && lo >= 0) break;
  }
  if (lo < 0) { /* none: the errors of one, then what it was */
    Spec s;
    Plan p;
    (void)specialize(g, o, REPORT_CLASS, 0, &s, &p);
    diag_note("%s: no --shape or --max-shape names the feeds whose dims the run gives; the errors above are of "
              "their build for sizes up to %lld (fix them with --shape NAME=d0,d1,...)", g->file,
              (long long)class_bounds[REPORT_CLASS]);
    return -1;
  }
  CompileOpts co = *o;
  const Plan **plans = pool_alloc(sizeof *plans * MAX_CLASSES);
  for (int k = lo; k <= hi; k++) plans[k - lo] = &cd[k].plan;
  co.class_plans = plans;
  co.nclass_plans = hi - lo + 1;
  for (int k = hi; k >= lo; k--) { /* the smallest class last: the graph stays specialized for it */
    set_bound(g, o, class_bounds[k]); /* the graph's shapes as the class's (its plan is kept from above) */
    if (spec_build(g, o->shapes, o->nshapes, &cd[k].spec)) return -1;
    co.class_alt = lo == hi ? NULL : &cd[k == lo ? hi : lo].spec;
    if (model_emit(g, &cd[k].spec, &cd[k].plan, &co, passes, &cd[k].mt)) return -1;
  }
  for (int k = lo + 1; k <= hi; k++)
    if (same_text(g, "model source", cd[lo].mt.source, cd[k].mt.source, class_bounds[lo], class_bounds[k]) ||
        same_text(g, "model header", cd[lo].mt.header, cd[k].mt.header, class_bounds[lo], class_bounds[k]) ||
        same_text(g, "driver", cd[lo].mt.main, cd[k].mt.main, class_bounds[lo], class_bounds[k]))
      return -1;
  *mt = cd[lo].mt;
  const ScratchPlan *ws = cd[lo].mt.scratch;
  TableCtx t = {g, cd, o->prefix, cd[lo].plan.nbufs, ws->nregions};
  int64_t task_floats = 0;
  const char *bounds = "";
  for (int k = lo; k <= hi; k++) {
    if (cd[k].mt.scratch->task_floats > task_floats) task_floats = cd[k].mt.scratch->task_floats;
    bounds = pool_printf("%s%s%lld", bounds, k > lo ? ", " : "", (long long)class_bounds[k]);
  }
  mt->classes = bounds;
  fill(mt, SIZE_CLASS_PLAN, plan_code(&t, lo, hi, class_slots(g, o, &cd[lo].spec)));
  fill(mt, SIZE_CLASS_IO, pool_printf("%s\n%s", model_io_table(g, &cd[hi].spec, "inputs_spec", g->feeds, g->nfeeds),
                                      model_io_table(g, &cd[hi].spec, "outputs_spec", g->fetches, g->nfetches)));
  fill(mt, SIZE_CLASS_MEMORY, pool_printf("size classes: the dims the run gives up to %s; up to %lld: %s", bounds,
                                          (long long)class_bounds[lo], plan_summary(g, &cd[lo].plan)));
  fill(mt, SIZE_CLASS_TENSOR_BYTES, plan_text(&cd[lo].plan, o->prefix).tensor_bytes);
  fill(mt, SIZE_CLASS_SCRATCH_A, pool_printf("%lld", (long long)ws->slot.a));
  fill(mt, SIZE_CLASS_SCRATCH_C, pool_printf("%lld", (long long)ws->slot.c));
  fill(mt, SIZE_CLASS_TASK_BYTES, pool_printf("%lld", (long long)task_floats * (long long)sizeof(float)));
  *spec = &cd[lo].spec;
  *plan = &cd[lo].plan;
  return 0;
}
