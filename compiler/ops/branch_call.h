/* One control-flow kernel as the lowering decided it, and its C printer.
 *
 * select_input (control_flow.c) copies the branch result X[Mask] to Out,
 * every X of Out's C type and element count; a Mask outside [0, n) leaves
 * Out as it was, and so does an X that is Out's own buffer.  The emitter
 * checks the branches and fills one record: the C type, the branches'
 * pointers, the mask, the output and its element count; branch_print_c
 * prints the copy; another backend prints the same records. */
#ifndef PADDLEC_OPS_BRANCH_CALL_H
#define PADDLEC_OPS_BRANCH_CALL_H

#include "ops.h"

typedef enum BranchKind {
  BRANCH_SELECT_INPUT, /* out = x[mask[0]] when 0 <= mask[0] < n */
} BranchKind;

typedef struct BranchCall {
  BranchKind kind;
  const char *type;       /* C element type of the branches and out */
  int n;                  /* the branches */
  const char *const *x;   /* their pointers, read */
  const char *mask;       /* one integer element, read */
  const char *out;        /* written */
  const char *numel;      /* out's (each branch's) elements */
} BranchCall;

void branch_print_c(Printer *p, const BranchCall *c);

#endif
