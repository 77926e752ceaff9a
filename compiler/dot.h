/* Graphviz DOT output of the data-flow graph (`paddlec graph`). */
#ifndef PADDLEC_DOT_H
#define PADDLEC_DOT_H

#include <stdio.h>

#include "graph.h"

/* Writes the graph; returns 0, or -1 on a write error. */
int dot_write(const Graph *g, FILE *f);

#endif
