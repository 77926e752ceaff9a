/* One sorting kernel call as the lowering decided it, and its C printer.
 *
 * argsort, mode and nanmedian sort each line of x (viewed as [outer, n,
 * inner]); top_k and nanmedian_grad take each line's k first; kthvalue its
 * k-th smallest.  The emitters fill one record: which routine, the element
 * type, the geometry and k as C expressions, the buffers.  sort_print_c is
 * the only code that spells the runtime's rt_argsort_*, rt_topk_* and
 * rt_kthvalue_*; another backend prints the same records. */
#ifndef PADDLEC_OPS_SORT_CALL_H
#define PADDLEC_OPS_SORT_CALL_H

#include "ops.h"

typedef enum SortKind {
  SORT_ARGSORT,  /* each line sorted (descending or not) into vals, idx */
  SORT_TOPK,     /* each line's first k as flags choose (RT_TOPK_*) */
  SORT_KTHVALUE, /* each line's k-th smallest and its index */
} SortKind;

typedef struct SortCall {
  SortKind kind;
  int dtype;                      /* the elements' RT_DT_*: float32, float64, int32 or int64 */
  const char *x;
  const char *outer, *n, *inner;  /* x as [outer, n, inner], sorted along n */
  const char *k;                  /* SORT_TOPK, SORT_KTHVALUE */
  int descending;                 /* SORT_ARGSORT */
  const char *flags;              /* SORT_TOPK: RT_TOPK_* or'ed, as C */
  const char *vals, *idx;         /* the values and their int64 positions along n */
  const char *work;               /* n (value, position) pairs of scratch */
} SortCall;

/* 1 when the runtime sorts elements of this dtype. */
int sort_dtype_ok(int dtype);
/* The call as one statement of the C runtime. */
void sort_print_c(Printer *p, const SortCall *c);

#endif
