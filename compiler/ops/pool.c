/* Pooling: pool2d, pool3d (Paddle Pool2DInferMeta / PoolInferMeta) and
 * max_pool2d_with_index, max_pool3d_with_index (MaxPoolWithIndexInferMeta).
 *   pool2d/pool3d: X -> Out (dtype of X)
 *     attrs: pooling_type ("max"/"avg"), ksize (pool2d: may be a VAR),
 *            strides=[1,..], paddings=[0,..] (one per spatial dim or begin/end
 *            pairs), global_pooling=false, adaptive=false, ceil_mode=false,
 *            exclusive=true, data_format="NCHW" (pool3d "NCDHW"; "NHWC"/"NDHWC"
 *            are channel last), padding_algorithm="EXPLICIT" (SAME/VALID);
 *            extra: use_cudnn, use_mkldnn, use_quantizer, mkldnn_data_type, is_test.
 *   max_pool{2,3}d_with_index: X -> Out (dtype of X), Mask (int32, same shape)
 *     attrs: ksize, strides=[1,..], paddings=[0,..] (one per spatial dim),
 *            global_pooling=false, adaptive=false; always channel first.
 * Output per spatial dim: adaptive -> ksize; else
 *   floor((in - k + pad_begin + pad_end) / s) + 1, with ceil_mode adding s-1
 * before the division; an unknown input dim stays unknown.  global_pooling sets
 * k = in and zero padding (with adaptive, the output is then the input size).
 * A pool2d ksize held in a tensor makes both spatial dims unknown.
 *
 * C emission (float32, float64 as Paddle's CPU kernels register them): one
 * rt_pool2d / rt_max_pool2d_index (runtime/rt_pool.c) or rt_pool3d /
 * rt_max_pool3d_index (runtime/rt_pool3d.c) call, their _f64 twins for
 * float64, with the window geometry as a constant struct.
 * As in Paddle's kernel (PoolRawKernel), SAME padding is computed from the
 * ksize as written, global_pooling and adaptive zero the padding, global
 * pooling widens the window to the input, only the top/left padding enters
 * the window rule, and a max pool2d/pool3d ignores `adaptive` (its windows
 * are ksize at the strides even then).  Mask is written (int32 indices).
 * The _with_index ops read only the first nsp paddings (one per spatial dim;
 * Paddle ignores padding_algorithm and ceil_mode there, which they do not
 * declare) and are always channel first.
 * Gradients: pool2d_grad and pool3d_grad (rt_pool2d_grad, rt_pool3d_grad,
 * the forward's geometry) and max_pool2d_with_index_grad
 * (rt_max_pool2d_index_grad, by Mask). */
#include <string.h>

#include "../util.h"
#include "ops.h"
#include "pool_call.h"
#include "run_hw.h"
#include "tensor_util.h"

/* The rule of pool2d's and pool3d's (nsp 3) output sizes (run_hw.h) as
 * PoolOutputSize with the window ksize, the paddings pad (begin, end per
 * dim) and ceil_mode: global pooling gives 1 (fixed; with adaptive the
 * input's size, add -1 and stride 1), adaptive pooling ksize (fixed). */
static void pool_rule(const Op *op, int nsp, const int64_t *k, const int64_t *stride, const int64_t *pad,
                      RunHwRule *r) {
  const int global = attr_bool(op, "global_pooling", 0), adaptive = attr_bool(op, "adaptive", 0);
  const int ceil_mode = attr_bool(op, "ceil_mode", 0);
  *r = (RunHwRule){.dims = nsp == 3 ? 3 : 2, .batch = 1};
  for (int i = 0; i < r->dims; i++) {
    r->fixed[i] = global != adaptive;
    r->add[i] = global || conv_is_same(op) ? -1 : pad[2 * i] + pad[2 * i + 1] - k[i] + (ceil_mode ? stride[i] - 1 : 0);
    r->stride[i] = global ? 1 : stride[i];
  }
}

static int infer_pool(OpCtx *c) {
  Var *x = conv_input(c, "X", NULL);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  int nsp = xs->rank - 2;
  const char *fmt = attr_str(c->op, "data_format", "NCHW");
  int last = strcmp(fmt, "NHWC") == 0 || strcmp(fmt, "NDHWC") == 0;
  int sp0 = last ? 1 : 2; /* index of the first spatial dim */
  Shape o = *xs;
  if (attr_is_var(c->op, "ksize")) { /* kernel size known only at run time */
    o.d[xs->rank - 2] = DIM_UNKNOWN;
    o.d[last ? xs->rank - 3 : xs->rank - 1] = DIM_UNKNOWN;
    ctx_set(c, "Out", 0, &o, x->dtype);
    return 0;
  }
  int64_t *kv, *sv;
  int nk = attr_ints(c->op, "ksize", &kv);
  int ns = attr_ints(c->op, "strides", &sv);
  if (nk != nsp) return ctx_fail(c, "ksize has %d values for %d spatial dims", nk, nsp);
  if (ns && ns != nk) return ctx_fail(c, "strides has %d values, ksize %d", ns, nk);
  int64_t ins[3], stride[3], pad[6];
  attr_ints_fill(c->op, "strides", nsp, 1, stride);
  for (int i = 0; i < nsp; i++) ins[i] = xs->d[sp0 + i];
  /* SAME padding uses the ksize as written; global_pooling replaces it below */
  if (conv_padding(c, nsp, ins, kv, stride, pad, NULL)) return -1;
  int global = attr_bool(c->op, "global_pooling", 0);
  int adaptive = attr_bool(c->op, "adaptive", 0);
  int ceil_mode = attr_bool(c->op, "ceil_mode", 0);
  for (int i = 0; i < nsp; i++) {
    int64_t in = ins[i], k = kv[i], s = stride[i], p0 = pad[2 * i], p1 = pad[2 * i + 1];
    if (s <= 0) return ctx_fail(c, "strides must be positive");
    if (global || adaptive) p0 = p1 = 0;
    if (global) k = in;
    int64_t v;
    if (adaptive)
      v = k;
    else if (in < 0)
      v = in;
    else
      v = (in - k + p0 + p1 + (ceil_mode ? s - 1 : 0)) / s + 1;
    o.d[sp0 + i] = v;
  }
  ctx_set(c, "Out", 0, &o, x->dtype);
  if (!var_runtime_mask(x)) return 0;
  const int same = conv_is_same(c->op) && !global && !adaptive;
  if ((nsp != 2 && nsp != 3) || (same && ceil_mode))
    return ctx_fail(c, "X ('%s') has sizes only the run knows; paddlec takes them in 2-D and 3-D pooling (SAME "
                    "padding without ceil_mode) only", x->name);
  RunHwRule rule;
  pool_rule(c->op, nsp, kv, stride, pad, &rule);
  return run_hw_infer(c, x, "Out", sp0, &rule) < 0 ? -1 : 0;
}

/* The rule of max_pool2d_with_index's output sizes (infer_max_pool_with_index):
 * its paddings are one per spatial dim (the first two values), and it reads
 * no ceil_mode or padding_algorithm even where an op desc carries them;
 * global pooling gives 1 (with adaptive, the input's size), adaptive
 * pooling ksize. */
static void index_pool_rule(const Op *op, RunHwRule *r) {
  const int global = attr_bool(op, "global_pooling", 0), adaptive = attr_bool(op, "adaptive", 0);
  int64_t k[2], stride[2], p[2];
  attr_ints_fill(op, "ksize", 2, 1, k);
  attr_ints_fill(op, "strides", 2, 1, stride);
  attr_ints_fill(op, "paddings", 2, 0, p);
  *r = (RunHwRule){.name = NULL};
  for (int i = 0; i < 2; i++) {
    r->fixed[i] = global != adaptive;
    r->add[i] = global ? -1 : 2 * p[i] - k[i];
    r->stride[i] = global ? 1 : stride[i];
  }
}

static int infer_max_pool_with_index(OpCtx *c) {
  Var *x = conv_input(c, "X", NULL);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  int nsp = xs->rank - 2;
  int global = attr_bool(c->op, "global_pooling", 0);
  int adaptive = attr_bool(c->op, "adaptive", 0);
  int64_t *kv, *sv, *pv;
  int nk = attr_ints(c->op, "ksize", &kv);
  int ns = attr_ints(c->op, "strides", &sv);
  int np = attr_ints(c->op, "paddings", &pv);
  if (!global && nk != nsp) return ctx_fail(c, "ksize has %d values for %d spatial dims", nk, nsp);
  if (ns != nsp) return ctx_fail(c, "strides has %d values for %d spatial dims", ns, nsp);
  Shape o = *xs;
  for (int i = 0; i < nsp; i++) {
    int64_t in = xs->d[2 + i];
    int64_t k = global ? in : kv[i], p = (global || i >= np) ? 0 : pv[i];
    if (sv[i] <= 0) return ctx_fail(c, "strides must be positive");
    if (adaptive)
      o.d[2 + i] = k;
    else if (in < 0)
      o.d[2 + i] = in;
    else
      o.d[2 + i] = (in - k + 2 * p) / sv[i] + 1;
  }
  ctx_set(c, "Out", 0, &o, x->dtype);
  ctx_set(c, "Mask", 0, &o, RT_DT_INT32);
  if (!var_runtime_mask(x)) return 0;
  if (nsp != 2)
    return ctx_fail(c, "X ('%s') has sizes only the run knows; paddlec takes them in 2-D pooling only", x->name);
  RunHwRule rule;
  index_pool_rule(c->op, &rule);
  return run_hw_infer(c, x, "Out", 2, &rule) < 0 || run_hw_infer(c, x, "Mask", 2, &rule) < 0 ? -1 : 0;
}

/* ---- C emission ---- */

/* 1 when pooling computes in dtype t (float32, float64). */
static int pool_dtype(int t) { return t == RT_DT_FP32 || t == RT_DT_FP64; }

/* The checks of a grad op's float tensors: dout, and dx when written, in
 * x's dtype, which pooling supports; -1 after em_fail. */
static int pool_grad_dtypes(EmitCtx *e, const Var *x, const Var *dout, const Var *dx) {
  if (!pool_dtype(dout->dtype))
    return em_fail(e, "%s of %s tensors is not supported", e->op->type, rt_dtype_name(dout->dtype));
  if (x->dtype != dout->dtype || (dx && dx->dtype != dout->dtype))
    return em_fail(e, "X, Out@GRAD and X@GRAD must have one dtype");
  return 0;
}

/* The checks both pool emitters share: float32 or float64 rank-4 X and Out
 * (of X's dtype) whose dims other than the batch are known at compile time,
 * into xd / od (N, C, H, W order, channel_last permuting them back). */
static int pool_dims(EmitCtx *e, const Var *x, const Var *out, int last, int64_t xd[4], int64_t od[4]) {
  if (!pool_dtype(x->dtype)) return em_fail(e, "pooling of %s tensors is not supported", rt_dtype_name(x->dtype));
  if (out->dtype != x->dtype) return em_fail(e, "Out must have X's dtype");
  if (em_spec(e, x)->rank != 4) return em_fail(e, "only 2-D pooling (rank-4 X) is supported");
  for (int i = 1; i < 4; i++) {
    int src = last ? (i == 1 ? 3 : i - 1) : i;
    xd[i] = em_bound_dim(e, x, src); /* a size the run gives: its bound (infer_pool) */
    od[i] = em_bound_dim(e, out, src);
    if (xd[i] < 0 || od[i] < 0) return em_fail(e, "channel and spatial dims must not depend on the batch");
  }
  return 0;
}

/* The geometry of pool2d with input x and output (or its gradient) out,
 * as PoolRawKernel / PoolGradRawKernel read the attributes; -1 after
 * em_fail. */
static int pool2d_geometry(EmitCtx *e, const Var *x, const Var *out, RtPool2d *p) {
  OpCtx c = {e->g, (Op *)e->op};
  const char *fmt = attr_str(e->op, "data_format", "NCHW"), *type = attr_str(e->op, "pooling_type", "max");
  int last = !strcmp(fmt, "NHWC");
  if (!last && strcmp(fmt, "NCHW") && strcmp(fmt, "AnyLayout"))
    return em_fail(e, "data_format '%s' is not supported", fmt);
  if (strcmp(type, "max") && strcmp(type, "avg")) return em_fail(e, "pooling_type '%s' is not supported", type);
  if (attr_is_var(e->op, "ksize")) return em_fail(e, "a ksize held in a tensor is not supported");
  int64_t xd[4], od[4], k[2], stride[2], pad[4];
  if (pool_dims(e, x, out, last, xd, od)) return -1;
  attr_ints_fill(e->op, "ksize", 2, 1, k);
  attr_ints_fill(e->op, "strides", 2, 1, stride);
  if (conv_padding(&c, 2, xd + 2, k, stride, pad, NULL)) return -1;
  int global = attr_bool(e->op, "global_pooling", 0), adaptive = attr_bool(e->op, "adaptive", 0);
  int max = !strcmp(type, "max");
  if (global || adaptive) memset(pad, 0, sizeof pad);
  if (global) k[0] = xd[2], k[1] = xd[3];
  *p = (RtPool2d){max ? RT_POOL_MAX : RT_POOL_AVG, xd[1], xd[2], xd[3], od[2], od[3], k[0], k[1], stride[0],
                  stride[1], pad[0], pad[2], attr_bool(e->op, "exclusive", 1), adaptive && !max, last};
  return 0;
}

/* 1 where a pooling of the run's sizes (run) pads as SAME does over them
 * (conv_print_same_pads; not global or adaptive pooling). */
static int run_same(const Op *op, int run) {
  return run && conv_is_same(op) && !attr_bool(op, "global_pooling", 0) && !attr_bool(op, "adaptive", 0);
}

/* The run's sizes of pool2d / pool3d (nsp spatial dims, in[] the bound's,
 * channel last or not): run_hw's locals by pool_rule, infer_pool's, and
 * SAME's padding the run's; -1 after em_fail. */
static int pool_run_sizes(EmitCtx *e, const Var *x, const Var *out, int nsp, const int64_t *in, int last) {
  OpCtx c = {e->g, (Op *)e->op};
  int64_t k[3], stride[3], pad[6];
  attr_ints_fill(e->op, "ksize", nsp, 1, k);
  attr_ints_fill(e->op, "strides", nsp, 1, stride);
  if (conv_padding(&c, nsp, in, k, stride, pad, NULL)) return -1; /* EXPLICIT or VALID: not the sizes' */
  RunHwRule rule;
  pool_rule(e->op, nsp, k, stride, pad, &rule);
  run_hw_print(e, x, out, last ? 1 : 2, &rule, "the window is larger than the padded input (an output size below 1)");
  if (run_same(e->op, 1)) conv_print_same_pads(e, nsp, k, stride);
  return 0;
}

static int emit_pool2d(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *out = ctx_out(&c, "Out", 0);
  if (!x || !out) return em_fail(e, "missing X or Out");
  RtPool2d p;
  if (pool2d_geometry(e, x, out, &p)) return -1;
  const int run = var_runtime_mask(x) != 0, same = run_same(e->op, run);
  const int64_t in[2] = {p.h_in, p.w_in};
  if (run && pool_run_sizes(e, x, out, 2, in, p.channel_last)) return -1;
  pool_print_c(e->p, &(PoolCall){.kind = POOL_FORWARD, .dims = 2, .f64 = x->dtype == RT_DT_FP64, .geo2 = p,
                                 .run_sizes = run, .k_in = run && attr_bool(e->op, "global_pooling", 0),
                                 .run_pads = same,
                                 .batch = em_dim(e, x, 0), .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 0)});
  return 0;
}

/* pool2d_grad (phi PoolGradRawKernel) with the forward's geometry:
 * rt_pool2d_grad. */
static int emit_pool2d_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *out = ctx_in(&c, "Out", 0), *dout = ctx_in(&c, "Out@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0);
  if (!x || !out || !dout) return em_fail(e, "needs X, Out and Out@GRAD");
  if (pool_grad_dtypes(e, x, dout, dx)) return -1;
  if (!em_same_shape(e, out, dout)) return em_fail(e, "Out@GRAD must have Out's shape");
  RtPool2d p;
  if (pool2d_geometry(e, x, out, &p)) return -1;
  if (!dx) return 0;
  const int run = var_runtime_mask(x) != 0, same = run_same(e->op, run);
  if (run) { /* the forward's sizes again, from X and Out (infer_pool) */
    run_hw_print_known(e, x, out, p.channel_last ? 1 : 2);
    if (same)
      conv_print_same_pads(e, 2, (const int64_t[]){p.k_h, p.k_w}, (const int64_t[]){p.stride_h, p.stride_w});
  }
  pool_print_c(e->p, &(PoolCall){.kind = POOL_GRAD, .dims = 2, .f64 = x->dtype == RT_DT_FP64, .geo2 = p,
                                 .run_sizes = run, .k_in = run && attr_bool(e->op, "global_pooling", 0),
                                 .run_pads = same, .batch = em_dim(e, x, 0), .x = em_ptr(e, x, 1),
                                 .out = em_ptr(e, out, 1), .dout = em_ptr(e, dout, 1), .dx = em_ptr(e, dx, 0)});
  return 0;
}

/* The geometry of max_pool2d_with_index with input x and output (or its
 * gradient) out. */
static int max_pool2d_index_geometry(EmitCtx *e, const Var *x, const Var *out, RtPool2d *p) {
  int64_t xd[4], od[4], k[2], stride[2], pad[2];
  if (pool_dims(e, x, out, 0, xd, od)) return -1;
  attr_ints_fill(e->op, "ksize", 2, 1, k);
  attr_ints_fill(e->op, "strides", 2, 1, stride);
  attr_ints_fill(e->op, "paddings", 2, 0, pad); /* the kernel reads the first two values */
  if (attr_bool(e->op, "global_pooling", 0)) k[0] = xd[2], k[1] = xd[3], pad[0] = pad[1] = 0;
  *p = (RtPool2d){RT_POOL_MAX, xd[1], xd[2], xd[3], od[2], od[3], k[0], k[1], stride[0], stride[1],
                  pad[0], pad[1], 1, attr_bool(e->op, "adaptive", 0), 0};
  return 0;
}

static int emit_max_pool2d_index(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *out = ctx_out(&c, "Out", 0), *mask = ctx_out(&c, "Mask", 0);
  if (!x || !out || !mask) return em_fail(e, "missing X, Out or Mask");
  if (mask->dtype != RT_DT_INT32) return em_fail(e, "Mask must be int32");
  RtPool2d p;
  if (max_pool2d_index_geometry(e, x, out, &p)) return -1;
  const int run = var_runtime_mask(x) != 0;
  if (run) { /* the run's sizes (infer_max_pool_with_index), Mask's Out's */
    RunHwRule rule;
    index_pool_rule(e->op, &rule);
    run_hw_print(e, x, out, 2, &rule, "the window is larger than the padded input (an output size below 1)");
    tu_pass_extent(e, out, mask);
  }
  pool_print_c(e->p, &(PoolCall){.kind = POOL_INDEX, .dims = 2, .f64 = x->dtype == RT_DT_FP64, .geo2 = p,
                                 .run_sizes = run, .k_in = run && attr_bool(e->op, "global_pooling", 0),
                                 .batch = em_dim(e, x, 0), .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 0),
                                 .mask = em_ptr(e, mask, 0)});
  return 0;
}

/* max_pool2d_with_index_grad (phi MaxPool2dWithIndexGradFunctor): each
 * output's gradient added at its Mask index; X gives the shape only. */
static int emit_max_pool2d_index_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *mask = ctx_in(&c, "Mask", 0), *dout = ctx_in(&c, "Out@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0);
  if (!x || !mask || !dout) return em_fail(e, "needs X, Mask and Out@GRAD");
  if (mask->dtype != RT_DT_INT32) return em_fail(e, "Mask must be int32");
  if (pool_grad_dtypes(e, x, dout, dx)) return -1;
  if (!em_same_shape(e, mask, dout)) return em_fail(e, "Out@GRAD must have Mask's shape");
  RtPool2d p;
  if (max_pool2d_index_geometry(e, x, dout, &p)) return -1;
  if (!dx) return 0;
  const int run = em_spec(e, x)->runtime_mask != 0;
  if (run) run_hw_print_known(e, x, dout, 2); /* the forward's sizes again (infer_max_pool_with_index) */
  pool_print_c(e->p, &(PoolCall){.kind = POOL_INDEX_GRAD, .dims = 2, .f64 = x->dtype == RT_DT_FP64, .geo2 = p,
                                 .run_sizes = run, .batch = em_dim(e, x, 0), .mask = em_ptr(e, mask, 1),
                                 .dout = em_ptr(e, dout, 1), .dx = em_ptr(e, dx, 0)});
  return 0;
}

/* ---- 3-D ---- */

/* pool_dims for rank-5 X and Out: C and the spatial dims into xd[1..4] and
 * od[1..4] in N, C, D, H, W order. */
static int pool3d_dims(EmitCtx *e, const Var *x, const Var *out, int last, int64_t xd[5], int64_t od[5]) {
  if (!pool_dtype(x->dtype)) return em_fail(e, "pooling of %s tensors is not supported", rt_dtype_name(x->dtype));
  if (out->dtype != x->dtype) return em_fail(e, "Out must have X's dtype");
  if (em_spec(e, x)->rank != 5 || em_spec(e, out)->rank != 5) return em_fail(e, "X and Out must have rank 5");
  for (int i = 1; i < 5; i++) {
    int src = last ? (i == 1 ? 4 : i - 1) : i;
    xd[i] = em_bound_dim(e, x, src); /* a size the run gives: its bound (emit_pool3d) */
    od[i] = em_bound_dim(e, out, src);
    if (xd[i] < 0 || od[i] < 0) return em_fail(e, "channel and spatial dims must not depend on the batch");
  }
  if (xd[1] != od[1]) return em_fail(e, "X and Out differ in channels");
  return 0;
}

/* The geometry of pool3d with input x and output (or its gradient) out,
 * as PoolRawKernel / PoolGradRawKernel read the attributes; -1 after
 * em_fail. */
static int pool3d_geometry(EmitCtx *e, const Var *x, const Var *out, RtPool3d *p) {
  OpCtx c = {e->g, (Op *)e->op};
  const char *fmt = attr_str(e->op, "data_format", "NCDHW"), *type = attr_str(e->op, "pooling_type", "max");
  int last = !strcmp(fmt, "NDHWC");
  if (!last && strcmp(fmt, "NCDHW") && strcmp(fmt, "NCHW") && strcmp(fmt, "AnyLayout"))
    return em_fail(e, "data_format '%s' is not supported", fmt);
  if (strcmp(type, "max") && strcmp(type, "avg")) return em_fail(e, "pooling_type '%s' is not supported", type);
  int64_t xd[5], od[5], k[3], stride[3], pad[6];
  if (pool3d_dims(e, x, out, last, xd, od)) return -1;
  attr_ints_fill(e->op, "ksize", 3, 1, k);
  attr_ints_fill(e->op, "strides", 3, 1, stride);
  if (conv_padding(&c, 3, xd + 2, k, stride, pad, NULL)) return -1;
  int global = attr_bool(e->op, "global_pooling", 0), adaptive = attr_bool(e->op, "adaptive", 0);
  int max = !strcmp(type, "max");
  if (global || adaptive) memset(pad, 0, sizeof pad);
  *p = (RtPool3d){.type = max ? RT_POOL_MAX : RT_POOL_AVG, .c = xd[1], .exclusive = attr_bool(e->op, "exclusive", 1),
                  .adaptive = adaptive && !max, .channel_last = last};
  for (int i = 0; i < 3; i++) {
    p->in[i] = xd[2 + i], p->out[i] = od[2 + i];
    p->k[i] = global ? xd[2 + i] : k[i];
    p->stride[i] = stride[i], p->pad[i] = pad[2 * i];
    if (p->stride[i] <= 0 || p->k[i] <= 0) return em_fail(e, "ksize and strides must be positive");
  }
  return 0;
}

static int emit_pool3d(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *out = ctx_out(&c, "Out", 0);
  if (!x || !out) return em_fail(e, "missing X or Out");
  RtPool3d p;
  if (pool3d_geometry(e, x, out, &p)) return -1;
  const int run = var_runtime_mask(x) != 0, same = run_same(e->op, run);
  if (run && pool_run_sizes(e, x, out, 3, p.in, p.channel_last)) return -1;
  pool_print_c(e->p, &(PoolCall){.kind = POOL_FORWARD, .dims = 3, .f64 = x->dtype == RT_DT_FP64, .geo3 = p,
                                 .run_sizes = run, .k_in = run && attr_bool(e->op, "global_pooling", 0),
                                 .run_pads = same,
                                 .batch = em_dim(e, x, 0), .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 0)});
  return 0;
}

/* pool3d_grad (phi PoolGradRawKernel) with the forward's geometry:
 * rt_pool3d_grad. */
static int emit_pool3d_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *out = ctx_in(&c, "Out", 0), *dout = ctx_in(&c, "Out@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0);
  if (!x || !out || !dout) return em_fail(e, "needs X, Out and Out@GRAD");
  if (pool_grad_dtypes(e, x, dout, dx)) return -1;
  if (!em_same_shape(e, out, dout)) return em_fail(e, "Out@GRAD must have Out's shape");
  RtPool3d p;
  if (pool3d_geometry(e, x, out, &p)) return -1;
  if (!dx) return 0;
  const int run = var_runtime_mask(x) != 0, same = run_same(e->op, run);
  if (run) { /* the forward's sizes again, from X and Out (infer_pool) */
    run_hw_print_known3(e, x, out, p.channel_last ? 1 : 2);
    if (same) conv_print_same_pads(e, 3, p.k, p.stride);
  }
  pool_print_c(e->p, &(PoolCall){.kind = POOL_GRAD, .dims = 3, .f64 = x->dtype == RT_DT_FP64, .geo3 = p,
                                 .run_sizes = run, .k_in = run && attr_bool(e->op, "global_pooling", 0),
                                 .run_pads = same, .batch = em_dim(e, x, 0), .x = em_ptr(e, x, 1),
                                 .out = em_ptr(e, out, 1), .dout = em_ptr(e, dout, 1), .dx = em_ptr(e, dx, 0)});
  return 0;
}

static int emit_max_pool3d_index(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *out = ctx_out(&c, "Out", 0), *mask = ctx_out(&c, "Mask", 0);
  if (!x || !out || !mask) return em_fail(e, "missing X, Out or Mask");
  int64_t xd[5], od[5];
  if (pool3d_dims(e, x, out, 0, xd, od)) return -1;
  if (mask->dtype != RT_DT_INT32) return em_fail(e, "Mask must be int32");
  RtPool3d p = {.type = RT_POOL_MAX, .c = xd[1], .exclusive = 1, .adaptive = attr_bool(e->op, "adaptive", 0)};
  attr_ints_fill(e->op, "ksize", 3, 1, p.k);
  attr_ints_fill(e->op, "strides", 3, 1, p.stride);
  attr_ints_fill(e->op, "paddings", 3, 0, p.pad); /* the kernel reads the first three values */
  for (int i = 0; i < 3; i++) {
    p.in[i] = xd[2 + i], p.out[i] = od[2 + i];
    if (attr_bool(e->op, "global_pooling", 0)) p.k[i] = xd[2 + i], p.pad[i] = 0;
    if (!p.adaptive && p.stride[i] <= 0) return em_fail(e, "strides must be positive");
  }
  pool_print_c(e->p, &(PoolCall){.kind = POOL_INDEX, .dims = 3, .f64 = x->dtype == RT_DT_FP64, .geo3 = p,
                                 .batch = em_dim(e, x, 0), .x = em_ptr(e, x, 1), .out = em_ptr(e, out, 0),
                                 .mask = em_ptr(e, mask, 0)});
  return 0;
}

/* max_pool3d_with_index_grad (phi MaxPool3dWithIndexGradFunctor): X@GRAD
 * starts at zeros and each Out@GRAD element is added at its Mask index in
 * its (n, c) volume, in order (an index outside the volume adds nothing);
 * X gives the shape only. */
static int emit_max_pool3d_index_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *mask = ctx_in(&c, "Mask", 0), *dout = ctx_in(&c, "Out@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0);
  if (!x || !mask || !dout) return em_fail(e, "needs X, Mask and Out@GRAD");
  if (mask->dtype != RT_DT_INT32) return em_fail(e, "Mask must be int32");
  if (pool_grad_dtypes(e, x, dout, dx)) return -1;
  if (!em_same_shape(e, mask, dout)) return em_fail(e, "Out@GRAD must have Mask's shape");
  if (em_spec(e, x)->rank != 5 || em_spec(e, dout)->rank != 5) return em_fail(e, "X and Out@GRAD must have rank 5");
  if (!dx) return 0;
  PoolCall pc = {.kind = POOL_INDEX_GRAD, .dims = 3};
  pc.mask = em_ptr(e, mask, 1);
  pc.type = em_ctype(dout->dtype);
  pc.dout = em_ptr(e, dout, 1);
  pc.dx = em_ptr(e, dx, 0);
  pc.planes = em_prod(e, x, 0, 2);
  pc.in_size = em_prod(e, x, 2, 5);
  pc.out_size = em_prod(e, dout, 2, 5);
  pool_print_c(e->p, &pc);
  return 0;
}

const OpDef op_pool2d = {.type = "pool2d", .infer = infer_pool, .emit_c = emit_pool2d, .runtime_extents = 2};
/* ceil_mode only sizes the forward's Out, whose shape the grad reads */
static const char *const pool_grad_attr_ignores[] = {"ceil_mode", NULL};
const OpDef op_pool2d_grad = {.type = "pool2d_grad", .infer = grad_infer, .emit_c = emit_pool2d_grad,
                              .attr_ignores = pool_grad_attr_ignores, .runtime_extents = 2};
const OpDef op_max_pool2d_with_index_grad = {.type = "max_pool2d_with_index_grad", .infer = grad_infer,
                                             .emit_c = emit_max_pool2d_index_grad, .runtime_extents = 2};
const OpDef op_pool3d = {.type = "pool3d", .infer = infer_pool, .emit_c = emit_pool3d, .runtime_extents = 2};
const OpDef op_pool3d_grad = {.type = "pool3d_grad", .infer = grad_infer, .emit_c = emit_pool3d_grad,
                              .attr_ignores = pool_grad_attr_ignores, .runtime_extents = 2};
const OpDef op_max_pool2d_with_index = {.type = "max_pool2d_with_index",
                                        .infer = infer_max_pool_with_index,
                                        .emit_c = emit_max_pool2d_index, .runtime_extents = 2};
/* max_pool3d_with_index_grad: Mask holds where each output came from;
 * the window attributes only sized the forward's Out */
static const char *const max_pool3d_index_grad_attr_ignores[] = {"ksize", "strides", "paddings", "global_pooling",
                                                                  "adaptive", NULL};
const OpDef op_max_pool3d_with_index_grad = {.type = "max_pool3d_with_index_grad", .infer = grad_infer,
                                             .emit_c = emit_max_pool3d_index_grad,
                                             .attr_ignores = max_pool3d_index_grad_attr_ignores};
const OpDef op_max_pool3d_with_index = {.type = "max_pool3d_with_index",
                                        .infer = infer_max_pool_with_index,
                                        .emit_c = emit_max_pool3d_index};
