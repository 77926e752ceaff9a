/* Element-wise loop emission shared by the unary, binary, comparison and
 * logical op families: one flat loop for same-shape operands, nested loops
 * over collapsed dims with zero strides for Paddle's `axis` broadcasting. */
#ifndef PADDLEC_EMIT_EW_H
#define PADDLEC_EMIT_EW_H

#include "emit.h"

/* out[i] = expr for each element, where expr reads the input element as `v`
 * (of x's C type).  `setup` (may be NULL) is emitted before the loop. */
int ew_unary(EmitCtx *e, const Var *x, const Var *out, const char *setup, const char *expr);
/* out = expr(a, b) with Paddle's broadcasting of X and Y at `axis`; `a` and
 * `b` are the elements of x and y. */
int ew_binary(EmitCtx *e, const Var *x, const Var *y, const Var *out, int64_t axis, const char *expr);
/* The same with `v` (of out's C type) bound to `bind`, an expression of a
 * and b, before expr is computed: expr = act(v) with v = a + b, say. */
int ew_binary_bind(EmitCtx *e, const Var *x, const Var *y, const Var *out, int64_t axis, const char *bind,
                   const char *expr);

#endif
