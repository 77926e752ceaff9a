/* NumPy-style broadcasting for the emitters of ops whose kernels broadcast
 * that way (right-aligned dims, a size-1 dim repeats) rather than with
 * Paddle's elementwise `axis` (emit_ew.h): lerp, dist. */
#ifndef PADDLEC_OPS_BCAST_UTIL_H
#define PADDLEC_OPS_BCAST_UTIL_H

#include "ops.h"

/* The broadcast shape of n inputs: *rank and dims[*rank].  Leading size-1
 * dims beyond `max_rank` are dropped (a [1] weight against 0-D operands).
 * -1 after em_fail when two dims differ and neither is 1. */
int bc_shape(EmitCtx *e, int n, Var *const *in, int max_rank, int *rank, SymDim *dims);

/* Opens nested loops over the `rank` dims (size-1 dims get none) and
 * declares inside, for the current element, `const int64_t o` (its flat
 * index in the broadcast shape; only when want_o) and `const int64_t
 * <idx[k]>` (the flat index of input k's element).  Inputs must broadcast to dims (bc_shape).
 * Returns how many "}" close the loops, or -1 after em_fail. */
int bc_open(EmitCtx *e, int rank, const SymDim *dims, int n, Var *const *in, const char *const *idx, int want_o);

#endif
