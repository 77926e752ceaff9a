/* Finding and reading a saved program and its parameters (spec section 1):
 * a .pdmodel file, a 1.x directory with __model__ and per-variable files, or
 * a program with a combined parameter file under any name. */
#ifndef PADDLEC_LOAD_H
#define PADDLEC_LOAD_H

#include "graph.h"

typedef struct LoadOpts {
  const char *params; /* --params FILE: combined parameter file, or NULL */
  int no_params;      /* do not look for parameters at all */
} LoadOpts;

/* Loads the program at `path` (file or directory), builds the IR and loads
 * the parameters.  Returns 0, or -1 after printing errors. */
int load_model(const char *path, const LoadOpts *o, Graph *g);

/* Reads and checks the parameters: a combined file (records in byte-wise
 * name order, read to the exact end) or per-variable files in `dir`.
 * Sets g->params_status.  Returns 0 or -1 (errors printed). */
int params_load_combined(Graph *g, const char *file);
int params_load_dir(Graph *g, const char *dir);

#endif
