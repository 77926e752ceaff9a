/* The optimizer updates' kernels as the lowering decided them, and their C
 * printer.
 *
 * Each update (optimizer.c: sgd, momentum, adam, adamw, adagrad, rmsprop,
 * adamax, adadelta, lamb) is one loop over Param's elements, run as tasks:
 * element i of every output from element i of the inputs, the one-element
 * inputs read at the top of each task.  The emitter decides the formula
 * (which statements, for which dtype, the attribute constants, the beta
 * powers' handling) and hands the loop over as its statements, written for
 * float32 and respelled by the printer for the update's dtype
 * (tu_respell); around the task it prints, through records of their own,
 * SkipUpdate's test and copies, lamb's trust ratio between its two loops,
 * the beta powers after the loop and a merged op's per-parameter braces.
 * lars_momentum (its norms summed in one pass, then the update),
 * squared_l2_norm (gradient clipping's sum of squares) and its grad, and
 * clip_by_norm (ClipGradByNorm's clip of one gradient) are one record each.  opt_print_c prints them; another backend prints the same
 * records. */
#ifndef PADDLEC_OPS_OPT_CALL_H
#define PADDLEC_OPS_OPT_CALL_H

#include "ops.h"

typedef enum OptKind {
  OPT_UPDATE,      /* in a task: the pointers, the `pre` lines, for (i = lo; i < hi; i++) { body } */
  OPT_PARAM_OPEN,  /* a merged op: a brace, and a comment naming parameter k of n, before its update */
  OPT_PARAM_CLOSE, /* a merged op: the brace after it */
  OPT_BEGIN,       /* before the update: SkipUpdate's test and the copies it makes, or rmsprop's MeanGradOut copy;
                      lamb: its first pass's brace */
  OPT_LAMB_RATIO,  /* lamb between its passes: the trust ratio |Param| / |r| into scratch after r */
  OPT_END,         /* after the update: lamb's brace, the beta powers, SkipUpdate's brace */
  OPT_LARS,        /* one lars_momentum parameter: the norms, the local learning rate, the update */
  OPT_SQUARED_L2,  /* out[0] = the sum of x's squares, in element order */
  OPT_SQUARED_L2_GRAD, /* dx = (dout[0] * 2) * x */
  OPT_CLIP_BY_NORM,    /* out = x * scaling, from the norm of x and max_norm (clip_by_norm) */
} OptKind;

/* A pointer the update loop declares. */
typedef struct OptOperand {
  const char *name; /* C name in the loop ("p", "m1o", ...) */
  const char *type; /* C element type */
  const char *at;   /* pointer expression */
  int out;          /* 1: written (T *), 0: read (const T *) */
} OptOperand;

/* memcpy(dst, src, sizeof(type) * n). */
typedef struct OptCopy {
  const char *dst, *src; /* pointer expressions */
  const char *type;      /* C element type */
  const char *n;         /* element count */
} OptCopy;

/* out[0] = lhs * rhs (a beta power). */
typedef struct OptPow {
  const char *out;      /* pointer expression written */
  const char *lhs, *rhs; /* the factors as C expressions */
} OptPow;

typedef struct OptCall {
  OptKind kind;
  int dtype;        /* the update's dtype: float32 lines are respelled for it (tu_respell) */
  const char *type; /* C element type (LAMB_RATIO, LARS, SQUARED_L2*) */
  /* UPDATE */
  const OptOperand *ptrs; /* the pointers, in declaration order */
  int nptrs;
  const char *const *pre;  /* lines before the loop (the task's scalars), NULL-terminated; NULL: none */
  const char *const *body; /* the loop's statements, NULL-terminated */
  /* PARAM_OPEN: parameter k (from 1) of n, and its name */
  int k, n;
  const char *name; /* also LARS: Param's name */
  /* BEGIN: skip is SkipUpdate's pointer (NULL: no test); copies are the
   * memcpys (SkipUpdate's when skip, else rmsprop's); lamb: open pass 1.
   * END: lamb closes pass 3; pows; skip closes SkipUpdate's else. */
  const char *skip;
  const OptCopy *copies;
  int ncopies;
  int lamb;
  OptPow pows[2]; /* END: Beta1PowOut, Beta2PowOut, those the update writes */
  int npows;
  /* LAMB_RATIO: r (scratch: r, then the ratio at r[numel]); adapt: sum the
   * norms (p then holds Param's pointer); numel: Param's element count */
  const char *r;
  int adapt;
  const char *numel; /* also LARS, SQUARED_L2*: the element count */
  /* LARS, SQUARED_L2*: pointers (p also LAMB_RATIO) */
  const char *p, *g, *v, *lr, *po, *vo; /* LARS: Param, Grad, Velocity, LearningRate read; ParamOut, VelocityOut */
  const char *x, *out, *dout, *dx;      /* SQUARED_L2, CLIP_BY_NORM: x read, out written; GRAD: x, dout read, dx written */
  const char *max_norm;                 /* CLIP_BY_NORM: the attribute, a float literal */
  /* LARS: constants of the dtype (tu_literal) */
  const char *mu, *coeff, *eps, *rescale, *wd;
} OptCall;

void opt_print_c(Printer *p, const OptCall *c);

#endif
