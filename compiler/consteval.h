/* Compile-time values of small integer tensors, for specialization.
 *
 * Programs exported with dynamic shapes compute shapes with ops: `shape`,
 * `slice` of it, `fill_constant`, `concat`, arithmetic, and feed the result
 * to reshape2 (ShapeTensor), interpolation (SizeTensor), fill_constant
 * (ShapeTensorList)...  Once specialization has fixed every feed dim these
 * values are known at compile time.  After each op's shape rule the driver
 * calls consteval_op(), which records the values of its integer outputs
 * when every input value is known; rules read them with ctx_values().
 * Values are tracked only while specializing (Graph.specializing): for
 * `inspect`, rules must give Paddle's own compile-time shapes. */
#ifndef PADDLEC_CONSTEVAL_H
#define PADDLEC_CONSTEVAL_H

#include "graph.h"

enum { CONST_MAX = 64 }; /* tensors with more elements are not tracked */

/* Records the values of small loaded integer parameters (constant folding
 * turns known tensors into them).  Called before inference when
 * specializing. */
void consteval_params(Graph *g);
/* Records the values the op produces, when it can.  Never fails. */
void consteval_op(Graph *g, Op *op);
/* 1 when every value of v is known (some entries of a shape are not: the
 * batch). */
int consteval_full(const Var *v);
/* The known values of v (count, and *vals), or -1 when not all known or not
 * specializing. */
int consteval_values(const Graph *g, const Var *v, const int64_t **vals);

#endif
