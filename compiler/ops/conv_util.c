/* Input checks, attribute rules and C emission helpers shared by the
 * sliding-window ops (conv.c, conv_transpose.c, pool.c), declared and
 * documented in ops.h, and the convolutions' printer and NHWC copies
 * (conv_call.h). */
#include <string.h>

#include "../util.h"
#include "conv_call.h"
#include "rt_kernels.h"

Var *conv_input(OpCtx *c, const char *slot, Var **w) {
  Var *x = ctx_need(c, slot, 0);
  Var *f = w ? ctx_need(c, "Filter", 0) : NULL;
  if (!x || (w && !f)) return NULL;
  const Shape *xs = &x->shape;
  if (xs->rank != 4 && xs->rank != 5) {
    ctx_fail(c, "%s has rank %d (shape %s), expected 4 or 5", slot, xs->rank, shape_str(xs));
    return NULL;
  }
  if (f && f->shape.rank != xs->rank) {
    ctx_fail(c, "Filter %s and %s %s differ in rank", shape_str(&f->shape), slot, shape_str(xs));
    return NULL;
  }
  if (w) *w = f;
  return x;
}

void attr_ints_fill(const Op *op, const char *name, int n, int64_t dflt, int64_t *out) {
  int64_t *v;
  int k = attr_ints(op, name, &v);
  for (int i = 0; i < n; i++) out[i] = i < k ? v[i] : dflt;
}

int conv_padding(OpCtx *c, int nsp, const int64_t *in, const int64_t *k, const int64_t *stride,
                 int64_t *pad, int64_t *dil) {
  int64_t *p;
  int np = attr_ints(c->op, "paddings", &p);
  if (np == nsp) {
    for (int i = 0; i < nsp; i++) pad[2 * i] = pad[2 * i + 1] = p[i];
  } else if (np == 2 * nsp) {
    for (int i = 0; i < 2 * nsp; i++) pad[i] = p[i];
  } else if (np == 0) {
    for (int i = 0; i < 2 * nsp; i++) pad[i] = 0;
  } else {
    return ctx_fail(c, "paddings has %d values, expected %d or %d", np, nsp, 2 * nsp);
  }
  const char *alg = attr_str(c->op, "padding_algorithm", "EXPLICIT");
  if (strcmp(alg, "SAME") == 0) {
    for (int i = 0; i < nsp; i++) {
      if (stride[i] <= 0) continue; /* the caller rejects it (pool does so after this call) */
      /* C division truncates like C++'s; unknown dims give garbage padding
       * that is never used (their output dim is unknown). */
      int64_t out = (in[i] + stride[i] - 1) / stride[i];
      int64_t sum = (out - 1) * stride[i] + k[i] - in[i];
      if (sum < 0) sum = 0;
      pad[2 * i] = sum / 2;
      pad[2 * i + 1] = sum - sum / 2;
      if (dil) dil[i] = 1;
    }
  } else if (strcmp(alg, "VALID") == 0) {
    for (int i = 0; i < 2 * nsp; i++) pad[i] = 0;
  }
  return 0;
}

int conv_is_same(const Op *op) { return !strcmp(attr_str(op, "padding_algorithm", "EXPLICIT"), "SAME"); }

const char *conv_window_fields(const char *k_h, const char *k_w, int64_t stride_h, int64_t stride_w, int64_t pad_t,
                               int64_t pad_l, int run_pads) {
  const char *pads = run_pads ? ".pad_t = pad_t, .pad_l = pad_l"
                              : pool_printf(".pad_t = %lld, .pad_l = %lld", (long long)pad_t, (long long)pad_l);
  return pool_printf(".k_h = %s, .k_w = %s, .stride_h = %lld, .stride_w = %lld, %s,", k_h, k_w, (long long)stride_h,
                     (long long)stride_w, pads);
}

void conv_print_same_pads(EmitCtx *e, int nsp, const int64_t *k, const int64_t *stride) {
  pr_line(e->p, "/* SAME padding of the run's sizes: what (out - 1) * stride + k passes in by, the extra row or "
          "column at the end */");
  if (nsp == 3) {
    pr_line(e->p, "const int64_t pad_d = (d_out - 1) * %lld + %lld - d_in;", (long long)stride[0], (long long)k[0]);
    pr_line(e->p, "const int64_t pad_f = pad_d > 0 ? pad_d / 2 : 0;");
    k++, stride++;
  }
  pr_line(e->p, "const int64_t pad_h = (h_out - 1) * %lld + %lld - h_in, pad_w = (w_out - 1) * %lld + %lld - w_in;",
          (long long)stride[0], (long long)k[0], (long long)stride[1], (long long)k[1]);
  pr_line(e->p, "const int64_t pad_t = pad_h > 0 ? pad_h / 2 : 0, pad_l = pad_w > 0 ? pad_w / 2 : 0;");
}

/* Compile-time dims [1, 4) of a rank-4 var into d[1..3] (a dim the run
 * gives: its bound, for the convolutions that take one: run_hw.h); -1 if
 * any depends on the batch. */
static int const_chw(EmitCtx *e, const Var *v, int64_t d[4]) {
  for (int i = 1; i < 4; i++)
    if ((d[i] = em_bound_dim(e, v, i)) < 0) return -1;
  return 0;
}

int conv_const_dims(EmitCtx *e, const Var *x, const Var *out, const Var *w, int64_t xd[4], int64_t od[4],
                    int64_t wd[4]) {
  if (const_chw(e, x, xd) || const_chw(e, out, od) || (wd[0] = em_const_dim(e, w, 0)) < 0 || const_chw(e, w, wd))
    return em_fail(e, "channel and spatial dims must not depend on the batch");
  return 0;
}

const char *conv_gemm_ws(EmitCtx *e, const RtConv2d *g, int transpose) {
  int64_t s[1][3], floats = 0;
  int n = rt_conv2d_gemm_shapes(g, transpose, s);
  for (int i = 0; i < n; i++) {
    int64_t f = RT_SGEMM_WS_FLOATS(s[i][0], s[i][1], s[i][2]);
    if (g->packed && !transpose && RT_PP_B_FLOATS(s[i][1], s[i][2]) > f) f = RT_PP_B_FLOATS(s[i][1], s[i][2]);
    floats = f > floats ? f : floats;
  }
  em_task_scratch(e, transpose ? floats : rt_conv2d_task_floats(g));
  return floats ? em_scratch_named(e, "float", "gemm_ws", (SymDim){0, floats * (int64_t)sizeof(float)}) : "NULL";
}

void conv_nhwc_dims(int64_t d[4]) {
  const int64_t c = d[3];
  d[3] = d[2], d[2] = d[1], d[1] = c;
}

/* The C element type of a convolution's buffers (float or double) and
 * whether it is double, from the var v (its Input). */
static const char *conv_ctype(const Var *v) { return v->dtype == RT_DT_FP64 ? "double" : "float"; }
static int conv_f64(const Var *v) { return v->dtype == RT_DT_FP64; }

/* Kernel scratch for n elements of v's dtype: a local named `role` of the
 * element type. */
static const char *conv_scratch(EmitCtx *e, const Var *v, const char *role, SymDim n) {
  const int64_t size = conv_f64(v) ? 8 : 4;
  return em_scratch_named(e, conv_ctype(v), role, (SymDim){n.a * size, n.c * size});
}

void conv_nhwc(EmitCtx *e, const Var *x, const Var *out, ConvCall *c) {
  const SymDim xn = spec_numel(em_spec(e, x)), on = spec_numel(em_spec(e, out));
  const int last = em_spec(e, x)->rank - 1; /* the channels' dim: 3, or 4 in 3-D */
  c->copies = CONV_COPIES_FORWARD, c->type = conv_ctype(x);
  const char *xt = conv_scratch(e, x, "x_nchw", xn), *ot = conv_scratch(e, x, "out_nchw", on);
  c->to_nchw[0] = (MoveCall){.kind = MOVE_NHWC_TO_NCHW, .src = em_ptr(e, x, 1), .dst = xt,
                             .outer = em_dim(e, x, 0), .inner = em_prod(e, x, 1, last),
                             .channels = pool_printf("%lld", (long long)em_const_dim(e, x, last)), .f64 = conv_f64(x)};
  c->to_nhwc = (MoveCall){.kind = MOVE_NCHW_TO_NHWC, .src = ot, .dst = em_ptr(e, out, 0),
                          .outer = em_dim(e, x, 0),
                          .channels = pool_printf("%lld", (long long)em_const_dim(e, out, last)),
                          .inner = em_prod(e, out, 1, last), .f64 = conv_f64(x)};
  c->x = xt, c->out = ot;
}

void conv_nhwc_grad(EmitCtx *e, const Var *x, const Var *dy, int dx, int dw, ConvCall *c) {
  const char *batch = em_dim(e, x, 0);
  const int last = em_spec(e, x)->rank - 1; /* the channels' dim: 3, or 4 in 3-D */
  const char *c_in = pool_printf("%lld", (long long)em_const_dim(e, x, last)), *hw = em_prod(e, x, 1, last);
  const SymDim xn = spec_numel(em_spec(e, x)), yn = spec_numel(em_spec(e, dy));
  c->copies = CONV_COPIES_GRAD, c->type = conv_ctype(x);
  const char *dyt = conv_scratch(e, x, "dout_nchw", yn);
  c->to_nchw[0] = (MoveCall){.kind = MOVE_NHWC_TO_NCHW, .src = c->dy, .dst = dyt, .outer = batch,
                             .inner = em_prod(e, dy, 1, last),
                             .channels = pool_printf("%lld", (long long)em_const_dim(e, dy, last)),
                             .f64 = conv_f64(x)};
  c->dy = dyt;
  if (dw) {
    const char *xt = conv_scratch(e, x, "x_nchw", xn);
    c->to_nchw[1] = (MoveCall){.kind = MOVE_NHWC_TO_NCHW, .src = c->x, .dst = xt, .outer = batch, .inner = hw,
                               .channels = c_in, .f64 = conv_f64(x)};
    c->x = xt;
  }
  if (dx) {
    const char *dxt = conv_scratch(e, x, "dx_nchw", xn);
    c->to_nhwc = (MoveCall){.kind = MOVE_NCHW_TO_NHWC, .src = dxt, .dst = c->out, .outer = batch, .channels = c_in,
                            .inner = hw, .f64 = conv_f64(x)};
    c->out = dxt;
  }
}

int conv_dtype(EmitCtx *e, const char *what, const Var *x, const Var *w, const Var *other) {
  const int t = x->dtype;
  if ((t == RT_DT_FP32 || t == RT_DT_FP64) && w->dtype == t && (!other || other->dtype == t)) return t == RT_DT_FP64;
  return em_fail(e, "only float32 or float64 %s are supported, all of one dtype (Input %s, Filter %s%s%s)", what,
                 rt_dtype_name(x->dtype), rt_dtype_name(w->dtype), other ? ", " : "",
                 other ? rt_dtype_name(other->dtype) : "");
}

const char *conv_ws_f64(EmitCtx *e, int64_t n) {
  return n ? em_scratch_named(e, "double", "col", (SymDim){0, n * (int64_t)sizeof(double)}) : "NULL";
}

const char *conv_col_ws(EmitCtx *e, int f64, int64_t n) {
  return f64 ? conv_ws_f64(e, n) : em_scratch_named(e, "float", "col", (SymDim){0, n * (int64_t)sizeof(float)});
}

/* 2-D geometry g as a constant RtConv2d: one line per field group (the
 * fused activation only when there is one), or compact in two lines;
 * with run_sizes the sizes are the kernel's locals (never compact). */
static void print_conv2d(Printer *p, const char *name, const RtConv2d *g, int compact, int run_sizes, int run_pads,
                         int run_swap) {
  if (compact && !run_sizes) {
    pr_line(p, "static const RtConv2d %s = {.c_in = %lld, .h_in = %lld, .w_in = %lld, .c_out = %lld, .h_out = "
            "%lld, .w_out = %lld,", name, (long long)g->c_in, (long long)g->h_in, (long long)g->w_in,
            (long long)g->c_out, (long long)g->h_out, (long long)g->w_out);
    pr_line(p, "    .k_h = %lld, .k_w = %lld, .stride_h = %lld, .stride_w = %lld, .pad_t = %lld, .pad_l = %lld, "
            ".dil_h = %lld, .dil_w = %lld, .groups = %lld};", (long long)g->k_h, (long long)g->k_w,
            (long long)g->stride_h, (long long)g->stride_w, (long long)g->pad_t, (long long)g->pad_l,
            (long long)g->dil_h, (long long)g->dil_w, (long long)g->groups);
    return;
  }
  if (run_sizes) { /* the locals the emitter printed (run_hw.h) */
    pr_line(p, "const RtConv2d %s = {", name);
    if (run_swap) /* the transposed geometry of a gradient: the forward's output is its input */
      pr_line(p, ".c_in = %lld, .h_in = h_out, .w_in = w_out, .c_out = %lld, .h_out = h_in, .w_out = w_in,",
              (long long)g->c_in, (long long)g->c_out);
    else
      pr_line(p, ".c_in = %lld, .h_in = h_in, .w_in = w_in, .c_out = %lld, .h_out = h_out, .w_out = w_out,",
              (long long)g->c_in, (long long)g->c_out);
  } else {
    pr_line(p, "static const RtConv2d %s = {", name);
    pr_line(p, ".c_in = %lld, .h_in = %lld, .w_in = %lld, .c_out = %lld, .h_out = %lld, .w_out = %lld,",
            (long long)g->c_in, (long long)g->h_in, (long long)g->w_in, (long long)g->c_out, (long long)g->h_out,
            (long long)g->w_out);
  }
  pr_line(p, "%s", conv_window_fields(pool_printf("%lld", (long long)g->k_h), pool_printf("%lld", (long long)g->k_w),
                                      g->stride_h, g->stride_w, g->pad_t, g->pad_l, run_pads));
  pr_line(p, ".dil_h = %lld, .dil_w = %lld, .groups = %lld,", (long long)g->dil_h, (long long)g->dil_w,
          (long long)g->groups);
  if (g->act != RT_ACT_NONE)
    pr_line(p, ".act = %s, .alpha = %s, .beta = %s,", em_act_name(g->act), em_float(g->alpha), em_float(g->beta));
  if (g->pre_relu) pr_line(p, ".pre_relu = 1, /* fuse_relu_before_depthwise_conv */");
  if (g->packed)
    pr_line(p, ".packed = %d, /* the filter was prepared at load for rt_pp_gemm (rt_prepack), panels of %d rows */",
            g->packed, g->packed);
  if (g->wino) pr_line(p, ".wino = %d, /* Winograd's tiles as for the bound's sizes */", g->wino);
  pr_line(p, "};");
}

/* 3-D geometry g as a constant RtConv3d: designated, one line per field
 * group, or compact: positional in two lines; with run_sizes a local whose
 * sizes (with run_pads also the padding) are the kernel's locals
 * (run_hw.h, conv_print_same_pads), run_swap read transposed. */
static void print_conv3d(Printer *p, const char *name, const RtConv3d *g, int compact, int run_sizes,
                         int run_pads, int run_swap) {
  pr_line(p, "%sconst RtConv3d %s = {", run_sizes ? "" : "static ", name);
  if (run_sizes) { /* run_swap: a gradient's transposed geometry, the forward's output its input */
    const char *in = run_swap ? "out" : "in", *out = run_swap ? "in" : "out";
    pr_line(p, ".c_in = %lld, .d_in = d_%s, .h_in = h_%s, .w_in = w_%s,", (long long)g->c_in, in, in, in);
    pr_line(p, ".c_out = %lld, .d_out = d_%s, .h_out = h_%s, .w_out = w_%s,", (long long)g->c_out, out, out, out);
  }
  if (compact && !run_sizes) {
    pr_line(p, "%lld, %lld, %lld, %lld, %lld, %lld, %lld, %lld, %lld, %lld, %lld,", (long long)g->c_in,
            (long long)g->d_in, (long long)g->h_in, (long long)g->w_in, (long long)g->c_out, (long long)g->d_out,
            (long long)g->h_out, (long long)g->w_out, (long long)g->k_d, (long long)g->k_h, (long long)g->k_w);
    pr_line(p, "{%lld, %lld, %lld}, {%lld, %lld, %lld}, {%lld, %lld, %lld}, %lld,", (long long)g->stride[0],
            (long long)g->stride[1], (long long)g->stride[2], (long long)g->pad[0], (long long)g->pad[1],
            (long long)g->pad[2], (long long)g->dil[0], (long long)g->dil[1], (long long)g->dil[2],
            (long long)g->groups);
  } else {
    if (!run_sizes) {
      pr_line(p, ".c_in = %lld, .d_in = %lld, .h_in = %lld, .w_in = %lld,", (long long)g->c_in, (long long)g->d_in,
              (long long)g->h_in, (long long)g->w_in);
      pr_line(p, ".c_out = %lld, .d_out = %lld, .h_out = %lld, .w_out = %lld,", (long long)g->c_out,
              (long long)g->d_out, (long long)g->h_out, (long long)g->w_out);
    }
    pr_line(p, ".k_d = %lld, .k_h = %lld, .k_w = %lld, .groups = %lld,", (long long)g->k_d, (long long)g->k_h,
            (long long)g->k_w, (long long)g->groups);
    const char *pad = run_pads ? "pad_f, pad_t, pad_l"
                               : pool_printf("%lld, %lld, %lld", (long long)g->pad[0], (long long)g->pad[1],
                                             (long long)g->pad[2]);
    pr_line(p, ".stride = {%lld, %lld, %lld}, .pad = {%s}, .dil = {%lld, %lld, %lld},", (long long)g->stride[0],
            (long long)g->stride[1], (long long)g->stride[2], pad, (long long)g->dil[0], (long long)g->dil[1],
            (long long)g->dil[2]);
  }
  pr_line(p, "};");
}

/* The channel-last step's NCHW copies (scratch locals named by role),
 * filled from the channel-last buffers. */
static void print_copies(Printer *p, const ConvCall *c) {
  if (c->copies == CONV_COPIES_FORWARD) {
    pr_line(p, "/* NHWC: the convolution runs on NCHW copies in scratch */");
    move_print_c(p, &c->to_nchw[0]);
  } else if (c->copies == CONV_COPIES_GRAD) {
    pr_line(p, "/* NHWC: the gradients are computed on NCHW copies in scratch */");
    move_print_c(p, &c->to_nchw[0]);
    if (c->to_nchw[1].src) move_print_c(p, &c->to_nchw[1]);
  }
}

static void print_geo(Printer *p, const ConvCall *c) {
  if (!c->declare) return;
  if (c->dims == 3)
    print_conv3d(p, c->geo, &c->g3, c->compact, c->run_sizes, c->run_pads, c->run_swap);
  else
    print_conv2d(p, c->geo, &c->g2, c->compact, c->run_sizes, c->run_pads, c->run_swap);
}

/* The runtime call itself. */
static void print_call(Printer *p, const ConvCall *c) {
  const char *bias = c->bias ? c->bias : "NULL", *res = c->res ? c->res : "NULL";
  /* 3-D: the float64 routines are the float ones' _f64 namesakes without gemm_ws */
  const char *sfx = c->f64 ? "_f64" : "", *gws = c->f64 ? "" : ", ", *gw = c->f64 ? "" : c->gemm_ws;
  if (c->dims == 3 && c->kind == CONV_FORWARD)
    pr_line(p, "rt_conv3d%s(&%s, %s, %s, %s, %s, %s%s%s);", sfx, c->geo, c->batch, c->x, c->w, c->out, c->ws, gws,
            gw);
  else if (c->dims == 3 && c->kind == CONV_TRANSPOSE)
    pr_line(p, "rt_conv3d_transpose%s(&%s, %d, %s, %s, %s, %s, %s%s%s);", sfx, c->geo, c->channel_last, c->batch,
            c->x, c->w, c->out, c->ws, gws, gw);
  else if (c->dims == 3)
    pr_line(p, "rt_conv3d_filter_grad%s(&%s, %s, %s, %s, %s, %s%s%s);", sfx, c->geo, c->batch, c->x, c->dy, c->out,
            c->ws, gws, gw);
  else if (c->f64 && c->kind == CONV_FORWARD)
    pr_line(p, "rt_conv2d_f64(&%s, %s, %s, %s, %s, %s);", c->geo, c->batch, c->x, c->w, c->out, c->ws);
  else if (c->f64 && c->kind == CONV_TRANSPOSE)
    pr_line(p, "rt_conv2d_transpose_f64(&%s, %s, %s, %s, %s, %s);", c->geo, c->batch, c->x, c->w, c->out, c->ws);
  else if (c->f64)
    pr_line(p, "rt_conv2d_filter_grad_f64(&%s, %s, %s, %s, %s, %s);", c->geo, c->batch, c->x, c->dy, c->out,
            c->ws);
  else if (c->kind == CONV_FORWARD)
    pr_line(p, "rt_conv2d(&%s, %s, %s, %s, %s, %s, %s, %s, %s);", c->geo, c->batch, c->x, c->w, bias, res, c->out,
            c->ws, c->gemm_ws);
  else if (c->kind == CONV_TRANSPOSE)
    pr_line(p, "rt_conv2d_transpose(&%s, %s, %s, %s, %s, %s, %s, %s);", c->geo, c->batch, c->x, c->w, bias, c->out,
            c->ws, c->gemm_ws);
  else
    pr_line(p, "rt_conv2d_filter_grad(&%s, %s, %s, %s, %s, %s, %s);", c->geo, c->batch, c->x, c->dy, c->out, c->ws,
            c->gemm_ws);
}

void conv_print_c(Printer *p, const ConvCall *c) {
  const int first = c->copies_first || c->braced;
  if (first) print_copies(p, c);
  if (c->braced) pr_line(p, "{");
  print_geo(p, c);
  if (!first) print_copies(p, c);
  print_call(p, c);
  if (c->braced) pr_line(p, "}");
  if (c->to_nhwc.src) move_print_c(p, &c->to_nhwc);
}
