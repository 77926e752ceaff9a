/* The IR verifier, run after every pass with --verify-each (and always in
 * the tests): the block-0 op list is well formed, every input is defined
 * before it is read, fused ops point at removed ops, producers and users
 * agree with the ops, and every shape and dtype is what the ops' rules give.
 * A failure names the pass that broke it. */
#ifndef PADDLEC_VERIFY_H
#define PADDLEC_VERIFY_H

#include "graph.h"

/* Returns 0, or -1 after printing "IR verification failed after PASS: ...". */
int verify_graph(Graph *g, const char *after);

#endif
