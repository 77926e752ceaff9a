/* fused_elemwise_activation and fused_elemwise_activation_grad.
 *
 * Two ops share the forward's name:
 *  - the one a user's program holds (Paddle 1.x fluid.contrib
 *    fused_elemwise_activation; its grad op from Paddle's grad maker), which
 *    computes as Paddle's own kernels (fused_elemwise_activation_op.h,
 *    phi/kernels/funcs/functors.h and compound_functors.h) compute it;
 *  - the one paddlec's fuse_elewise_add_act_ops pass writes (op->from_pass),
 *    which computes the floats of the two ops it replaced: any unary op of
 *    activation.c with its own attributes (copied onto the fused op), float32.
 *
 * Paddle's op (float32 and float64):
 *   X, Y -> Out [, IntermediateOut]; functor_list is one of nine pairs:
 *     binary(X, unary(Y)): [elementwise_add, scale], [elementwise_add, relu],
 *       [elementwise_mul, scale], [elementwise_mul, tanh],
 *       [elementwise_mul, sigmoid]; IntermediateOut = unary(Y), Y's shape;
 *     unary(binary(X, Y)): [scale, elementwise_add], [relu, elementwise_add],
 *       [tanh, elementwise_add], [gelu, elementwise_add];
 *       IntermediateOut = X + Y, Out's shape.
 *   The unary functors are Paddle's compound functors, not the activation
 *   ops: scale = v * scale (no bias), relu = v * (v > 0 ? 1 : 0), tanh =
 *   2 / (1 + exp(-clip(2v, -40, 13))) - 1, sigmoid = 1 / (1 + exp(-clip(v,
 *   -40, 13))), gelu = its tanh approximation.  X and Y are equal, or the
 *   smaller one's dims (trailing 1s dropped) are a run of the larger's
 *   starting at `axis` (-1: the trailing ones); Out has the larger's shape.
 *   IntermediateOut is written when save_intermediate_out is set.
 *   fused_elemwise_activation_grad: X (absent only where the pair holds
 *   elementwise_add), Y, Out, IntermediateOut (with save_intermediate_out),
 *   Out@GRAD -> X@GRAD, Y@GRAD, IntermediateOut@GRAD (each optional);
 *   functor_list the forward's with _grad appended.  With u the unary
 *   functor's output (IntermediateOut, or recomputed) and d = Out@GRAD:
 *     binary(X, unary(Y)): dX = d * u (mul) or d (add); dY = d * x (mul) or
 *       d, times unary'(u); dIntermediateOut = d * x or d;
 *     unary(X + Y): dX = dY = dIntermediateOut = d * unary'(Out) (gelu:
 *       unary'(X + Y)).
 *   A broadcast operand's gradient is summed over the broadcast dims (bc_grad,
 *   the order of Paddle's loops).  One quirk of Paddle's kernel is kept:
 *   when X and Y differ in shape (its broadcast path) and no IntermediateOut
 *   was saved, tanh's and sigmoid's derivative is taken of Y itself
 *   (functors.h UseX: 1 - y*y, y*(1 - y)), not of tanh(Y) or sigmoid(Y), so
 *   that the gradients are Paddle's. */
#include <string.h>

#include "../emit_ew.h"
#include "../util.h"
#include "bcast_util.h"
#include "ops.h"
#include "scope_call.h"

/* A unary functor of Paddle's compound kernels, as float C: `fwd` of the
 * element v; its derivative `d_out`, of the functor's output u (gelu's: of
 * its input w, and th = `th_expr`), and `d_in`, Paddle's UseX: the
 * derivative's formula applied to the input w. */
typedef struct Functor {
  const char *name, *fwd, *d_out, *d_in, *th_expr;
} Functor;

static const Functor functors[] = {
    {"scale", "v * scale", "scale", "scale", NULL},
    {"relu", "v * (v > 0.0f ? 1.0f : 0.0f)", "(u > 0.0f ? 1.0f : 0.0f)", "(w > 0.0f ? 1.0f : 0.0f)", NULL},
    {"tanh", "2.0f / (1.0f + expf(-(2.0f * v < -40.0f ? -40.0f : 2.0f * v > 13.0f ? 13.0f : 2.0f * v))) - 1.0f",
     "(1.0f - u * u)", "(1.0f - w * w)", NULL},
    {"sigmoid", "1.0f / (1.0f + expf(-(v < -40.0f ? -40.0f : v > 13.0f ? 13.0f : v)))", "(u * (1.0f - u))",
     "(w * (1.0f - w))", NULL},
    {"gelu", "v * 0.5f * (1.0f + tanhf(0.79788456f * v * (1.0f + 0.044715f * v * v)))",
     "(0.5f * w * ((1.0f - th * th) * (0.79788456f + 0.1070322243f * w * w)) + 0.5f * (1.0f + th))", NULL,
     "tanhf(0.79788456f * w * (1.0f + 0.044715f * w * w))"},
};

/* The pairs Paddle's kernel computes: binary first = binary(X, unary(Y)). */
static const char *const pairs[][2] = {
    {"elementwise_add", "scale"}, {"scale", "elementwise_add"}, {"elementwise_add", "relu"},
    {"relu", "elementwise_add"},  {"elementwise_mul", "scale"}, {"tanh", "elementwise_add"},
    {"elementwise_mul", "tanh"},  {"elementwise_mul", "sigmoid"}, {"gelu", "elementwise_add"},
};

/* One op's pair, decoded. */
typedef struct Compound {
  int unary_first;   /* unary(X + Y) rather than binary(X, unary(Y)) */
  int mul;           /* the binary functor is elementwise_mul */
  const Functor *f;  /* the unary functor */
  float scale;       /* the scale functor's factor (Paddle's kernel reads the attribute for it alone; other functors
                      * take none, and their ops ignore it) */
} Compound;

/* Decodes functor_list (with `suffix` after each name: "" or "_grad") into
 * a pool-allocated Compound; NULL and *why set when it is none of Paddle's
 * pairs. */
static const Compound *compound(const Op *op, const char *suffix, const char **why) {
  Compound *c = pool_alloc(sizeof *c);
  const OpAttr *a = attr_find(op, "functor_list");
  if (!a || a->n_strings != 2) {
    *why = "functor_list must name two functors";
    return NULL;
  }
  const size_t ls = strlen(suffix);
  for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
    int ok = 1;
    for (int k = 0; k < 2; k++) {
      const char *s = a->strings[k];
      const size_t n = strlen(pairs[p][k]);
      ok = ok && !strncmp(s, pairs[p][k], n) && strlen(s) == n + ls && !strcmp(s + n, suffix);
    }
    if (!ok) continue;
    c->unary_first = strncmp(pairs[p][0], "elementwise_", 12) != 0;
    c->mul = !strcmp(pairs[p][c->unary_first], "elementwise_mul");
    const char *u = pairs[p][!c->unary_first];
    for (size_t f = 0; f < sizeof functors / sizeof functors[0]; f++)
      if (!strcmp(functors[f].name, u)) c->f = &functors[f];
    c->scale = attr_float(op, "scale", 0.0f);
    return c;
  }
  *why = pool_printf("functor_list [%s, %s] is none of the nine pairs Paddle's kernel computes", a->strings[0],
                     a->strings[1]);
  return NULL;
}

/* 1 when `s` (its trailing 1s dropped) is a run of `b`'s dims starting at
 * axis (-1: rank(b) - rank(s)), the broadcast Paddle's kernel takes. */
static int fits(const Shape *s, const Shape *b, int64_t axis) {
  if (s->rank > b->rank) return 0;
  const int64_t at = axis == -1 ? b->rank - s->rank : axis;
  int n = s->rank;
  while (n > 0 && s->d[n - 1] == 1) n--;
  if (at < 0 || at + n > b->rank) return 0;
  for (int i = 0; i < n; i++)
    if (s->d[i] != b->d[at + i]) return 0;
  return 1;
}

/* Out has the larger operand's shape; IntermediateOut Y's (binary first)
 * or Out's. */
static int infer_paddle(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!x || !y) return -1;
  const char *why;
  const Compound *k = compound(c->op, "", &why);
  if (!k) return ctx_fail(c, "%s", why);
  if (x->dtype != y->dtype)
    return ctx_fail(c, "X is %s and Y %s: Paddle's kernel takes one dtype", rt_dtype_name(x->dtype),
                    rt_dtype_name(y->dtype));
  const int64_t axis = attr_int(c->op, "axis", -1);
  const Shape *out;
  if (shape_equal(&x->shape, &y->shape) || fits(&y->shape, &x->shape, axis))
    out = &x->shape;
  else if (fits(&x->shape, &y->shape, axis))
    out = &y->shape;
  else
    return ctx_fail(c, "X %s and Y %s (axis %lld): Paddle's kernel broadcasts only an operand whose dims are a run of "
                       "the other's",
                    shape_str(&x->shape), shape_str(&y->shape), (long long)axis);
  ctx_set(c, "Out", 0, out, x->dtype);
  const int save = attr_bool(c->op, "save_intermediate_out", 0) && ctx_out(c, "IntermediateOut", 0);
  if (save) ctx_set(c, "IntermediateOut", 0, k->unary_first ? out : &y->shape, x->dtype);
  if (save && (var_runtime_mask(x) || var_runtime_mask(y)))
    return ctx_fail(c, "X or Y has dims only the run gives: save_intermediate_out with them is not supported yet");
  return binary_pass_extents(c, x, y, axis);
}

/* The pass's op: Out = act(X + Y) or X + act(Y) with the activation op's
 * own expression (fuse_elewise_add_act_ops). */
static int infer_fused_elemwise(OpCtx *c) {
  if (!c->op->from_pass) return infer_paddle(c);
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!x || !y) return -1;
  Shape s;
  if (shape_broadcast(c, &x->shape, &y->shape, attr_int(c->op, "axis", -1), &s)) return -1;
  ctx_set(c, "Out", 0, &s, x->dtype);
  return binary_pass_extents(c, x, y, attr_int(c->op, "axis", -1)); /* as elementwise_add's */
}

static int emit_from_pass(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *y = ctx_in(&c, "Y", 0), *out = ctx_out(&c, "Out", 0);
  if (!x || !y || !out) return em_fail(e, "missing X, Y or Out");
  if (x->dtype != RT_DT_FP32 || y->dtype != RT_DT_FP32) return em_fail(e, "only float32 is supported");
  const OpAttr *a = attr_find(e->op, "functor_list");
  if (!a || a->n_strings != 2) return em_fail(e, "functor_list must name two functors");
  const int act_first = !strcmp(a->strings[0], "elementwise_add");
  const char *u = unary_float_expr(e, e->op, a->strings[act_first]);
  if (!u || strcmp(a->strings[!act_first], "elementwise_add"))
    return em_fail(e, "functor_list [%s, %s] is not supported", a->strings[0], a->strings[1]);
  const int64_t axis = attr_int(e->op, "axis", -1);
  binary_write_extents(e, x, y, out, axis); /* the loop runs over the run's extents */
  if (act_first) return ew_binary_bind(e, x, y, out, axis, "b", pool_printf("a + (%s)", u));
  return ew_binary_bind(e, x, y, out, axis, "a + b", u);
}

/* A float C spelling in the op's dtype (f64: double). */
static const char *in_dtype(const char *s, int f64) { return s && f64 ? ew_expr_double(s) : s; }

/* `const <T> scale = <the scale attribute>;` (Paddle's ScaleFunctor holds
 * it as T: float, or the float attribute widened). */
static const char *scale_decl(const Compound *k, int f64) {
  const float s = k->scale;
  if (f64) return pool_printf("const double scale = %.17g;", (double)s);
  return pool_printf("const float scale = %s;", em_float(s));
}

static int emit_paddle(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *y = ctx_in(&c, "Y", 0), *out = ctx_out(&c, "Out", 0);
  Var *mid = ctx_out(&c, "IntermediateOut", 0);
  if (!x || !y || !out) return em_fail(e, "missing X, Y or Out");
  const int f64 = x->dtype == RT_DT_FP64;
  if (x->dtype != RT_DT_FP32 && !f64) return em_fail(e, "X is %s: Paddle's kernel takes float32 and float64",
                                                     rt_dtype_name(x->dtype));
  const int save = attr_bool(e->op, "save_intermediate_out", 0);
  if (!save) mid = NULL;
  else if (!mid) return em_fail(e, "save_intermediate_out is set and IntermediateOut is missing");
  const char *why;
  const Compound *k = compound(e->op, "", &why);
  if (!k) return em_fail(e, "%s", why);
  const char *setup = k->f == &functors[0] ? scale_decl(k, f64) : NULL;
  const char *fwd = in_dtype(k->f->fwd, f64), *bin = k->mul ? "*" : "+";
  const int64_t axis = attr_int(e->op, "axis", -1);
  binary_write_extents(e, x, y, out, axis); /* the loop runs over the run's extents (none with mid: the rule's) */
  if (!mid) { /* one loop */
    const EwIn in[2] = {{x, axis, "x", "a"}, {y, axis, "y", "b"}};
    const char *v = pool_printf("const %s v = %s;", f64 ? "double" : "float", k->unary_first ? "a + b" : "b");
    return ew_nary(e, out, 2, in, setup, v, k->unary_first ? fwd : pool_printf("a %s (%s)", bin, fwd));
  }
  /* IntermediateOut first, then Out from it (Paddle's GetOutUseIntermediateOut:
   * the same floats); each loop in a scope of its own (its task arguments) */
  const EwIn in[1] = {{y, -1, "y", "v"}};
  scope_print_c(e->p, &(ScopeCall){.kind = SCOPE_OPEN});
  if (k->unary_first ? ew_binary(e, x, y, mid, axis, "a + b") : ew_nary(e, mid, 1, in, setup, NULL, fwd)) return -1;
  scope_print_c(e->p, &(ScopeCall){.kind = SCOPE_CLOSE});
  if (k->unary_first) return ew_unary(e, mid, out, setup, fwd);
  return ew_binary(e, x, mid, out, axis, pool_printf("a %s b", bin));
}

static int emit_fused_elemwise(EmitCtx *e) {
  if (e->op->from_pass) return emit_from_pass(e);
  return emit_paddle(e);
}

/* ---- the grad ---- */

/* X@GRAD has X's shape (Out@GRAD's when X is absent), Y@GRAD Y's,
 * IntermediateOut@GRAD the forward's IntermediateOut's. */
static int infer_grad(OpCtx *c) {
  Var *y = ctx_need(c, "Y", 0), *dout = ctx_need(c, "Out@GRAD", 0), *x = ctx_in(c, "X", 0);
  if (!y || !dout) return -1;
  const char *why;
  const Compound *k = compound(c->op, "_grad", &why);
  if (!k) return ctx_fail(c, "%s", why);
  ctx_set(c, "X@GRAD", 0, x ? &x->shape : &dout->shape, dout->dtype);
  ctx_set(c, "Y@GRAD", 0, &y->shape, dout->dtype);
  ctx_set(c, "IntermediateOut@GRAD", 0, k->unary_first ? &dout->shape : &y->shape, dout->dtype);
  /* each gradient as large as its forward's tensor at run time */
  ctx_pass_runtime_extent(c, x ? x : dout, "X@GRAD", 0);
  ctx_pass_runtime_extent(c, y, "Y@GRAD", 0);
  ctx_pass_runtime_extent(c, k->unary_first ? dout : y, "IntermediateOut@GRAD", 0);
  return 0;
}

/* The statements one element of a gradient loop runs before its term:
 * the scale constant, then those of u, w and th the term names.  For a
 * `unary_first` op, u is Out and w the sum X + Y; otherwise u is unary(Y)
 * and w is Y (Paddle's UseX). */
static const char *grad_body(const Compound *k, const char *scale, int f64, const char *m, const char *term) {
  const char *t = f64 ? "double" : "float", *b = "";
  if (k->unary_first) {
    if (ew_names(term, "w")) b = pool_printf("%sconst %s w = %s;\n", b, t, m ? "m" : "a + b");
    if (ew_names(term, "th")) b = pool_printf("%sconst %s th = %s;\n", b, t, in_dtype(k->f->th_expr, f64));
    if (ew_names(term, "u")) b = pool_printf("%sconst %s u = o;\n", b, t);
  } else {
    if (ew_names(term, "u") && !m) b = pool_printf("%sconst %s v = b;\n", b, t);
    if (ew_names(term, "u")) b = pool_printf("%sconst %s u = %s;\n", b, t, m ? "m" : in_dtype(k->f->fwd, f64));
    if (ew_names(term, "w")) b = pool_printf("%sconst %s w = b;\n", b, t);
  }
  if (scale && (ew_names(term, "scale") || ew_names(b, "scale"))) b = pool_printf("%s\n%s", scale, b);
  const size_t n = strlen(b);
  return n ? pool_printf("%.*s", (int)n - 1, b) : NULL;
}

static int emit_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *y = ctx_in(&c, "Y", 0), *out = ctx_in(&c, "Out", 0), *dout = ctx_in(&c, "Out@GRAD", 0);
  Var *mid = ctx_in(&c, "IntermediateOut", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0), *dy = ctx_out(&c, "Y@GRAD", 0), *dmid = ctx_out(&c, "IntermediateOut@GRAD", 0);
  if (!y || !out || !dout) return em_fail(e, "missing Y, Out or Out@GRAD");
  const char *why;
  const Compound *k = compound(e->op, "_grad", &why);
  if (!k) return em_fail(e, "%s", why);
  const int save = attr_bool(e->op, "save_intermediate_out", 0);
  if (save && !mid) return em_fail(e, "save_intermediate_out is set and IntermediateOut is missing");
  if (!save) mid = NULL;
  Var *const all[8] = {x, y, out, dout, mid, dx, dy, dmid};
  for (int i = 0; i < 8; i++)
    if (all[i] && all[i]->dtype != dout->dtype)
      return em_fail(e, "'%s' is %s where Out@GRAD is %s", all[i]->name, rt_dtype_name(all[i]->dtype),
                     rt_dtype_name(dout->dtype));
  const int f64 = dout->dtype == RT_DT_FP64;
  if (dout->dtype != RT_DT_FP32 && !f64)
    return em_fail(e, "Out@GRAD is %s: Paddle's kernel takes float32 and float64", rt_dtype_name(dout->dtype));
  const char *scale = k->f == &functors[0] ? scale_decl(k, f64) : NULL;
  const int64_t axis = attr_int(e->op, "axis", -1);
  /* the terms of dX, dY and dIntermediateOut */
  const char *term[3];
  if (k->unary_first) {
    term[0] = term[1] = term[2] = pool_printf("d * %s", in_dtype(k->f->d_out, f64));
  } else {
    /* Paddle's UseX where an operand was broadcast and nothing was saved
     * (the quirk above; Paddle's kernel takes Out@GRAD for an absent X) */
    const int use_x = !mid && !em_same_shape(e, y, x ? x : dout);
    const char *dd = k->mul ? "d * a" : "d";
    term[0] = k->mul ? "d * u" : "d";
    term[1] = pool_printf("%s * %s", dd, in_dtype(use_x ? k->f->d_in : k->f->d_out, f64));
    term[2] = dd;
  }
  const EwIn in[5] = {{x, axis, "px", "a"}, {y, axis, "py", "b"}, {out, -1, "po", "o"}, {dout, -1, "pd", "d"},
                      {mid, k->unary_first ? -1 : axis, "pm", "m"}};
  const EwIn g[3] = {{dx, axis, "pgx", NULL}, {dy, axis, "pgy", NULL}, {dmid, k->unary_first ? -1 : axis, "pgm", NULL}};
  for (int i = 0; i < 3; i++) {
    if (!g[i].v) continue;
    const char *body = grad_body(k, scale, f64, mid ? "m" : NULL, term[i]);
    if (!x && (ew_names(term[i], "a") || (body && ew_names(body, "a"))))
      return em_fail(e, "X is missing and %s's gradient reads it", g[i].v->name);
    if (bc_grad_named(e, dout, &g[i], 5, in, body, term[i])) return -1;
  }
  return 0;
}

const OpDef op_fused_elemwise_activation = {.type = "fused_elemwise_activation", .infer = infer_fused_elemwise,
                                            .emit_c = emit_fused_elemwise, .inplace = "X:Out", .runtime_extents = 2};
const OpDef op_fused_elemwise_activation_grad = {.type = "fused_elemwise_activation_grad", .infer = infer_grad,
                                                 .emit_c = emit_grad, .runtime_extents = 2};
