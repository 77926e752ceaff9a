/* Code generation: from a loaded, inferred program to a directory of C
 * sources that build into a standalone binary or into the user's program. */
#ifndef PADDLEC_CODEGEN_H
#define PADDLEC_CODEGEN_H

#include "graph.h"
#include "pipeline.h"
#include "plan.h"
#include "spec.h"

typedef struct CompileOpts {
  const char *out_dir;   /* -o DIR */
  const char *prefix;    /* --name PREFIX: symbol and file prefix */
  int embed_weights;     /* --embed-weights: weights as const arrays */
  int mpi;               /* --mpi: a trainer built with OpenMPI (make MPI=1) */
  int blas;              /* 1: OpenBLAS (default), 0: --blas=none */
  int pp_panel;          /* panel height of prepared weights: RT_PP_PANEL_WIDE
                          * when the target has AVX-512 (--march), else NARROW */
  PipelineOpts pipe;     /* passes and BuildStrategy (memory_optimize, enable_inplace) */
  ExecStrategy es;       /* --exec-strategy: the run-time defaults */
  int dump_memplan;      /* --dump-memplan: print the memory plan */
  const ShapeArg *shapes; /* --shape options */
  int nshapes;
  const ShapeArg *max_shapes; /* --max-shape options */
  int nmax_shapes;
  int64_t max_iterations; /* --max-iterations: the most trips of a loop the compiler cannot count (0: none) */
  const char *command;   /* the command line, for the banner */
  int training;          /* a training program (train.h): its persistable vars
                          * are state, not weights from a file */
  Graph *startup;        /* --startup: the training program's startup program,
                          * compiled alongside as PREFIX_startup (NULL: none) */
  Graph *eval;           /* --eval: its evaluation program, compiled alongside
                          * as PREFIX_eval on the trainer's state (NULL: none) */
  int bound_state;       /* the weights are another model's, bound at run time
                          * (PREFIX_eval): no file, no copies */
  int nclass_feeds;      /* the last of max_shapes are size_class_feeds' */
  int size_classes;      /* planned for size classes (size_class.h): the
                          * class-dependent text left as SIZE_CLASS_*
                          * placeholders for size_class.c */
  const Spec *class_alt; /* then another class's shapes (EmitCtx.class_alt) */
  const Plan *const *class_plans; /* and every class's plan (deps_build) */
  int nclass_plans;
} CompileOpts;

/* Writes every file into o->out_dir.  Lists every op it cannot compile and
 * returns -1 without writing anything when there is one. */
int codegen_compile(Graph *g, const CompileOpts *o);

/* codegen_compile up to the files: checks, passes, specialization, memory
 * plan and the text of every file (codegen_model.h's ModelText), in pool
 * memory (the fuzz harness's sink).  Returns 0 or -1 (errors printed). */
struct ModelText;
int codegen_generate(Graph *g, const CompileOpts *o, struct ModelText *mt);
/* The same without the parameters' data, a startup or an evaluation
 * program: what `inspect --memory` reports (mt's plan and passes once
 * planned, even when a kernel then fails; the kernels' scratch). */
int codegen_lower(Graph *g, const CompileOpts *o, struct ModelText *mt);

/* Writes the parameters as one combined file in Paddle's format (records in
 * the program's byte-wise name order). */
int params_write_combined(const Graph *g, const char *path);

#endif
