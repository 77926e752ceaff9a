/* squeeze, squeeze2, unsqueeze, unsqueeze2.
 *   squeeze / squeeze2: X -> Out (+ XShape for squeeze2); axes:INTS=[]
 *     (a VAR/VARS tensor attribute in 2.5+ files)
 *   unsqueeze / unsqueeze2: X, AxesTensor†, AxesTensorList†* -> Out
 *     (+ XShape for unsqueeze2); axes:INTS=[] (also VAR/VARS in 2.5+)
 *   XShape = [0] ++ X.dims.
 * squeeze: with no axes every dim equal to 1 goes; otherwise each listed
 * axis (negative += rank) goes when its dim is 1 or, at compile time,
 * unknown (-1).  unsqueeze: each axis in turn (negative += current rank + 1)
 * inserts a 1, shifting the 1s already inserted at or after it.  When the
 * axes come from tensors the result is all -1, with rank(X) minus/plus the
 * number of axes (phi Squeeze/UnsqueezeInferMeta), unless the compiler
 * knows the tensors' values (then as the attribute); while specializing,
 * unsqueeze of an X of fixed dims with axes in AxesTensor or
 * AxesTensorList that only the run knows gives Out a proven bound (each
 * dim at most X's largest, or 1) and the kernel inserts the 1s as phi's
 * GetUnsqueezeShape does, stopping on an axis out of range; squeeze2 of
 * such an X with `axes` a VAR/VARS attribute alike (each dim at most the
 * sum of the X dims it may be; the kernel drops the listed dims of size
 * 1, stopping when they are not as many as the axes).
 * Dims of X known only at run time (a sequence length) are Out's where
 * they go; dropping one, or axes from tensors beside one, is refused.
 * Emission: a copy of X's elements (memcpy; nothing when Out is X). */
#include <string.h>

#include "../consteval.h"
#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

/* The axes held by tensors whose values the compiler knows (AxesTensor,
 * AxesTensorList, a VAR/VARS `axes`; not the fluid unsqueeze's, whose
 * tensors it reads otherwise): their count, the values in known[]; -1
 * when none such. */
static int known_axes(const OpCtx *c, int64_t *known) {
  if (!strcmp(c->op->type, "unsqueeze")) return -1;
  if (ctx_in(c, "AxesTensor", 0) || ctx_in(c, "AxesTensorList", 0))
    return ctx_bounds(c, "AxesTensor", "AxesTensorList", known, RT_MAX_RANK);
  return ctx_attr_values(c, "axes", known, RT_MAX_RANK);
}

/* Number of axes held by tensors (input slots or a VAR/VARS `axes`) whose
 * values only the run knows; -1 when `axes` is a plain list or tensors of
 * known values (known_axes), -2 after an error. */
static int64_t tensor_axes(OpCtx *c) {
  int64_t known[RT_MAX_RANK];
  if (known_axes(c, known) >= 0) return -1;
  const OpAttr *a = attr_find(c->op, "axes");
  /* fluid unsqueeze (v1) counts the list, or AxesTensor's first dim */
  int v1 = strcmp(c->op->type, "unsqueeze") == 0;
  int n = ctx_in(c, "AxesTensorList", 0) ? ctx_nin(c, "AxesTensorList") : 0;
  if (n > 0) {
    Var *v = ctx_need(c, "AxesTensorList", 0);
    return !v ? -2 : v1 ? n : tensor_list_len(&v->shape, n);
  }
  if (ctx_in(c, "AxesTensor", 0)) {
    Var *v = ctx_need(c, "AxesTensor", 0);
    if (!v) return -2;
    if (v1) return v->shape.rank ? v->shape.d[0] : 0;
    return tensor_list_len(&v->shape, 1);
  }
  if (!a || (a->type != AT_VAR && a->type != AT_VARS)) return -1;
  if (a->type == AT_VARS) return (int64_t)a->n_vars_name;
  Var *t = ctx_attr_tensor(c, "axes");
  if (!t || t->shape.rank < 0) {
    ctx_fail(c, "attribute axes names an unknown tensor");
    return -2;
  }
  return tensor_list_len(&t->shape, 1);
}

/* squeeze's Out for X's shape `in`, with `nt` as tensor_axes() returns;
 * to[i]: where X's dim i is in Out (-1: dropped, or not known). */
static int squeeze_shape(OpCtx *c, const Shape *in, int64_t nt, Shape *out, int *to) {
  if (nt >= 0) {
    out->rank = in->rank - (int)nt;
    if (out->rank < 0) out->rank = 0;
    for (int i = 0; i < out->rank; i++) out->d[i] = DIM_UNKNOWN;
    const Var *x = ctx_in(c, "X", 0);
    if (nt == 0 || out->rank == 0 || strcmp(c->op->type, "squeeze2") || !ctx_feeds_fixed(c) ||
        var_runtime_axis(x) >= 0 || shape_numel(in) < 0)
      return 0;
    /* while specializing, X's dims known: Out's dims are the run's within
     * a proven bound, dim i being one of X's dims i..i+nt (their sum:
     * linear in the batch, as their largest is not) */
    for (int i = 0; i < out->rank; i++) {
      out->d[i] = 0;
      for (int k = 0; k <= nt; k++) out->d[i] += in->d[i + k];
    }
    return ctx_proven_shape(c, "Out", 0, out, x->dtype, "attribute axes' values");
  } else {
    int64_t known[RT_MAX_RANK], *axes = known;
    int n = known_axes(c, known), drop[RT_MAX_RANK] = {0};
    if (n < 0) n = attr_ints(c->op, "axes", &axes);
    const Var *x = ctx_in(c, "X", 0);
    for (int i = 0; i < in->rank; i++) { /* Paddle drops such a dim when the run's size is 1: Out's rank the run's */
      int listed = n == 0;
      for (int k = 0; k < n; k++) listed |= axis_norm(axes[k], in->rank) == i;
      if (listed && var_runtime_mask(x) >> i & 1)
        return ctx_fail(c, "dim %d of X ('%s') is only known at run time and squeeze would drop it when the run's "
                        "size is 1 (Out's rank the run's): not supported", i, x->name);
    }
    for (int i = 0; i < in->rank && n == 0; i++) drop[i] = in->d[i] == 1;
    for (int i = 0; i < n; i++) {
      if (in->rank == 0) {
        if (axes[i] != 0 && axes[i] != -1) return ctx_fail(c, "axes[%d] out of range", i);
        continue;
      }
      int a = axis_norm(axes[i], in->rank);
      if (a < 0) return ctx_fail(c, "axes[%d] = %lld is out of range", i, (long long)axes[i]);
      if (in->d[a] == 1 || in->d[a] == DIM_UNKNOWN) drop[a] = 1;
    }
    for (int i = 0; i < in->rank; i++) {
      to[i] = drop[i] ? -1 : out->rank;
      if (!drop[i]) out->d[out->rank++] = in->d[i];
    }
  }
  return 0;
}

/* Out's bound for axes in AxesTensor / AxesTensorList only the run knows,
 * X's dims fixed and known: rank(X) + nt dims, each at most X's largest
 * (or 1).  1 when set; 0 when not. */
static int run_axes_bound(OpCtx *c, const Shape *in, int64_t nt) {
  Var *x = ctx_in(c, "X", 0);
  if (strcmp(c->op->type, "unsqueeze2") || !ctx_feeds_fixed(c) || var_runtime_axis(x) >= 0 ||
      shape_numel(in) < 0 || in->rank + nt > RT_MAX_RANK - 1 ||
      !(ctx_in(c, "AxesTensor", 0) || ctx_in(c, "AxesTensorList", 0)))
    return 0;
  Shape bound = {in->rank + (int)nt, {0}};
  int64_t most = 1;
  for (int i = 0; i < in->rank; i++) most = in->d[i] > most ? in->d[i] : most;
  for (int i = 0; i < bound.rank; i++) bound.d[i] = most;
  return ctx_proven_shape(c, "Out", 0, &bound, x->dtype,
                          ctx_in(c, "AxesTensor", 0) ? "AxesTensor's values" : "AxesTensorList's values");
}

/* unsqueeze's Out for X's shape `in`, with `nt` as tensor_axes() returns;
 * to[i]: where X's dim i is in Out (-1: not known). */
static int unsqueeze_shape(OpCtx *c, const Shape *in, int64_t nt, Shape *out, int *to) {
  int64_t known[RT_MAX_RANK], *axes = known;
  int n = known_axes(c, known); /* values the compiler knows? */
  if (n < 0 && nt >= 0 && run_axes_bound(c, in, nt)) return 1;
  if (nt >= 0 && n < 0) {
    if (in->rank + nt > RT_MAX_RANK || in->rank + nt < 0) return ctx_fail(c, "too many axes");
    out->rank = in->rank + (int)nt;
    for (int i = 0; i < out->rank; i++) out->d[i] = DIM_UNKNOWN;
  } else {
    if (n < 0) n = attr_ints(c->op, "axes", &axes);
    if (in->rank + n > RT_MAX_RANK - 1)
      return ctx_fail(c, "output rank %d is too large", in->rank + n);
    int ones[RT_MAX_RANK + 1] = {0}, cur = in->rank;
    for (int i = 0; i < n; i++, cur++) {
      int64_t a = axes[i] < 0 ? axes[i] + cur + 1 : axes[i];
      if (a < 0 || a > cur)
        return ctx_fail(c, "axes[%d] = %lld is out of range", i, (long long)axes[i]);
      for (int k = cur; k >= a; k--) {
        if (ones[k]) { /* move the 1 inserted earlier one place right */
          ones[k + 1] = 1;
          ones[k] = 0;
        }
      }
      ones[a] = 1;
    }
    out->rank = in->rank + n;
    for (int i = 0, k = 0; i < out->rank; i++) {
      if (!ones[i]) to[k] = i;
      out->d[i] = ones[i] ? 1 : in->d[k++];
    }
  }
  return 0;
}

/* Both rules: X and the axes in, Out = shape(X, axes) and XShape out.
 * X's dims known only at run time are Out's where they go (axes only the
 * run knows beside them are refused; squeeze_shape refuses squeezing
 * one). */
static int infer_axes(OpCtx *c, int (*shape)(OpCtx *, const Shape *, int64_t, Shape *, int *)) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  int64_t nt = tensor_axes(c);
  if (nt == -2) return -1;
  Shape out = {0, {0}};
  int to[RT_MAX_RANK];
  for (int i = 0; i < RT_MAX_RANK; i++) to[i] = -1;
  int r = shape(c, &x->shape, nt, &out, to);
  if (r < 0) return -1;
  if (!r) ctx_set(c, "Out", 0, &out, x->dtype); /* else set to a proven bound */
  for (int d = 0; d < x->shape.rank; d++)
    if (var_runtime_mask(x) >> d & 1 && to[d] < 0)
      return ctx_fail(c, "dim %d of X ('%s') is only known at run time (from its %s) and the axes are tensors", d,
                      x->name, x->runtime_from ? x->runtime_from : "inputs");
  ctx_pass_runtime_extents_to(c, x, "Out", 0, to);
  return ctx_set_xshape(c, x);
}

static int infer_squeeze(OpCtx *c) { return infer_axes(c, squeeze_shape); }
static int infer_unsqueeze(OpCtx *c) { return infer_axes(c, unsqueeze_shape); }

/* Out holds X's elements in X's order: a copy (a later pass may alias the
 * two instead). */
static int emit_squeeze(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (!tu_max_shaped(e, out)) return tu_copy(e, x, out);
  /* squeeze2 with the run's axes (Out within squeeze_shape's bound): the
   * dims worked out as phi's GetOutputSqueezeShape does at run time */
  const char *v[RT_MAX_RANK], *in = "", *dims[RT_MAX_RANK];
  const int n = tu_run_attr_values(e, "axes", v), r = tu_rank(e, x), ro = tu_rank(e, out);
  if (n < 0) return -1;
  const char *axes = "";
  for (int i = 0; i < n; i++) axes = pool_printf("%s%s%s", axes, i ? ", " : "", v[i]);
  for (int i = 0; i < r; i++) in = pool_printf("%s%s%s", in, i ? ", " : "", em_dim(e, x, i));
  pr_line(e->p, "/* the axes Paddle's kernel takes when it runs (a negative one counts from the end): each drops "
                "its dim where that is 1 */");
  pr_line(e->p, "const int64_t axes[%d] = {%s};", n, axes);
  pr_line(e->p, "const int64_t in[%d] = {%s};", r, in);
  pr_line(e->p, "int drop[%d] = {0};", r);
  pr_line(e->p, "for (int k = 0; k < %d; k++) {", n);
  pr_line(e->p, "const int64_t a = axes[k] < 0 ? axes[k] + %d : axes[k];", r);
  pr_line(e->p, "if (a < 0 || a >= %d) return 1;", r);
  pr_line(e->p, "if (in[a] == 1) drop[a] = 1;");
  pr_line(e->p, "}");
  pr_line(e->p, "int64_t dims[%d] = {0};", ro);
  pr_line(e->p, "int j = 0;");
  pr_line(e->p, "for (int i = 0; i < %d; i++) {", r);
  pr_line(e->p, "if (!drop[i] && j < %d) dims[j] = in[i];", ro);
  pr_line(e->p, "j += !drop[i];");
  pr_line(e->p, "}");
  pr_line(e->p, "if (j != %d) return 1; /* Out's rank would be the run's */", ro);
  for (int d = 0; d < ro; d++) dims[d] = pool_printf("dims[%d]", d);
  tu_set_extents(e, out, dims, ro,
                 pool_printf("an axis from attribute axes out of range, or axes that drop other than %d dims (Paddle "
                             "raises an error, or gives Out another rank)", r - ro));
  return tu_copy_count(e, x, out, em_numel(e, x));
}

/* unsqueeze2 with the run's axes (Out within run_axes_bound's bound): the
 * dims worked out as phi's GetUnsqueezeShape does, then X's elements. */
static int emit_unsqueeze(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  if (!tu_max_shaped(e, out)) {
      return tu_copy(e, x, out);
  }
  const char *v[RT_MAX_RANK];
  const int n = tu_run_values(e, "AxesTensor", "AxesTensorList", "the axes", v), rin = tu_rank(e, x);
  if (n < 0) return -1;
  const int rout = rin + n;
  const char *axes = "", *in = "", *dims[RT_MAX_RANK];
  for (int i = 0; i < n; i++) axes = pool_printf("%s%s%s", axes, i ? ", " : "", v[i]);
  for (int i = 0; i < rin; i++) in = pool_printf("%s%s%s", in, i ? ", " : "", em_dim(e, x, i));
  pr_line(e->p, "/* the axes Paddle's kernel takes when it runs: each inserts a 1 (a negative one counts from the "
                "end of the dims so far), moving the 1s inserted at or after it right */");
  pr_line(e->p, "const int64_t axes[%d] = {%s};", n, axes);
  pr_line(e->p, "const int64_t in[%d] = {%s};", rin ? rin : 1, rin ? in : "0");
  pr_line(e->p, "int ones[%d] = {0};", rout + 1);
  pr_line(e->p, "for (int64_t k = 0; k < %d; k++) {", n);
  pr_line(e->p, "const int64_t cur = %d + k, a = axes[k] < 0 ? axes[k] + cur + 1 : axes[k];", rin);
  pr_line(e->p, "if (a < 0 || a > cur) return 1;");
  pr_line(e->p, "for (int64_t i = cur; i >= a; i--) {");
  pr_line(e->p, "if (ones[i]) ones[i + 1] = 1, ones[i] = 0;");
  pr_line(e->p, "}");
  pr_line(e->p, "ones[a] = 1;");
  pr_line(e->p, "}");
  pr_line(e->p, "int64_t dims[%d];", rout);
  pr_line(e->p, "for (int i = 0, j = 0; i < %d; i++) dims[i] = ones[i] ? 1 : in[j++];", rout);
  for (int d = 0; d < rout; d++) dims[d] = pool_printf("dims[%d]", d);
  tu_set_extents(e, out, dims, rout, "an axis from AxesTensor(List) out of range (Paddle raises an error)");
  return tu_copy_count(e, x, out, em_numel(e, x));
}

const OpDef op_squeeze = {.type = "squeeze", .infer = infer_squeeze, .emit_c = emit_squeeze, .inplace = "X:Out",
                          .runtime_extents = 2};
const OpDef op_squeeze2 = {
    .type = "squeeze2", .infer = infer_squeeze, .emit_c = emit_squeeze,
    .fold = consteval_fold_copy, .inplace = "X:Out", .runtime_extents = 2};
const OpDef op_unsqueeze = {.type = "unsqueeze", .infer = infer_unsqueeze, .emit_c = emit_squeeze, .inplace = "X:Out",
                            .runtime_extents = 2};
const OpDef op_unsqueeze2 = {
    .type = "unsqueeze2", .infer = infer_unsqueeze, .emit_c = emit_unsqueeze,
    .fold = consteval_fold_copy, .inplace = "X:Out", .runtime_extents = 2};

/* squeeze2_grad, unsqueeze2_grad: X@GRAD = Out@GRAD (XShape gives its
 * shape); `axes` were the forward's. */
static const char *const squeeze_grad_attr_ignores[] = {"axes", NULL};
const OpDef op_squeeze2_grad = {.type = "squeeze2_grad", .infer = infer_grad_xshape, .emit_c = tu_grad_copy,
                                .inplace = "Out@GRAD:X@GRAD", .attr_ignores = squeeze_grad_attr_ignores,
                                .runtime_extents = 2};
const OpDef op_unsqueeze2_grad = {.type = "unsqueeze2_grad", .infer = infer_grad_xshape, .emit_c = tu_grad_copy,
                                  .inplace = "Out@GRAD:X@GRAD", .attr_ignores = squeeze_grad_attr_ignores,
                                  .runtime_extents = 2};

/* squeeze_grad, unsqueeze_grad (fluid 1.x; X, Out@GRAD, and for unsqueeze
 * the AxesTensor / AxesTensorList that gave the axes): X@GRAD = Out@GRAD
 * in X's shape (X gives it). */
static const char *const unsqueeze_grad_ignores[] = {"AxesTensor", "AxesTensorList", NULL};
const OpDef op_squeeze_grad = {.type = "squeeze_grad", .infer = grad_infer, .emit_c = tu_grad_copy,
                               .inplace = "Out@GRAD:X@GRAD", .attr_ignores = squeeze_grad_attr_ignores,
                               .runtime_extents = 2};
const OpDef op_unsqueeze_grad = {.type = "unsqueeze_grad", .infer = grad_infer, .emit_c = tu_grad_copy,
                                 .inplace = "Out@GRAD:X@GRAD", .ignores = unsqueeze_grad_ignores,
                                 .attr_ignores = squeeze_grad_attr_ignores, .runtime_extents = 2};
