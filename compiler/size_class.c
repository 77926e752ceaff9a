/* Size classes (size_class.h): one specialization, plan and emission per
 * bound, the kernels' text compared, the differences made table rows. */
#include "size_class.h"

#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "emit.h"
#include "plan.h"
#include "template.h"
#include "util.h"

/* The bounds tried, smallest first: a dim the run gives up to 16384 (an
 * image of 16384 x 16384, a sequence of 16384 tokens). */
static const int64_t class_bounds[] = {32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384};
enum { MAX_BOUNDS = (int)(sizeof class_bounds / sizeof class_bounds[0]) };

/* An image's height and width are bounded apart (two_axes), in pairs of
 * bounds at most 2^MAX_SKEW apart (a ratio of 4: a 40 x 1000 image takes
 * 256 x 1024, not 1024 x 1024); every pair of equal bounds is a class too.
 * Each class costs a plan and an emission at compile time. */
enum { MAX_SKEW = 2, MAX_CLASSES = MAX_BOUNDS * (2 * MAX_SKEW + 1) };

/* The bound whose errors are shown when no class compiles. */
enum { REPORT_CLASS = 4 };

/* A class: the bounds of its two axes (one axis: both the same). */
typedef struct Bounds {
  int64_t b[2];
} Bounds;

static Bounds square(int k) { return (Bounds){{class_bounds[k], class_bounds[k]}}; }
static int is_square(Bounds c) { return c.b[0] == c.b[1]; }

/* "32" or "32 x 64". */
static const char *bounds_str(Bounds c) {
  return is_square(c) ? pool_printf("%lld", (long long)c.b[0])
                      : pool_printf("%lld x %lld", (long long)c.b[0], (long long)c.b[1]);
}

/* 1 when the classes bound two axes apart: one class feed whose two dims
 * but the batch are the run's (an image's height and width); else every
 * dim the classes bound takes one bound. */
static int two_axes(const Graph *g, const CompileOpts *o) {
  if (o->nclass_feeds != 1) return 0;
  const int id = graph_find_var(g, 0, o->max_shapes[o->nmax_shapes - 1].name);
  int unknown = 0;
  for (int d = 1; id >= 0 && d < g->vars[id].decl.rank; d++) unknown += g->vars[id].decl.d[d] < 0;
  return unknown == 2;
}

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
 * their unknown dims by c's bounds (axis 0, then axis 1 with two_axes). */
static void set_bound(Graph *g, const CompileOpts *o, Bounds c) {
  ShapeArg *all = pool_alloc(sizeof *all * (size_t)o->nmax_shapes);
  memcpy(all, o->max_shapes, sizeof *all * (size_t)o->nmax_shapes);
  int axis = 0;
  for (int k = o->nmax_shapes - o->nclass_feeds; k < o->nmax_shapes; k++) {
    const int id = graph_find_var(g, 0, all[k].name);
    for (int d = 1; id >= 0 && d < all[k].rank; d++)
      if (g->vars[id].decl.d[d] < 0) all[k].d[d] = c.b[axis++ & 1];
  }
  g->max_shapes = all;
  g->nmax_shapes = o->nmax_shapes;
  g->nclass_shapes = o->nclass_feeds;
  g->max_shape_used = pool_alloc(sizeof *g->max_shape_used * (size_t)(o->nmax_shapes + 1));
  memset(g->max_shape_used, 0, sizeof *g->max_shape_used * (size_t)(o->nmax_shapes + 1));
}

/* Specializes and plans g for class c; quiet: no error printed (and none
 * counted).  Returns 0 or -1. */
static int specialize(Graph *g, const CompileOpts *o, Bounds c, int quiet, Spec *s, Plan *p) {
  set_bound(g, o, c);
  const int errors = diag_count(), was = diag_quiet(quiet);
  PlanOpts po = plan_options(&o->pipe.bs);
  po.program_order = 1; /* each buffer the same number in every class */
  po.quick = !is_square(c); /* a class a run takes less often: planned faster */
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
static int same_text(const Graph *g, const char *what, const char *a, const char *b, Bounds ba, Bounds bb) {
  if (!strcmp(a, b)) return 0;
  size_t i = 0;
  while (a[i] && a[i] == b[i]) i++;
  const char *ka, *kb, *la = line_at(a, i, &ka), *lb = line_at(b, i, &kb);
  diag_error("%s: built without a bound on the dims the run gives, the generated %s depends on the bound%s: `%s` "
             "for sizes up to %s, `%s` up to %s; bound the feed with --max-shape NAME=d0,d1,... or fix it "
             "with --shape", g->file, what, ka, la, bounds_str(ba), lb, bounds_str(bb));
  return -1;
}

typedef struct ClassData {
  Bounds c;
  Spec spec;
  Plan plan;
  ModelText mt;
} ClassData;

typedef struct TableCtx {
  const Graph *g;
  const ClassData *cd; /* the classes kept, smallest first */
  int n;
  const char *prefix;
  int nbufs, nregions;
} TableCtx;

/* row(k) of every class, one after another. */
static const char *class_rows(const TableCtx *t, const char *(*row)(int k, const TableCtx *t)) {
  const char *s = "";
  for (int k = 0; k < t->n; k++) s = pool_printf("%s%s", s, row(k, t));
  return s;
}

static const char *size_row(int k, const TableCtx *t) {
  const ClassData *c = &t->cd[k];
  return pool_printf("    {{%lld, %lld}, %lld, %lld},\n", (long long)c->c.b[0], (long long)c->c.b[1],
                     (long long)c->mt.scratch->slot.a, (long long)c->mt.scratch->slot.c);
}

static const char *piece_row(int k, const TableCtx *t) {
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

static const char *offset_row(int k, const TableCtx *t) {
  const Plan *p = &t->cd[k].plan;
  const char *s = "";
  for (int i = 0; i < p->npieces; i++) s = pool_printf("%s    {\n%s\n    },\n", s, pairs(p->pieces[i].offset, t->nbufs));
  return s;
}

static const char *ws_row(int k, const TableCtx *t) {
  const ScratchPlan *s = t->cd[k].mt.scratch;
  SymDim *at = pool_alloc(sizeof *at * (size_t)(t->nregions + 1));
  int r = 0;
  for (int i = 0; i < s->nkernels; i++)
    for (int j = 0; j < s->kernels[i].nregions; j++) at[r++] = s->kernels[i].regions[j].offset;
  return pool_printf("    {\n%s\n    },\n", pairs(at, t->nregions));
}

static const char *outputs_row(int k, const TableCtx *t) {
  const char *table = model_io_table(t->g, &t->cd[k].spec, "x", t->g->fetches, t->g->nfetches);
  /* the rows of the table, without its first and last line */
  const char *first = strchr(table, '\n') + 1, *last = strstr(table, "};");
  return pool_printf("  {\n%.*s  },\n", (int)(last - first), first);
}

/* The class tables and functions that replace SIZE_CLASS_PLAN. */
static const char *plan_code(const TableCtx *t, const char *slots, const char *axes) {
  const char *P = t->prefix, *first = "";
  int rows = 0;
  for (int k = 0; k < t->n; k++) {
    first = pool_printf("%s%d, ", first, rows);
    rows += t->cd[k].plan.npieces;
  }
  Printer p;
  pr_init(&p);
  pr_raw(&p, "/* Size classes: the model was built without a bound on the dims the run\n");
  pr_raw(&p, " * gives; it is planned for each class below, and a run takes the one with\n");
  pr_raw(&p, " * the least area whose bounds hold every such dim set (choose_class).  Per\n");
  pr_raw(&p, " * class: the bounds of its axes (an image's height and width, or one for\n");
  pr_raw(&p, " * all) and the bytes of one scratch slot (a * batch + c), its plan's pieces\n");
  pr_raw(&p, " * from class_first (each for the batches up to hi, 0: no end; the bytes of\n");
  pr_raw(&p, " * the tensors, and where each of the %d arena buffers starts: a * batch + c;\n", t->nbufs);
  pr_raw(&p, " * the dump of `paddlec compile --dump-memplan` names the smallest class's\n");
  pr_raw(&p, " * tensors), where each of the %d scratch regions starts in a slot, and the\n", t->nregions);
  pr_raw(&p, " * outputs' bounds. */\n");
  pr_raw(&p, "enum { NUM_CLASSES = %d, NUM_CLASS_PIECES = %d };\n", t->n, rows);
  pr_raw(&p, "static const struct {\n  int64_t bound[2], ws_a, ws_c;\n} size_classes[NUM_CLASSES] = {\n");
  pr_raw(&p, "%s};\n", class_rows(t, size_row));
  pr_raw(&p, "static const int class_first[NUM_CLASSES + 1] = {%s%d};\n", first, rows);
  pr_raw(&p, "static const struct {\n  int64_t hi, a, c;\n} class_pieces[NUM_CLASS_PIECES] = {\n%s};\n",
         class_rows(t, piece_row));
  if (t->nbufs)
    pr_raw(&p, "static const int64_t class_offsets[NUM_CLASS_PIECES][%d][2] = {\n%s};\n", t->nbufs,
           class_rows(t, offset_row));
  if (t->nregions)
    pr_raw(&p, "static const int64_t class_ws_offsets[NUM_CLASSES][%d][2] = {\n%s};\n", t->nregions,
           class_rows(t, ws_row));
  pr_raw(&p, "static const IoSpec class_outputs[NUM_CLASSES][%d] = {\n%s};\n", t->g->nfetches ? t->g->nfetches : 1,
         class_rows(t, outputs_row));
  const char *place = "";
  if (t->nbufs)
    place = pool_printf("\n  for (int i = 0; i < %d; i++)\n    m->off[i] = (size_t)(class_offsets[piece][i][0] * batch + "
                        "class_offsets[piece][i][1]);", t->nbufs);
  if (t->nregions)
    place = pool_printf("%s\n  for (int i = 0; i < %d; i++)\n    m->ws_off[i] = (size_t)(class_ws_offsets[k][i][0] * "
                        "batch + class_ws_offsets[k][i][1]);", place, t->nregions);
  TplVar v[] = {{"PREFIX", P}, {"UPPER", str_upper(P)}, {"CLASS_SLOTS", slots}, {"CLASS_AXES", axes}, {"PLACE", place}};
  pr_raw(&p, "%s", tpl_render("templates/size_class.c.in", v, 5));
  const char *r = pool_strdup(p.buf);
  pr_free(&p);
  return r;
}

/* The runtime_dims[] slots of the class feeds' unknown dims, "a, b", and
 * in *axes the class bound each takes (set_bound's order). */
static const char *class_slots(const Graph *g, const CompileOpts *o, const Spec *s, const char **axes) {
  const char *r = "";
  int axis = 0;
  *axes = "";
  for (int k = o->nmax_shapes - o->nclass_feeds; k < o->nmax_shapes; k++) {
    const int id = graph_find_var(g, 0, o->max_shapes[k].name);
    if (id < 0) continue;
    const Var *v = &g->vars[id];
    const VarSpec *vs = &s->vars[id];
    for (int d = 1; d < vs->rank; d++) {
      if (v->decl.d[d] >= 0) continue;
      const int a = axis++ & 1;
      if (!(vs->runtime_mask >> d & 1)) continue;
      r = pool_printf("%s%s%d", r, *r ? ", " : "", vs->runtime_slots[d]);
      *axes = pool_printf("%s%s%d", *axes, **axes ? ", " : "", two_axes(g, o) ? a : 0);
    }
  }
  return r;
}

/* The texts of class lo with every placeholder replaced. */
static void fill(ModelText *mt, const char *from, const char *to) {
  mt->header = str_replace_all(mt->header, from, to);
  mt->source = str_replace_all(mt->source, from, to);
  mt->main = str_replace_all(mt->main, from, to);
}

/* The classes to plan, in cd, smallest area first: the square ones from
 * the first bound that compiles to the last of that run, then (two_axes)
 * the pairs of those bounds at most 2^MAX_SKEW apart that compile.
 * Returns how many (0: none compiles). */
static int class_list(Graph *g, const CompileOpts *o, ClassData *cd) {
  int lo = -1, hi = -1, n = 0;
  for (int k = 0; k < MAX_BOUNDS; k++) {
    const int ok = !specialize(g, o, square(k), 1, &cd[n].spec, &cd[n].plan);
    if (ok && lo < 0) lo = k;
    if (ok) hi = k, cd[n++].c = square(k);
    if (!ok && lo >= 0) break;
  }
  for (int i = lo; lo >= 0 && two_axes(g, o) && i <= hi; i++)
    for (int j = lo; j <= hi; j++) {
      const Bounds c = {{class_bounds[i], class_bounds[j]}};
      if (i != j && abs(i - j) <= MAX_SKEW && !specialize(g, o, c, 1, &cd[n].spec, &cd[n].plan)) cd[n++].c = c;
    }
  for (int k = 1; k < n; k++) /* by area, then height: insertion keeps the squares' order */
    for (int j = k; j > 0; j--) {
      const Bounds a = cd[j - 1].c, b = cd[j].c;
      if (a.b[0] * a.b[1] < b.b[0] * b.b[1] || (a.b[0] * a.b[1] == b.b[0] * b.b[1] && a.b[0] <= b.b[0])) break;
      const ClassData t = cd[j - 1];
      cd[j - 1] = cd[j], cd[j] = t;
    }
  return n;
}

/* Another class whose bounds both differ from those of class k (NULL when
 * none): the dims that differ there are the class's (CompileOpts.
 * class_alt).  The largest class's is the smallest such, any other's the
 * largest. */
static const Spec *alt_of(const ClassData *cd, int n, int k) {
  for (int i = 0; i < n; i++) {
    const ClassData *a = &cd[k == n - 1 ? i : n - 1 - i];
    if (a->c.b[0] != cd[k].c.b[0] && a->c.b[1] != cd[k].c.b[1]) return &a->spec;
  }
  return NULL;
}

int size_class_emit(Graph *g, const CompileOpts *o, const char *passes, ModelText *mt, Spec **spec, Plan **plan) {
  ClassData *cd = pool_alloc(sizeof *cd * MAX_CLASSES);
  memset(cd, 0, sizeof *cd * MAX_CLASSES);
  int n = class_list(g, o, cd);
  if (!n) { /* none: the errors of one, then what it was */
    Spec s;
    Plan p;
    (void)specialize(g, o, square(REPORT_CLASS), 0, &s, &p);
    diag_note("%s: no --shape or --max-shape names the feeds whose dims the run gives; the errors above are of "
              "their build for sizes up to %lld (fix them with --shape NAME=d0,d1,...)", g->file,
              (long long)class_bounds[REPORT_CLASS]);
    return -1;
  }
  CompileOpts co = *o;
  const Plan **plans = pool_alloc(sizeof *plans * (size_t)n);
  for (int k = 0; k < n; k++) plans[k] = &cd[k].plan;
  co.class_plans = plans;
  co.nclass_plans = n;
  for (int k = n - 1; k >= 0; k--) { /* the smallest class last: the graph stays specialized for it */
    set_bound(g, o, cd[k].c); /* the graph's shapes as the class's (its plan is kept from above) */
    if (spec_build(g, o->shapes, o->nshapes, &cd[k].spec)) return -1;
    co.class_alt = alt_of(cd, n, k);
    if (model_emit(g, &cd[k].spec, &cd[k].plan, &co, passes, &cd[k].mt)) return -1;
  }
  /* the kernels' text the same in every class: a square class where it is
   * not stops the build; a skewed one is left out (a square one holds it) */
  int kept = 1;
  for (int k = 1; k < n; k++) {
    const int quiet = !is_square(cd[k].c), errors = diag_count(), was = diag_quiet(quiet);
    const int differs = same_text(g, "model source", cd[0].mt.source, cd[k].mt.source, cd[0].c, cd[k].c) ||
                        same_text(g, "model header", cd[0].mt.header, cd[k].mt.header, cd[0].c, cd[k].c) ||
                        same_text(g, "driver", cd[0].mt.main, cd[k].mt.main, cd[0].c, cd[k].c);
    diag_quiet(was);
    if (quiet) diag_set_count(errors);
    if (differs && !quiet) return -1;
    if (!differs) cd[kept++] = cd[k];
  }
  n = kept;
  *mt = cd[0].mt;
  const ScratchPlan *ws = cd[0].mt.scratch;
  TableCtx t = {g, cd, n, o->prefix, cd[0].plan.nbufs, ws->nregions};
  int64_t task_floats = 0;
  const char *bounds = "";
  int squares = 0;
  for (int k = 0; k < n; k++) {
    if (cd[k].mt.scratch->task_floats > task_floats) task_floats = cd[k].mt.scratch->task_floats;
    if (is_square(cd[k].c)) bounds = pool_printf("%s%s%lld", bounds, squares++ ? ", " : "", (long long)cd[k].c.b[0]);
  }
  if (squares < n)
    bounds = pool_printf("%s (height and width bounded apart, at most %d times: %d classes)", bounds, 1 << MAX_SKEW, n);
  mt->classes = bounds;
  const char *axes, *slots = class_slots(g, o, &cd[0].spec, &axes);
  fill(mt, SIZE_CLASS_PLAN, plan_code(&t, slots, axes));
  fill(mt, SIZE_CLASS_IO, pool_printf("%s\n%s", model_io_table(g, &cd[n - 1].spec, "inputs_spec", g->feeds, g->nfeeds),
                                      model_io_table(g, &cd[n - 1].spec, "outputs_spec", g->fetches, g->nfetches)));
  fill(mt, SIZE_CLASS_MEMORY, pool_printf("size classes: the dims the run gives up to %s; up to %s: %s", bounds,
                                          bounds_str(cd[0].c), plan_summary(g, &cd[0].plan)));
  fill(mt, SIZE_CLASS_TENSOR_BYTES, plan_text(&cd[0].plan, o->prefix).tensor_bytes);
  fill(mt, SIZE_CLASS_SCRATCH_A, pool_printf("%lld", (long long)ws->slot.a));
  fill(mt, SIZE_CLASS_SCRATCH_C, pool_printf("%lld", (long long)ws->slot.c));
  fill(mt, SIZE_CLASS_TASK_BYTES, pool_printf("%lld", (long long)task_floats * (long long)sizeof(float)));
  *spec = &cd[0].spec;
  *plan = &cd[0].plan;
  return 0;
}
