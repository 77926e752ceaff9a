/* Kernels that fill one buffer from others or from constants, as the
 * lowering decided them, and their C printer.
 *
 * sum adds its inputs element-wise into Out (inputs without elements left
 * out); assign_value stores its values from a static array; coalesce_tensor
 * packs its inputs one after the other into FusedOutput (copies, or a
 * constant) and gives each Output bound to another var than its Input the
 * same values.  The emitters (sum.c, assign.c, coalesce_tensor.c) check the
 * tensors and attributes and fill one record: the kind, the C type, the
 * pointers and counts as C expressions; fill_print_c prints the code;
 * another backend prints the same records. */
#ifndef PADDLEC_OPS_FILL_CALL_H
#define PADDLEC_OPS_FILL_CALL_H

#include "ops.h"

typedef enum FillKind {
  FILL_SUM,      /* out[i] = x<k0>[i] + x<k1>[i] + ... (0 without inputs) */
  FILL_VALUES,   /* out = the constants `values`, through a static array */
  FILL_COALESCE, /* each part in turn: into fused at its offset, and into its output */
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
  const char *type; /* C element type */
  const char *out;  /* SUM, VALUES: written */
  const char *n;    /* SUM: Out's element count */
  /* SUM: the inputs kept, x<idx[k]> = xs[k] */
  const int *idx;
  const char *const *xs;
  int nx;
  /* VALUES: the constants as C literals */
  const char *const *values;
  int nvalues;
  /* COALESCE */
  const char *fused;     /* FusedOutput (written), NULL when not bound */
  int copy;              /* 1: copy the inputs; 0: write `constant` */
  const char *constant;  /* !copy: the value */
  const FillPart *parts; /* the inputs in order */
  int nparts;
} FillCall;

void fill_print_c(Printer *p, const FillCall *c);

#endif
