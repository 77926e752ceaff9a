/* The recurrent and random kernel calls as the lowering decided them, and
 * their C printers.
 *
 * rnn and rnn_grad are RnnCall records: the geometry (printed as a constant
 * RtRnn named `geo`), the weight pointers with their names for the
 * comments, SequenceLength (widened to int64 when int32), the dropout mask
 * (the forward draws it) and the operands as pointer expressions; rnn.c
 * checks the op and fills one record per op, and rnn_print_c declares the
 * operands as locals and calls the kernel.  The random draws (the
 * fills of uniform_random, gaussian_random, truncated_gaussian_random and
 * randint, dropout's, rrelu's and rnn's masks, and the engine they draw
 * from: the model's global generator or a fresh one, seeded) are
 * RandomCall records: the engine, the buffers and the distribution's
 * parameters as C expressions; random.c, dropout.c, rrelu.c and rnn.c
 * check the op and fill them, one record per statement group.
 * rnn_print_c and random_print_c are the only code that spells these
 * runtime calls (rt_rnn*, rt_mt_seed, rt_fill_*, rt_uniform_int,
 * rt_dropout_*, rt_rrelu_*: runtime/rt_rnn.h, rt_random.h); another
 * backend prints the same records. */
#ifndef PADDLEC_OPS_RNN_CALL_H
#define PADDLEC_OPS_RNN_CALL_H

#include "ops.h"

typedef enum RnnKind {
  RNN_FORWARD, /* out, h_n, c_n from x, the weights and h0, c0 */
  RNN_GRAD,    /* dx, dweights, dh0, dc0 from dout, dh_n, dc_n */
} RnnKind;

typedef struct RnnCall {
  RnnKind kind;
  int f64;          /* float64 (rt_rnn_f64, rt_rnn_grad_f64), else float32 */
  const char *type; /* the C element type: "float" or "double" */
  /* the geometry: the cell's enum name (RT_RNN_LSTM, ...), the time steps
   * and the batch as C expressions, the sizes; dropout_prob a float
   * literal when the op drops between layers (then `mask` is read), else NULL */
  const char *mode, *seq_len, *batch;
  int64_t input_size, hidden_size, num_layers, num_dirs;
  const char *dropout_prob;
  int nweights;                     /* 4 per layer and direction */
  const char *const *weights;       /* WeightList: nweights pointer expressions */
  const char *const *weight_notes;  /* their comments (name and shape) */
  const char *const *dweights;      /* RNN_GRAD: WeightList@GRAD's pointers, NULL entries: not wanted */
  const char *const *dweight_notes; /* their names */
  const char *x, *h0, *c0;          /* the inputs (c0: "NULL" when none) */
  const char *lengths;              /* SequenceLength or NULL (none) */
  const char *wide;                 /* int32 lengths: an int64_t * scratch to widen them into, else NULL */
  const char *out, *h_n, *c_n;      /* RNN_FORWARD: the outputs */
  const char *dout, *dh_n, *dc_n;   /* RNN_GRAD: the outputs' gradients ("NULL": zero) */
  const char *dx, *dh0, *dc0;       /* RNN_GRAD: the gradients written ("NULL": not wanted) */
  const char *mask;                 /* DropoutState when the op drops, else NULL */
  /* RNN_FORWARD with a mask: its element count, the drop probability (a
   * float literal), and the engine: mask_seed (a uint64_t expression) seeds
   * a fresh one, else the global generator; mask_all: p is 1, nothing drawn */
  const char *mask_n, *mask_p, *mask_seed;
  int mask_all;
  const char *ws, *gemm_ws; /* the workspace and the GEMM's packing room */
} RnnCall;

void rnn_print_c(Printer *p, const RnnCall *c);

typedef enum RandomKind {
  RANDOM_ENGINE,           /* declares RtMt *mt: the global generator m->rng, or a fresh engine seeded with
                              seed, or one seeded with seed_from[0] at run time unless it is 0 */
  RANDOM_SEED,             /* mt = a fresh engine seeded with seed */
  RANDOM_UNIFORM,          /* out[0..n) from uniform_real_distribution(lo, hi), then the diagonal */
  RANDOM_NORMAL,           /* out[0..n) from normal_distribution(mean, stddev) */
  RANDOM_TRUNCATED_NORMAL, /* the same, truncated to mean +- 2 stddev */
  RANDOM_UNIFORM_INT,      /* out[i] = (type)uniform_int_distribution(lo, hi), i < n */
  RANDOM_DROPOUT,          /* y = x dropped with probability p, and its mask */
  RANDOM_DROPOUT_ALL,      /* p is 1: y and the mask zeroed, nothing drawn */
  RANDOM_DROPOUT_MASK,     /* the mask alone */
  RANDOM_RRELU,            /* y = x, or x times a slope drawn from uniform(lo, hi) */
  RANDOM_RRELU_SLOPES,     /* inference: mask[i] = x[i] < 0 ? slope : 1, nothing drawn */
} RandomKind;

typedef struct RandomCall {
  RandomKind kind;
  const char *mt;           /* the engine (an RtMt *); RANDOM_ENGINE declares `mt` itself */
  const char *seed;         /* RANDOM_SEED, RANDOM_ENGINE (NULL: the global generator): a uint64_t */
  const char *seed_from;    /* RANDOM_ENGINE: an int32 buffer whose [0] seeds a fresh engine when not 0, or NULL */
  int f64;                  /* fills, RANDOM_DROPOUT, RANDOM_RRELU*: float64, else float32 */
  const char *out, *n;      /* fills: out[0..n); RANDOM_DROPOUT*, RANDOM_RRELU*: n elements */
  const char *lo, *hi;      /* RANDOM_UNIFORM, RANDOM_UNIFORM_INT (hi included), RANDOM_RRELU: literals */
  int64_t diag_num;         /* RANDOM_UNIFORM: out[i * diag_stride] = diag_val for i < diag_num (0: none) */
  int64_t diag_stride;
  const char *diag_val;     /* a literal */
  const char *mean, *stddev; /* RANDOM_NORMAL, RANDOM_TRUNCATED_NORMAL: literals */
  const char *type;         /* RANDOM_UNIFORM_INT: out's C type; RANDOM_DROPOUT_ALL: y's */
  const char *x, *y, *mask; /* RANDOM_DROPOUT*, RANDOM_RRELU: x, y; RANDOM_DROPOUT*: the mask;
                               RANDOM_RRELU: the slopes (Noise) or NULL; RANDOM_RRELU_SLOPES: x, the slopes */
  const char *p;            /* RANDOM_DROPOUT*: the drop probability, a float literal */
  int upscale;              /* RANDOM_DROPOUT: kept elements are x / (1 - p) */
  const char *slope;        /* RANDOM_RRELU_SLOPES: the slope of x < 0, a literal */
  const char *note;         /* a comment after the call, or NULL */
} RandomCall;

void random_print_c(Printer *p, const RandomCall *c);

#endif
