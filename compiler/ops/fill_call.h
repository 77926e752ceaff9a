/* Kernels that fill one buffer from constants or from other buffers as
 * they are, as the lowering decided them, and their C printer.
 *
 * The constant fills write every element of Out without reading a tensor
 * of its shape: a constant (fill_constant, fill_constant_batch_size_like,
 * fill_any_like, fill_zeros_like[2]), the identity matrix (eye), the
 * sequences of range, linspace and logspace from bounds read at run time,
 * tril_indices' and triu_indices' coordinates, and
 * assign_value's values from a static array.  sum adds its inputs
 * element-wise into Out (inputs without elements left out);
 * coalesce_tensor packs its inputs one after the other into FusedOutput
 * (copies, or a constant) and gives each Output bound to another var than
 * its Input the same values.  shape and size write dims and element
 * counts, C expressions of the model's sizes; trunc_grad's zeros are a
 * constant fill.  The emitters (fill_constant.c, eye.c, range.c,
 * assign.c, sum.c, coalesce_tensor.c, shape.c, size.c, activation.c)
 * check the op and fill one record: the kind, the C type, the counts as
 * C expressions, the values as C literals of that type or the buffers they
 * are read from, and the pointers; fill_print_c prints the code; another
 * backend prints the same records. */
#ifndef PADDLEC_OPS_FILL_CALL_H
#define PADDLEC_OPS_FILL_CALL_H

#include "ops.h"

typedef enum FillKind {
  FILL_VALUE,    /* out[i] = value (or (type)from[0]), i < n */
  FILL_EYE,      /* out [rows, cols] = zero, with one on the main diagonal */
  FILL_RANGE,    /* out[i] = start[0] + step[0] added i times, i < n */
  FILL_LINSPACE, /* n values from start[0] to stop[0], both ends exact */
  FILL_LOGSPACE, /* base[0] to the power of LINSPACE's values, computed in double */
  FILL_TRI_INDICES, /* out [2, n]: the (row, col) of a rows x cols matrix's lower (upper) triangle, row-major */
  FILL_VALUES,   /* out = the constants `values`, through a static array */
  FILL_SUM,      /* out[i] = x<k0>[i] + x<k1>[i] + ... (0 without inputs) */
  FILL_COALESCE, /* each part in turn: into fused at its offset, and into its output */
  FILL_DIMS,     /* out[k] = (type)values[k], k < nvalues: C expressions (shape's dims) */
  FILL_ONE,      /* out[0] = value, a C expression (size's element count) */
} FillKind;

/* One input of coalesce_tensor. */
typedef struct FillPart {
  const char *src;  /* COPY: Input's pointer (read) */
  const char *dst;  /* Output's pointer (written); NULL when copying onto Input itself */
  const char *n;    /* its element count */
  const char *name; /* Input's name, for the comment */
} FillPart;

typedef struct FillCall {
  FillKind kind;
  const char *type;         /* C element type of out */
  const char *out;          /* written (all kinds but COALESCE) */
  const char *n;            /* VALUE, RANGE, LINSPACE, SUM: out's elements */
  const char *value;        /* VALUE: a literal of type, when from is NULL; ONE: the expression */
  const char *local;        /* VALUE: the local out is named (NULL: "out") */
  const char *from;         /* VALUE: the buffer whose [0] is the value, read at run time, or NULL */
  const char *check;        /* VALUE with from: the value read as a double v (phi's Scalar), this C
                             * condition on v must hold or the run stops (NULL: (type)from[0]) */
  const char *rows, *cols;  /* EYE: out's dims; TRI_INDICES: the matrix's */
  long long offset;         /* TRI_INDICES: the diagonal's: c <= r + offset (lower), c >= r + offset (upper) */
  int upper;                /* TRI_INDICES: the upper triangle */
  const char *zero, *one;   /* EYE: literals of type */
  const char *start, *stop; /* RANGE (start), LINSPACE: the buffers whose [0] are the bounds */
  const char *step;         /* RANGE: the buffer whose [0] is the step */
  const char *base;         /* LOGSPACE: the buffer whose [0] is the base */
  /* VALUES: the constants as C literals; DIMS: the expressions */
  const char *const *values;
  int nvalues;
  /* SUM: the inputs kept, x<idx[k]> = xs[k] */
  const int *idx;
  const char *const *xs;
  int nx;
  /* COALESCE */
  const char *fused;     /* FusedOutput (written), NULL when not bound */
  int copy;              /* 1: copy the inputs; 0: write `constant` */
  const char *constant;  /* !copy: the value */
  const FillPart *parts; /* the inputs in order */
  int nparts;
} FillCall;

void fill_print_c(Printer *p, const FillCall *c);

#endif
