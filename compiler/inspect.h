/* `paddlec inspect` report (text or JSON). */
#ifndef PADDLEC_INSPECT_H
#define PADDLEC_INSPECT_H

#include "codegen.h"
#include "graph.h"
#include "infer.h"

typedef struct InspectOpts {
  int ops;  /* --ops: list every op with its inputs and outputs */
  int json; /* --json: one JSON document instead of text */
  int memory; /* --memory: the memory plan's sizes for the chosen strategy */
  const BuildStrategy *bs; /* the BuildStrategy given (a trainer's data parallelism) */
} InspectOpts;

void inspect_print(const Graph *g, const InferReport *r, const InspectOpts *o);
/* `inspect --memory`: runs the passes and plans memory as `compile` would
 * with the same options, then prints the arena bytes, the lower bound (the
 * most bytes alive at one time) and the naive total, at batch 1 and as
 * functions of the batch.  Returns 0 or -1. */
int inspect_memory(Graph *g, const CompileOpts *o);

#endif
