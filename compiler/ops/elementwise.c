/* Binary element-wise ops with Paddle's `axis` broadcasting (spec 7.2).
 *   elementwise_add, _sub, _mul, _div, _max, _min, _pow, _mod, _floordiv,
 *   _fmax, _fmin, _heaviside
 *   inputs:  X, Y
 *   outputs: Out (X's dtype)
 *   attrs:   axis:INT=-1; extra (ignored for shapes): use_mkldnn,
 *            x_data_format, y_data_format, use_quantizer, mkldnn_data_type,
 *            Scale_x=1, Scale_y=1, Scale_out=1, act ("" in fused variants)
 * Shape rule (phi ElementwiseRawInferMeta, the same since Paddle 1.8's
 * broadcasting InferShape): identical shapes pass through; otherwise a
 * negative axis becomes |rank(X) - rank(Y)| + axis + 1, the lower-rank
 * operand is padded with 1s around position `axis`, and each dim pair gives
 *   max(a, b) when either is > 1 or both are 1, else -1
 * (so -1 against 1, and 0 against 0 or 1, are unknown at compile time).
 * A dim of X or Y known only at run time (the RoIs after roi_align, the
 * sequences after sequence_pool, a sequence length) is Out's too, when
 * the other operand is broadcast along it or has one there too, checked
 * by the run unless known to be the same (binary_pass_extents); the loop
 * runs over the run's extents (ew_nary). */
#include <string.h>

#include "../consteval.h"
#include "../emit_ew.h"
#include "bcast_util.h"
#include "ops.h"
#include "tensor_util.h"

/* Operand q's dim at Out's dim o, 1 where q has none (padded). */
static int64_t dim_at(const Shape *q, const Shape *p, int o, int64_t axis) {
  if (q->rank >= p->rank) return q->d[o];
  const int j = o - (int)(axis < 0 ? axis + p->rank - q->rank + 1 : axis);
  return j >= 0 && j < q->rank ? q->d[j] : 1;
}

/* The run-time extents of X and Y (VAR_RUNTIME_EXTENT: the rows of a box
 * head, an image's height and width, a sequence length) pass to Out where
 * the other operand is broadcast along them (its dim there is 1, or
 * absent: a bias [C], a scalar, a mask [B, 1, 1, L] against scores
 * [B, H, L, L]) or has one there too.  Two that are not known to be one
 * (bcast_extents_one: two feeds' lengths) are checked by the run
 * (tu_bcast_extents), as Paddle's kernel checks them; one against a
 * fixed dim other than 1 is refused.  Out's root is theirs when they have one on the same dims of Out
 * (or one has extents); after a check, X's when both are one extent each (the check makes
 * them one), else its own. */
int binary_pass_extents(OpCtx *c, const Var *x, const Var *y, int64_t axis) {
  const unsigned mx = var_runtime_mask(x), my = var_runtime_mask(y);
  if (!mx && !my) return 0;
  const int orank = x->shape.rank > y->shape.rank ? x->shape.rank : y->shape.rank;
  const int sx = bcast_shift(x->shape.rank, orank, axis), sy = bcast_shift(y->shape.rank, orank, axis);
  const unsigned ox = bcast_run_mask(x, orank, axis), oy = bcast_run_mask(y, orank, axis);
  unsigned checked = 0;
  for (int d = 0; d < orank; d++) {
    const int bx = ox >> d & 1, by = oy >> d & 1;
    if (bx && by && !bcast_extents_one(x, d - sx, ox, y, d - sy, oy)) checked |= 1u << d;
    if (bx == by) continue;
    const Var *p = bx ? x : y, *q = bx ? y : x;
    const int64_t qd = dim_at(&q->shape, &p->shape, d, axis);
    if (qd != 1)
      return ctx_fail(c, "dim %d of %s ('%s') is only known at run time (from its %s), and %s ('%s') %s does not "
                      "broadcast along it (its dim there is %lld, not 1): %s takes a run-time extent against an "
                      "operand of size 1 there or one with a run-time extent too", d - (bx ? sx : sy),
                      p == x ? "X" : "Y", p->name, p->runtime_from ? p->runtime_from : "inputs", q == x ? "X" : "Y",
                      q->name, shape_str(&q->shape), (long long)qd, c->op->type);
  }
  const Var *p = mx ? x : y;
  const unsigned po = ox | oy;
  int first = 0;
  while (!(po >> first & 1)) first++;
  ctx_pass_runtime_extent_at(c, p, "Out", 0, first);
  Var *out = ctx_out(c, "Out", 0);
  if (!out) return 0;
  out->runtime_more = po & ~(1u << first);
  const int one_root = same_runtime_extent(x, y);
  const int uniform = mx && my ? x->runtime_same && y->runtime_same && (one_root || checked) : p->runtime_same;
  if (mx && my && !uniform && !(one_root && ox == oy)) out->runtime_root = (int)(out - c->g->vars) + 1;
  out->runtime_same = uniform;
  return 0;
}

void binary_write_extents(EmitCtx *e, const Var *x, const Var *y, const Var *out, int64_t axis) {
  const Var *const in[2] = {x, y};
  const int64_t axes[2] = {axis, axis};
  tu_bcast_extents(e, out, 2, in, axes);
}

static int infer_elementwise(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *y = ctx_need(c, "Y", 0);
  if (!x || !y) return -1;
  Shape out;
  const int64_t axis = attr_int(c->op, "axis", -1);
  if (shape_broadcast(c, &x->shape, &y->shape, axis, &out)) return -1;
  ctx_set(c, "Out", 0, &out, x->dtype);
  return binary_pass_extents(c, x, y, axis);
}

/* Integer arithmetic for constant folding, as the int C expression of the
 * same row computes it; 0 for a zero divisor (the value stays unknown). */
static int fold_add(int64_t a, int64_t b, int64_t *r) { return *r = a + b, 1; }
static int fold_sub(int64_t a, int64_t b, int64_t *r) { return *r = a - b, 1; }
static int fold_mul(int64_t a, int64_t b, int64_t *r) { return *r = a * b, 1; }
static int fold_div(int64_t a, int64_t b, int64_t *r) { return b != 0 && (*r = a / b, 1); }
static int fold_floordiv(int64_t a, int64_t b, int64_t *r) {
  return b != 0 && (*r = (a / b) - ((a % b != 0) && ((a < 0) != (b < 0))), 1);
}

/* Per op: the C expression of the elements a (of X) and b (of Y) for float
 * and integer tensors, and the integer fold (NULL: not folded).  Integer
 * division truncates as Paddle's CPU kernel does; mod and floordiv round
 * toward minus infinity (Python semantics), as Paddle's do. */
typedef struct Binary {
  const char *type, *fexpr, *iexpr;
  int (*fold)(int64_t a, int64_t b, int64_t *r);
  const char *i64expr; /* int64's expression where it differs from int32's */
} Binary;

static const Binary binaries[] = {
    {"elementwise_add", "a + b", "a + b", fold_add, NULL},
    {"elementwise_sub", "a - b", "a - b", fold_sub, NULL},
    {"elementwise_mul", "a * b", "a * b", fold_mul, NULL},
    {"elementwise_div", "a / b", "a / b", fold_div, NULL},
    {"elementwise_max", "a > b ? a : b", "a > b ? a : b", NULL, NULL},
    {"elementwise_min", "a < b ? a : b", "a < b ? a : b", NULL, NULL},
    {"elementwise_fmax", "fmaxf(a, b)", "a > b ? a : b", NULL, NULL},
    {"elementwise_fmin", "fminf(a, b)", "a < b ? a : b", NULL, NULL},
    /* integers: std::pow of the two promoted to double, static_cast back
     * (x86's conversion: rt_f2i32/rt_f2i64) */
    {"elementwise_pow", "powf(a, b)", "rt_f2i32(pow((double)a, (double)b))", NULL,
     "rt_f2i64(pow((double)a, (double)b))"},
    {"elementwise_floordiv", "floorf(a / b)", "(a / b) - ((a % b != 0) && ((a < 0) != (b < 0)))", fold_floordiv, NULL},
    {"elementwise_mod", "fmodf(a, b) + ((fmodf(a, b) != 0.0f && ((fmodf(a, b) < 0.0f) != (b < 0.0f))) ? b : 0.0f)",
     "a % b + ((a % b != 0 && ((a % b < 0) != (b < 0))) ? b : 0)", NULL, NULL},
    {"elementwise_heaviside", "a == 0.0f ? b : (float)(a > 0.0f)", "a == 0 ? b : (a > 0)", NULL, NULL},
};

static const Binary *binary_find(const char *type) {
  for (size_t i = 0; i < sizeof binaries / sizeof binaries[0]; i++)
    if (!strcmp(binaries[i].type, type)) return &binaries[i];
  return NULL;
}

/* The expression for tensors of dtype dt (float32/64 or int32/64). */
static const char *expr_of(const char *type, int dt) {
  const Binary *b = binary_find(type);
  if (!b) return NULL;
  if (dt == RT_DT_FP32 || dt == RT_DT_FP64) return b->fexpr;
  return dt == RT_DT_INT64 && b->i64expr ? b->i64expr : b->iexpr;
}

/* Element-wise integer values, a single value broadcasting; an element is
 * known when both operands are (a shape's batch entry is not). */
static void fold_elementwise(OpCtx *c) {
  const Binary *op = binary_find(c->op->type);
  Var *x = ctx_in(c, "X", 0), *y = ctx_in(c, "Y", 0);
  if (!op || !op->fold || !consteval_tracked(x) || !consteval_tracked(y)) return;
  int n = x->nvals > y->nvals ? x->nvals : y->nvals;
  if ((x->nvals != n && x->nvals != 1) || (y->nvals != n && y->nvals != 1)) return;
  int64_t v[CONST_MAX];
  uint64_t mask = 0;
  for (int i = 0; i < n; i++) {
    v[i] = 0;
    if (!consteval_bit(x, i) || !consteval_bit(y, i)) continue;
    if (!op->fold(x->vals[x->nvals == 1 ? 0 : i], y->vals[y->nvals == 1 ? 0 : i], &v[i])) return;
    mask |= 1ull << i;
  }
  consteval_set(ctx_out(c, "Out", 0), v, n, mask);
}

const char *binary_float_expr(const char *type) { return expr_of(type, RT_DT_FP32); }

static int emit_elementwise(EmitCtx *e);

int binary_fusible(const Graph *g, const Op *op) {
  if (!op->def || op->def->emit_c != emit_elementwise || !expr_of(op->type, RT_DT_FP32)) return 0;
  for (int s = 0; s < op->nin; s++)
    for (int a = 0; a < op->in[s].n; a++)
      if (op->in[s].vars[a] < 0 || g->vars[op->in[s].vars[a]].dtype != RT_DT_FP32) return 0;
  return 1;
}

static int emit_elementwise(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *y = ctx_in(&c, "Y", 0), *out = ctx_out(&c, "Out", 0);
  if (!x || !y || !out) return em_fail(e, "missing X, Y or Out");
  int is_float = x->dtype == RT_DT_FP32 || x->dtype == RT_DT_FP64;
  if (!is_float && x->dtype != RT_DT_INT64 && x->dtype != RT_DT_INT32)
    return em_fail(e, "%s tensors are not supported yet", rt_dtype_name(x->dtype));
  if (y->dtype != x->dtype) return em_fail(e, "X is %s but Y is %s", rt_dtype_name(x->dtype), rt_dtype_name(y->dtype));
  const char *expr = expr_of(e->op->type, x->dtype);
  if (!expr) return em_fail(e, "%s of %s tensors is not supported yet", e->op->type, rt_dtype_name(x->dtype));
  if (x->dtype == RT_DT_FP64) expr = ew_expr_double(expr);
  binary_write_extents(e, x, y, out, attr_int(e->op, "axis", -1)); /* the loop runs over the run's extents */
  return ew_binary(e, x, y, out, attr_int(e->op, "axis", -1), expr);
}

/* Out carries X's LoD (ElementwiseRawInferMeta: share_lod(x)). */
#define OP_ELEMENTWISE(name)                                                                             \
  const OpDef op_##name = {.type = #name, .infer = infer_elementwise, .emit_c = emit_elementwise,          \
                           .fold = fold_elementwise, .inplace = "X:Out", .runtime_extents = 2, .lod_slot = "X"};
OP_ELEMENTWISE(elementwise_add)
OP_ELEMENTWISE(elementwise_div)
OP_ELEMENTWISE(elementwise_floordiv)
OP_ELEMENTWISE(elementwise_fmax)
OP_ELEMENTWISE(elementwise_fmin)
OP_ELEMENTWISE(elementwise_heaviside)
OP_ELEMENTWISE(elementwise_max)
OP_ELEMENTWISE(elementwise_min)
OP_ELEMENTWISE(elementwise_mod)
OP_ELEMENTWISE(elementwise_mul)
OP_ELEMENTWISE(elementwise_pow)
OP_ELEMENTWISE(elementwise_sub)

/* Gradients: elementwise_<op>_grad
 *   inputs:  X, Y, Out@GRAD (and Out for div, as Paddle 2.6's maker passes)
 *   outputs: X@GRAD, Y@GRAD, each optional (only what is bound is computed)
 *   attrs:   axis as the forward's
 * Each gradient is Paddle's CPU functor (elementwise_grad_kernel_impl.h,
 * cpu/elementwise_grad.h) of the elements a (X), b (Y), o (Out) and d
 * (Out@GRAD) at each element of Out@GRAD; the gradient of an operand that
 * was broadcast is summed over the broadcast dims in Paddle's order
 * (bc_grad).  float32 or float64 (the same expressions in double,
 * ew_expr_double), every tensor of one dtype.  The max, min, pow, fmax,
 * fmin and heaviside grad kernels take no axis (they broadcast with -1):
 * their grads are refused when axis aligns the lower-rank operand
 * elsewhere, where Paddle's kernel fails. */
static const struct {
  const char *type, *dx, *dy; /* float C expressions of a, b, o, d */
  int trailing;               /* 1: Paddle's kernel ignores axis */
} grad_table[] = {
    {"elementwise_add_grad", "d", "d", 0},
    {"elementwise_sub_grad", "d", "-d", 0},
    {"elementwise_mul_grad", "d * b", "d * a", 0},
    {"elementwise_div_grad", "d / b", "-d * o / b", 0},
    {"elementwise_max_grad", "d * (float)(a > b)", "d * (float)(a <= b)", 1},
    {"elementwise_min_grad", "d * (float)(a < b)", "d * (float)(a >= b)", 1},
    {"elementwise_pow_grad", "d * b * powf(a, b - 1.0f)", "d * logf(a) * powf(a, b)", 1},
    {"elementwise_fmax_grad", "d * (float)(a >= b || isnan(b))", "d * (float)!(a >= b || isnan(b))", 1},
    {"elementwise_fmin_grad", "d * (float)(a <= b || isnan(b))", "d * (float)!(a <= b || isnan(b))", 1},
    {"elementwise_heaviside_grad", "d * 0.0f", "d * (float)(a == 0.0f)", 1},
};

static int emit_elementwise_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  const char *type = e->op->type;
  size_t row = 0;
  while (row < sizeof grad_table / sizeof grad_table[0] && strcmp(grad_table[row].type, type)) row++;
  if (row == sizeof grad_table / sizeof grad_table[0]) return em_fail(e, "no gradient for %s", type);
  Var *x = ctx_in(&c, "X", 0), *y = ctx_in(&c, "Y", 0), *dout = ctx_in(&c, "Out@GRAD", 0);
  Var *dx = ctx_out(&c, "X@GRAD", 0), *dy = ctx_out(&c, "Y@GRAD", 0);
  int div = !strcmp(type, "elementwise_div_grad");
  Var *out = div ? ctx_in(&c, "Out", 0) : NULL;
  if (!x || !y || !dout || (div && !out)) return em_fail(e, "missing X, Y, Out@GRAD%s", div ? " or Out" : "");
  Var *const all[6] = {x, y, dout, out, dx, dy};
  for (int i = 0; i < 6; i++)
    if (all[i] && all[i]->dtype != x->dtype)
      return em_fail(e, "'%s' is %s where X is %s", all[i]->name, rt_dtype_name(all[i]->dtype),
                     rt_dtype_name(x->dtype));
  const int f64 = x->dtype == RT_DT_FP64;
  if (x->dtype != RT_DT_FP32 && !f64)
    return em_fail(e, "X is %s: only float32 and float64 gradients are supported", rt_dtype_name(x->dtype));
  int64_t axis = attr_int(e->op, "axis", -1);
  int rx = em_spec(e, x)->rank, ry = em_spec(e, y)->rank, diff = rx > ry ? rx - ry : ry - rx;
  if (axis != -1 && (axis < 0 || axis > diff))
    return em_fail(e, "axis %lld: Paddle's grad kernel takes -1 or [0, %d] for ranks %d and %d", (long long)axis, diff,
                   rx, ry);
  if (grad_table[row].trailing && axis != -1 && axis != diff)
    return em_fail(e, "axis %lld: Paddle's %s kernel broadcasts with axis -1", (long long)axis, type);
  const EwIn in[4] = {{x, axis, "px", "a"}, {y, axis, "py", "b"}, {dout, -1, "pd", "d"}, {out, -1, "po", "o"}};
  const EwIn gx = {dx, axis, "pdx", NULL}, gy = {dy, axis, "pdy", NULL};
  const char *tx = grad_table[row].dx, *ty = grad_table[row].dy;
  if (f64) tx = ew_expr_double(tx), ty = ew_expr_double(ty);
  if (dx && bc_grad_named(e, dout, &gx, 4, in, NULL, tx)) return -1;
  if (dy && bc_grad_named(e, dout, &gy, 4, in, NULL, ty)) return -1;
  return 0;
}

#define OP_ELEMENTWISE_GRAD(name) \
  const OpDef op_##name = {.type = #name, .infer = grad_infer, .emit_c = emit_elementwise_grad, .runtime_extents = 2};
OP_ELEMENTWISE_GRAD(elementwise_add_grad)
OP_ELEMENTWISE_GRAD(elementwise_div_grad)
OP_ELEMENTWISE_GRAD(elementwise_fmax_grad)
OP_ELEMENTWISE_GRAD(elementwise_fmin_grad)
OP_ELEMENTWISE_GRAD(elementwise_heaviside_grad)
OP_ELEMENTWISE_GRAD(elementwise_max_grad)
OP_ELEMENTWISE_GRAD(elementwise_min_grad)
OP_ELEMENTWISE_GRAD(elementwise_mul_grad)
OP_ELEMENTWISE_GRAD(elementwise_pow_grad)
OP_ELEMENTWISE_GRAD(elementwise_sub_grad)
