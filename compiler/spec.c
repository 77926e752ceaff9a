/* Specialization of shapes for code generation (see spec.h). */
#include "spec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "attr.h"
#include "diag.h"
#include "infer.h"
#include "ops/ops.h"
#include "util.h"

static const int64_t probes[] = {1, 2, 3, 8}; /* batch values tried */
enum { NPROBES = sizeof probes / sizeof probes[0] };

int spec_parse_shape_arg(const char *opt, const char *text, ShapeArg *out) {
  const char *eq = strrchr(text, '=');
  memset(out, 0, sizeof *out);
  if (!eq || eq == text) return diag_error("%s %s: expected NAME=d0,d1,...", opt, text);
  out->name = pool_printf("%.*s", (int)(eq - text), text);
  /* dim 0 may be -1: the batch stays the run's (--max-shape's dim 0 is
   * the run's whatever it says) */
  const char *dims = "dims must be positive integers (dim 0 may be -1: the run's batch)";
  for (const char *p = eq + 1; *p;) {
    char *end;
    errno = 0;
    long long v = strtoll(p, &end, 10);
    if (end == p || errno == ERANGE || out->rank >= RT_MAX_RANK ||
        !(v > 0 || (v == -1 && out->rank == 0)))
      return diag_error("%s %s: %s", opt, text, dims);
    out->d[out->rank++] = v;
    p = *end == ',' ? end + 1 : end;
    if (*end && *end != ',') return diag_error("%s %s: %s", opt, text, dims);
  }
  return 0;
}

/* A feed --max-shape names (issue 19 item 1): its unknown dims but the
 * batch (dim 0) take the fed array's at run time, at most the bound, which
 * sizes the tensors (infer_feed marks them run-time extents); dim 0 stays
 * the run's batch and its value in the bound is not used; dims the program
 * fixes must be the bound's.  Sets *s (the batch as the probe's, `batch`)
 * and returns 1; 0 when no --max-shape names v or v has no unknown dim
 * but the batch (the bound bounds nothing: check_max_shapes); -1 after an
 * error. */
static int feed_bound(Graph *g, const Var *v, const ShapeArg *arg, int64_t batch, Shape *s, int report) {
  int k = -1;
  for (int j = 0; j < g->nmax_shapes; j++)
    if (!strcmp(g->max_shapes[j].name, v->name)) k = j;
  int any = 0;
  for (int d = 1; d < s->rank; d++) any |= s->d[d] < 0;
  if (k < 0 || !any) return 0; /* a bound on a feed of known dims bounds nothing (check_max_shapes) */
  const ShapeArg *m = &g->max_shapes[k];
  g->max_shape_used[k] = 1;
  if (arg) return report ? diag_error("%s: feed '%s' is named by both --shape and --max-shape; give one", g->file,
                                      v->name) : -1;
  if (m->rank != s->rank)
    return report ? diag_error("%s: --max-shape %s has %d dims; the feed has %d %s", g->file, v->name, m->rank,
                               s->rank, shape_str(s)) : -1;
  int bad = 0;
  for (int d = 0; d < s->rank; d++) {
    if (s->d[d] >= 0 && s->d[d] != m->d[d] && m->d[d] > 0 && report)
      bad = diag_error("%s: --max-shape %s: dim %d is %lld in the program, not %lld", g->file, v->name, d,
                       (long long)s->d[d], (long long)m->d[d]);
    s->d[d] = s->d[d] >= 0 ? s->d[d] : d == 0 ? batch : m->d[d];
  }
  const char *why = report ? shape_size_problem(s, v->dtype, 1) : NULL;
  if (why) bad = diag_error("%s: --max-shape %s: feed '%s': %s", g->file, v->name, v->name, why);
  return bad ? -1 : 1;
}

/* Applies --shape and the batch value to every feed.  Returns -1 after
 * printing every problem (only checked on the first probe). */
static int set_feeds(Graph *g, const ShapeArg *args, int nargs, int64_t batch, int report) {
  int bad = 0;
  for (int k = 0; k < nargs && report; k++) {
    int found = 0;
    for (int i = 0; i < g->nfeeds; i++) found |= !strcmp(g->vars[g->feeds[i]].name, args[k].name);
    if (!found) bad = diag_error("%s: --shape names '%s', which is not a feed of the program", g->file, args[k].name);
  }
  for (int i = 0; i < g->nfeeds; i++) {
    Var *v = &g->vars[g->feeds[i]];
    const ShapeArg *arg = NULL;
    for (int k = 0; k < nargs; k++)
      if (!strcmp(args[k].name, v->name)) arg = &args[k];
    Shape s = v->decl;
    const int bounded = feed_bound(g, v, arg, batch, &s, report);
    if (bounded < 0) bad = 1;
    if (bounded) {
      v->shape = s;
      unsigned run = 0; /* a trainer's feed, which no feed op writes (infer_feed marks the others) */
      for (int d = 1; d < s.rank && v->producer < 0; d++) run |= (unsigned)(v->decl.d[d] < 0) << d;
      if (run) var_set_runtime_extents(v, g->feeds[i], run, "fed array (bounded by --max-shape)");
      continue;
    }
    if (arg) {
      if (arg->rank != s.rank) {
        if (report) bad = diag_error("%s: --shape %s has %d dims; the feed has %d %s", g->file, v->name, arg->rank, s.rank, shape_str(&s));
        continue;
      }
      for (int d = 0; d < s.rank; d++) {
        if (s.d[d] >= 0 && s.d[d] != arg->d[d] && report)
          bad = diag_error("%s: --shape %s: dim %d is %lld in the program, not %lld", g->file, v->name, d,
                           (long long)s.d[d], (long long)arg->d[d]);
        s.d[d] = arg->d[d];
      }
    }
    const char *unknown = ""; /* dims other than the batch */
    for (int d = 0; d < s.rank; d++) {
      if (s.d[d] >= 0) continue;
      if (d > 0) unknown = pool_printf("%s%s%d", unknown, *unknown ? ", " : "", d);
      s.d[d] = d == 0 ? batch : 1;
    }
    if (*unknown && report)
      bad = diag_error("%s: feed '%s' %s has unknown dim%s %s; fix %s with --shape %s=..., or bound %s with "
                       "--max-shape %s=... to take the fed array's", g->file, v->name, shape_str(&v->decl),
                       strchr(unknown, ',') ? "s" : "", unknown, strchr(unknown, ',') ? "them" : "it", v->name,
                       strchr(unknown, ',') ? "them" : "it", v->name);
    const char *why = report && arg ? shape_size_problem(&s, v->dtype, 1) : NULL;
    if (why) bad = diag_error("%s: --shape %s: feed '%s': %s", g->file, v->name, v->name, why);
    v->shape = s;
  }
  return bad ? -1 : 0;
}

/* Names the op that produced an unresolved var. */
static const char *producer_of(const Graph *g, const Var *v) {
  return v->producer >= 0 ? graph_op_where(g, &g->ops[v->producer]) : "no op";
}

/* A small tensor (at most RT_MAX_RANK elements), not a parameter, whose
 * values consteval could not find: its values can set a shape at run time. */
static int run_time_values(const Var *x) {
  int64_t n = shape_numel(&x->shape);
  return !(x->flags & VAR_LOADED) && x->nvals < 0 && n >= 0 && n <= RT_MAX_RANK;
}

/* Where the values of run-time var x come from: up the chain of producers
 * whose first run-time-valued input made x's, the last such input — as
 * ", from input ValueTensor ('v') of block 0 op 7 (fill_constant -> ...)",
 * or "" when x's producer has none. */
static const char *value_origin(const Graph *g, const Var *x) {
  const char *from = "";
  for (int hops = 0; x->producer >= 0 && hops < g->nops; hops++) {
    const Op *op = &g->ops[x->producer];
    const Var *next = NULL;
    for (int i = 0; i < op->nin && !next; i++)
      for (int a = 0; a < op->in[i].n && !next; a++) {
        int id = op->in[i].vars[a];
        if (id >= 0 && run_time_values(&g->vars[id])) {
          next = &g->vars[id];
          from = pool_printf(", from input %s ('%s') of %s", op->in[i].name, next->name, graph_op_where(g, op));
        }
      }
    if (!next) break;
    x = next;
  }
  return from;
}

/* The inputs of var v's producer whose values can set a shape and are not
 * known at compile time, each traced to where its values come from — as
 * " of input SizeTensor ('x')", or "" when there is none. */
static const char *run_time_inputs(const Graph *g, const Var *v) {
  if (v->producer < 0) return "";
  const Op *op = &g->ops[v->producer];
  const char *list = "";
  for (int i = 0; i < op->nin; i++)
    for (int a = 0; a < op->in[i].n; a++) {
      int id = op->in[i].vars[a];
      if (id < 0 || !run_time_values(&g->vars[id])) continue;
      const Var *x = &g->vars[id];
      list = pool_printf("%s%s%s ('%s')%s", list, *list ? "; " : " of input ", op->in[i].name, x->name,
                         value_origin(g, x));
      break;
    }
  for (size_t i = 0; i < op->desc->n_attrs; i++) { /* attributes bound to tensors (VAR/VARS) */
    const OpAttr *a = op->desc->attrs[i];
    if (a->type != AT_VAR && a->type != AT_VARS) continue;
    const char *x = a->type == AT_VAR ? a->var_name : a->n_vars_name ? a->vars_name[0] : NULL;
    list = pool_printf("%s%sattribute %s ('%s')", list, *list ? "; " : " of ", a->name, x ? x : "");
  }
  return list;
}

/* Whether var id has a dim unknown at the first probe batch. */
static int unknown_at_probe(const Shape *runs, int id) {
  const Shape *r = &runs[(size_t)id * NPROBES];
  for (int d = 0; d < r->rank; d++)
    if (r->d[d] < 0) return 1;
  return 0;
}

/* Whether v's producer takes an input with an unknown dim: v's unknown
 * dims follow from it, and the report is about where it starts.  A var
 * that no op produces, inferred all the same, is inside a fused op
 * (fusion_group's intermediates): its dims follow from the group's. */
static int unknown_upstream(const Graph *g, const Shape *runs, const Var *v) {
  if (v->producer < 0) return 1;
  const Op *op = &g->ops[v->producer];
  for (int i = 0; i < op->nin; i++)
    for (int a = 0; a < op->in[i].n; a++)
      if (op->in[i].vars[a] >= 0 && unknown_at_probe(runs, op->in[i].vars[a])) return 1;
  return 0;
}

/* Two dims grow with the batch. */
static int batch_times_batch(const VarSpec *vs) {
  int n = 0;
  for (int d = 0; d < vs->rank; d++) n += vs->d[d].a != 0;
  return n > 1;
}

/* A tensor array written by the program is one buffer of its L elements
 * (array_len.h): [L, element dims...] at probe p.  An array whose length the
 * compiler cannot prove is refused, with why. */
static int array_shapes(const Graph *g, Shape *runs, int p) {
  int bad = 0;
  for (int i = 0; i < g->nvars; i++) {
    const Var *v = &g->vars[i];
    Shape *r = &runs[(size_t)i * NPROBES + (size_t)p];
    if (v->vtype != VT_LOD_TENSOR_ARRAY || !(v->flags & VAR_INFERRED) || r->rank < 0) continue;
    if (v->arr_len < 0 || r->rank >= RT_MAX_RANK) {
      bad = diag_error("%s: tensor array '%s': %s", g->file, v->name,
                       v->arr_len < 0 ? pool_printf("its length is not known at compile time: %s", v->arr_why)
                                      : "its elements have too many dims");
      continue;
    }
    memmove(&r->d[1], &r->d[0], sizeof r->d[0] * (size_t)r->rank);
    r->d[0] = v->arr_len;
    r->rank++;
  }
  return bad ? -1 : 0;
}

/* Each --max-shape must have bounded the output of an op that takes one. */
static int check_max_shapes(const Graph *g) {
  int bad = 0;
  for (int k = 0; k < g->nmax_shapes; k++)
    if (!g->max_shape_used[k])
      bad = diag_error("%s: --max-shape names '%s', which is no output of an op whose sizes only the run knows "
                       "and that takes a bound, nor a feed with unknown dims (README: --max-shape)", g->file,
                       g->max_shapes[k].name);
  return bad;
}

int spec_build(Graph *g, const ShapeArg *args, int nargs, Spec *s) {
  Shape *runs = pool_alloc(sizeof *runs * (size_t)g->nvars * NPROBES);
  s->vars = pool_alloc(sizeof *s->vars * ((size_t)g->nvars + 1));
  s->symbolic_batch = 0;
  s->nruntime_dims = 0;
  g->specializing = 1;
  for (int p = 0; p < NPROBES; p++) {
    for (int i = 0; i < g->nvars; i++) {
      Var *v = &g->vars[i];
      if (!(v->flags & VAR_LOADED)) v->shape = v->decl;
      v->flags &= ~(unsigned)VAR_INFERRED;
      v->nvals = -1;
    }
    if (set_feeds(g, args, nargs, probes[p], p == 0)) return -1;
    InferReport r;
    if (infer_program(g, &r)) return -1;
    for (int i = 0; i < g->nvars; i++) runs[(size_t)i * NPROBES + (size_t)p] = g->vars[i].shape;
    if (array_shapes(g, runs, p)) return -1;
  }
  int bad = 0, reported = 0, downstream = 0; /* downstream: unknown dims that follow from a reported one */
  for (int i = 0; i < g->nvars; i++) {
    Var *v = &g->vars[i];
    VarSpec *vs = &s->vars[i];
    const Shape *r = &runs[(size_t)i * NPROBES];
    if (r[0].rank < 0 || (v->vtype != VT_LOD_TENSOR && v->vtype != VT_LOD_TENSOR_ARRAY)) continue;
    if (!(v->flags & (VAR_INFERRED | VAR_FEED | VAR_LOADED))) continue;
    vs->rank = r[0].rank;
    vs->known = 1;
    for (int d = 0; d < vs->rank; d++) {
      int64_t a = r[1].d[d] - r[0].d[d], c = r[0].d[d] - a;
      int ok = r[0].d[d] >= 0;
      for (int p = 0; p < NPROBES && ok; p++) ok = r[p].rank == vs->rank && r[p].d[d] == a * probes[p] + c;
      if (!ok) {
        vs->known = 0;
        bad = 1;
        /* an array's element dim comes from a tensor written into it, reported itself */
        if (r[0].d[d] < 0 && (v->vtype == VT_LOD_TENSOR_ARRAY || unknown_upstream(g, runs, v))) {
          downstream++;
          break;
        }
        reported++;
        const char *from = r[0].d[d] < 0 ? run_time_inputs(g, v) : "";
        if (r[0].d[d] < 0 && v->producer >= 0 && g->ops[v->producer].def && g->ops[v->producer].def->max_shape)
          diag_error("%s: %s: dim %d of '%s' is only known at run time (it depends on the values%s); bound it "
                     "with --max-shape '%s'=d0,d1,... to compile it", g->file, producer_of(g, v), d, v->name,
                     *from ? from : " of tensors", v->name);
        else if (r[0].d[d] < 0)
          diag_error("%s: %s: dim %d of '%s' is only known at run time (it depends on the values%s); "
                     "paddlec cannot compile this yet", g->file, producer_of(g, v), d, v->name,
                     *from ? from : " of tensors");
        else
          diag_error("%s: %s: dim %d of '%s' is not a linear function of the batch; fix the batch with --shape",
                     g->file, producer_of(g, v), d, v->name);
        break;
      }
      vs->d[d] = (SymDim){a, c};
      if (a) s->symbolic_batch = 1;
    }
    if (vs->known && var_runtime_axis(v) >= 0) {
      vs->runtime_mask = (1u << var_runtime_axis(v)) | v->runtime_more;
      for (int d = 0; d < vs->rank; d++)
        if (vs->runtime_mask >> d & 1) vs->runtime_slots[d] = s->nruntime_dims++;
      vs->runtime_dim = var_runtime_axis(v) + 1;
      vs->runtime_slot = vs->runtime_slots[var_runtime_axis(v)];
    }
    if (vs->known && spec_numel(vs).a < 0 && !batch_times_batch(vs)) {
      vs->known = 0;
      bad = diag_error("%s: %s: '%s' has more elements than fit in 64 bits", g->file, producer_of(g, v), v->name);
    } else if (vs->known && spec_numel(vs).a < 0) { /* two dims grow with the batch */
      vs->known = 0;
      bad = diag_error("%s: %s: '%s' has batch x batch elements, which paddlec cannot size at compile time; fix the "
                       "batch with --shape (e.g. --shape %s=...)", g->file, producer_of(g, v), v->name,
                       g->nfeeds ? g->vars[g->feeds[0]].name : "NAME");
    }
  }
  if (!bad) bad = check_max_shapes(g);
  if (downstream && !reported) /* not reached: an unknown dim starts at some op whose inputs are known */
    diag_error("%s: %d vars have dims only known at run time; paddlec cannot compile this yet", g->file, downstream);
  else if (downstream)
    diag_note("%s: %d more vars have dims only known at run time because of %s", g->file, downstream,
              reported > 1 ? "these" : "this");
  return bad ? -1 : 0;
}

SymDim spec_prod(const VarSpec *v, int from, int to) {
  SymDim n = {0, 1};
  for (int d = from; d < to; d++) {
    SymDim x = v->d[d];
    int64_t ac, ca;
    if (n.a && x.a) return (SymDim){-1, -1};
    /* the builtins, not rt_size_mul: a coefficient may be negative (a dim
     * of 2*B - 1), sizes at the batches run are not */
    if (__builtin_mul_overflow(n.a, x.c, &ac) || __builtin_mul_overflow(n.c, x.a, &ca) ||
        __builtin_add_overflow(ac, ca, &n.a) || __builtin_mul_overflow(n.c, x.c, &n.c))
      return (SymDim){-1, -1}; /* not reached: inference checked the sizes at the probe batches */
  }
  return n;
}

SymDim spec_numel(const VarSpec *v) { return spec_prod(v, 0, v->rank); }
