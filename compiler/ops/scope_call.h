/* A block of its own around one step of a kernel, and its C printer.
 *
 * A kernel that runs several loops, each split into tasks (em_task_begin),
 * gives each loop a block of its own so that the locals it declares (its
 * task's arguments, its operands' pointers) do not clash with the next
 * loop's: fused_elemwise_activation's IntermediateOut loop, before the
 * loop of Out that reads it.  The emitter opens the block, emits the step
 * and closes it; scope_print_c prints the brace; another backend prints
 * the same records (one whose steps are kernels of their own, as nothing). */
#ifndef PADDLEC_OPS_SCOPE_CALL_H
#define PADDLEC_OPS_SCOPE_CALL_H

#include "ops.h"

typedef enum ScopeKind {
  SCOPE_OPEN,  /* the step's block begins */
  SCOPE_CLOSE, /* it ends */
} ScopeKind;

typedef struct ScopeCall {
  ScopeKind kind;
} ScopeCall;

void scope_print_c(Printer *p, const ScopeCall *c);

#endif
