/* affine_grid (paddle.nn.functional.affine_grid): Theta [N, 2, 3] or
 * [N, 3, 4], OutputShape? (int32 tensor) -> Output [N, H, W, 2] or
 * [N, D, H, W, 3], dtype of Theta; output_shape:INTS=[] ([N, C, H, W] or
 * [N, C, D, H, W]; the OutputShape tensor replaces it), align_corners=true.
 * Shape rule (phi AffineGridInferMeta): Theta has rank 3; Paddle 2.6 writes
 * [Theta.N, -1, -1, 2] for a 4-value output_shape and [Theta.N, -1, -1,
 * -1, 3] otherwise (also for any OutputShape tensor, whatever its length,
 * without checking Theta against it), and so does this rule outside
 * specialization.  While specializing, the sizes come from
 * output_shape, or from the OutputShape values when they are known at
 * compile time (the kernel's run-time shape).
 * Emission (float32/64): Paddle's AffineGrid4D/5DKernel: the base grid
 * holds, per output pixel, (x, y, 1) or (x, y, z, 1) with each coordinate
 * Paddle's Linspace from -1 to 1 (align_corners: step 2/(n-1), so a size-1
 * dim gives NaN as in Paddle; else step 2/n from -1*(n-1)/n), and Output =
 * base x Theta[n]^T, summed in the order of the base's components.
 * OutputShape read from `shape` of a tensor whose sizes the run gives
 * (affine_grid(theta, x.shape) of an image model): Output's sizes are
 * those run-time extents, the Linspaces the run's.  OutputShape's values
 * the run's otherwise (fed): Output within a --max-shape bound, its sizes
 * the values when the kernel runs (max_shaped_sizes). */
#include "../util.h"
#include "grid_call.h"
#include "move_call.h"
#include "ops.h"
#include "run_hw.h"
#include "tensor_util.h"

/* The run-time output_shape (count, values into v[5]): the OutputShape
 * values when known, else the attribute; -1 when unknown. */
static int grid_sizes(OpCtx *c, int64_t v[5]) {
  if (ctx_in(c, "OutputShape", 0)) return tu_slot_values(c, "OutputShape", 0, v, 5);
  int64_t *a;
  int n = attr_ints(c->op, "output_shape", &a);
  if (n > 5) return -1;
  for (int i = 0; i < n; i++) v[i] = a[i];
  return n;
}

static int infer_affine_grid(OpCtx *c) {
  Var *t = ctx_need(c, "Theta", 0);
  if (!t) return -1;
  if (t->shape.rank != 3) return ctx_fail(c, "Theta %s must have rank 3", shape_str(&t->shape));
  if (var_runtime_mask(t)) return ctx_refuse_runtime_extents(c); /* the grids' count the run's: not yet */
  int64_t v[5];
  int n = grid_sizes(c, v), from_tensor = ctx_in(c, "OutputShape", 0) != NULL;
  if (!from_tensor && n != 4 && n != 5) return ctx_fail(c, "output_shape has %d values, expected 4 or 5", n);
  Shape o;
  if (c->g->specializing && n >= 4) {
    o.rank = n;
    o.d[0] = t->shape.d[0];
    for (int i = 2; i < n; i++) o.d[i - 1] = v[i];
  } else {
    o.rank = !from_tensor && n == 4 ? 4 : 5;
    /* while specializing, OutputShape's values are the run's but its size gives the rank */
    if (c->g->specializing && from_tensor && shape_numel(&ctx_in(c, "OutputShape", 0)->shape) == 4) o.rank = 4;
    o.d[0] = t->shape.d[0];
    for (int i = 1; i < o.rank - 1; i++) o.d[i] = DIM_UNKNOWN;
  }
  o.d[o.rank - 1] = o.rank - 2;
  unsigned run = 0; /* OutputShape values the run gives: an image's sizes read by `shape` */
  const char *from = NULL, *key = "affine_grid";
  for (int i = 2; c->g->specializing && from_tensor && n < 0 && i < 6; i++) {
    const Var *src;
    int d;
    const Var *os = ctx_in(c, "OutputShape", 0);
    if (i >= shape_numel(&os->shape)) break;
    if (i == 2) o.rank = (int)shape_numel(&os->shape), o.d[0] = t->shape.d[0], o.d[o.rank - 1] = o.rank - 2;
    int64_t k[5];
    if (ctx_int_values(c, os, k, 5) > i) {
      o.d[i - 1] = k[i];
    } else if (ctx_run_dim_of(c->g, os, i, &src, &d)) {
      o.d[i - 1] = src->shape.d[d], run |= 1u << (i - 1), from = src->runtime_from;
      key = pool_printf("%s %d.%d", key, src->runtime_root, d);
    } else {
      run = 0;
      break;
    }
  }
  const Var *os = from_tensor ? ctx_in(c, "OutputShape", 0) : NULL;
  const int64_t nos = os ? shape_numel(&os->shape) : -1;
  if (c->g->specializing && os && n < 0 && !run && (nos == 4 || nos == 5) && !var_runtime_mask(os)) {
    /* OutputShape's values the run's: Output within a --max-shape bound */
    int b = ctx_max_shape(c, "Output", 0, (int)nos, t->dtype, "OutputShape's values");
    if (b) return b < 0 ? -1 : 0;
  }
  int64_t rows = t->shape.d[1], cols = t->shape.d[2];
  if ((c->g->specializing || !from_tensor) && ((rows >= 0 && rows != o.rank - 2) || (cols >= 0 && cols != o.rank - 1)))
    return ctx_fail(c, "Theta %s does not fit a %d-D grid (its size from %s)", shape_str(&t->shape), o.rank - 2,
                    from_tensor ? "input OutputShape" : "attribute output_shape");
  ctx_set(c, "Output", 0, &o, t->dtype);
  if (run) {
    ctx_set_runtime_extents(c, "Output", 0, run, from);
    run_hw_share_root(c->g, ctx_out(c, "Output", 0), key);
  }
  return 0;
}

/* Output within its --max-shape bound: its sizes OutputShape's values when
 * the kernel runs, as Paddle's kernel resizes Output ([n, h, w, 2] or [n,
 * d, h, w, 3]); an n other than Theta's (Paddle reads past Theta), a size
 * below 1 or past the bound stops the run.  0, or -1 after em_fail. */
static int max_shaped_sizes(EmitCtx *e, const Var *th, const Var *out, int r) {
  const char *v[RT_MAX_RANK], *dims[RT_MAX_RANK];
  if (tu_run_values(e, "OutputShape", "", "OutputShape", v) != r)
    return em_fail(e, "OutputShape must hold %d values for Output's %d dims", r, r);
  pr_line(e->p, "/* the grid's size, OutputShape's values when the kernel runs */");
  for (int i = 0; i < r; i++) /* the channels (value 1) are not read, as in Paddle's kernel */
    if (i != 1) pr_line(e->p, "const int64_t size%d = %s;", i, v[i]);
  pr_line(e->p, "if (size0 != %s) return 1; /* Paddle reads the grids' Theta past its own */", em_dim(e, th, 0));
  for (int i = 2; i < r; i++) pr_line(e->p, "if (size%d < 1) return 1;", i);
  dims[0] = "size0";
  for (int i = 2; i < r; i++) dims[i - 1] = pool_printf("size%d", i);
  dims[r - 1] = pool_printf("%d", r - 2);
  tu_set_extents(e, out, dims, r,
                 pool_printf("OutputShape's count is not Theta's (Paddle reads past Theta), or a size below 1 or past "
                             "--max-shape %s", shape_str(&out->shape)));
  return 0;
}

static int emit_affine_grid(EmitCtx *e) {
  Var *th = tu_in(e, "Theta", 0), *out = tu_out(e, "Output", 0);
  if (!th || !out) return -1;
  if ((th->dtype != RT_DT_FP32 && th->dtype != RT_DT_FP64) || out->dtype != th->dtype)
    return em_fail(e, "affine_grid of %s tensors is not supported", rt_dtype_name(th->dtype));
  const int r = tu_rank(e, out), nsp = r - 2;
  if ((r != 4 && r != 5) || em_bound_dim(e, out, r - 1) != nsp)
    return em_fail(e, "Output must be [N, H, W, 2] or [N, D, H, W, 3]");
  if (em_const_dim(e, th, 1) != nsp || em_const_dim(e, th, 2) != nsp + 1)
    return em_fail(e, "Theta must be [N, %d, %d]", nsp, nsp + 1);
  int64_t size[3] = {1, 1, 1}; /* d, h, w */
  const int bounded = tu_max_shaped(e, out);
  if (bounded && max_shaped_sizes(e, th, out, r)) return -1;
  const unsigned run = em_spec(e, out)->runtime_mask; /* infer_affine_grid: OutputShape's values the run's */
  for (int i = 0; i < nsp; i++)
    if ((size[3 - nsp + i] = em_bound_dim(e, out, 1 + i)) < 0 || (!(run >> (1 + i) & 1) && em_const_dim(e, out, 1 + i) < 0))
      return em_fail(e, "the grid size must not depend on the batch");
  GridCall call = {.kind = GRID_AFFINE, .type = em_ctype(th->dtype), .nsp = nsp, .size = {size[0], size[1], size[2]},
                   .align = attr_bool(e->op, "align_corners", 1), .batch = em_dim(e, out, 0),
                   .src = em_ptr(e, th, 1), .dst = em_ptr(e, out, 0)};
  for (int i = 0; i < nsp && run; i++) { /* infer_affine_grid: the sizes of the tensor OutputShape reads */
    const Var *src, *os = tu_in(e, "OutputShape", 0);
    int d;
    if (!(run >> (1 + i) & 1)) continue;
    if (bounded) { /* set from OutputShape's values (max_shaped_sizes) */
      call.run_size[3 - nsp + i] = em_dim(e, out, 1 + i);
      continue;
    }
    if (!os || !ctx_run_dim_of(e->g, os, 2 + i, &src, &d))
      return em_fail(e, "OutputShape no longer traces to the run's sizes");
    move_print_c(e->p, &(MoveCall){.kind = MOVE_EXTENT, .dst = em_dim(e, out, 1 + i), .src = em_dim(e, src, d)});
    call.run_size[3 - nsp + i] = em_dim(e, out, 1 + i);
  }
  grid_print_c(e->p, &call);
  return 0;
}

const OpDef op_affine_grid = {.type = "affine_grid", .infer = infer_affine_grid, .emit_c = emit_affine_grid,
                              .max_shape = 1, .runtime_extents = 2};

/* affine_grid_grad (Theta, OutputShape?, Output@GRAD -> Theta@GRAD; phi
 * AffineGridGradKernel): with the forward's base grid (x, y, 1) or
 * (x, y, z, 1) per pixel, Theta@GRAD[n][k][j] = sum over the pixels of
 * Output@GRAD[n, pixel, k] * base[pixel][j], pixels in order (Paddle
 * multiplies Output@GRAD^T by the base with BLAS: results agree to
 * rounding).  The grid size is Output@GRAD's (output_shape or OutputShape,
 * when known, must match it); Theta gives only the shape. */
static int emit_affine_grid_grad(EmitCtx *e) {
  Var *th = tu_in(e, "Theta", 0), *dout = tu_in(e, "Output@GRAD", 0), *dth = tu_out(e, "Theta@GRAD", 0);
  if (!th || !dout || !dth) return -1;
  if ((dout->dtype != RT_DT_FP32 && dout->dtype != RT_DT_FP64) || dth->dtype != dout->dtype)
    return em_fail(e, "affine_grid_grad of %s tensors is not supported", rt_dtype_name(dout->dtype));
  const int r = tu_rank(e, dout), nsp = r - 2;
  if ((r != 4 && r != 5) || em_bound_dim(e, dout, r - 1) != nsp)
    return em_fail(e, "Output@GRAD must be [N, H, W, 2] or [N, D, H, W, 3]");
  if (em_const_dim(e, dth, 1) != nsp || em_const_dim(e, dth, 2) != nsp + 1)
    return em_fail(e, "Theta@GRAD must be [N, %d, %d]", nsp, nsp + 1);
  int64_t size[3] = {1, 1, 1}; /* d, h, w */
  const unsigned run = em_spec(e, dout)->runtime_mask; /* the forward's sizes the run gives (its OutputShape's) */
  for (int i = 0; i < nsp; i++)
    if ((size[3 - nsp + i] = em_bound_dim(e, dout, 1 + i)) < 0 || (!(run >> (1 + i) & 1) && em_const_dim(e, dout, 1 + i) < 0))
      return em_fail(e, "the grid size must not depend on the batch");
  OpCtx c = {e->g, (Op *)e->op};
  int64_t v[5];
  int n = grid_sizes(&c, v);
  if (n >= 0) {
    if (n != r) return em_fail(e, "the output shape has %d values for a %d-D grid", n, nsp);
    for (int i = 0; i < nsp; i++)
      if (v[2 + i] != size[3 - nsp + i]) return em_fail(e, "the output shape does not match Output@GRAD");
  }
  GridCall call = {.kind = GRID_AFFINE_GRAD, .type = em_ctype(dout->dtype), .nsp = nsp,
                   .size = {size[0], size[1], size[2]}, .align = attr_bool(e->op, "align_corners", 1),
                   .batch = em_dim(e, dout, 0), .src = em_ptr(e, dout, 1), .dst = em_ptr(e, dth, 0)};
  for (int i = 0; i < nsp; i++)
    if (run >> (1 + i) & 1) call.run_size[3 - nsp + i] = em_dim(e, dout, 1 + i);
  grid_print_c(e->p, &call);
  return 0;
}

const OpDef op_affine_grid_grad = {.type = "affine_grid_grad", .infer = grad_infer, .emit_c = emit_affine_grid_grad,
                                   .runtime_extents = 2};
