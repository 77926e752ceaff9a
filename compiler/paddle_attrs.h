/* Paddle's default attribute values, per op type (paddle_attrs.c, generated
 * from Paddle 2.6's op makers by tests/oracle/gen_paddle_attrs.py).  An
 * attribute no paddlec code reads is accepted only while it holds this
 * value (op_check_attrs, compiler/ops/op_ctx.c). */
#ifndef PADDLEC_PADDLE_ATTRS_H
#define PADDLEC_PADDLE_ATTRS_H

#include <stdint.h>

enum { PA_BOOL, PA_INT, PA_FLOAT, PA_STR, PA_LIST, PA_INTS, PA_FLOATS, PA_OTHER, PA_REQUIRED };

typedef struct PaddleAttr {
  const char *op, *name; /* op type, attribute name */
  int extra;             /* Paddle marks it extra (read by oneDNN or cuDNN kernels) */
  int kind;              /* PA_*; PA_LIST: an empty list of any kind;
                          * PA_REQUIRED: no default, a program sets it */
  int n;                 /* PA_INTS, PA_FLOATS: element count */
  int64_t i;             /* PA_BOOL, PA_INT */
  double f;              /* PA_FLOAT */
  const char *s;         /* PA_STR */
  const int64_t *ints;   /* PA_INTS */
  const double *floats;  /* PA_FLOATS */
} PaddleAttr;

extern const PaddleAttr paddle_attrs[];
extern const int paddle_nattrs;
extern const char *const paddle_ops[];
extern const int paddle_nops;

/* Paddle's entry for attribute `name` of op type `op`, or NULL; whether
 * Paddle 2.6 knows op type `op` at all. */
const PaddleAttr *paddle_attr_find(const char *op, const char *name);
int paddle_knows_op(const char *op);

#endif
