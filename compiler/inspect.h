/* `paddlec inspect` report (text or JSON). */
#ifndef PADDLEC_INSPECT_H
#define PADDLEC_INSPECT_H

#include "graph.h"
#include "infer.h"

typedef struct InspectOpts {
  int ops;  /* --ops: list every op with its inputs and outputs */
  int json; /* --json: one JSON document instead of text */
} InspectOpts;

void inspect_print(const Graph *g, const InferReport *r, const InspectOpts *o);

#endif
