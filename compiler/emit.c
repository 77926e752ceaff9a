/* Code printer and emitter helpers (see emit.h). */
#include "emit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "rt_kernels.h"
#include "util.h"

void pr_init(Printer *p) { *p = (Printer){0}; }

void pr_free(Printer *p) {
  free(p->buf);
  *p = (Printer){0};
}

static void put(Printer *p, const char *s, size_t n) {
  if (p->len + n + 1 > p->cap) {
    size_t cap = p->cap ? p->cap : 4096;
    while (p->len + n + 1 > cap) cap *= 2;
    char *nb = realloc(p->buf, cap);
    if (!nb) diag_internal("out of memory in the code printer");
    p->buf = nb;
    p->cap = cap;
  }
  memcpy(p->buf + p->len, s, n);
  p->len += n;
  p->buf[p->len] = 0;
}

void pr_vraw(Printer *p, const char *fmt, va_list ap) {
  char small[512];
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  if (n < (int)sizeof small) {
    put(p, small, (size_t)n);
  } else {
    char *big = malloc((size_t)n + 1);
    if (!big) diag_internal("out of memory in the code printer");
    vsnprintf(big, (size_t)n + 1, fmt, ap2);
    put(p, big, (size_t)n);
    free(big);
  }
  va_end(ap2);
}

void pr_raw(Printer *p, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  pr_vraw(p, fmt, ap);
  va_end(ap);
}

void pr_line(Printer *p, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const char *line = pool_vprintf(fmt, ap);
  va_end(ap);
  const size_t len = strlen(line);
  if (line[0] == '}' && p->indent > 0) p->indent--;
  for (int i = 0; i < p->indent; i++) put(p, "  ", 2);
  put(p, line, (size_t)len);
  if (len && line[len - 1] == '{') p->indent++;
  put(p, "\n", 1);
}

void pr_close(Printer *p, int n) {
  for (int k = 0; k < n; k++) pr_line(p, "}");
}

const char *em_ctype(int dtype) {
  switch (dtype) {
    case RT_DT_FP32: return "float";
    case RT_DT_FP64: return "double";
    case RT_DT_INT64: return "int64_t";
    case RT_DT_INT32: return "int32_t";
    case RT_DT_INT16: return "int16_t";
    case RT_DT_INT8: return "int8_t";
    case RT_DT_UINT8: return "uint8_t";
    case RT_DT_BOOL: return "bool";
    default: return NULL;
  }
}

const char *em_dtype_enum(int dtype) {
  switch (dtype) {
    case RT_DT_BOOL: return "RT_DT_BOOL";
    case RT_DT_INT16: return "RT_DT_INT16";
    case RT_DT_INT32: return "RT_DT_INT32";
    case RT_DT_INT64: return "RT_DT_INT64";
    case RT_DT_FP16: return "RT_DT_FP16";
    case RT_DT_FP32: return "RT_DT_FP32";
    case RT_DT_FP64: return "RT_DT_FP64";
    case RT_DT_UINT8: return "RT_DT_UINT8";
    case RT_DT_INT8: return "RT_DT_INT8";
    case RT_DT_BF16: return "RT_DT_BF16";
    default: return pool_printf("%d", dtype);
  }
}

const char *em_sym(SymDim d) {
  if (d.a == 0) return pool_printf("%lld", (long long)d.c);
  const char *b = d.a == 1 ? "B" : pool_printf("%lld * B", (long long)d.a);
  if (d.c == 0) return d.a == 1 ? "B" : pool_printf("(%s)", b);
  return pool_printf("(%s %c %lld)", b, d.c < 0 ? '-' : '+', (long long)(d.c < 0 ? -d.c : d.c));
}

const VarSpec *em_spec(EmitCtx *e, const Var *v) {
  static const VarSpec none; /* an absent operand: no shape */
  return v ? &e->spec->vars[v - e->g->vars] : &none;
}

int em_same_shape(EmitCtx *e, const Var *a, const Var *b) {
  const VarSpec *x = em_spec(e, a), *y = em_spec(e, b);
  if (!x->known || !y->known || x->rank != y->rank) return 0;
  for (int i = 0; i < x->rank; i++)
    if (x->d[i].a != y->d[i].a || x->d[i].c != y->d[i].c) return 0;
  return 1;
}

const char *em_ptr(EmitCtx *e, const Var *v, int is_const) {
  if (!v) { /* an output slot the program leaves out (model_emit fails on the error) */
    em_fail(e, "a tensor the op writes or reads is missing from the program");
    return "NULL";
  }
  const PlanVar *pv = &e->plan->vars[v - e->g->vars];
  const char *t = em_ctype(v->dtype);
  if (!is_const) em_wrote(e, v);
  if (e->naming) return em_ptr_named(e, v, is_const);
  const char *q = is_const ? "const " : "";
  switch (pv->kind) {
    case PLAN_FEED: return pool_printf("((%s%s *)m->in[%d])", q, t, pv->index);
    case PLAN_PARAM: return pool_printf("((%s%s *)m->w[%d])", q, t, pv->index);
    case PLAN_ARENA: /* a plan in pieces or classes: the offsets of the run's (codegen_plan.c) */
      if (e->plan->npieces > 1 || e->size_classes)
        return pool_printf("((%s%s *)(m->arena + m->off[%d]))", q, t, pv->index);
      return pool_printf("((%s%s *)(m->arena + %s))", q, t, em_sym(pv->offset));
    default: diag_internal("var '%s' has no storage", v->name);
  }
}

const char *em_sub_kernel(EmitCtx *e, int id, const char *fn, const char **fault) {
  if (!e->sub_kernel) diag_internal("em_sub_kernel: no driver to emit op %d", id);
  return e->sub_kernel(e, id, fn, fault);
}

void em_reads_lod(EmitCtx *e, int k) {
  if (e->lod_read && k >= 0 && k < e->g->nfeeds) e->lod_read[k] = 1;
}

const char *em_makes_lod(EmitCtx *e, int k, SymDim bound) {
  const int j = k - e->g->nfeeds;
  if (j < 0) diag_internal("em_makes_lod: LoD %d is a feed's", k);
  if (e->lod_bound) e->lod_bound[j] = bound;
  return pool_printf("m->lod_store[%d]", j);
}

const char *em_makes_lod_outer(EmitCtx *e, int k) {
  const int j = k - e->g->nfeeds;
  if (j < 0) diag_internal("em_makes_lod_outer: LoD %d is a feed's", k);
  return pool_printf("(m->lod_store[%d] + m->lod_cap[%d])", j, j);
}

const char *em_makes_lod_room(EmitCtx *e, int k) {
  const int j = k - e->g->nfeeds;
  if (j < 0) diag_internal("em_makes_lod_room: LoD %d is a feed's", k);
  return pool_printf("m->lod_cap[%d]", j);
}

void em_wrote(EmitCtx *e, const Var *v) {
  if (e->written) e->written[v - e->g->vars] = 1;
}

/* A dim known only at run time: the value its producer wrote (spec.h). */
static const char *runtime_dim(const VarSpec *vs, int d) {
  return vs->runtime_mask >> d & 1 ? pool_printf("m->runtime_dims[%d]", vs->runtime_slots[d]) : NULL;
}

const char *em_dim(EmitCtx *e, const Var *v, int d) {
  const VarSpec *vs = em_spec(e, v);
  const char *rt = runtime_dim(vs, d);
  return rt ? rt : em_sym(vs->d[d]);
}

int64_t em_const_dim(EmitCtx *e, const Var *v, int d) {
  SymDim s = em_spec(e, v)->d[d];
  return s.a || runtime_dim(em_spec(e, v), d) ? -1 : s.c;
}

int64_t em_bound_dim(EmitCtx *e, const Var *v, int d) {
  SymDim s = em_spec(e, v)->d[d];
  return s.a ? -1 : s.c;
}

const char *em_prod(EmitCtx *e, const Var *v, int from, int to) {
  const VarSpec *vs = em_spec(e, v);
  int64_t k = 1;
  const char *sym = NULL;
  for (int d = from; d < to; d++) {
    SymDim s = vs->d[d];
    if (s.a == 0 && !runtime_dim(vs, d)) {
      k *= s.c;
    } else {
      const char *t = em_dim(e, v, d);
      sym = sym ? pool_printf("%s * %s", sym, t) : t;
    }
  }
  if (!sym) return pool_printf("%lld", (long long)k);
  if (k == 1) return strchr(sym, '*') ? pool_printf("(%s)", sym) : sym; /* one operand wherever it goes */
  return pool_printf("(%lld * %s)", (long long)k, sym);
}

const char *em_numel(EmitCtx *e, const Var *v) { return em_prod(e, v, 0, em_spec(e, v)->rank); }

void em_fault(EmitCtx *e, const char *why) { e->fault = why; }

/* v's order among the program's tensor arrays. */
static int array_index(const EmitCtx *e, const Var *v) {
  int j = 0;
  for (const Var *w = e->g->vars; w < v; w++) j += w->vtype == VT_LOD_TENSOR_ARRAY;
  return j;
}

const char *em_array_len(EmitCtx *e, const Var *v) { return pool_printf("m->array_len[%d]", array_index(e, v)); }

const char *em_array_lod(EmitCtx *e, const Var *v, SymDim room, const char **cap) {
  const int j = array_index(e, v);
  SymDim *r = e->array_lod_room ? &e->array_lod_room[j] : NULL;
  if (room.a >= 0 && r && r->a < 0) {
    *r = room;
  } else if (room.a >= 0 && r) { /* the most every write asks for: a bound of each for B >= 0 */
    if (room.a > r->a) r->a = room.a;
    if (room.c > r->c) r->c = room.c;
  }
  if (room.a < 0 && (!r || r->a < 0)) return NULL;
  *cap = pool_printf("m->array_lod_cap[%d]", j);
  return pool_printf("m->array_lod[%d]", j);
}

const char *em_makes_lod_of_array(EmitCtx *e, int k, const Var *v) {
  const int j = k - e->g->nfeeds;
  if (j < 0) diag_internal("em_makes_lod_of_array: LoD %d is a feed's", k);
  if (e->lod_bound_array) e->lod_bound_array[j] = array_index(e, v);
  return em_makes_lod(e, k, (SymDim){0, 1});
}

int (em_fail)(EmitCtx *e, const char *fmt, ...) {
  if (e->deciding) return -1; /* the emitter reports it */
  va_list ap;
  va_start(ap, fmt);
  int r = graph_op_verror(e->g, e->op, fmt, ap);
  va_end(ap);
  return r;
}

const char *em_float(double v) {
  if (isnan(v)) return "NAN";
  if (isinf(v)) return v > 0 ? "INFINITY" : "-INFINITY";
  char buf[64];
  snprintf(buf, sizeof buf, "%.9g", (double)(float)v);
  if (!strpbrk(buf, ".eEn")) strcat(buf, ".0");
  return pool_printf("%sf", buf);
}

const char *em_scratch_at(EmitCtx *e, const char *role, SymDim bytes) {
  const SymDim at = scratch_region(e->scratch, role, bytes);
  if (e->size_classes) /* a kernel's first region starts the slot in every class */
    return scratch_first(e->scratch) ? "ws" : pool_printf("(ws + m->ws_off[%d])", e->scratch->nregions - 1);
  return at.a == 0 && at.c == 0 ? "ws" : pool_printf("(ws + %s)", em_sym(at));
}

const char *em_gemm_ws(EmitCtx *e, SymDim m, SymDim n, SymDim k) { return em_gemm_ws_as(e, "gemm_ws", m, n, k); }

const char *em_gemm_ws_as(EmitCtx *e, const char *role, SymDim m, SymDim n, SymDim k) {
  int64_t mm = m.a ? RT_SGEMM_MC : m.c, nn = n.a ? RT_SGEMM_NC : n.c, kk = k.a ? RT_SGEMM_KC : k.c;
  int64_t floats = RT_SGEMM_WS_FLOATS(mm, nn, kk);
  em_task_scratch(e, floats);
  return em_scratch_named(e, "float", role, (SymDim){0, floats * (int64_t)sizeof(float)});
}

int em_packable_weight(const EmitCtx *e, const Var *w) {
  return (w->flags & VAR_PARAM) && !(w->flags & VAR_FETCH) && w->dtype == RT_DT_FP32 && w->param_data &&
         w->nusers == 1 && w->users[0] == e->op_id && w->producer < 0;
}

void em_task_scratch(EmitCtx *e, int64_t floats) { scratch_tasks(e->scratch, floats); }

SymDim em_sym_prod(EmitCtx *e, const Var *v, int from, int to) {
  SymDim n = spec_prod(em_spec(e, v), from, to);
  return n.a < 0 ? (SymDim){1, 0} : n;
}

int em_same_buffer(EmitCtx *e, const Var *a, const Var *b) {
  const PlanVar *pa = &e->plan->vars[a - e->g->vars], *pb = &e->plan->vars[b - e->g->vars];
  return pa->kind == PLAN_ARENA && pb->kind == PLAN_ARENA && pa->index == pb->index;
}

void em_task_begin(EmitCtx *e, const char *work, const char *outer) {
  const char *fn = pool_printf("%s_task%d", e->kernel, e->ntask_fns);
  pr_line(e->p, "const RtKernelArgs args = {m, B, ws};");
  pr_line(e->p, "rt_parallel(rt_split_tasks(%s, %s), %s, (void *)&args);", work, outer, fn);
  e->outer = e->p;
  e->task_fn = fn;
  e->task_work = work;
  e->task_outer = outer;
  e->task_body = pool_alloc(sizeof *e->task_body);
  pr_init(e->task_body);
  e->task_body->indent = 1;
  e->p = e->task_body;
}

/* The task function: its prologue takes from args what the body uses. */
void em_task_end(EmitCtx *e) {
  const char *split = pool_printf("const int64_t rows = %s, nt = rt_split_tasks(%s, rows);", e->task_outer,
                                  e->task_work);
  const char *decls, *body = em_locals(e, e->task_body->buf ? e->task_body->buf : "", split, 1, &decls);
  static const char *const params[] = {"m", "B", "ws"}, *const tid[] = {"tid"};
  int used[3], utid;
  em_uses(pool_printf("%s\n%s%s", split, decls, body), params, 3, used);
  em_uses(body, tid, 1, &utid);
  const int um = used[0], ub = used[1], uws = used[2];
  Printer *t = e->tasks;
  pr_line(t, "/* rows [lo, hi) of %s's loop, as one task (rt_parallel.h) */", e->kernel);
  pr_line(t, "static void %s(void *ctx%s, int64_t t, int tid%s) {", e->task_fn, um || ub || uws ? "" : " RT_UNUSED",
          utid ? "" : " RT_UNUSED");
  if (um || ub || uws) pr_line(t, "const RtKernelArgs *args = ctx;");
  if (um) pr_line(t, "%s_model *m = args->m;", e->prefix);
  if (ub) pr_line(t, "const int64_t B = args->batch;");
  if (uws) pr_line(t, "unsigned char *ws = args->ws;");
  pr_line(t, "%s", split);
  pr_line(t, "const int64_t lo = t * rows / nt, hi = (t + 1) * rows / nt;");
  pr_raw(t, "%s%s", decls, body);
  pr_line(t, "}");
  pr_raw(t, "\n");
  pr_free(e->task_body);
  e->task_body = NULL;
  e->p = e->outer;
  e->outer = NULL;
  e->ntask_fns++;
}
