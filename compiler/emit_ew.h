/* Element-wise loop emission shared by the unary, binary, comparison and
 * logical op families: one flat loop for same-shape operands, nested loops
 * over collapsed dims with zero strides for Paddle's `axis` broadcasting. */
#ifndef PADDLEC_EMIT_EW_H
#define PADDLEC_EMIT_EW_H

#include "emit.h"

/* out[i] = expr for each element, where expr reads the input element as `v`
 * (of x's C type).  `setup` (may be NULL) is emitted before the loop. */
int ew_unary(EmitCtx *e, const Var *x, const Var *out, const char *setup, const char *expr);
/* A float C expression rewritten for double operands: <math.h> float
 * functions (expf, fmaxf, ...) become their double versions, runtime ones
 * (rt_digammaf, ...) their double twins, float literals (0.5f) and casts
 * ((float)) double ones; other calls stay as they are.  NULL (a refusal)
 * where it calls a runtime function (rt_...) with no double twin. */
const char *ew_expr_double(const char *expr);
/* 1 when C expression `expr` names identifier `id` (not as part of a
 * longer name): which operands an expression reads. */
int ew_names(const char *expr, const char *id);
/* One operand of an element-wise loop. */
typedef struct EwIn {
  const Var *v;      /* the tensor */
  int64_t axis;      /* where its dims align with out's when its rank is lower (Paddle's
                      * `axis`; -1 = trailing) */
  const char *ptr;   /* the C name of its pointer */
  const char *elem;  /* the C name of its element inside the loop */
} EwIn;
enum { EW_MAX_IN = 16 }; /* operands of one loop */
/* One collapsed loop dim: its extent and which operands run along it. */
typedef struct EwDim {
  const char *extent;    /* C expression */
  int varies[EW_MAX_IN]; /* 1 when operand k varies along this dim */
} EwDim;
/* An element-wise loop as the lowering decided it (the record a backend
 * prints): out's elements over nd collapsed dims, outermost first (none:
 * one element), the operands with the dims each runs along, their C types
 * and pointers, and the C statements of one element. */
typedef struct EwLoop {
  const Var *out;
  int n;
  const EwIn *in;
  int nd;
  EwDim dims[RT_MAX_RANK];
  const char *setup, *body, *result; /* before the loop (or NULL); per element (or NULL); the value stored */
  const char *type[EW_MAX_IN];       /* each operand's C element type */
  const char *src[EW_MAX_IN];        /* each operand's buffer (em_ptr), named in[k].ptr in the loop */
  const char *out_type, *out_ptr;    /* out's C element type and buffer, named `out` in the loop */
} EwLoop;
/* The loop as C, one task's share of the outermost dim (the lowering opens
 * and closes the task around it): one flat loop when at most one dim is
 * left, else nested loops with each operand's strides. */
void ew_print_c(Printer *p, const EwLoop *l);
/* out[...] = result over out's elements: each operand broadcast to out's
 * shape as Paddle's elementwise ops do, its element loaded into `elem`,
 * then `body` (statements, one per line; may be NULL), then the store;
 * `setup` (may be NULL) comes before the loop.  Dims along which every
 * operand moves alike are collapsed into one loop, whose outermost dim is
 * split into tasks on the model's threads (em_task_begin). */
int ew_nary(EmitCtx *e, const Var *out, int n, const EwIn *in, const char *setup, const char *body,
            const char *result);
/* out = expr(a, b) with Paddle's broadcasting of X and Y at `axis`; `a` and
 * `b` are the elements of x and y. */
int ew_binary(EmitCtx *e, const Var *x, const Var *y, const Var *out, int64_t axis, const char *expr);
/* The same with `v` (of out's C type) bound to `bind`, an expression of a
 * and b, before expr is computed: expr = act(v) with v = a + b, say. */
int ew_binary_bind(EmitCtx *e, const Var *x, const Var *y, const Var *out, int64_t axis, const char *bind,
                   const char *expr);

#endif
