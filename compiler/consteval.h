/* Compile-time values of small integer tensors, for specialization.
 *
 * Programs exported with dynamic shapes compute shapes with ops: `shape`,
 * `slice` of it, `fill_constant`, `concat`, arithmetic, and feed the result
 * to reshape2 (ShapeTensor), interpolation (SizeTensor), fill_constant
 * (ShapeTensorList)...  Once specialization has fixed every feed dim these
 * values are known at compile time.  After each op's shape rule the driver
 * calls consteval_op(), which runs the op's fold hook (OpDef.fold, in the
 * op's own file): it records the values of its integer outputs that its
 * inputs' known values give; rules read them with ctx_values().
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
/* Records the values the op produces, when it can (its fold hook).  Never
 * fails. */
void consteval_op(Graph *g, Op *op);
/* 1 when every value of v is known (some entries of a shape are not: the
 * batch). */
int consteval_full(const Var *v);
/* The known values of v (count, and *vals), or -1 when not all known or not
 * specializing. */
int consteval_values(const Graph *g, const Var *v, const int64_t **vals);

/* ---- for the fold hooks ----
 * A tracked var has n values (v->vals, v->nvals) of which those whose bit is
 * set in v->vmask are known (a shape's batch entry is not); a single value
 * broadcasts. */
int consteval_tracked(const Var *v);
/* The mask with the n low bits set. */
uint64_t consteval_all_known(int n);
/* The known bit of element i of v (a single value broadcasts). */
int consteval_bit(const Var *v, int i);
/* Records n values of out, those with their bit in `mask` known; nothing
 * when out is no small integer tensor of n elements or none is known. */
void consteval_set(Var *out, const int64_t *vals, int n, uint64_t mask);
struct OpCtx;
/* A fold hook: Out's values are X's (assign, reshape, squeeze, flatten,
 * cast: a copy). */
void consteval_fold_copy(struct OpCtx *c);
/* Output `out_slot`'s values are those of the inputs X one after another,
 * when axis is 0 (concat and stack of 1-D pieces). */
void consteval_join(struct OpCtx *c, const char *out_slot);

#endif
