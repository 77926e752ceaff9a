/* One reduction kernel as the lowering decided it, and its C printer.
 *
 * X's dims collapse into alternating runs of kept and reduced dims (dims
 * of extent 1 dropped); the forward folds each element of X, read in
 * memory order, into its output element, and the grad writes X@GRAD once,
 * in memory order, from the output element each X element was reduced
 * into.  The emitters (reduce.c) check the tensors, decide the runs and
 * fill one record: the fold (step, start value, final map), the runs, the
 * buffers and the counts as C expressions; reduce_print_c prints the loops;
 * another backend prints the same records.  mean_grad (every element of
 * X@GRAD the one Out@GRAD element over X's count) is a record here too. */
#ifndef PADDLEC_OPS_REDUCE_CALL_H
#define PADDLEC_OPS_REDUCE_CALL_H

#include "ops.h"

typedef enum ReduceKind {
  REDUCE_FORWARD, /* out = fold of x over the reduced runs */
  REDUCE_GRAD,    /* dx from dout (and x, out where the grad reads them) */
  REDUCE_MEAN_ALL_GRAD, /* mean_grad: dx[i] = dout[0] / (type)count, i < count */
} ReduceKind;

/* What the grad computes per element (g = its Out@GRAD element). */
typedef enum ReduceGrad {
  RGRAD_SUM,       /* g */
  RGRAD_MEAN,      /* g / count */
  RGRAD_SELECT,    /* max / min: x == out ? g : 0 */
  RGRAD_SHARE,     /* amax / amin: g * (x == out) / the number equal to out (cnt, counted first) */
  RGRAD_PROD,      /* g * out * (1 / x) */
  RGRAD_FROBENIUS, /* x / (out + 1e-12f) * g */
} ReduceGrad;

typedef struct ReduceCall {
  ReduceKind kind;
  const char *type;        /* Out's (forward) or the tensors' (grad) C type */
  const char *x_type;      /* REDUCE_FORWARD: X's C type */
  int nruns;
  const char *run_n[RT_MAX_RANK]; /* each run's extent */
  int run_reduced[RT_MAX_RANK];   /* 1 along reduced runs */
  const char *x, *out;     /* X; Out (forward: written; grad: read, or NULL) */
  const char *kept;        /* REDUCE_FORWARD: Out's elements */
  const char *init;        /* REDUCE_FORWARD: the start value */
  const char *step;        /* REDUCE_FORWARD: acc folded with v */
  int wide;                /* REDUCE_FORWARD: a float sum accumulated in double along the innermost run */
  const char *final;       /* REDUCE_FORWARD: out from acc (%s: Out's C type), or NULL */
  const char *count;       /* the elements reduced into one (forward: with `final`; grad: RGRAD_MEAN;
                            * REDUCE_MEAN_ALL_GRAD: dx's elements) */
  const char *empty;       /* REDUCE_FORWARD: X's count, known at run time only: 0 returns 1 (NULL: no check) */
  ReduceGrad grad;         /* REDUCE_GRAD */
  const char *dout, *dx;   /* REDUCE_GRAD, REDUCE_MEAN_ALL_GRAD */
  const char *cnt;         /* RGRAD_SHARE: scratch of Out@GRAD's elements (`cnt_n`) in the type */
  const char *cnt_n;
  const char *ostep;       /* NULL, or the reduced dims are the run's (axes from tensors): the C array of each
                            * run's step in Out, 0 along reduced ones (reduce_print_run_axes declares it); the
                            * runs are then X's dims one each, and no run folds into a local accumulator */
} ReduceCall;

void reduce_print_c(Printer *p, const ReduceCall *c);

/* The reduced dims when the axes are the run's (tensors fed or computed):
 * X's r dims and the n axes' values as C expressions.  Prints their
 * reading: an axis outside [-r, r) returns 1 (Paddle raises); `all` (as
 * many axes as dims, or reduce_all) reduces every dim as Paddle's kernel
 * does.  Declares red[r] (1 along reduced dims), ostep[r] (the record's
 * ostep), with `count` red_count (the elements folded into one: the
 * record's count),
 * and, for out_rank >= 0, od[] (Out's dims: kept ones, or 1 with keep),
 * returning 1 when a repeated axis leaves Out with another rank. */
typedef struct ReduceAxes {
  int r, n, all, keep, out_rank;
  int count; /* red_count is read (a mean) */
  const char *xd[RT_MAX_RANK], *axes[RT_MAX_RANK];
} ReduceAxes;

void reduce_print_run_axes(Printer *p, const ReduceAxes *a);

#endif
