/* unpool, unpool3d (MaxUnPool1D/2D/3D): X, Indices -> Out, dtype of X.
 *   attrs: ksize:INTS (no default), strides=[1,..], paddings=[0,..],
 *          output_size=[0,..], data_format="NCHW" / "NCDHW";
 *          unpool also unpooling_type:STRING (only "max").
 * Shape rule (phi UnpoolInferMeta / Unpool3dInferMeta): X has rank 4
 * (unpool) or 5 (unpool3d) and Indices X's dims; Out is [N, C] followed by
 * output_size, one value per ksize entry (-1 where X's spatial dim is
 * unknown at compile time).  The Python API computes output_size from the
 * kernel, stride and padding; the op itself reads only output_size.
 * Emission (any element type of X; int32 or int64 Indices): Out is zeroed,
 * then each element of X is written at its index into its (n, c) plane of
 * Out, in order (a later duplicate index wins), as Paddle's Unpool kernel
 * does.  Paddle's kernel reads X as channel first whatever data_format
 * says, and so does this one.  An index outside the plane, where Paddle
 * stops with an error (or, negative, writes out of bounds), is skipped.
 * output_size held in tensors (F.max_unpool2d(..., output_size=
 * y.shape[2:]) under to_static: a VARS attribute): their values when the
 * compiler knows them, or the run-time sizes of the tensor they are read
 * from (a SegNet decoder unpooling to its encoder's map of the run's
 * size): Out takes those extents (run_size); X's and Indices' sizes may
 * be the run's too. */
#include <string.h>

#include "../util.h"
#include "move_call.h"
#include "ops.h"
#include "plane_call.h"
#include "tensor_util.h"

/* The tensor holding output_size entry i of the op (a VARS list, one value
 * each; or one VAR tensor of them all) and the element it is in. */
static const Var *size_tensor(const OpCtx *c, int i, int *at) {
  const OpAttr *a = attr_find(c->op, "output_size");
  *at = i;
  if (a && a->type == AT_VAR) return ctx_attr_tensor(c, "output_size");
  *at = 0;
  const int id = a && a->type == AT_VARS && (size_t)i < a->n_vars_name
                     ? graph_find_var(c->g, c->op->block, a->vars_name[i]) : -1;
  return id < 0 ? NULL : &c->g->vars[id];
}

/* Out's spatial dims from output_size held in tensors: values the compiler
 * knows, or run-time extents of the tensor they are read from (`shape`,
 * ctx_run_dim_of), which Out takes (that tensor's root when they are all
 * its spatial dims in place).  -1 after ctx_fail. */
static int run_size(OpCtx *c, const Var *x, int nsp) {
  Shape o = x->shape;
  unsigned mask = 0;
  const Var *from = NULL;
  int in_place = 1;
  for (int i = 0; i < nsp; i++) {
    int at, d;
    const Var *t = size_tensor(c, i, &at), *v;
    int64_t val[RT_MAX_RANK];
    if (t && ctx_int_values(c, t, val, RT_MAX_RANK) > at) {
      o.d[2 + i] = val[at];
      continue;
    }
    if (t && !ctx_feeds_fixed(c)) { /* Paddle's view, or constant folding's: unknown */
      o.d[2 + i] = DIM_UNKNOWN;
      continue;
    }
    if (!t || !ctx_run_dim_of(c->g, t, at, &v, &d) || (from && v != from))
      return ctx_fail(c, "output_size comes from tensors whose values only the run knows%s; paddlec takes the "
                      "run-time sizes of one tensor read with `shape` (F.max_unpool2d(..., output_size="
                      "y.shape[2:]))", t ? pool_printf(" ('%s')", t->name) : "");
    from = v, o.d[2 + i] = v->shape.d[d], mask |= 1u << (2 + i), in_place &= d == 2 + i;
  }
  ctx_set(c, "Out", 0, &o, x->dtype);
  if (!mask) return 0;
  ctx_set_runtime_extents(c, "Out", 0, mask, from->runtime_from);
  Var *out = ctx_out(c, "Out", 0);
  if (out && in_place && var_runtime_mask(from) == mask) out->runtime_root = from->runtime_root;
  return 0;
}

/* X's dims Out keeps, to the same index: the batch and the channels. */
static const int batch_and_channels[RT_MAX_RANK] = {0, 1, -1, -1, -1, -1, -1, -1};

static int infer_unpool(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *idx = ctx_need(c, "Indices", 0);
  if (!x || !idx) return -1;
  const int rank = strcmp(c->op->type, "unpool3d") ? 4 : 5;
  const Shape *xs = &x->shape;
  if (xs->rank != rank) return ctx_fail(c, "X %s must have rank %d", shape_str(xs), rank);
  if (!shape_equal(xs, &idx->shape))
    return ctx_fail(c, "X %s and Indices %s differ in shape", shape_str(xs), shape_str(&idx->shape));
  const char *type = attr_str(c->op, "unpooling_type", "max");
  if (strcmp(type, "max")) return ctx_fail(c, "unpooling_type '%s' is not supported (only max)", type);
  int64_t *k, *osz;
  int nk = attr_ints(c->op, "ksize", &k), no = attr_ints(c->op, "output_size", &osz);
  if (nk != rank - 2) return ctx_fail(c, "ksize has %d values for %d spatial dims", nk, rank - 2);
  if (attr_is_var(c->op, "output_size")) return run_size(c, x, nk);
  if (no < nk) return ctx_fail(c, "output_size has %d values for %d spatial dims", no, nk);
  Shape o = *xs;
  for (int i = 0; i < nk; i++) {
    if (c->g->specializing && osz[i] < 1) /* the Python API's, from sizes unknown when the program was saved */
      return ctx_fail(c, "output_size[%d] = %lld is not a size (Paddle's kernel raises an error)", i,
                      (long long)osz[i]);
    o.d[2 + i] = xs->d[2 + i] <= 0 ? DIM_UNKNOWN : osz[i];
  }
  ctx_set(c, "Out", 0, &o, x->dtype);
  ctx_pass_runtime_extents_to(c, x, "Out", 0, batch_and_channels);
  return 0;
}

static int emit_unpool(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *idx = tu_in(e, "Indices", 0), *out = tu_out(e, "Out", 0);
  if (!x || !idx || !out) return -1;
  if (out->dtype != x->dtype) return em_fail(e, "X and Out differ in dtype");
  if (idx->dtype != RT_DT_INT32 && idx->dtype != RT_DT_INT64)
    return em_fail(e, "Indices is %s; int32 or int64 expected", rt_dtype_name(idx->dtype));
  if (em_same_buffer(e, x, out) || x == out) return em_fail(e, "Out must not share X's buffer");
  int r = tu_rank(e, x);
  if (tu_rank(e, out) != r || tu_rank(e, idx) != r) return em_fail(e, "X, Indices and Out differ in rank");
  tu_pass_extents_to(e, x, out, batch_and_channels); /* infer_unpool's */
  const VarSpec *os = em_spec(e, out);
  for (int i = 2; i < r; i++) { /* Out's sizes the run gives: the tensor's output_size is read from */
    OpCtx c = {e->g, (Op *)e->op};
    int at, d;
    const Var *t = os->runtime_mask >> i & 1 ? size_tensor(&c, i - 2, &at) : NULL, *v;
    if (t && ctx_run_dim_of(e->g, t, at, &v, &d))
      move_print_c(e->p, &(MoveCall){.kind = MOVE_EXTENT, .dst = em_dim(e, out, i), .src = em_dim(e, v, d)});
  }
  plane_print_c(e->p, &(PlaneCall){.kind = PLANE_UNPOOL, .type = em_ctype(x->dtype), .index_type = em_ctype(idx->dtype),
                                   .rows = em_prod(e, x, 0, 2), .len = em_prod(e, x, 2, r),
                                   .span = em_prod(e, out, 2, r), .index = em_ptr(e, idx, 1), .src = em_ptr(e, x, 1),
                                   .dst = em_ptr(e, out, 0)});
  return 0;
}

/* strides, paddings: the Python API's, for output_size (see the top). */
static const char *const unpool_attr_ignores[] = {"strides", "paddings", NULL};
const OpDef op_unpool = {.type = "unpool", .infer = infer_unpool, .emit_c = emit_unpool,
                         .attr_ignores = unpool_attr_ignores, .runtime_extents = 2};
const OpDef op_unpool3d = {.type = "unpool3d", .infer = infer_unpool, .emit_c = emit_unpool,
                           .attr_ignores = unpool_attr_ignores};

/* unpool_grad, unpool3d_grad (X, Indices, Out, Out@GRAD -> X@GRAD; phi
 * UnpoolGradKernel / Unpool3dGradKernel): each X@GRAD element takes the
 * Out@GRAD element of its (n, c) plane at its index (0 for an index
 * outside the plane, which the forward skips).  X gives only the shape. */
static int emit_unpool_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *idx = tu_in(e, "Indices", 0), *dout = tu_in(e, "Out@GRAD", 0);
  Var *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !idx || !dout || !dx) return -1;
  if (dout->dtype != dx->dtype || (dx->dtype != RT_DT_FP32 && dx->dtype != RT_DT_FP64))
    return em_fail(e, "X@GRAD must be float32 or float64 with Out@GRAD's dtype");
  if (idx->dtype != RT_DT_INT32 && idx->dtype != RT_DT_INT64)
    return em_fail(e, "Indices is %s; int32 or int64 expected", rt_dtype_name(idx->dtype));
  const char *type = attr_str(e->op, "unpooling_type", "max");
  if (strcmp(type, "max")) return em_fail(e, "unpooling_type '%s' is not supported (only max)", type);
  int r = tu_rank(e, x);
  if (tu_rank(e, dout) != r || tu_rank(e, idx) != r) return em_fail(e, "X, Indices and Out@GRAD differ in rank");
  /* Paddle's kernel walks Out@GRAD with Out's plane size */
  Var *out = tu_in(e, "Out", 0);
  if (!out) return -1;
  const VarSpec *os = em_spec(e, out), *gs = em_spec(e, dout);
  if (os->rank != gs->rank || memcmp(os->d, gs->d, sizeof os->d[0] * (size_t)os->rank))
    return em_fail(e, "Out and Out@GRAD differ in shape");
  plane_print_c(e->p, &(PlaneCall){.kind = PLANE_UNPOOL_GRAD, .type = em_ctype(dx->dtype),
                                   .index_type = em_ctype(idx->dtype), .rows = em_prod(e, x, 0, 2),
                                   .len = em_prod(e, x, 2, r), .span = em_prod(e, dout, 2, r),
                                   .index = em_ptr(e, idx, 1), .src = em_ptr(e, dout, 1), .dst = em_ptr(e, dx, 0)});
  return 0;
}

/* unpool_grad: ksize, strides, paddings and output_size only sized the
 * forward's Out, whose shape Out@GRAD must have. */
static const char *const unpool_grad_attr_ignores[] = {"ksize", "strides", "paddings", "output_size", NULL};
const OpDef op_unpool_grad = {.type = "unpool_grad", .infer = grad_infer, .emit_c = emit_unpool_grad,
                              .attr_ignores = unpool_grad_attr_ignores};
const OpDef op_unpool3d_grad = {.type = "unpool3d_grad", .infer = grad_infer, .emit_c = emit_unpool_grad,
                                .attr_ignores = unpool_grad_attr_ignores};
