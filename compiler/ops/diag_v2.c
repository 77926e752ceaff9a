/* diag_v2: X -> Out; offset:INT=0, padding_value:FLOAT=0.
 * Shape rule (phi DiagInferMeta): a 0-D or 1-D X of length n gives the
 * square matrix [n + |offset|, n + |offset|] with X on diagonal `offset`
 * (above the main one when positive) and padding_value elsewhere; a 2-D X
 * [h, w] gives its diagonal `offset`, of length min(h, w - offset) for
 * offset >= 0 and min(h + offset, w) below.  Out has X's dtype.
 * Emission: phi's DiagKernel loops (padding_value converted to X's type). */
#include <stdlib.h>

#include "../util.h"
#include "diag_call.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_diag_v2(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t off = attr_int(c->op, "offset", 0);
  const Shape *in = &x->shape;
  Shape s;
  if (in->rank <= 1) {
    int64_t n = in->rank ? in->d[0] : 1;
    int64_t size = n < 0 ? DIM_UNKNOWN : n + llabs(off);
    s = (Shape){2, {size, size}};
  } else if (in->rank == 2) {
    int64_t h = in->d[0], w = in->d[1], size;
    if (h < 0 || w < 0) size = DIM_UNKNOWN;
    else if (off >= 0) size = h < w - off ? h : w - off;
    else size = h + off < w ? h + off : w;
    if (h >= 0 && w >= 0 && size < 0)
      return ctx_fail(c, "offset %lld is outside X %s", (long long)off, shape_str(in));
    s = (Shape){1, {size}};
  } else {
    return ctx_fail(c, "X %s must have rank 0, 1 or 2", shape_str(in));
  }
  ctx_set(c, "Out", 0, &s, x->dtype);
  return 0;
}

static int emit_diag_v2(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (x->dtype != out->dtype) return em_fail(e, "X and Out differ in dtype");
  int r = tu_rank(e, x);
  DiagCall call = {.kind = DIAG_EXTRACT, .type = em_ctype(x->dtype), .offset = attr_int(e->op, "offset", 0),
                   .len = em_dim(e, out, 0), .src = em_ptr(e, x, 1), .dst = em_ptr(e, out, 0)};
  if (r <= 1) {
    call.kind = DIAG_EMBED;
    call.pad = tu_literal(x->dtype, (float)attr_float(e->op, "padding_value", 0));
    if (!call.pad) return em_fail(e, "padding_value does not convert to %s", rt_dtype_name(x->dtype));
    call.size = em_dim(e, out, 0);
    call.len = r ? em_dim(e, x, 0) : "1";
  } else {
    call.w = em_dim(e, x, 1);
  }
  diag_print_c(e->p, &call);
  return 0;
}

const OpDef op_diag_v2 = {.type = "diag_v2", .infer = infer_diag_v2, .emit_c = emit_diag_v2};

/* diag_v2_grad: X, Out@GRAD -> X@GRAD (X's shape); offset (padding_value
 * fills no gradient: phi DiagGradKernel takes offset alone).  A 0-D or
 * 1-D X gets diagonal `offset` of Out@GRAD; a 2-D X zeros, but for its
 * diagonal `offset`, which takes Out@GRAD. */
static int emit_diag_v2_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !dout || !dx) return -1;
  if (dout->dtype != dx->dtype) return em_fail(e, "Out@GRAD and X@GRAD differ in dtype");
  int r = tu_rank(e, x);
  DiagCall call = {.kind = DIAG_EMBED_GRAD, .type = em_ctype(dx->dtype), .offset = attr_int(e->op, "offset", 0),
                   .src = em_ptr(e, dout, 1), .dst = em_ptr(e, dx, 0)};
  if (r <= 1) {
    call.size = em_dim(e, dout, 0);
    call.len = r ? em_dim(e, x, 0) : "1";
  } else {
    call.kind = DIAG_EXTRACT_GRAD;
    call.w = em_dim(e, x, 1);
    call.numel = em_numel(e, dx);
    call.len = em_numel(e, dout);
  }
  diag_print_c(e->p, &call);
  return 0;
}

static const char *const diag_v2_grad_attr_ignores[] = {"padding_value", NULL}; /* see above */
const OpDef op_diag_v2_grad = {.type = "diag_v2_grad", .infer = grad_infer, .emit_c = emit_diag_v2_grad,
                               .attr_ignores = diag_v2_grad_attr_ignores};
