/* The scans of phi's ScanKernel (cpu/cum_kernel.cc): cumsum and
 * logcumsumexp, and their grads.
 *
 * cumsum / logcumsumexp: X -> Out; axis:INT=-1, flatten:BOOLEAN=false,
 * exclusive:BOOLEAN=false, reverse:BOOLEAN=false; axis may be held in a
 * tensor (paddle.cumsum(x, axis=paddle.full([1], 1))), taken where the
 * compiler knows its value (ctx_attr_int), else read when the kernel runs
 * (a fed axis: the lines' geometry worked out then, run_axis_lines).
 * Shape rule (phi CumInferMeta): Out has X's dims and dtype; with flatten it
 * is 1-D of product(X.dims), unknown dims multiplied in as -1 (so [-1, 3, 4]
 * gives [-12], as Paddle writes into the VarDesc; the batch-specialized
 * shapes are the true products).
 * Emission: per line of X along the axis (all of X with flatten), front to
 * back or (reverse) back to front, a running value in X's type that takes in
 * each element v; exclusive stores it before taking v in, inclusive after.
 *   cumsum:        starts at 0, acc += v.
 *   logcumsumexp:  starts at the type's lowest finite value;
 *                  mi = min(acc, v), ma = max(acc, v),
 *                  acc = ma < lowest ? ma : log1p(exp(mi - ma)) + ma.
 * As ScanKernel, a one-element X is copied, exclusive or not (a run-time
 * test when X's size depends on the batch or on sizes the run gives, which
 * Out takes; not with flatten). */
#include "../util.h"
#include "ops.h"
#include "scan_call.h"
#include "tensor_util.h"

/* The axis (ctx_attr_int: a tensor's known value too) for an emitter: the axis of rank r into *axis (r 0: as
 * given); -2 when only the run knows it (a fed tensor passed as the attribute: scan_lines reads it then); -1
 * after em_fail (out of range, or a tensor that is not one integer). */
static int emit_axis(EmitCtx *e, int r, int *axis) {
  OpCtx c = {e->g, (Op *)e->op};
  int64_t a;
  if (ctx_attr_int(&c, "axis", -1, &a)) {
    const Var *t = ctx_attr_tensor(&c, "axis");
    if (!t || (t->dtype != RT_DT_INT32 && t->dtype != RT_DT_INT64) || shape_numel(&t->shape) != 1)
      return em_fail(e, "attribute axis takes its value from tensor '%s', which is not one int32 or int64",
                     t ? t->name : "?");
    return -2;
  }
  *axis = r ? axis_norm(a, r) : (int)a;
  return r && *axis < 0 ? em_fail(e, "axis is out of range") : 0;
}

/* The lines along the axis the run gives (attribute axis a tensor): prints
 * its reading and ScanKernel's check (an axis outside [-r, r) stops the
 * run, as Paddle raises, but where X has one element), then the geometry
 * along it (tu_print_run_axis) and scan_lines, which the record takes;
 * c->numel set. */
static void run_axis_lines(EmitCtx *e, const Var *lines_of, int r, ScanCall *c) {
  OpCtx oc = {e->g, (Op *)e->op};
  const Var *t = ctx_attr_tensor(&oc, "axis");
  if (r == 0) return; /* one element, copied with the axis unread, as ScanKernel does */
  pr_line(e->p, "/* the axis, tensor '%s''s value when the kernel runs (negative counts from the end); a "
                "one-element X is copied, the axis unchecked, as Paddle's ScanKernel does */", t->name);
  const char *value = pool_printf("(int64_t)%s[0]", em_ptr(e, t, 1));
  em_fault(e, pool_printf("the axis from tensor '%s' is outside [-%d, %d) (Paddle raises an error)", t->name, r, r));
  if (attr_bool(e->op, "flatten", 0)) { /* one line of every element: the axis is only checked (r is 1) */
    pr_line(e->p, "if ((%s < -1 || %s > 0) && %s != 1) return 1;", value, value, c->numel);
    return;
  }
  tu_print_run_axis(e, value, lines_of, r, pool_printf("%s == 1", c->numel));
  pr_line(e->p, "const int64_t scan_lines = axis_outer * axis_inner;");
  c->n = "axis_n";
  c->inner = "axis_inner";
  c->lines = "scan_lines";
}

static int infer_scan(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  Shape s = x->shape;
  if (var_runtime_mask(x) && attr_bool(c->op, "flatten", 0))
    return ctx_fail(c, "X ('%s') has dims only the run gives (from its %s); %s with flatten is not supported with "
                    "them", x->name, x->runtime_from ? x->runtime_from : "inputs", c->op->type);
  if (attr_bool(c->op, "flatten", 0)) {
    int64_t p = 1;
    for (int i = 0; i < x->shape.rank; i++) p *= x->shape.d[i];
    s = (Shape){1, {p}};
  }
  int64_t axis;
  if (s.rank > 0 && !ctx_attr_int(c, "axis", -1, &axis)) { /* the run's: Out's shape, X's, does not need it */ /* with flatten too: Paddle's ScanKernel checks axis against Out's rank, 1 */
    if (axis < -s.rank || axis >= s.rank)
      return ctx_fail(c, "axis %lld is out of range for X %s%s", (long long)axis,
                      attr_bool(c->op, "flatten", 0) ? "flattened to " : "", shape_str(&s));
  }
  ctx_set(c, "Out", 0, &s, x->dtype);
  ctx_pass_runtime_extent(c, x, "Out", 0); /* the lines' counts are the run's (scan_lines) */
  return 0;
}

/* The rank the axis attribute indexes: Out's (1 with flatten, as Paddle's
 * ScanKernel checks it), for the grads, which have no shape rule of their
 * own to check it. */
static int scan_rank(EmitCtx *e, const Var *v) { return attr_bool(e->op, "flatten", 0) ? 1 : tu_rank(e, v); }

/* The lines of the comment at the top in `lines_of`'s dims (all of it
 * with flatten), the one-element cases and exclusive, into the record. */
static void scan_lines(EmitCtx *e, const Var *lines_of, ScanCall *c) {
  /* every attribute is read, also where a one-element copy needs none (the axis was checked: emit_axis) */
  int r = tu_rank(e, lines_of), axis = 0;
  const int run = emit_axis(e, r, &axis) == -2;
  const int flatten = attr_bool(e->op, "flatten", 0);
  c->exclusive = attr_bool(e->op, "exclusive", 0);
  c->numel = c->n = em_numel(e, lines_of);
  c->inner = c->lines = "1";
  if (run) {
    run_axis_lines(e, lines_of, flatten ? 1 : r, c);
  } else if (!flatten && r > 0) {
    c->n = em_dim(e, lines_of, axis);
    c->inner = em_prod(e, lines_of, axis + 1, r);
    c->lines = tu_mul(em_prod(e, lines_of, 0, axis), c->inner);
  }
  SymDim count = spec_numel(em_spec(e, lines_of));
  const unsigned runtime = em_spec(e, lines_of)->runtime_mask; /* sizes the run gives: tested as the batch is */
  c->one = count.a == 0 && count.c == 1 && !runtime;
  c->by_batch = count.a != 0 || runtime;
}

/* cumsum (X -> Out) and cumsum_grad (X, Out@GRAD -> X@GRAD; phi
 * CumsumGradKernel: the cumsum of Out@GRAD with the same axis, flatten and
 * exclusive and the opposite direction, laid out in X's dims). */
static int emit_cumsum_any(EmitCtx *e, int grad) {
  Var *x = tu_in(e, grad ? "Out@GRAD" : "X", 0), *out = tu_out(e, grad ? "X@GRAD" : "Out", 0);
  if (!x || !out) return -1;
  if (grad && (x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64))
    return em_fail(e, "cumsum_grad of %s tensors is not supported (float32 or float64)", rt_dtype_name(x->dtype));
  /* the grad's lines: X's dims (Out@GRAD is 1-D with flatten) */
  Var *dims = grad ? tu_in(e, "X", 0) : x;
  if (!dims) return -1;
  SymDim nx = spec_numel(em_spec(e, dims)), no = spec_numel(em_spec(e, x));
  if (nx.a != no.a || nx.c != no.c) return em_fail(e, "Out@GRAD and X differ in element count");
  if (x->dtype != out->dtype || x->dtype == RT_DT_BOOL)
    return em_fail(e, "cumsum of %s tensors is not supported", rt_dtype_name(x->dtype));
  int r = scan_rank(e, dims);
  int axis;
  if (emit_axis(e, r, &axis) == -1) return -1;
  ScanCall call = {.kind = SCAN_SUM, .type = em_ctype(x->dtype), .f32 = x->dtype == RT_DT_FP32,
                   .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 0), .reverse = attr_bool(e->op, "reverse", 0) != grad};
  scan_lines(e, dims, &call);
  scan_print_c(e->p, &call);
  return 0;
}

static int emit_cumsum(EmitCtx *e) { return emit_cumsum_any(e, 0); }
static int emit_cumsum_grad(EmitCtx *e) { return emit_cumsum_any(e, 1); }

const OpDef op_cumsum = {.type = "cumsum", .infer = infer_scan, .emit_c = emit_cumsum, .runtime_extents = 2};
const OpDef op_cumsum_grad = {.type = "cumsum_grad", .infer = grad_infer, .emit_c = emit_cumsum_grad,
                              .runtime_extents = 2};

/* logcumsumexp, float32/64 (phi LogcumsumexpKernel). */
static int emit_logcumsumexp(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if ((x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64) || out->dtype != x->dtype)
    return em_fail(e, "logcumsumexp of %s tensors is not supported", rt_dtype_name(x->dtype));
  if (x == out) return em_fail(e, "Out is X itself, which is not supported");
  int r = scan_rank(e, x);
  int axis;
  if (emit_axis(e, r, &axis) == -1) return -1;
  ScanCall call = {.kind = SCAN_LOGSUMEXP, .type = em_ctype(x->dtype), .f32 = x->dtype == RT_DT_FP32,
                   .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 0), .reverse = attr_bool(e->op, "reverse", 0)};
  scan_lines(e, x, &call);
  scan_print_c(e->p, &call);
  return 0;
}

const OpDef op_logcumsumexp = {.type = "logcumsumexp", .infer = infer_scan, .emit_c = emit_logcumsumexp,
                               .runtime_extents = 2};

/* logcumsumexp_grad: X, Out, Out@GRAD -> X@GRAD (X's shape); the
 * forward's attributes.  phi LogcumsumexpGradKernel: the forward scan in
 * the other direction (same axis, flatten, exclusive) over
 *   pos = (dOut > 0 ? log(dOut) : lowest) - Out,
 *   neg = (dOut < 0 ? log(-dOut) : lowest) - Out
 * (into kernel scratch), then dX = exp(scan(pos) + X) - exp(scan(neg) + X),
 * all in the element type. */
static int emit_logcumsumexp_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_in(e, "Out", 0), *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !out || !dout || !dx) return -1;
  if ((x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64) || out->dtype != x->dtype || dout->dtype != x->dtype ||
      dx->dtype != x->dtype)
    return em_fail(e, "logcumsumexp_grad of %s tensors is not supported (float32 or float64, all alike)",
                   rt_dtype_name(x->dtype));
  int r = scan_rank(e, x);
  int axis;
  if (emit_axis(e, r, &axis) == -1) return -1;
  SymDim nb = spec_numel(em_spec(e, x));
  int64_t es = rt_dtype_size(x->dtype);
  ScanCall call = {.kind = SCAN_LOGSUMEXP_GRAD, .type = em_ctype(x->dtype), .f32 = x->dtype == RT_DT_FP32,
                   .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 1), .dout = em_ptr(e, dout, 1),
                   .dx = em_ptr(e, dx, 0), .tmp = em_scratch_at(e, "tmp", (SymDim){nb.a * 2 * es, nb.c * 2 * es}),
                   .reverse = !attr_bool(e->op, "reverse", 0)};
  scan_lines(e, x, &call);
  scan_print_c(e->p, &call);
  return 0;
}

const OpDef op_logcumsumexp_grad = {.type = "logcumsumexp_grad", .infer = grad_infer,
                                    .emit_c = emit_logcumsumexp_grad, .runtime_extents = 2};
