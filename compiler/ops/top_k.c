/* top_k, top_k_v2: X, K† -> Out, Indices (int64; see below for v1).
 *   top_k: k:INT=1; the last dim becomes k.  K (an int32 tensor) is only
 *     read at run time (fluid TopkKernel: k_t->data<int>()[0]); Paddle's
 *     compile-time shape uses the attribute (1.8.5 and 2.6).
 *   top_k_v2: k:INT=1 (may be a tensor: K, or a VAR attribute; int32 or
 *     int64), axis:INT=-1, largest:BOOLEAN=true, sorted:BOOLEAN=true; dim
 *     `axis` becomes k (-1 when K is given); a 0-D X stays 0-D (phi
 *     TopKInferMeta).
 * Out has X's dtype; k may not exceed a static dim of the axis (Paddle's
 * check).  A k from a tensor is a run-time extent (graph.h
 * VAR_RUNTIME_EXTENT): Out and Indices are sized for k = the axis' dim and
 * the kernel writes the k it reads into the model's runtime_dims[], which
 * the ops after it read (those whose OpDef takes run-time extents); a k
 * below 0 or above the axis' dim stops the run with an error (Paddle's v2
 * kernel refuses k > n; its v1 kernel reads out of bounds).  X's dims may
 * be the run's (with k from the attribute), the axis' too: the kernel then
 * checks it holds k, where Paddle raises.
 * Emission: rt_topk_<type> (float32/64, int32/64, runtime/rt_topk.c) along
 * the axis, taking the steps of Paddle's CPU kernel so that values and
 * indices agree with it among equal values, with NaN and unsorted too:
 * top_k_v2 partial-sorts when k * 64 < n and otherwise takes nth_element
 * and, when sorted, sorts the first k - 1; top_k v1 always partial-sorts
 * with "a > b" (rt_sort.c reproduces the libstdc++ algorithms).  A scratch
 * buffer holds a line's (value, position) pairs; int32 Indices are converted
 * from an int64 scratch buffer. */
#include <string.h>

#include "../util.h"
#include "ops.h"
#include "sort_call.h"
#include "rt_tensor.h"
#include "tensor_util.h"

/* The tensor k comes from (input K, or top_k_v2's VAR attribute k), NULL
 * when k is the attribute's number; *bad set when it is not a one-element
 * integer tensor of the dtypes the kernel reads. */
static Var *k_tensor(OpCtx *c, int *bad) {
  *bad = 0;
  Var *k = ctx_in(c, "K", 0);
  if (!k && attr_is_var(c->op, "k")) {
    const OpAttr *a = attr_find(c->op, "k");
    if (!(k = ctx_attr_tensor(c, "k")))
      return *bad = ctx_fail(c, "attribute k names an unknown tensor '%s'", a->var_name ? a->var_name : ""), NULL;
  }
  if (!k) return NULL;
  int v2 = !strcmp(c->op->type, "top_k_v2");
  if (k->shape.rank >= 0 && shape_numel(&k->shape) != 1)
    *bad = ctx_fail(c, "K ('%s') %s must hold one value", k->name, shape_str(&k->shape));
  else if (k->dtype != RT_DT_INT32 && (!v2 || k->dtype != RT_DT_INT64))
    *bad = ctx_fail(c, "K ('%s') is %s; %s reads %s", k->name, rt_dtype_name(k->dtype), c->op->type,
                    v2 ? "int32 or int64" : "int32");
  return k;
}

static int infer_top_k(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *in = &x->shape;
  int v2 = strcmp(c->op->type, "top_k_v2") == 0, bad;
  int64_t axis = v2 ? attr_int(c->op, "axis", -1) : -1;
  int64_t k = attr_int(c->op, "k", 1);
  const Var *kt = k_tensor(c, &bad);
  if (bad) return -1;
  if (kt) k = DIM_UNKNOWN;
  else if (k < 1) return ctx_fail(c, "k %lld must be >= 1", (long long)k);
  if (!v2 && in->rank < 1) return ctx_fail(c, "X must have rank >= 1");
  if (in->rank ? (axis < -in->rank || axis >= in->rank) : (axis != 0 && axis != -1))
    return ctx_fail(c, "axis %lld is out of range for X %s", (long long)axis, shape_str(in));
  const unsigned xrun = var_runtime_mask(x);
  if (xrun && kt)
    return ctx_fail(c, "X ('%s') has dims only the run gives (from its %s); %s takes them with k from the "
                    "attribute", x->name, x->runtime_from ? x->runtime_from : "inputs", c->op->type);
  Shape s = *in;
  if (s.rank > 0) {
    int64_t *d = &s.d[axis < 0 ? axis + s.rank : axis];
    /* checked on the file's shapes: while specializing, a batch probe (1, 2, ...) may stand in for *d */
    if (!c->g->specializing && *d != DIM_UNKNOWN && !kt && k > *d)
      return ctx_fail(c, "k %lld is larger than the axis' dim %lld of X %s", (long long)k, (long long)*d,
                      shape_str(in));
    /* a k from a tensor: while specializing, the axis' dim bounds the k the
     * kernel finds; otherwise Paddle's compile-time shape */
    if (!kt) *d = k;
    else if (!c->g->specializing) *d = v2 ? DIM_UNKNOWN : attr_int(c->op, "k", 1);
  }
  ctx_set(c, "Out", 0, &s, x->dtype);
  /* top_k (v1) Indices are int64 in files up to 2.5 (1.8.5 checked); the
   * 2.6 InferShape writes int32 into the VarDesc, but the kernel still
   * fills an int64 tensor, which is what generated code must produce. */
  int idx = !v2 && c->g->version >= 2006000 && !c->g->specializing ? RT_DT_INT32 : RT_DT_INT64;
  ctx_set(c, "Indices", 0, &s, idx);
  /* off the axis the outer and inner counts are the run's; along it, k
   * (the run's count there checked to hold k: emit_top_k) */
  int to[RT_MAX_RANK];
  for (int d = 0; d < RT_MAX_RANK; d++) to[d] = s.rank > 0 && d == (axis < 0 ? axis + s.rank : axis) ? -1 : d;
  ctx_pass_runtime_extents_to(c, x, "Out", 0, to);
  ctx_pass_runtime_extents_to(c, x, "Indices", 0, to);
  if (kt && s.rank > 0 && c->g->specializing) {
    const char *from = pool_printf("%s ('%s')", ctx_in(c, "K", 0) ? "input K" : "attribute k", kt->name);
    ctx_set_runtime_extent(c, "Out", 0, (int)(axis < 0 ? axis + s.rank : axis), from);
    ctx_set_runtime_extent(c, "Indices", 0, (int)(axis < 0 ? axis + s.rank : axis), from);
  }
  return 0;
}

static int emit_top_k(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0), *ind = tu_out(e, "Indices", 0);
  if (!x || !out || !ind) return -1;
  /* the shape rule checked K, the axis and gave Out X's dtype and Indices int32 or int64 */
  int bad;
  const Var *kt = k_tensor(&c, &bad);
  if (!sort_dtype_ok(x->dtype)) return em_fail(e, "top_k of %s tensors is not supported", rt_dtype_name(x->dtype));
  int v2 = !strcmp(e->op->type, "top_k_v2"), r = tu_rank(e, x);
  int axis = axis_norm(v2 ? attr_int(e->op, "axis", -1) : -1, r);
  int largest = v2 ? attr_bool(e->op, "largest", 1) : 1, sorted = v2 ? attr_bool(e->op, "sorted", 1) : 1;
  const char *flags = !v2                ? "RT_TOPK_V1"
                      : largest && sorted ? "RT_TOPK_LARGEST | RT_TOPK_SORTED"
                      : largest           ? "RT_TOPK_LARGEST"
                      : sorted            ? "RT_TOPK_SORTED"
                                          : "0 /* smallest, unsorted */";
  SortCall call = {.kind = SORT_TOPK_OP, .dtype = x->dtype, .flags = flags, .idx = em_ptr(e, ind, 0),
                   .idx32 = ind->dtype == RT_DT_INT32};
  if (call.idx32) {
    SymDim n = spec_numel(em_spec(e, ind));
    call.idx = em_scratch_named(e, "int64_t", "indices64", (SymDim){n.a * 8, n.c * 8});
  }
  if (r == 0) { /* a 0-D X is its own top 1 */
    call.zero_d = 1;
    call.vals = em_ptr(e, out, 0);
    call.x = em_ptr(e, x, 1);
    call.indices = em_ptr(e, ind, 0);
    sort_print_c(e->p, &call);
    return 0;
  }
  if (!kt && em_spec(e, x)->runtime_mask >> axis & 1) { /* the run's count along the axis: Paddle wants k of it */
    em_fault(e, pool_printf("dim %d of X ('%s') is below k (Paddle raises)", axis, x->name));
    pr_line(e->p, "if (%s < %s) return 1; /* k past the run's dim %d */", em_dim(e, x, axis), em_dim(e, out, axis),
            axis);
  }
  SymDim n = em_sym_prod(e, x, axis, axis + 1);
  call.work = em_scratch_named(e, "unsigned char", "work", (SymDim){RT_TOPK_WORK_BYTES(n.a), RT_TOPK_WORK_BYTES(n.c)});
  call.k = em_dim(e, out, axis);
  if (kt) { /* the run's k: Out and Indices hold [outer, k, inner] within their bound */
    call.k_from = em_ptr(e, kt, 1);
    call.k_into[0] = em_dim(e, out, axis);
    call.k_into[1] = em_dim(e, ind, axis);
    em_fault(e, pool_printf("K ('%s') is below 0 or above dim %d of X ('%s')", kt->name, axis, x->name));
    call.k = "k";
  }
  call.x = em_ptr(e, x, 1);
  call.outer = em_prod(e, x, 0, axis);
  call.n = em_dim(e, x, axis);
  call.inner = em_prod(e, x, axis + 1, r);
  call.vals = em_ptr(e, out, 0);
  if (call.idx32) {
    call.numel = em_numel(e, ind);
    call.indices = em_ptr(e, ind, 0);
  }
  sort_print_c(e->p, &call);
  return 0;
}

/* top_k_grad, top_k_v2_grad (X, Indices, Out@GRAD -> X@GRAD; fluid
 * TopkGradKernel, phi TopkGradKernel): X@GRAD starts at zeros and each
 * Out@GRAD element goes to the position along the axis that its Indices
 * element names (X viewed as [outer, n, inner], Indices and Out@GRAD as
 * [outer, k, inner]).  An index outside [0, n) writes nothing.  The k,
 * largest and sorted attributes and K gave Indices; the grad reads only
 * Indices. */
static int emit_top_k_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *ind = tu_in(e, "Indices", 0), *dout = tu_in(e, "Out@GRAD", 0);
  Var *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !ind || !dout || !dx) return -1;
  if ((dx->dtype != RT_DT_FP32 && dx->dtype != RT_DT_FP64) || dout->dtype != dx->dtype)
    return em_fail(e, "%s of %s (Out@GRAD %s) is not supported (float32 or float64)", e->op->type,
                   rt_dtype_name(dx->dtype), rt_dtype_name(dout->dtype));
  if (ind->dtype != RT_DT_INT64 && ind->dtype != RT_DT_INT32) return em_fail(e, "Indices must be int32 or int64");
  int v2 = !strcmp(e->op->type, "top_k_v2_grad"), r = tu_rank(e, dx);
  int axis = r ? axis_norm(v2 ? attr_int(e->op, "axis", -1) : -1, r) : 0;
  if (axis < 0) return em_fail(e, "axis is out of range");
  if (tu_rank(e, dout) != r || tu_rank(e, ind) != r) return em_fail(e, "Out@GRAD and Indices must have X's rank");
  for (int d = 0; d < r; d++) { /* a gradient of another k than the forward's; sizes the run gives: checked then */
    const char *have = em_dim(e, dout, d), *want = em_dim(e, ind, d);
    if ((em_spec(e, dout)->runtime_mask | em_spec(e, ind)->runtime_mask) >> d & 1)
      tu_run_equal(e, dout, ind, have, want, "Out@GRAD's size differs from Indices' (a gradient of another k)");
    else if (strcmp(have, want))
      return em_fail(e, "Out@GRAD ('%s' %s) and Indices ('%s' %s) differ in shape", dout->name,
                     shape_str(&dout->shape), ind->name, shape_str(&ind->shape));
  }
  SortCall call = {.kind = SORT_TOPK_GRAD, .dtype = dx->dtype, .idx_dtype = ind->dtype, .zero_d = r == 0};
  call.idx = em_ptr(e, ind, 1);
  call.dout = em_ptr(e, dout, 1);
  call.dx = em_ptr(e, dx, 0);
  if (r > 0) {
    call.outer = em_prod(e, dx, 0, axis);
    call.n = em_dim(e, dx, axis);
    call.k = em_dim(e, dout, axis);
    call.inner = em_prod(e, dx, axis + 1, r);
    call.numel = em_numel(e, dx);
  }
  sort_print_c(e->p, &call);
  return 0;
}

static const char *const top_k_v2_grad_ignores[] = {"K", NULL};
static const char *const top_k_v2_grad_attr_ignores[] = {"k", "largest", "sorted", NULL};
const OpDef op_top_k_grad = {.type = "top_k_grad", .infer = grad_infer, .emit_c = emit_top_k_grad};
const OpDef op_top_k_v2_grad = {.type = "top_k_v2_grad", .infer = grad_infer, .emit_c = emit_top_k_grad,
                                .ignores = top_k_v2_grad_ignores, .attr_ignores = top_k_v2_grad_attr_ignores,
                                .runtime_extents = 2};
const OpDef op_top_k = {.type = "top_k", .infer = infer_top_k, .emit_c = emit_top_k, .runtime_extents = 2};
const OpDef op_top_k_v2 = {.type = "top_k_v2", .infer = infer_top_k, .emit_c = emit_top_k, .runtime_extents = 2};
