/* One sorting or ordering kernel as the lowering decided it, and its C
 * printer.
 *
 * argsort, mode and nanmedian sort each line of x (viewed as [outer, n,
 * inner]); top_k and nanmedian_grad take each line's k first; kthvalue its
 * k-th smallest: calls of the runtime's rt_argsort_*, rt_topk_* and
 * rt_kthvalue_*.  Around those calls: argsort's and kthvalue's kernels (a
 * 0-D x copied with index 0, else a comment and the call), top_k's kernel (the run's k read
 * from K, int32 Indices converted), top_k's grad (Out@GRAD scattered to the
 * positions Indices names), mode's kernel (the longest run of equal values
 * in each sorted line); and the kernels that find positions by comparing
 * without sorting: arg_max / arg_min (the first position of the largest or
 * smallest value of each line) and searchsorted (a binary search in a
 * sorted row per value).  The emitters (top_k.c, mode.c, argsort.c,
 * kthvalue.c, nanmedian.c, arg_max.c, searchsorted.c) check the tensors and
 * fill one record: the kind, the element types, the geometry and k as C
 * expressions, the buffers.  sort_print_c is the only code that spells the
 * runtime's sorting calls; another backend prints the same records. */
#ifndef PADDLEC_OPS_SORT_CALL_H
#define PADDLEC_OPS_SORT_CALL_H

#include "ops.h"

typedef enum SortKind {
  SORT_ARGSORT,   /* each line sorted (descending or not) into vals, idx */
  SORT_TOPK,      /* each line's first k as flags choose (RT_TOPK_*) */
  SORT_KTHVALUE,  /* each line's k-th smallest and its index */
  SORT_ARGSORT_OP,  /* argsort's kernel: a 0-D x (zero_d) copied to vals, index 0 to indices; else SORT_ARGSORT */
  SORT_KTHVALUE_OP, /* kthvalue's kernel: the same for SORT_KTHVALUE */
  SORT_TOPK_OP,   /* top_k's kernel: k read from k_from (or not), SORT_TOPK, idx copied to int32 indices */
  SORT_TOPK_GRAD, /* dx = 0, then dx[o, idx[o, j, i], i] = dout[o, j, i] for idx in [0, n) */
  SORT_MODE,      /* SORT_ARGSORT ascending, then each line's longest run of equal values into vals, indices */
  SORT_ARGMAX,    /* indices[line] = the first position along n of the line's largest (smallest) value */
  SORT_SEARCH,    /* indices[i] = where x[i] goes in its row of seq (std::lower_bound or upper_bound) */
} SortKind;

typedef struct SortCall {
  SortKind kind;
  int dtype;                      /* the elements' RT_DT_*: float32, float64, int32 or int64 (SORT_ARGMAX:
                                   * any but bool; SORT_SEARCH: Values'); SORT_TOPK_GRAD: dout's and dx's */
  int idx_dtype;                  /* SORT_TOPK_GRAD: idx's RT_DT_*; SORT_ARGMAX, SORT_SEARCH: indices' */
  int zero_d;                     /* SORT_*_OP, SORT_TOPK_GRAD, SORT_MODE: x is 0-D (its own top 1, mode) */
  const char *x;
  const char *outer, *n, *inner;  /* x as [outer, n, inner], sorted along n; SORT_TOPK_GRAD: dx's */
  const char *k;                  /* SORT_TOPK*, SORT_KTHVALUE (SORT_TOPK_OP: "k" when read from k_from) */
  int descending;                 /* SORT_ARGSORT */
  int largest;                    /* SORT_ARGMAX: 1 arg_max, 0 arg_min */
  const char *flags;              /* SORT_TOPK*: RT_TOPK_* or'ed, as C */
  const char *vals, *idx;         /* the values and their int64 positions along n (SORT_MODE: scratch, raw) */
  const char *work;               /* n (value, position) pairs of scratch */
  const char *k_from;             /* SORT_TOPK_OP: the int tensor k is read from at run time, or NULL */
  const char *k_into[2];          /* its run-time extents, Out's and Indices' dims along the axis */
  const char *indices;            /* SORT_*_OP (the 0-D case; SORT_TOPK_OP's int32 Indices: idx is scratch then),
                                   * SORT_MODE, SORT_ARGMAX, SORT_SEARCH: the positions written */
  int idx32;                      /* SORT_TOPK_OP: indices are int32, converted from idx */
  const char *numel;              /* SORT_TOPK_OP with idx32: the indices' count; SORT_TOPK_GRAD: dx's;
                                   * SORT_SEARCH: x's */
  const char *out;                /* SORT_MODE: the modes written */
  const char *dout, *dx;          /* SORT_TOPK_GRAD: dout [outer, k, inner] read, dx [outer, n, inner] written */
  int seq_dtype;                  /* SORT_SEARCH: seq's RT_DT_* */
  const char *seq;                /* SORT_SEARCH: the sorted rows of n values */
  const char *x_row;              /* SORT_SEARCH: x's last dim ("1" for 0-D x), x's values per row of seq */
  int one_row;                    /* SORT_SEARCH: seq is 1-D, one row for every value */
  int right;                      /* SORT_SEARCH: std::upper_bound (else lower_bound) */
} SortCall;

/* 1 when the runtime sorts elements of this dtype. */
int sort_dtype_ok(int dtype);
/* The kernel as C statements. */
void sort_print_c(Printer *p, const SortCall *c);

#endif
