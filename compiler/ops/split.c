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
 * sizes are the outputs' concrete shapes).  Sections in SectionsTensorList
 * known while specializing count as the attribute; sections only the run
 * knows (fed, as Paddle's op tests feed them) give each output a run-time
 * extent on the axis (planned for the whole dim), found and checked at run
 * time as Paddle's kernel does.  An AxisTensor whose value the compiler
 * knows counts as the attribute; one only the run knows, with X's dims
 * fixed and the parts from num or sections, gives each output the bound of
 * the axes X splits along (ctx_proven_shape) and the kernel switches on the
 * run's axis, stopping on one outside [0, rank) (Paddle's kernel fails) or
 * along which X does not split; with sections only the run knows too,
 * each output's bound is X's dims and the kernel finds the sections along
 * the run's axis (emit_run_axis_sections).  Dims of X the run gives (an image's
 * height and width) pass to every output when X splits along another with
 * the axis and the parts from attributes. */
#include "../util.h"
#include "ops.h"
#include "slice_call.h"
#include "tensor_util.h"

/* Files written before Paddle 2.3 (fluid UpdateOutsDims; 1.x files carry
 * version 0 or none): sections are kept as written even when the split dim
 * is unknown or the sections come from SectionsTensorList. */
static int legacy_split(const OpCtx *c) { return ctx_version_before(c, 2003000); }

/* The part of a dim of `dim` elements each of nout outputs takes into
 * part[], as phi's SplitInferMeta finds them: num equal parts, or the
 * sections (one -1 taking what the others leave, which must be more than
 * 0; else they add up to dim).  NULL, or why not. */
static const char *split_parts(int64_t dim, int64_t num, const int64_t *sec, int nout, int64_t *part) {
  if (num > 0) {
    if (dim % num) return pool_printf("dim %lld does not split into %lld parts", (long long)dim, (long long)num);
    for (int i = 0; i < nout; i++) part[i] = dim / num;
    return NULL;
  }
  int unk = -1;
  int64_t sum = 0;
  for (int i = 0; i < nout; i++) {
    if (sec[i] != -1) {
      sum += sec[i];
    } else if (unk >= 0) {
      return "sections has more than one -1";
    } else {
      unk = i;
    }
  }
  if (unk >= 0 ? sum >= dim : sum != dim) return pool_printf("sections do not add up to dim %lld", (long long)dim);
  for (int i = 0; i < nout; i++) part[i] = i == unk ? dim - sum : sec[i];
  return NULL;
}

/* The outputs' bounds for an AxisTensor only the run knows, X's dims fixed
 * and known: each dim the largest over the axes X splits along.  1 when
 * set; 0 when the dims are not all known; -1 after ctx_fail. */
static int run_axis_bounds(OpCtx *c, const Var *x, int64_t num, const int64_t *sec, int nout) {
  const Shape *in = &x->shape;
  if (!ctx_feeds_fixed(c) || var_runtime_axis(x) >= 0 || shape_numel(in) < 0 || in->rank == 0 ||
      nout > RT_MAX_RANK)
    return 0;
  Shape bound = {in->rank, {0}};
  int64_t part[RT_MAX_RANK] = {0}, most[RT_MAX_RANK] = {0};
  int fits = 0;
  for (int k = 0; k < in->rank; k++) {
    if (split_parts(in->d[k], num, sec, nout, part)) continue;
    fits++;
    for (int d = 0; d < in->rank; d++)
      if (d != k && in->d[d] > bound.d[d]) bound.d[d] = in->d[d];
    for (int i = 0; i < nout; i++) most[i] = part[i] > most[i] ? part[i] : most[i];
  }
  if (!fits) return ctx_fail(c, "X %s splits along no axis into its %d outputs", shape_str(in), nout);
  for (int i = 0; i < nout; i++) {
    Shape b = bound;
    for (int k = 0; k < in->rank; k++) b.d[k] = b.d[k] > most[i] ? b.d[k] : most[i]; /* the split dim's largest */
    if (!ctx_proven_shape(c, "Out", i, &b, x->dtype, "AxisTensor's value")) return 0;
  }
  return 1;
}

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
  int64_t sv[RT_MAX_RANK];
  const int sec_known = sec_tensor && !legacy && ctx_bounds(c, "", "SectionsTensorList", sv, RT_MAX_RANK) == nout;
  if (ctx_in(c, "AxisTensor", 0) && ctx_int_values(c, ctx_in(c, "AxisTensor", 0), &a, 1) == 1) {
    axis_tensor = 0, axis = axis_norm(a, in->rank); /* a value the compiler knows */
  } else if (ctx_in(c, "AxisTensor", 0) && (!sec_tensor || sec_known) && (num > 0 || nsec == nout || sec_known)) {
    int b = run_axis_bounds(c, x, num, sec_known ? sv : sec, nout);
    if (b) return b < 0 ? -1 : 0;
  } else if (ctx_in(c, "AxisTensor", 0) && sec_tensor && !legacy && ctx_feeds_fixed(c) && !var_runtime_mask(x) &&
             shape_numel(in) >= 0 && in->rank > 0) {
    /* the run's axis and sections: each output within X's dims (a section
     * at most the dim it splits) */
    for (int i = 0; i < nout; i++)
      if (!ctx_proven_shape(c, "Out", i, in, x->dtype, "AxisTensor's and SectionsTensorList's values")) break;
    return 0;
  }
  if (!axis_tensor && (axis < 0 || in->rank == 0))
    return ctx_fail(c, "axis %lld is out of range for X %s", (long long)a, shape_str(in));
  const unsigned run = var_runtime_mask(x); /* dims the run gives: each output has them, off the axis */
  if (run && (axis_tensor || sec_tensor || legacy || run >> axis & 1))
    return ctx_fail(c, "X ('%s') has dims only the run gives (from its %s); split takes them off the axis it "
                    "splits along, with the axis and the parts from attributes", x->name,
                    x->runtime_from ? x->runtime_from : "inputs");
  if (num <= 0 && nsec != nout)
    return ctx_fail(c, "%d sections for %d outputs", nsec, nout);
  if (num > 0 && num != nout) return ctx_fail(c, "num %lld for %d outputs", (long long)num, nout);
  Shape out = *in;
  if (!axis_tensor && sec_known) {
    sec = sv, sec_tensor = 0; /* known while specializing: as the attribute */
  } else if (!axis_tensor && sec_tensor && !legacy && c->g->specializing && in->d[axis] >= 0) {
    /* the run's sections: each output at most the split dim */
    for (int i = 0; i < nout; i++) {
      ctx_set(c, "Out", i, &out, x->dtype);
      ctx_set_runtime_extent(c, "Out", i, axis, "SectionsTensorList");
    }
    return 0;
  }
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
  int64_t *part = pool_alloc(sizeof *part * (size_t)nout);
  const char *why = split_parts(dim, num, sec, nout, part);
  if (why) return ctx_fail(c, "%s", why);
  for (int i = 0; i < nout; i++) {
    out.d[axis] = part[i];
    ctx_set(c, "Out", i, &out, x->dtype);
    ctx_pass_runtime_extent(c, x, "Out", i);
  }
  return 0;
}

/* SectionsTensorList's values into call->bstart (a value the compiler
 * knows as a number, else read when the kernel runs); -1 after em_fail. */
static int section_values(EmitCtx *e, SliceCall *call, int n) {
  OpCtx c = {e->g, (Op *)e->op};
  for (int i = 0; i < n; i++) {
    Var *t = ctx_in(&c, "SectionsTensorList", i);
    int64_t v[1];
    if (!t) return em_fail(e, "SectionsTensorList has no entry %d", i);
    call->bstart[i] = ctx_int_values(&c, t, v, 1) == 1 ? pool_printf("%lld", (long long)v[0])
                                                       : pool_printf("(int64_t)%s[0]", em_ptr(e, t, 1));
  }
  return 0;
}

/* Sections only the run knows: each found as phi's SplitInferMeta finds
 * it (one -1 takes the rest, which must be more than 0; else they add up
 * to the dim), an output's run-time extent written, a known one checked
 * (SLICE_SECTIONS); *inner[i] the output's elements per row. */
static int runtime_sections(EmitCtx *e, const Var *x, Var *const *outs, int n, int axis, const char **inner) {
  if (n > RT_MAX_RANK) return em_fail(e, "%d sections from tensors (at most %d are supported)", n, RT_MAX_RANK);
  SliceCall call = {.kind = SLICE_SECTIONS, .rank = n};
  call.bdim[0] = em_dim(e, x, axis);
  const char *after = em_prod(e, x, axis + 1, tu_rank(e, x));
  if (section_values(e, &call, n)) return -1;
  for (int i = 0; i < n; i++) {
    if (em_spec(e, outs[i])->runtime_mask >> axis & 1)
      call.bextent[i] = em_dim(e, outs[i], axis);
    else
      call.bwant[i] = em_dim(e, outs[i], axis);
    inner[i] = tu_mul(pool_printf("sec%d", i), after);
  }
  em_fault(e, "split: sections from tensors that do not split the dim (Paddle stops too)");
  slice_print_c(e->p, &call);
  return 0;
}

/* split along the axis AxisTensor gives into the sections
 * SectionsTensorList gives, both when the kernel runs (each output within
 * X's dims): the axis checked to lie in [0, rank), the sections found as
 * phi's SplitInferMeta finds them (SLICE_SECTIONS), then the outputs' dims
 * and the pieces. */
static int emit_run_axis_sections(EmitCtx *e, Var *x, Var **outs, int n) {
  const char *axis = tu_run_axis(e, "AxisTensor");
  if (!axis) return -1;
  if (n > RT_MAX_RANK) return em_fail(e, "%d sections from tensors (at most %d are supported)", n, RT_MAX_RANK);
  const int r = tu_rank(e, x);
  const char *xd = "", **inner = pool_alloc(sizeof *inner * (size_t)n);
  for (int d = 0; d < r; d++) xd = pool_printf("%s%s%s", xd, d ? ", " : "", em_dim(e, x, d));
  pr_line(e->p, "/* the axis and the sections Paddle's kernel takes when it runs, from AxisTensor and "
                "SectionsTensorList */");
  pr_line(e->p, "const int64_t axis = %s;", axis);
  pr_line(e->p, "if (axis < 0 || axis >= %d) return 1;", r);
  pr_line(e->p, "const int64_t xd[%d] = {%s};", r, xd);
  pr_line(e->p, "int64_t outer = 1, after = 1;");
  pr_line(e->p, "for (int64_t d = 0; d < %d; d++) {", r);
  pr_line(e->p, "if (d < axis) outer *= xd[d];");
  pr_line(e->p, "if (d > axis) after *= xd[d];");
  pr_line(e->p, "}");
  SliceCall call = {.kind = SLICE_SECTIONS, .rank = n};
  call.bdim[0] = "xd[axis]";
  if (section_values(e, &call, n)) return -1;
  for (int i = 0; i < n; i++) inner[i] = pool_printf("sec%d * after", i);
  slice_print_c(e->p, &call);
  for (int i = 0; i < n; i++) {
    const char *dims[RT_MAX_RANK];
    for (int d = 0; d < r; d++) dims[d] = pool_printf("%d == axis ? sec%d : xd[%d]", d, i, d);
    pr_line(e->p, "{");
    tu_set_extents(e, outs[i], dims, r, "an axis from AxisTensor outside [0, rank) (Paddle's kernel fails), or "
                                        "sections from SectionsTensorList that do not split the dim (Paddle stops too)");
    pr_line(e->p, "}");
  }
  return tu_pieces(e, x, n, outs, "outer", inner, 0);
}

/* split along the axis AxisTensor gives when the kernel runs (each output
 * within the bound run_axis_bounds proved): one case per axis X splits
 * along, with the rows, each output's width and dims. */
static int emit_run_axis(EmitCtx *e, Var *x, Var **outs, int n) {
  const char *axis = tu_run_axis(e, "AxisTensor");
  if (!axis) return -1;
  const Shape *in = &x->shape;
  const int r = in->rank;
  int64_t *sec, part[RT_MAX_RANK] = {0}, sv[RT_MAX_RANK];
  const int64_t num = attr_int(e->op, "num", 0);
  attr_ints(e->op, "sections", &sec);
  OpCtx c = {e->g, (Op *)e->op};
  if (num <= 0 && ctx_in(&c, "SectionsTensorList", 0) && ctx_bounds(&c, "", "SectionsTensorList", sv, RT_MAX_RANK) == n)
    sec = sv; /* tensors of values the compiler knows */
  const char **inner = pool_alloc(sizeof *inner * (size_t)n);
  pr_line(e->p, "/* the axis Paddle's kernel takes when it runs, from AxisTensor */");
  pr_line(e->p, "int64_t outer = 0;");
  for (int i = 0; i < n; i++) pr_line(e->p, "int64_t inner%d = 0;", i), inner[i] = pool_printf("inner%d", i);
  for (int i = 0; i < n; i++)
    for (int d = 0; d < r; d++) pr_line(e->p, "int64_t out%d_dim%d = 0;", i, d);
  pr_line(e->p, "switch (%s) {", axis);
  for (int k = 0; k < r; k++) {
    if (split_parts(in->d[k], num, sec, n, part)) continue;
    const char *set = pool_printf("outer = %lld", (long long)dims_prod(in, 0, k));
    for (int i = 0; i < n; i++)
      set = pool_printf("%s, inner%d = %lld", set, i, (long long)(part[i] * dims_prod(in, k + 1, r)));
    pr_line(e->p, "case %d:", k);
    pr_line(e->p, "%s;", set);
    for (int i = 0; i < n; i++) { /* one line per output */
      set = "";
      for (int d = 0; d < r; d++)
        set = pool_printf("%s%sout%d_dim%d = %lld", set, d ? ", " : "", i, d, (long long)(d == k ? part[i] : in->d[d]));
      pr_line(e->p, "%s;", set);
    }
    pr_line(e->p, "break;");
  }
  pr_line(e->p, "default: return 1; /* outside [0, rank), or X does not split along it */");
  pr_line(e->p, "}");
  for (int i = 0; i < n; i++) {
    const char *dims[RT_MAX_RANK];
    for (int d = 0; d < r; d++) dims[d] = pool_printf("out%d_dim%d", i, d);
    pr_line(e->p, "{");
    tu_set_extents(e, outs[i], dims, r, "an axis from AxisTensor outside [0, rank) (Paddle's kernel fails), or "
                                        "along which X does not split into the outputs (Paddle raises an error)");
    pr_line(e->p, "}");
  }
  return tu_pieces(e, x, n, outs, "outer", inner, 0);
}

static int emit_split(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "X", 0), *at = ctx_in(&c, "AxisTensor", 0);
  int n = ctx_nout(&c, "Out");
  if (!x || n < 1) return -1;
  int64_t a = attr_int(e->op, "axis", 0);
  const int run = at && ctx_int_values(&c, at, &a, 1) != 1;
  if (!at && attr_is_var(e->op, "axis"))
    return em_fail(e, "the axis comes from a tensor (attribute axis), which is not supported");
  Var **outs = pool_alloc(sizeof *outs * (size_t)n);
  for (int i = 0; i < n && run; i++)
    if (!(outs[i] = tu_out(e, "Out", i))) return -1;
  if (run && !tu_max_shaped(e, outs[0]))
    return em_fail(e, "the axis comes from a tensor (input AxisTensor) whose value only the run knows, which is "
                      "supported only with X's dims fixed (--shape) and the parts from num or sections");
  int64_t sv[RT_MAX_RANK];
  if (run && attr_int(e->op, "num", 0) <= 0 && ctx_in(&c, "SectionsTensorList", 0) &&
      ctx_bounds(&c, "", "SectionsTensorList", sv, RT_MAX_RANK) != n)
    return emit_run_axis_sections(e, x, outs, n);
  if (run) return emit_run_axis(e, x, outs, n);
  int r = tu_rank(e, x), axis = axis_norm(a, r);
  if (axis < 0 || r == 0) return em_fail(e, "axis is out of range");
  const char **inner = pool_alloc(sizeof *inner * (size_t)n);
  for (int i = 0; i < n; i++) {
    if (!(outs[i] = tu_out(e, "Out", i))) return -1;
    if (tu_rank(e, outs[i]) != r) return em_fail(e, "Out[%d] has rank %d, X %d", i, tu_rank(e, outs[i]), r);
    inner[i] = em_prod(e, outs[i], axis, r);
  }
  int64_t v[RT_MAX_RANK];
  if (attr_int(e->op, "num", 0) <= 0 && ctx_in(&c, "SectionsTensorList", 0) &&
      ctx_bounds(&c, "", "SectionsTensorList", v, RT_MAX_RANK) != n && runtime_sections(e, x, outs, n, axis, inner))
    return -1;
  return tu_pieces(e, x, n, outs, em_prod(e, x, 0, axis), inner, 0);
}

const OpDef op_split = {.type = "split", .infer = infer_split, .emit_c = emit_split, .runtime_extents = 2};
