/* Emission helpers shared by the tensor-family ops (copies, transposes,
 * slices, broadcasts, gathers, reductions): C expressions for sizes and
 * strides, checked element types, and the data-movement kernels (the
 * calls of runtime/rt_tensor.h and the copies' loops) as MoveCall records
 * (move_call.h) they print. */
#ifndef PADDLEC_OPS_TENSOR_UTIL_H
#define PADDLEC_OPS_TENSOR_UTIL_H

#include "move_call.h"
#include "ops.h"

/* a * b and a + b as C expressions, folding "0" and "1". */
const char *tu_mul(const char *a, const char *b);
const char *tu_add(const char *a, const char *b);
/* terms[0] + ... + terms[n-1] with the numbers among them folded into
 * one, after the other terms ("0" when n is 0). */
const char *tu_sum(int n, const char *const *terms);
/* 1 when the dim is the constant 1. */
int tu_is_one(SymDim d);

/* The var bound to slot[i] with a concrete shape and a C element type;
 * NULL after em_fail() otherwise.  tu_out is the same for outputs. */
Var *tu_in(EmitCtx *e, const char *slot, int i);
Var *tu_out(EmitCtx *e, const char *slot, int i);
/* The 1.x sequence ops' CPU kernels (sequence_reshape, _concat, _slice,
 * _pad, _unpad, lod_reset): X of float32, float64, int32 or int64 and Out
 * of X's dtype; 0, or -1 after em_fail. */
int tu_seq_types(EmitCtx *e, const Var *x, const Var *out);
/* Rank of a var's concrete shape. */
int tu_rank(EmitCtx *e, const Var *v);
/* Row-major strides of v in elements, as C expressions: st[rank(v)]. */
void tu_strides(EmitCtx *e, const Var *v, const char **st);

/* out = x, the same elements in the same order (reshape and friends);
 * nothing when Out is X itself.  Fails when dtypes or element counts
 * differ. */
int tu_copy(EmitCtx *e, const Var *x, const Var *out);
/* tu_copy of `count` elements (a C expression) where the element counts
 * are the run's (a reshape to a shape fed, which the kernel checked). */
int tu_copy_count(EmitCtx *e, const Var *x, const Var *out, const char *count);
/* An op whose Out takes X's run-time extent (ctx_pass_runtime_extent,
 * ctx_pass_runtime_extent_at): the line writing Out's extent (on Out's
 * run-time dim) from X's, when both have one. */
void tu_pass_extent(EmitCtx *e, const Var *x, const Var *out);
/* The lines writing Out's run-time extents from X's, X's dim d being Out's
 * dim to[d] (ctx_pass_runtime_extents_to). */
void tu_pass_extents_to(EmitCtx *e, const Var *x, const Var *out, const int *to);
/* Every extent the op's shape rule passed from an input (or a var before
 * the op) to an output (Op.moves): a kernel's first lines, before its
 * emitter's, which then need not repeat them (a repeated one prints
 * nothing: those extents do not change while the kernel runs).  One passed
 * from another output is the emitter's to print, after it wrote that
 * output's. */
void tu_pass_recorded_extents(EmitCtx *e);
/* Out broadcast from the n operands in[k] (each at axis[k], Paddle's
 * element-wise `axis`): the lines writing each run-time extent of Out from
 * the first operand that has it there, and a stop (em_fault) where two
 * operands have run-time extents on one dim of Out that are not known to
 * be one (bcast_extents_one) and the run's differ: Paddle raises an error
 * there. */
void tu_bcast_extents(EmitCtx *e, const Var *out, int n, const Var *const *in, const int64_t *axis);

/* X@GRAD = Out@GRAD, the same elements in the same order: the gradient of
 * the ops whose Out is X's elements reshaped (reshape2, flatten, squeeze2,
 * ...; their grads take X@GRAD's shape from XShape). */
int tu_grad_copy(EmitCtx *e);

/* Emits rt_copy_strided (a MoveCall): out (contiguous, dims[rank]) takes
 * the elements of x at `offset` + sum(i[k] * strides[k]).  Dims that are
 * the constant "1" are left out of the call. */
int tu_strided_copy(EmitCtx *e, const Var *x, const char *offset, const Var *out, int rank,
                    const char *const *dims, const char *const *strides);
/* The same copy as a record (MOVE_COPY_STRIDED, or MOVE_ONE for one
 * element) for the caller to print with move_print_c. */
int tu_strided_call(EmitCtx *e, const Var *x, const char *offset, const Var *out, int rank,
                    const char *const *dims, const char *const *strides, MoveCall *call);

/* Pieces laid side by side in rows: viewing the whole as [outer, W] and
 * piece i as [outer, inner[i]], piece i fills columns [sum(inner[:i]),
 * sum(inner[:i+1])) of each row.  join = 1 copies pieces into the whole
 * (concat, stack), join = 0 the whole into the pieces (split, unstack).
 * Every var must have the whole's dtype.  With join = 0 a piece may be
 * NULL: its columns are skipped (a gradient nobody asked for). */
int tu_pieces(EmitCtx *e, const Var *whole, int n, Var *const *pieces, const char *outer,
              const char *const *inner, int join);

/* For a tensor viewed as [outer, n, inner] and walked as outer * inner
 * lines of n elements with stride inner: the offset of the first element
 * of line `line` (a C variable), i.e. (line / inner) * n * inner +
 * line % inner. */
const char *tu_line_start(const char *line, const char *n, const char *inner);

/* For a kernel whose output `out` is sized by a --max-shape bound
 * (ctx_max_shape: every dim a run-time extent), or by bounds the compiler
 * proved: prints the setting of its run-time extents to the C expressions
 * `dims` (of the run's values; n of them, those of dims that are not
 * run-time extents unread), each checked to lie within [0, its bound]
 * first (a proved bound of a model of size classes is not checked: each
 * class has its own); outside, the run stops with `why` (em_fault). */
void tu_set_extents(EmitCtx *e, const Var *out, const char *const *dims, int n, const char *why);
/* For an operand v whose size the op needs to be `want` (a C expression:
 * X's channels, its batch), `have` a C expression of v's (a dim, its
 * element count): when v or `other` (the tensor `want` comes from; NULL:
 * none) has sizes only the run knows, prints a check that they agree, the
 * run stopping with `why` (em_fault) where they do not, as the compile-time
 * check compared bounds only.  Nothing for fixed sizes. */
void tu_run_equal(EmitCtx *e, const Var *v, const Var *other, const char *have, const char *want, const char *why);
/* 1 when out's dims are the run's within a bound its op took (--max-shape or a
 * proven one: VAR_MAX_SHAPED), the kernel setting them all. */
int tu_max_shaped(EmitCtx *e, const Var *out);
/* The values the run gives in the op's `tensor` input (every element of
 * one tensor), else in its `list` input (one-element tensors), as C
 * expressions of int64_t into vals[] (at most RT_MAX_RANK); the kernels'
 * order: the tensor first.  int32 or int64.  The count, or -1 after
 * em_fail (naming `what`). */
int tu_run_values(EmitCtx *e, const char *tensor, const char *list, const char *what, const char **vals);
/* tu_run_values for an attribute given as tensors (VAR: every element of
 * one tensor; VARS: each tensor's one element). */
int tu_run_attr_values(EmitCtx *e, const char *name, const char **vals);
/* The one value of the op's input `slot` (an axis the run gives), as a C
 * expression of int64_t; NULL after em_fail when it is not one int32 or
 * int64. */
const char *tu_run_axis(EmitCtx *e, const char *slot);
/* For an axis the run gives (`value`, a C expression of int64_t) over the
 * r dims of v (r > 0): prints its reading into `axis` (a negative one
 * counts from the end; one outside [-r, r) returns 1, or, where the C
 * condition `unless` holds (NULL: never), is taken as 0) and the geometry
 * along it: axis_dims[], axis_outer, axis_n, axis_inner.  The caller says
 * why the run stops (em_fault). */
void tu_print_run_axis(EmitCtx *e, const char *value, const Var *v, int r, const char *unless);
/* tu_set_extents for the fills that take their shape from the op's
 * ShapeTensor, else its ShapeTensorList (int32 or int64; Paddle's kernels
 * read them in that order): a negative value stops the run, as Paddle's
 * kernel stops.  0, or -1 after em_fail. */
int tu_shape_extents(EmitCtx *e, const Var *out);

/* For shape rules: the values held by the tensors of input `slot` when
 * they are known at compile time (while specializing, see ctx_values):
 * one value per tensor for a list slot (ShapeTensorList, ...), every value
 * of the one tensor otherwise.  Returns the count (at most `max`), or -1
 * when the slot is absent or a value unknown. */
int tu_slot_values(OpCtx *c, const char *slot, int list, int64_t *out, int max);

/* The gradient of ops that pick elements along one axis by index (mode,
 * kthvalue, argsort, cummax, cummin): dX (dx_slot, X's shape) = 0, then
 * for each element of dOut (dout_slot) at position j along `axis` of its
 * line, dX[the same line, Indices[that element]] += dOut[element], in
 * memory order of dOut.  Indices (idx_slot, int32 or int64) and dOut hold
 * the same elements; with `dropped` the axis is not in their dims (one
 * index per line).  A 0-D X gets the C expression `scalar` (of dout,
 * idx), as each op's kernel does its own thing there.  float32, float64,
 * int32, int64.  0, or -1 after em_fail. */
int tu_index_grad(EmitCtx *e, const char *dx_slot, const char *idx_slot, const char *dout_slot, int axis,
                  int dropped, const char *scalar);

/* The dtype of vs[0] when it is float32 or float64 and every other tensor
 * of vs (NULL entries: absent optional inputs) has it too, as an op whose
 * Paddle CPU kernels are registered for float and double (one T
 * throughout) reads them; -1 after em_fail naming the op, the dtypes and
 * the tensors. */
int tu_float_dtype(EmitCtx *e, Var *const *vs, int n);
/* A scratch region (em_scratch_named) as large as v, a float32 or float64
 * tensor, declared `float *` or `double *` and named after `role`. */
const char *tu_scratch_like(EmitCtx *e, const Var *v, const char *role);

/* A literal of C type for dtype holding v ("1.5f", "INT64_C(3)", "true"),
 * as Paddle's static_cast from double gives on x86 (an int32 out of range
 * is INT32_MIN); NULL when v is NaN or past int64's range for an integer
 * type. */
const char *tu_literal(int dtype, double v);

/* `line`, a line of C written for float32, respelled for `dtype`: for
 * float64 the type float becomes double, fmaf/sqrtf/fabsf/logf/expf
 * become fma/sqrt/fabs/log/exp and a number's f suffix goes (1.0f -> 1.0), the same
 * operations in the same order; for float32 `line` itself.  Constants
 * from attributes belong in tu_literal(dtype, ...): "0.899999976f" would
 * lose its float value as a double. */
const char *tu_respell(int dtype, const char *line);

/* pr_line of a line of C written for float32 (printf format fmt),
 * respelled for `dtype` (tu_respell). */
void tu_pr(EmitCtx *e, int dtype, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The same onto a printer (the records' printers). */
void tu_pr_to(Printer *p, int dtype, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
