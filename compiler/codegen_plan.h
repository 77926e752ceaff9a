/* The memory plan in the generated model: the bytes of its tensors at a
 * batch, and, for a plan in pieces, the offset tables a run reads; for a
 * model of size classes (size_class.h), placeholders that size_class.c
 * fills with the classes' tables. */
#ifndef PADDLEC_CODEGEN_PLAN_H
#define PADDLEC_CODEGEN_PLAN_H

#include "plan.h"
#include "scratch.h"

typedef struct PlanText {
  const char *tensor_bytes; /* the body of PREFIX_TENSOR_BYTES(batch) */
  const char *code;         /* tensor_bytes() and, in pieces, the tables and place_tensors() */
  const char *field;        /* the model's offset array (in pieces), else "" */
  const char *place;        /* the call that points the buffers at a run's batch, else "" */
} PlanText;

PlanText plan_text(const Plan *p, const char *prefix);

/* The placeholders model_emit leaves for the class-dependent text. */
#define SIZE_CLASS_IO "@SIZE_CLASS:IO@"
#define SIZE_CLASS_MEMORY "@SIZE_CLASS:MEMORY@"
#define SIZE_CLASS_TENSOR_BYTES "@SIZE_CLASS:TENSOR_BYTES@"
#define SIZE_CLASS_SCRATCH_A "@SIZE_CLASS:SCRATCH_A@"
#define SIZE_CLASS_SCRATCH_C "@SIZE_CLASS:SCRATCH_C@"
#define SIZE_CLASS_TASK_BYTES "@SIZE_CLASS:TASK_BYTES@"
#define SIZE_CLASS_PLAN "@SIZE_CLASS:PLAN@"

/* model_emit's plan text in a model of size classes: the model's fields,
 * the call that places a run's buffers, placeholders for the rest. */
PlanText size_class_plan_text(const Plan *p, const ScratchPlan *s);

#endif
