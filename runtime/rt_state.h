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

/* Paddle's training checkpoints (paddle.static.save / fluid.save): PREFIX
 * .pdparams holds the state vars that are Parameters (is_param[i] 1),
 * PREFIX.pdopt the others (optimizer accumulators, learning rates), each a
 * pickled {name: ndarray} (rt_pickle.h).  Loading finds every state var by
 * name in either file (other entries are ignored, as paddle.static.load
 * does) and checks its dtype and shape; a missing .pdopt leaves the
 * non-Parameter vars as they are and sets *no_opt to 1 (Paddle 1.x
 * checkpoints often come without it).  Errors name the file and the var. */
RtStatus rt_state_load_checkpoint(const char *prefix, const RtWeightSpec *specs, const unsigned char *is_param,
                                  int count, void *const *ptrs, int *no_opt, char *err, size_t errlen);
/* Writes PREFIX.pdparams and PREFIX.pdopt (pickle protocol 4, as
 * paddle.static.save writes them); paddle.static.load(program, PREFIX)
 * reads them back. */
RtStatus rt_state_save_checkpoint(const char *prefix, const RtWeightSpec *specs, const unsigned char *is_param,
                                  int count, const void *const *ptrs, char *err, size_t errlen);

#endif
