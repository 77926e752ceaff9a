/* One control-flow kernel as the lowering decided it, and its C printer.
 *
 * while and conditional_block (control_flow.c) run the kernels of their
 * sub-block's ops, each a function of its own (em_sub_kernel): in a C
 * `while` whose condition reads the Condition tensor again before every
 * iteration, or in an `if`.  A kernel of the block that can fault makes
 * the control-flow kernel return its fault.
 *
 * select_output copies X to Out[Mask], the others left as they are (a Mask
 * outside [0, n) stops the run, as Paddle does: the kernel returns 1), the
 * grad of select_input in cond's backward.
 * select_input (control_flow.c) copies the branch result X[Mask] to Out,
 * every X of Out's C type and element count (nothing when X is Out's own
 * buffer); a Mask outside [0, n) stops the run, as it stops Paddle.  The emitter
 * checks the branches and fills one record: the C type, the branches'
 * pointers, the mask, the output and its element count; branch_print_c
 * prints the copy; another backend prints the same records. */
#ifndef PADDLEC_OPS_BRANCH_CALL_H
#define PADDLEC_OPS_BRANCH_CALL_H

#include "ops.h"

typedef enum BranchKind {
  BRANCH_SELECT_INPUT, /* out = x[mask[0]]; a fault when mask[0] is outside [0, n) */
  BRANCH_SELECT_OUTPUT, /* outs[mask[0]] = x[0]; a fault when mask[0] is outside [0, n) */
  BRANCH_IF,           /* the calls, once, when cond holds */
  BRANCH_WHILE,        /* the calls, again and again while cond holds */
  BRANCH_STEPS,        /* recurrent: the calls once per time step, with the step's copies */
  BRANCH_GRAD,         /* conditional_block_grad: BRANCH_IF, then the grads out; zeros when cond fails */
  BRANCH_WHILE_GRAD,   /* while_grad: the calls once per iteration the while ran, the last first */
} BranchKind;

/* BRANCH_STEPS: one copy of `numel` elements of `type` per step: a step
 * input (dst = src's slice t), an ex-state (dst = src at the first step,
 * src2 after), an output (dst's slice t = src). */
typedef struct StepCopy {
  const char *dst, *src, *src2, *numel, *type;
} StepCopy;

/* A var a training program's while keeps per iteration (while_steps.h):
 * `steps` holds `numel` elements of `type` per iteration; an outer var is
 * kept as an iteration begins (and its final value in slot `bound`), the
 * body's own as it ends. */
typedef struct StepKeep {
  const char *var, *steps, *numel, *type;
  int outer;
} StepKeep;

typedef struct BranchCall {
  BranchKind kind;
  const char *type;       /* C element type of the branches and out */
  int n;                  /* the branches */
  const char *const *x;   /* their pointers, read */
  const char *mask;       /* one integer element, read */
  const char *out;        /* written */
  const char *const *outs; /* BRANCH_SELECT_OUTPUT: the n outputs, one written */
  const char *numel;      /* out's (each branch's) elements */
  /* BRANCH_IF, BRANCH_WHILE: */
  const char *cond;       /* a C condition, evaluated before each run of the calls */
  int ncalls;             /* the kernels of the sub-block, in program order */
  const char *const *calls; /* each one's call */
  const int *faults;      /* 1: the call returns nonzero on a fault, which ends the kernel */
  /* BRANCH_STEPS: */
  const char *steps;      /* the time steps T */
  int reverse;            /* step i is time T - 1 - i */
  int nin, nstate, nout;  /* the copies: */
  const StepCopy *step_in, *step_state, *step_out;
  /* BRANCH_GRAD: each input's grad, copied from the block's (src), or
   * zeros (src NULL: the block makes none; or cond fails).
   * BRANCH_WHILE_GRAD: the grads summed over the iterations (dst zeroed,
   * then src added after each run of the calls) */
  int ngrads;
  const StepCopy *grads;
  /* BRANCH_WHILE (with count) and BRANCH_WHILE_GRAD: */
  const char *count;      /* int64_t [1]: the iterations the while ran */
  const char *bound;      /* the most it runs (the compiler's count), with nkeep */
  int nkeep;              /* the vars kept per iteration */
  const StepKeep *keep;
  /* BRANCH_WHILE_GRAD: grads read before any op wrote them, zeroed first
   * (dst: numel of type); an array's run-time length (src, an lvalue) set
   * to its src2 elements, all zeros */
  int nzero;
  const StepCopy *zero;
} BranchCall;

void branch_print_c(Printer *p, const BranchCall *c);

#endif
