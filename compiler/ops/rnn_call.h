/* The recurrent and random kernel calls as the lowering decided them, and
 * their C printers.
 *
 * rnn and rnn_grad print the geometry (a constant RtRnn named `geo`) and
 * their operands as locals, then fill an RnnCall.  The random draws (the
 * fills of uniform_random, gaussian_random, truncated_gaussian_random and
 * randint, dropout's and rnn's masks, and the seeding of a fresh engine)
 * are RandomCall records: the engine, the buffers and the distribution's
 * parameters as C expressions.  rnn_print_c and random_print_c are the
 * only code that spells these runtime calls (rt_rnn*, rt_mt_seed,
 * rt_fill_*, rt_uniform_int, rt_dropout_*: runtime/rt_rnn.h,
 * rt_random.h); another backend prints the same records. */
#ifndef PADDLEC_OPS_RNN_CALL_H
#define PADDLEC_OPS_RNN_CALL_H

#include "ops.h"

typedef enum RnnKind {
  RNN_FORWARD, /* out, h_n, c_n from x, the weights and h0, c0 */
  RNN_GRAD,    /* dx, dweights, dh0, dc0 from dout, dh_n, dc_n */
} RnnKind;

typedef struct RnnCall {
  RnnKind kind;
  int f64;                                     /* float64 (rt_rnn_f64, rt_rnn_grad_f64), else float32 */
  const char *x, *weights, *h0, *c0, *lengths; /* the inputs (c0, lengths: "NULL" when none) */
  const char *out, *h_n, *c_n;                 /* RNN_FORWARD: the outputs */
  const char *dout, *dh_n, *dc_n;              /* RNN_GRAD: the outputs' gradients */
  const char *dx, *dweights, *dh0, *dc0;       /* RNN_GRAD: the gradients written */
  const char *ws, *gemm_ws;                    /* the workspace and the GEMM's packing room */
} RnnCall;

void rnn_print_c(Printer *p, const RnnCall *c);

typedef enum RandomKind {
  RANDOM_SEED,             /* mt = a fresh engine seeded with seed */
  RANDOM_UNIFORM,          /* out[0..n) from uniform_real_distribution(lo, hi) */
  RANDOM_NORMAL,           /* out[0..n) from normal_distribution(mean, stddev) */
  RANDOM_TRUNCATED_NORMAL, /* the same, truncated to mean +- 2 stddev */
  RANDOM_UNIFORM_INT,      /* out[i] = (type)uniform_int_distribution(lo, hi), i < n */
  RANDOM_DROPOUT,          /* y = x dropped with probability p, and its mask */
  RANDOM_DROPOUT_MASK,     /* the mask alone */
  RANDOM_RRELU,            /* y = x, or x times a slope drawn from uniform(lo, hi) */
} RandomKind;

typedef struct RandomCall {
  RandomKind kind;
  const char *mt;           /* the engine (an RtMt *) */
  const char *seed;         /* RANDOM_SEED: a uint64_t */
  int f64;                  /* fills, RANDOM_DROPOUT, RANDOM_RRELU: float64, else float32 */
  const char *out, *n;      /* fills: out[0..n); RANDOM_DROPOUT*: n elements */
  const char *lo, *hi;      /* RANDOM_UNIFORM, RANDOM_UNIFORM_INT (hi included), RANDOM_RRELU: literals */
  const char *mean, *stddev; /* RANDOM_NORMAL, RANDOM_TRUNCATED_NORMAL: literals */
  const char *type;         /* RANDOM_UNIFORM_INT: out's C type */
  const char *x, *y, *mask; /* RANDOM_DROPOUT, RANDOM_RRELU: x, y; RANDOM_DROPOUT*: the mask;
                               RANDOM_RRELU: the slopes (Noise) or NULL */
  const char *p;            /* RANDOM_DROPOUT*: the drop probability, a float literal */
  int upscale;              /* RANDOM_DROPOUT: kept elements are x / (1 - p) */
  const char *note;         /* a comment after the call, or NULL */
} RandomCall;

void random_print_c(Printer *p, const RandomCall *c);

#endif
