/* The pass pipeline: which passes run, in what order, with verification
 * and dumps between them (DESIGN.md section 5, STYLE.md habits 2-3). */
#ifndef PADDLEC_PIPELINE_H
#define PADDLEC_PIPELINE_H

#include "graph.h"
#include "strategy.h"

typedef struct PipelineOpts {
  BuildStrategy bs;        /* --build-strategy, --build-strategy-file */
  int ir_optim;            /* --ir-optim (default 1): Paddle Inference's switch_ir_optim */
  const char *passes;      /* --passes=P,P: exactly these; "none"; NULL = from the options */
  int verify_each;         /* --verify-each, or PADDLEC_VERIFY_EACH=1 in the environment */
  const char *dump_after;  /* --dump-after=P,P or "all": the IR on stdout after them */
  int explicit_only;       /* a training program: a pass runs only when
                            * --passes names it or the user set its
                            * BuildStrategy field true (no default-on
                            * fusions), and one not applied to training
                            * programs is refused by name (pipeline_run) */
} PipelineOpts;

/* Defaults: Paddle's BuildStrategy, ir_optim on, no dumps. */
void pipeline_defaults(PipelineOpts *o);
/* Checks the pass names in o->passes and o->dump_after.  Returns 0 or -1. */
int pipeline_check_names(const PipelineOpts *o);
/* Runs the passes on g.  *ran gets "name(rewrites), ..." of the passes that
 * changed something ("none" when none did), for the banner.  0 or -1. */
int pipeline_run(Graph *g, const PipelineOpts *o, const char **ran);
/* The passes o turns on, comma-separated in pipeline order ("" for none). */
const char *pipeline_enabled(const PipelineOpts *o);
/* The passes applied to training programs (explicit_only), comma-separated. */
const char *pipeline_training_passes(void);
/* Every pass name, comma-separated, in pipeline order. */
const char *pipeline_pass_names(void);

#endif
