/* The text of the generated model: header, source, driver, embedded weights. */
#ifndef PADDLEC_CODEGEN_MODEL_H
#define PADDLEC_CODEGEN_MODEL_H

#include "codegen.h"
#include "plan.h"
#include "spec.h"

typedef struct ModelText {
  const char *header;      /* PREFIX.h */
  const char *source;      /* PREFIX.c */
  const char *main;        /* main.c */
  const char *weights;     /* PREFIX_weights.c (with --embed-weights) */
  const char *banner_hash; /* one-line banner for build files */
  const char *startup_header; /* PREFIX_startup.h (training with --startup) */
  const char *startup_source; /* PREFIX_startup.c */
  const char *run_startup; /* the body of PREFIX_run_startup (training) */
  const char *eval_header; /* PREFIX_eval.h (training with --eval) */
  const char *eval_source; /* PREFIX_eval.c */
  const char *eval_table;  /* the trainer's state index of each weight of PREFIX_eval */
  int run_dims;            /* 1: an input has dims the run gives (PREFIX_set_input_dims) */
  int eval_run_dims;       /* and PREFIX_eval's */
  const struct ScratchPlan *scratch; /* the kernels' scratch (scratch.h) */
  const Plan *plan;        /* codegen_lower: the memory plan */
  const Spec *spec;        /* and the shapes it was made for */
  const char *passes;      /* and what the pipeline did */
  const char *classes;     /* size classes (size_class.h): their bounds, "32, 64, ..." (NULL: none) */
} ModelText;

/* `passes` is what the pipeline did, for the banner. */
int model_emit(Graph *g, const Spec *s, const Plan *p, const CompileOpts *o, const char *passes, ModelText *mt);
/* The IoSpec table `name` of vars ids[0..n) at the shapes of s. */
const char *model_io_table(const Graph *g, const Spec *s, const char *name, const int *ids, int n);

#endif
