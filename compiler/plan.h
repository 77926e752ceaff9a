/* Memory plan: where each tensor of the program lives at run time.
 *
 * Feeds point at the caller's input buffers; parameters at the weight
 * block loaded (or embedded) at create time; every other tensor has a slot in
 * one arena, at an offset that is affine in the batch B. */
#ifndef PADDLEC_PLAN_H
#define PADDLEC_PLAN_H

#include "graph.h"
#include "spec.h"

typedef enum PlanKind {
  PLAN_NONE = 0,  /* not a runtime tensor (holders, unused vars) */
  PLAN_ARENA,     /* slot in the arena */
  PLAN_FEED,      /* m->in[index] */
  PLAN_PARAM,     /* m->w[index] */
} PlanKind;

typedef struct PlanVar {
  PlanKind kind;  /* where it lives */
  int index;      /* feed or parameter index */
  SymDim offset;  /* arena byte offset (a*B + c) */
  SymDim bytes;   /* size in bytes (a*B + c) */
} PlanVar;

typedef struct Plan {
  PlanVar *vars;  /* per var id */
  SymDim arena;   /* arena bytes (a*B + c) */
  int nslots;     /* tensors in the arena */
} Plan;

enum { PLAN_ALIGN = 64 }; /* every slot starts on a 64-byte boundary */

/* Plans every tensor that an op of block 0 reads or writes; with `reuse`
 * (memory_optimize) tensors whose lifetimes do not intersect share memory. */
int plan_build(Graph *g, const Spec *s, Plan *p, int reuse);

#endif
