/* split: X, AxisTensor†, SectionsTensorList†* -> Out*; axis:INT=0,
 * num:INT=0, sections:INTS=[]; extra use_mkldnn, mkldnn_data_type.
 * Shape rule (Paddle 2.x SplitOp::InferShape -> phi SplitInferMeta /
 * SplitWithNumInferMeta at compile time):
 *   - axis from a tensor, or sections from SectionsTensorList: every dim of
 *     every output is -1;
 *   - the split dim of X unknown (<= 0): every output has X's dims;
 *   - num > 0: the dim divides into num equal parts;
 *   - sections: one -1 entry takes what the others leave.
 * Before 2.3 (see legacy_split) sections were copied as written when the
 * dim or the sections themselves are unknown.  Outputs have X's dtype.
 * Emission: per row of the dims before `axis`, one memcpy per output (the
 * sizes are the outputs' concrete shapes). */
#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

/* Files written before Paddle 2.3 (fluid UpdateOutsDims; 1.x files carry
 * version 0 or none): sections are kept as written even when the split dim
 * is unknown or the sections come from SectionsTensorList. */
static int legacy_split(const OpCtx *c) { return ctx_version_before(c, 2003000); }

static int infer_split(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *in = &x->shape;
  int nout = ctx_nout(c, "Out");
  int64_t num = attr_int(c->op, "num", 0), *sec;
  int nsec = attr_ints(c->op, "sections", &sec);
  int64_t a = attr_int(c->op, "axis", 0);
  int axis = axis_norm(a, in->rank);
  int axis_tensor = ctx_in(c, "AxisTensor", 0) || attr_is_var(c->op, "axis");
  int sec_tensor = num <= 0 && ctx_in(c, "SectionsTensorList", 0);
  int legacy = legacy_split(c);
  if (!axis_tensor && (axis < 0 || in->rank == 0))
    return ctx_fail(c, "axis %lld is out of range for X %s", (long long)a, shape_str(in));
  if (num <= 0 && nsec != nout)
    return ctx_fail(c, "%d sections for %d outputs", nsec, nout);
  if (num > 0 && num != nout) return ctx_fail(c, "num %lld for %d outputs", (long long)num, nout);
  Shape out = *in;
  if (axis_tensor || (sec_tensor && !legacy)) {
    for (int i = 0; i < out.rank; i++) out.d[i] = DIM_UNKNOWN;
    ctx_set_all(c, "Out", &out, x->dtype);
    return 0;
  }
  int64_t dim = in->d[axis];
  if (dim <= 0 && (!legacy || num > 0)) {
    if (legacy) out.d[axis] = DIM_UNKNOWN;
    ctx_set_all(c, "Out", &out, x->dtype);
    return 0;
  }
  if (legacy && num <= 0 && (dim <= 0 || sec_tensor)) {
    for (int i = 0; i < nout; i++) {
      out.d[axis] = sec[i];
      ctx_set(c, "Out", i, &out, x->dtype);
    }
    return 0;
  }
  if (num > 0) {
    if (dim % num)
      return ctx_fail(c, "dim %lld does not split into %lld parts", (long long)dim,
                      (long long)num);
    out.d[axis] = dim / num;
    ctx_set_all(c, "Out", &out, x->dtype);
    return 0;
  }
  int unk = -1;
  int64_t sum = 0;
  for (int i = 0; i < nsec; i++) {
    if (sec[i] == -1) {
      if (unk >= 0) return ctx_fail(c, "sections has more than one -1");
      unk = i;
    } else {
      sum += sec[i];
    }
  }
  if (unk >= 0 ? sum >= dim : sum != dim)
    return ctx_fail(c, "sections do not add up to dim %lld", (long long)dim);
  for (int i = 0; i < nout; i++) {
    out.d[axis] = i == unk ? dim - sum : sec[i];
    ctx_set(c, "Out", i, &out, x->dtype);
  }
  return 0;
}

static int emit_split(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  if (ctx_in(&c, "AxisTensor", 0) || attr_is_var(e->op, "axis") || ctx_in(&c, "SectionsTensorList", 0))
    return em_fail(e, "the axis or the sections come from tensors (input AxisTensor or SectionsTensorList), which is not "
                      "supported");
  Var *x = tu_in(e, "X", 0);
  int n = ctx_nout(&c, "Out");
  if (!x || n < 1) return -1;
  int r = tu_rank(e, x), axis = axis_norm(attr_int(e->op, "axis", 0), r);
  if (axis < 0 || r == 0) return em_fail(e, "axis is out of range");
  Var **outs = pool_alloc(sizeof *outs * (size_t)n);
  const char **inner = pool_alloc(sizeof *inner * (size_t)n);
  for (int i = 0; i < n; i++) {
    if (!(outs[i] = tu_out(e, "Out", i))) return -1;
    if (tu_rank(e, outs[i]) != r) return em_fail(e, "Out[%d] has rank %d, X %d", i, tu_rank(e, outs[i]), r);
    inner[i] = em_prod(e, outs[i], axis, r);
  }
  return tu_pieces(e, x, n, outs, em_prod(e, x, 0, axis), inner, 0);
}

const OpDef op_split = {.type = "split", .infer = infer_split, .emit_c = emit_split};
