/* The feeds a control-flow op's block writes, copied first. */
#ifndef PADDLEC_BLOCK_FEEDS_H
#define PADDLEC_BLOCK_FEEDS_H

#include "graph.h"

/* A feed is the caller's memory, read-only: where the block of a
 * control-flow op of block 0 writes a feed (a while_loop's loop var that
 * starts as the input), an `assign` before the op copies the feed into a
 * var of its own that the op and everything after it use instead.
 * Returns how many copies it made. */
int block_copy_feeds(Graph *g);

#endif
