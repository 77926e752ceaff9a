/* range, linspace, logspace.
 *   range: Start, End, Step (1-element tensors) -> Out, 1-D with Start's
 *     dtype.  No attributes.
 *   linspace: Start, Stop, Num (1-element tensors) -> Out, 1-D; dtype:INT.
 *   logspace: Start, Stop, Num, Base (1-element tensors) -> Out, 1-D;
 *     dtype:INT: Base to the powers linspace would give (its CPU kernel:
 *     the bounds and Base converted to Out's dtype, each power computed in
 *     double; Num 1 gives Base^Start).
 * Paddle's InferShape gives [-1]; but when the bounds were Python numbers,
 * paddle.arange / paddle.linspace write the length into the VarDesc
 * themselves.  Such numbers reach the program as fill_constant ops with
 * force_cpu set (nothing else feeds them), so the rule reads them back:
 * range: ceil((end - start) / step); linspace: num.  While specializing,
 * integer bounds whose values consteval knows give the length too (an
 * arange up to the batch, read from `shape`).
 * An End read from a run-time extent (`arange(shape(ids)[1])`, an image's
 * height; Start 0, Step 1), or k times it with Step k and Start in [0, k),
 * gives Out that extent (end_extent).
 * Otherwise, while specializing, --max-shape may bound Out (ctx_max_shape):
 * the kernel then computes the length from the run's values.
 * Emission: the bounds are read at run time, the length is the compile-time
 * one (or the run's, within the bound).  range fills Out as Paddle's ArangeKernel does, by repeated addition;
 * linspace as its CPU kernel does: Start and Stop converted to Out's dtype,
 * step = (double)(stop - start) / (num - 1), the first num / 2 values
 * start + step * i and the rest stop - step * (num - 1 - i), so that both
 * ends are exact. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../util.h"
#include "fill_call.h"
#include "move_call.h"
#include "ops.h"
#include "tensor_util.h"

/* The value of a 1-element tensor written by a Python-number
 * fill_constant(force_cpu=True); 0 if the value is not known. */
static int const_value(OpCtx *c, const Var *v, double *out) {
  int64_t k[1];
  if (ctx_param_scalar(c, v, out)) return 1; /* folded by constant_folding */
  if (v && ctx_int_values(c, v, k, 1) == 1) { /* an integer known while specializing (a batch from `shape`) */
    *out = (double)k[0];
    return 1;
  }
  if (!v || v->producer < 0) return 0;
  const Op *p = &c->g->ops[v->producer];
  const int x = slot_first(p->in, p->nin, "X");
  const Var *from = x >= 0 ? &c->g->vars[x] : NULL;
  if (!strcmp(p->type, "cast") && from && ctx_int_values(c, from, k, 1) == 1) { /* a float End from `shape` */
    *out = (double)k[0];
    return 1;
  }
  if (strcmp(p->type, "fill_constant") != 0 || !attr_bool(p, "force_cpu", 0)) return 0;
  for (int i = 0; i < p->nin; i++)
    if (p->in[i].n > 0) return 0; /* ValueTensor / ShapeTensor(List) */
  const char *s = attr_str(p, "str_value", "");
  char *end;
  *out = *s ? strtod(s, &end) : attr_float(p, "value", 0);
  return !*s || *end == 0;
}

/* End traced to the run-time extent of a tensor's dim (ctx_run_dim_of:
 * `paddle.arange(paddle.shape(ids)[1])`, an image's height) with Start 0
 * and Step 1 known, or to k times it with Step k and Start in [0, k) (an
 * anchor generator's shifts, `arange(offset * stride, w * stride,
 * stride)`: ceil((k * w - start) / k) is w): Out's length is that extent,
 * *d the tensor's dim holding it. */
static const Var *end_extent(OpCtx *c, const Var *st, const Var *en, const Var *sp, int *d) {
  const Var *v;
  double a, step;
  SizeExpr x;
  if (!const_value(c, st, &a) || !const_value(c, sp, &step)) return NULL;
  if (a == 0 && step == 1 && ctx_run_dim_of(c->g, en, 0, &v, d)) return v;
  if (!ctx_size_expr(c, en, 0, &x) || x.n != 1 || step != (double)x.k || !(a >= 0 && a < step)) return NULL;
  *d = x.d[0];
  return x.v[0];
}

static int infer_range(OpCtx *c) {
  Var *st = ctx_need(c, "Start", 0), *en = ctx_need(c, "End", 0), *sp = ctx_need(c, "Step", 0);
  if (!st || !en || !sp) return -1;
  Shape s = {1, {DIM_UNKNOWN}};
  double a, b, step;
  const Var *from;
  int at;
  if (const_value(c, st, &a) && const_value(c, en, &b) && const_value(c, sp, &step)) {
    if (step == 0) return ctx_fail(c, "step is 0");
    s.d[0] = (int64_t)ceil((b - a) / step);
  } else if (c->g->specializing && (from = end_extent(c, st, en, sp, &at))) {
    s.d[0] = from->shape.d[at]; /* the bound */
    ctx_set(c, "Out", 0, &s, st->dtype);
    int to[RT_MAX_RANK];
    for (int k = 0; k < RT_MAX_RANK; k++) to[k] = k == at ? 0 : -1;
    ctx_pass_runtime_extents_to(c, from, "Out", 0, to);
    return 0;
  } else {
    int bd = ctx_max_shape(c, "Out", 0, 1, st->dtype, "Start, End and Step");
    if (bd) return bd < 0 ? -1 : 0;
  }
  ctx_set(c, "Out", 0, &s, st->dtype);
  return 0;
}

static int infer_linspace(OpCtx *c) {
  Var *st = ctx_need(c, "Start", 0), *sp = ctx_need(c, "Stop", 0), *num = ctx_need(c, "Num", 0);
  if (!st || !sp || !num || (!strcmp(c->op->type, "logspace") && !ctx_need(c, "Base", 0))) return -1;
  Shape s = {1, {DIM_UNKNOWN}};
  double n;
  if (const_value(c, num, &n)) {
    s.d[0] = (int64_t)n;
  } else {
    int b = ctx_max_shape(c, "Out", 0, 1, (int)attr_int(c->op, "dtype", st->dtype), "Num");
    if (b) return b < 0 ? -1 : 0;
  }
  ctx_set(c, "Out", 0, &s, (int)attr_int(c->op, "dtype", st->dtype));
  return 0;
}

static int emit_linspace(EmitCtx *e) {
  Var *st = tu_in(e, "Start", 0), *sp = tu_in(e, "Stop", 0), *out = tu_out(e, "Out", 0);
  if (!st || !sp || !out) return -1;
  if (tu_max_shaped(e, out)) { /* Paddle stops at a Num of 0 or less */
    Var *num = tu_in(e, "Num", 0);
    if (!num) return -1;
    pr_line(e->p, "if (%s[0] <= 0) return 1;", em_ptr(e, num, 1));
    const char *n = pool_printf("%s[0]", em_ptr(e, num, 1));
    tu_set_extents(e, out, &n, 1, pool_printf("Num is 0 or less, or past --max-shape %s", shape_str(&out->shape)));
  }
  const char *ptr = em_ptr(e, out, 0);
  const Var *base = strcmp(e->op->type, "logspace") ? NULL : tu_in(e, "Base", 0);
  if (!strcmp(e->op->type, "logspace") && !base) return -1;
  fill_print_c(e->p, &(FillCall){.kind = base ? FILL_LOGSPACE : FILL_LINSPACE, .type = em_ctype(out->dtype),
                                 .out = ptr, .start = em_ptr(e, st, 1), .stop = em_ptr(e, sp, 1),
                                 .base = base ? em_ptr(e, base, 1) : NULL, .n = em_numel(e, out)});
  return 0;
}

const OpDef op_linspace = {.type = "linspace", .infer = infer_linspace, .emit_c = emit_linspace, .max_shape = 1};
const OpDef op_logspace = {.type = "logspace", .infer = infer_linspace, .emit_c = emit_linspace, .max_shape = 1};

/* Out's length from the run's bounds, as phi's GetSize (range_function.h)
 * computes it and with its checks: a step of 0, or one that walks away
 * from End, stops the run; so does a length past the --max-shape bound. */
static int range_extent(EmitCtx *e, const Var *st, const Var *en, const Var *sp, const Var *out) {
  const char *t = em_ctype(out->dtype);
  if (!t || st->dtype != out->dtype || en->dtype != out->dtype || sp->dtype != out->dtype)
    return em_fail(e, "Start, End and Step must have Out's dtype");
  pr_line(e->p, "const %s r0 = %s[0], r1 = %s[0], rs = %s[0]; /* start, end, step */", t, em_ptr(e, st, 1),
          em_ptr(e, en, 1), em_ptr(e, sp, 1));
  pr_line(e->p, "if (rs == 0 || (r0 < r1 && rs < 0) || (r0 > r1 && rs > 0)) return 1;");
  const char *n = out->dtype == RT_DT_FP32   ? "ceilf(fabsf((r1 - r0) / rs))"
                  : out->dtype == RT_DT_FP64 ? "ceil(fabs((r1 - r0) / rs))"
                                             : "((r1 > r0 ? r1 - r0 : r0 - r1) + (rs > 0 ? rs : -rs) - 1) / "
                                               "(rs > 0 ? rs : -rs)";
  tu_set_extents(e, out, &n, 1, pool_printf("a step of 0, a step away from End, or a length past --max-shape %s",
                                            shape_str(&out->shape)));
  return 0;
}
static int emit_range(EmitCtx *e) {
  Var *st = tu_in(e, "Start", 0), *sp = tu_in(e, "Step", 0), *out = tu_out(e, "Out", 0);
  if (!st || !sp || !out) return -1;
  Var *en = tu_in(e, "End", 0);
  OpCtx c = {e->g, (Op *)e->op};
  int at;
  const Var *from = en ? end_extent(&c, st, en, sp, &at) : NULL;
  if (from && !tu_max_shaped(e, out)) {
    move_print_c(e->p, &(MoveCall){.kind = MOVE_EXTENT, .dst = em_dim(e, out, 0), .src = em_dim(e, from, at)});
  } else if (tu_max_shaped(e, out)) {
    if (!en || range_extent(e, st, en, sp, out)) return -1;
  }
  const char *ptr = em_ptr(e, out, 0), *step = em_ptr(e, sp, 1), *start = em_ptr(e, st, 1);
  fill_print_c(e->p, &(FillCall){.kind = FILL_RANGE, .type = em_ctype(out->dtype), .out = ptr, .step = step,
                                 .start = start, .n = em_numel(e, out)});
  return 0;
}

const OpDef op_range = {.type = "range", .infer = infer_range, .emit_c = emit_range, .max_shape = 1,
                        .runtime_extents = 1};
