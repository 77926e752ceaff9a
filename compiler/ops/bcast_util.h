/* Broadcasting helpers for emitters.  bc_shape/bc_loop: NumPy-style
 * broadcasting for ops whose kernels broadcast that way (right-aligned dims,
 * a size-1 dim repeats) rather than with Paddle's elementwise `axis`
 * (emit_ew.h): lerp, dist.  bc_grad: the gradient of a broadcast operand,
 * summed over the dims it was broadcast along (elementwise grads, and any
 * grad family whose forward broadcasts).  They fill the records of
 * bcast_call.h; bcast_print_c prints them. */
#ifndef PADDLEC_OPS_BCAST_UTIL_H
#define PADDLEC_OPS_BCAST_UTIL_H

#include "../emit_ew.h"
#include "bcast_call.h"
#include "ops.h"

/* The broadcast shape of n inputs: *rank and dims[*rank].  Leading size-1
 * dims beyond `max_rank` are dropped (a [1] weight against 0-D operands).
 * -1 after em_fail when two dims differ and neither is 1. */
int bc_shape(EmitCtx *e, int n, Var *const *in, int max_rank, int *rank, SymDim *dims);

/* The loops over the `rank` dims into *l: their extents, and each input's
 * strides along them (0 where it broadcasts).  Inputs must broadcast to
 * dims (bc_shape).  0, or -1 after em_fail. */
int bc_loop(EmitCtx *e, int rank, const SymDim *dims, int n, Var *const *in, BcLoop *l);

/* The gradient g of an operand that the forward op broadcast to the shape
 * of `full` (its output; the loops run over full's elements):
 *   g[j] = sum of `term` over the elements of full that map to j.
 * Each operand in[k] (loaded into in[k].elem through pointer in[k].ptr) and
 * g itself (g->v, g->axis, g->ptr; g->elem unused) is aligned to full by
 * Paddle's elementwise rule (EwIn.axis: a lower-rank tensor's dims start at
 * `axis`, -1 = trailing, i.e. NumPy's alignment); each of its dims must be
 * 1 or full's.  `body` (statements, may be NULL) runs before `term` is
 * taken, per element of full.
 * Order, as Paddle's CPU ElemwiseGradCompute sums (ElemwiseGradBroadcast1/2
 * and CommonGradBroadcastCPU alike): every g[j] starts at 0.0f and adds its
 * terms in float in row-major order of full, so the result does not depend
 * on the thread count; each term is rounded before it is added (a
 * statement of its own, which C compilers do not contract into a fused
 * multiply-add), as Paddle's x86 build computes it.  When g is broadcast along no dim, g[j] = term
 * (no sum).  The loops collapse dims along which every tensor moves alike;
 * when g varies along the outermost, its rows are split into tasks (each
 * owns its rows of g), otherwise the sum runs as one task.
 * Only float32 and float64 gradients.  0, or -1 after em_fail. */
int bc_grad(EmitCtx *e, const Var *full, const EwIn *g, int n, const EwIn *in, const char *body, const char *term);
/* bc_grad loading only the operands of all[0..nall) (those with a tensor)
 * whose element names body or term read. */
int bc_grad_named(EmitCtx *e, const Var *full, const EwIn *g, int nall, const EwIn *all, const char *body,
                  const char *term);

#endif
