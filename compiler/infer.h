/* Shape and dtype inference over the whole program (DESIGN.md section 4). */
#ifndef PADDLEC_INFER_H
#define PADDLEC_INFER_H

#include "graph.h"

typedef struct InferReport {
  int nunknown;       /* ops whose type has no definition */
  int *unknown;       /* their ids, program order */
  int nfailed;        /* ops whose rule reported an error */
  int nmismatch;      /* vars whose inferred shape/dtype differs from the VarDesc */
  int *mismatch;      /* their ids */
  int overflow;       /* an op made a tensor too large to size: inference
                       * stopped there (every later size would follow) */
} InferReport;

/* Runs every op's rule in program order (a control-flow op's sub-block
 * first).  Ops without a rule are listed in the report and their outputs
 * keep the declared shapes.  Returns 0, or -1 when a rule failed. */
int infer_program(Graph *g, InferReport *r);

#endif
