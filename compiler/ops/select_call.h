/* One data-dependent selection kernel as the lowering decided it, and its
 * C printer.
 *
 * where_index (nonzero) and masked_select keep the elements a condition
 * holds for, in row-major order, and write how many they kept into a
 * run-time extent (graph.h VAR_RUNTIME_EXTENT); masked_select_grad puts
 * the selected grads back; unique calls rt_unique_* (runtime/rt_unique.h:
 * the record carries its RtUnique `geo`: X's dims, the axis, the flags).  They walk one shape (`rank` dims, C
 * expressions); each operand is indexed by its strides along the walk ("0"
 * along a dim it is broadcast on), or by the walk's flat index when it has
 * the walk's shape (`flat`).  The emitters (where.c, masked_select.c)
 * check the tensors and fill one record; select_print_c prints the loops;
 * another backend prints the same records. */
#ifndef PADDLEC_OPS_SELECT_CALL_H
#define PADDLEC_OPS_SELECT_CALL_H

#include "ops.h"

typedef enum SelectKind {
  SELECT_NONZERO,     /* out [rows, rank] int64: the coordinates of the elements of cond that are not 0 */
  SELECT_MASKED,      /* out [rows]: x's elements where mask holds (x and mask broadcast to the walk) */
  SELECT_MASKED_GRAD, /* dx: dout's elements in turn where mask holds, 0 elsewhere, summed over x's broadcast */
  SELECT_UNIQUE,      /* out and indices, inverse, counts: RtUnique geo, then rt_unique_<suffix>(&geo, ...) */
} SelectKind;

typedef struct SelectCall {
  SelectKind kind;
  const char *ctype;                 /* the C type of cond (NONZERO), x and out (MASKED), dout and dx (GRAD) */
  int rank;                          /* the walk's dims (>= 1; UNIQUE: X's, 0 for a 0-D X) */
  const char *dims[RT_MAX_RANK];     /* their extents */
  const char *cond;                  /* NONZERO: the tensor read, of the walk's shape */
  const char *x, *mask;              /* MASKED: x; MASKED*: mask (bool) */
  const char *xstride[RT_MAX_RANK];  /* MASKED: x's, GRAD: dx's strides along the walk (NULL: flat) */
  const char *mstride[RT_MAX_RANK];  /* mask's strides along the walk (NULL: flat) */
  int x_flat, mask_flat;             /* the operand has the walk's shape: indexed by the flat index */
  const char *out;                   /* NONZERO, MASKED: written, the first `rows` rows */
  const char *rows;                  /* NONZERO, MASKED: the lvalue the count goes to */
  const char *dout, *dx, *dx_numel;  /* GRAD: dout [rows], dx [dx_numel] */
  const char *suffix;                /* UNIQUE: f32, f64, i32, i64 */
  const char *indices, *inverse, *counts, *work; /* UNIQUE: its other outputs ("NULL": not written), scratch */
  int nan_stops;                     /* UNIQUE: a NaN makes rt_unique return -1, which stops the run */
  int axis;                          /* UNIQUE: the axis slices are compared along, -1: elements */
  int sorted, consecutive, index64;  /* UNIQUE: geo's flags (index64: int64 indices, else int32) */
} SelectCall;

void select_print_c(Printer *p, const SelectCall *c);

#endif
