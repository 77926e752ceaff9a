/* A trainer's state (DESIGN.md section 6b): every persistable var of a
 * training program — parameters, optimizer accumulators, learning rate —
 * held in the weight slots of the compiled model (RtWeightSpec, never
 * packed) and updated in place by its kernels.  Unlike inference weights it
 * may start empty (zeros, before the startup program runs), and it is
 * written back in Paddle's combined parameter format (the records
 * rt_weights_bind reads, in the compiled order). */
#ifndef PADDLEC_RT_STATE_H
#define PADDLEC_RT_STATE_H

#include "rt.h"

/* Points ptrs[i] at zeroed aligned slots of `store` (rt_weights_bytes of
 * them), as rt_weights_bind would with data. */
void rt_state_zero(const RtWeightSpec *specs, int count, unsigned char *store, const void **ptrs);
/* Writes the `count` tensors ptrs[i] as one combined parameter file at
 * `path` (Paddle's save_combine records: LoD version 0, no LoD, tensor
 * version 0, a TensorDesc with the dtype and dims, the data). */
RtStatus rt_state_save(const char *path, const RtWeightSpec *specs, int count, const void *const *ptrs, char *err,
                       size_t errlen);

#endif
