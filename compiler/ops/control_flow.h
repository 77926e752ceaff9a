/* Shared by the control-flow ops' files (control_flow.c, while_grad.c). */
#ifndef PADDLEC_OPS_CONTROL_FLOW_H
#define PADDLEC_OPS_CONTROL_FLOW_H

#include "branch_call.h"

/* The kernels of the op's sub-block, each a function of its own named
 * after the op's kernel, into *call (calls, faults); -1 when one cannot be
 * emitted. */
int cf_block_calls(EmitCtx *e, BranchCall *call);

/* The iterations' values of while `w` and its while_grad `wg`
 * (while_steps.h) into call->keep, count and bound: saved by the while
 * (grad 0), given back by while_grad (grad 1); 0 when the while keeps none,
 * -1 after em_fail. */
int while_keep(EmitCtx *e, const Op *w, const Op *wg, BranchCall *call, int grad);

#endif
