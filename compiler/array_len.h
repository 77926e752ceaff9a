/* Compile-time lengths of tensor arrays (LOD_TENSOR_ARRAY vars).
 *
 * paddlec keeps a tensor array as one dense tensor of [L, element dims...]
 * in the arena (spec.c), L the length the array has once every write of the
 * program ran: write_to_array at an index known at compile time in block 0,
 * or at an index that follows the counter of a counted loop.  A `while` is
 * a counted loop when its condition is `counter + a < n` or `counter + a <=
 * n` (less_than, less_equal; directly or through assign), n a value known
 * at compile time that the loop does not write, the counter an integer the
 * loop's top-level ops step by a constant S > 0 each iteration (increment,
 * scale by 1 with an integer bias, elementwise_add/sub of a known value,
 * assign, cast) and whose value on entry is known.  The trip count then
 * follows, and each top-level write_to_array of the body at index `counter
 * + b` writes the indices i0 + b, i0 + S + b, ...  A loop whose condition
 * is `data and counter + a < n` (logical_and of a counted compare and
 * anything: dynamic_decode's `not finished and step <= max_step_num`) is
 * counted as if the data never stopped it: the lengths are bounds
 * (Var.arr_bounded), the run's lengths may be less, and
 * tensor_array_to_tensor gives its joined axis a run-time extent.  Writes
 * inside a branch,
 * at an index the compiler cannot follow, or in a loop it cannot count
 * leave the array's length unknown (Var.arr_why says why), and the program
 * is refused. */
#ifndef PADDLEC_ARRAY_LEN_H
#define PADDLEC_ARRAY_LEN_H

#include "graph.h"

/* Before inference: every array empty, its element shape not yet set. */
void array_len_reset(Graph *g);
/* The array `a` has a length the compiler cannot know (the first reason
 * given stays). */
void array_len_unknown(Var *a, const char *why);
/* A write_to_array `op` (its rule): in block 0 at a known index the array
 * grows to cover it; inside a branch its length is unknown; in a loop's body
 * array_len_loop decides. */
void array_len_write(Graph *g, const Op *op, Var *arr, const Var *index);
/* After while `w` and its body were inferred: the lengths of the arrays its
 * body's top-level ops write.  carried[k] are the outer vars the body
 * writes, before[k] those vars as they were on entry (their compile-time
 * values). */
void array_len_loop(Graph *g, const Op *w, const int *carried, const Var *before, int ncarried);

#endif
