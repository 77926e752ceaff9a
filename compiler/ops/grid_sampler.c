/* grid_sampler (paddle.nn.functional.grid_sample): X [N, C, H, W] or
 * [N, C, D, H, W], Grid [N, H', W', 2] or [N, D', H', W', 3] -> Output
 * [N, C, H', W'] or [N, C, D', H', W'], dtype of X; mode="bilinear"
 * ("nearest"), padding_mode="zeros" ("border", "reflection"),
 * align_corners=true; extra use_cudnn.
 * Shape rule (phi GridSampleBaseInferMeta): X has rank 4 or 5 and Grid the
 * same rank; Output is [Grid.N, X.C] followed by Grid's middle dims.
 * Emission (float32 and float64, Paddle's CPU kernels' types): one
 * rt_grid_sample call (rt_grid_sample_f64 for float64; runtime/
 * rt_grid_sample.c), Paddle's CPU kernel step for step, in the tensors'
 * type.  X's spatial sizes and Grid's may be the run's (an image model's
 * flow field): the geometry is then a local of them and Output takes
 * Grid's.  grid_sampler_grad is at the end. */
#include <string.h>

#include "../util.h"
#include "move_call.h"
#include "ops.h"
#include "resample_call.h"
#include "rt_grid_sample.h"
#include "tensor_util.h"

static int infer_grid_sampler(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *g = ctx_need(c, "Grid", 0);
  if (!x || !g) return -1;
  const Shape *xs = &x->shape, *gs = &g->shape;
  /* Paddle's compile-time rule checks neither rank: an affine_grid with an
   * OutputShape tensor declares a 5-D Grid beside a 4-D X, and Output
   * follows Grid (its VarDesc has rank 5); the run's shapes must agree */
  const int strict = c->g->specializing || gs->rank == xs->rank;
  if ((xs->rank != 4 && xs->rank != 5) || (gs->rank != 4 && gs->rank != 5) || (strict && gs->rank != xs->rank))
    return ctx_fail(c, "X %s and Grid %s must both have rank 4 or both 5", shape_str(xs), shape_str(gs));
  if (strict && gs->d[gs->rank - 1] >= 0 && gs->d[gs->rank - 1] != xs->rank - 2)
    return ctx_fail(c, "the last dim of Grid %s must be %d", shape_str(gs), xs->rank - 2);
  Shape o = {gs->rank, {gs->d[0], xs->d[1]}};
  for (int i = 1; i < gs->rank - 1; i++) o.d[i + 1] = gs->d[i];
  ctx_set(c, "Output", 0, &o, x->dtype);
  /* sizes the run gives: X's spatial ones are read, Grid's are Output's */
  const unsigned spatial = ((1u << (xs->rank - 2)) - 1) << 1;
  if ((var_runtime_mask(x) & ~(spatial << 1)) || (var_runtime_mask(g) & ~spatial))
    return ctx_fail(c, "X ('%s') or Grid ('%s') has dims only the run knows besides its spatial ones; grid_sampler "
                    "takes them there only", x->name, g->name);
  int to[RT_MAX_RANK];
  for (int d = 0; d < RT_MAX_RANK; d++) to[d] = d >= 1 && d < gs->rank - 1 ? d + 1 : -1;
  ctx_pass_runtime_extents_to(c, g, "Output", 0, to);
  return 0;
}

/* The sampling geometry of X and Grid (attributes and dims) into *p; -1
 * after em_fail. */
static int grid_geometry(EmitCtx *e, Var *x, Var *g, RtGridSample *p) {
  const char *mode = attr_str(e->op, "mode", "bilinear"), *pad = attr_str(e->op, "padding_mode", "zeros");
  *p = (RtGridSample){.nsp = tu_rank(e, x) - 2, .nearest = !strcmp(mode, "nearest"),
                      .align_corners = attr_bool(e->op, "align_corners", 1)};
  if (!p->nearest && strcmp(mode, "bilinear")) return em_fail(e, "mode '%s' is not bilinear or nearest", mode);
  if (!strcmp(pad, "zeros")) p->padding = RT_GRID_ZEROS;
  else if (!strcmp(pad, "border")) p->padding = RT_GRID_BORDER;
  else if (!strcmp(pad, "reflection")) p->padding = RT_GRID_REFLECTION;
  else return em_fail(e, "padding_mode '%s' is not zeros, border or reflection", pad);
  if (p->nsp != 2 && p->nsp != 3) return em_fail(e, "X must have rank 4 or 5");
  if (tu_rank(e, g) != p->nsp + 2 || em_const_dim(e, g, p->nsp + 1) != p->nsp)
    return em_fail(e, "Grid must be [N, ..., %d]", p->nsp);
  p->c = em_const_dim(e, x, 1);
  p->in[0] = p->out[0] = 1;
  for (int i = 0; i < p->nsp; i++) { /* the bounds of the sizes the run gives (emit_grid_sampler) */
    p->in[3 - p->nsp + i] = em_bound_dim(e, x, 2 + i);
    p->out[3 - p->nsp + i] = em_bound_dim(e, g, 1 + i);
  }
  for (int i = 0; i < 3; i++)
    if (p->c < 0 || p->in[i] < 0 || p->out[i] < 0) return em_fail(e, "dims after the batch must not depend on it");
  return 0;
}

static int emit_grid_sampler(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *g = tu_in(e, "Grid", 0), *out = tu_out(e, "Output", 0);
  if (!x || !g || !out) return -1;
  const int dt = tu_float_dtype(e, (Var *const[]){x, g, out}, 3), f64 = dt == RT_DT_FP64;
  RtGridSample p;
  if (dt < 0 || grid_geometry(e, x, g, &p)) return -1;
  ResampleCall call = {.kind = RESAMPLE_GRID, .f64 = f64, .geo = "geo", .sample = p, .batch = em_dim(e, out, 0),
                       .x = em_ptr(e, x, 1), .grid = em_ptr(e, g, 1), .out = em_ptr(e, out, 0)};
  const unsigned xrun = em_spec(e, x)->runtime_mask, grun = em_spec(e, g)->runtime_mask;
  for (int i = 0; i < p.nsp; i++) { /* infer_grid_sampler: the run's sizes, Grid's passed to Output */
    if (xrun >> (2 + i) & 1) call.run_grid_in[3 - p.nsp + i] = em_dim(e, x, 2 + i);
    if (!(grun >> (1 + i) & 1)) continue;
    call.run_grid_out[3 - p.nsp + i] = em_dim(e, g, 1 + i);
    move_print_c(e->p, &(MoveCall){.kind = MOVE_EXTENT, .dst = em_dim(e, out, 2 + i), .src = em_dim(e, g, 1 + i)});
  }
  resample_print_c(e->p, &call);
  return 0;
}

const OpDef op_grid_sampler = {.type = "grid_sampler", .infer = infer_grid_sampler, .emit_c = emit_grid_sampler,
                               .runtime_extents = 2};

/* grid_sampler_grad (X, Grid, Output@GRAD -> X@GRAD, Grid@GRAD, either
 * absent; phi GridSampleGradKernel): rt_grid_sample_grad(_f64), Paddle's
 * CPU grad kernel step for step (see runtime/rt_grid_sample.h), float32 or
 * float64 as the forward.  Paddle's kernel always writes X@GRAD (2.6.2
 * crashes when only Grid@GRAD is asked for); paddlec computes whichever is
 * bound. */
static int emit_grid_sampler_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = tu_in(e, "X", 0), *g = tu_in(e, "Grid", 0), *dout = tu_in(e, "Output@GRAD", 0);
  if (!x || !g || !dout) return -1;
  Var *dx = ctx_out(&c, "X@GRAD", 0) ? tu_out(e, "X@GRAD", 0) : NULL;
  Var *dg = ctx_out(&c, "Grid@GRAD", 0) ? tu_out(e, "Grid@GRAD", 0) : NULL;
  if ((ctx_out(&c, "X@GRAD", 0) && !dx) || (ctx_out(&c, "Grid@GRAD", 0) && !dg)) return -1;
  const int dt = tu_float_dtype(e, (Var *const[]){x, g, dout, dx, dg}, 5), f64 = dt == RT_DT_FP64;
  if (dt < 0) return -1;
  const Var *const ins[] = {x, g, dout};
  for (int i = 0; i < 3; i++)
    if ((dx && em_same_buffer(e, dx, ins[i])) || (dg && em_same_buffer(e, dg, ins[i])))
      return em_fail(e, "X@GRAD and Grid@GRAD must not share an input's buffer");
  RtGridSample p;
  if (grid_geometry(e, x, g, &p)) return -1;
  const VarSpec *ds = em_spec(e, dout);
  if (ds->rank != p.nsp + 2 || em_const_dim(e, dout, 1) != p.c)
    return em_fail(e, "Output@GRAD must be [N, %lld, ...]", (long long)p.c);
  for (int i = 0; i < p.nsp; i++)
    if (em_bound_dim(e, dout, 2 + i) != p.out[3 - p.nsp + i]) return em_fail(e, "Output@GRAD and Grid differ in dims");
  ResampleCall call = {.kind = RESAMPLE_GRID_GRAD, .f64 = f64, .geo = "geo", .sample = p, .batch = em_dim(e, g, 0),
                       .x = em_ptr(e, x, 1), .grid = em_ptr(e, g, 1), .dout = em_ptr(e, dout, 1),
                       .dx = dx ? em_ptr(e, dx, 0) : NULL, .dgrid = dg ? em_ptr(e, dg, 0) : NULL};
  const unsigned xrun = em_spec(e, x)->runtime_mask, grun = em_spec(e, g)->runtime_mask;
  for (int i = 0; i < p.nsp; i++) { /* the forward's sizes the run gives (X@GRAD's and Grid@GRAD's, grad_infer) */
    if (xrun >> (2 + i) & 1) call.run_grid_in[3 - p.nsp + i] = em_dim(e, x, 2 + i);
    if (grun >> (1 + i) & 1) call.run_grid_out[3 - p.nsp + i] = em_dim(e, g, 1 + i);
  }
  resample_print_c(e->p, &call);
  return 0;
}

/* use_cudnn: a GPU kernel choice. */
static const char *const grid_sampler_grad_attr_ignores[] = {"use_cudnn", NULL};
const OpDef op_grid_sampler_grad = {.type = "grid_sampler_grad", .infer = grad_infer,
                                    .emit_c = emit_grid_sampler_grad,
                                    .attr_ignores = grid_sampler_grad_attr_ignores, .runtime_extents = 2};
