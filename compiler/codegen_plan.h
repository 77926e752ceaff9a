/* The memory plan in the generated model: the bytes of its tensors at a
 * batch, and, for a plan in pieces, the offset tables a run reads. */
#ifndef PADDLEC_CODEGEN_PLAN_H
#define PADDLEC_CODEGEN_PLAN_H

#include "plan.h"

typedef struct PlanText {
  const char *tensor_bytes; /* the body of PREFIX_TENSOR_BYTES(batch) */
  const char *code;         /* tensor_bytes() and, in pieces, the tables and place_tensors() */
  const char *field;        /* the model's offset array (in pieces), else "" */
  const char *place;        /* the call that points the buffers at a run's batch, else "" */
} PlanText;

PlanText plan_text(const Plan *p, const char *prefix);

#endif
