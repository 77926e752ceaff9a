/* unique (paddle.unique, and fluid's unsorted unique) and
 * unique_consecutive for compiler/ops/unique.c. */
#ifndef PADDLEC_RT_UNIQUE_H
#define PADDLEC_RT_UNIQUE_H

#include <stdint.h>

#include "rt.h"

typedef struct RtUnique {
  int rank;                    /* x's dims (>= 1) */
  int64_t dims[RT_MAX_RANK];
  int axis;                    /* the dim whose slices are compared, or -1: every element on its own */
  int sorted;                  /* 1: ascending (phi UniqueRawKernel, is_sorted); 0: in the order first seen */
  int consecutive;             /* 1: runs of equal neighbours in x's order (unique_consecutive; sorted 1) */
  int index64;                 /* indices, inverse and counts are int64 (else int32) */
} RtUnique;

/* Bytes of the work buffer for x of `numel` elements with `rows` slices
 * along the axis (numel and numel when axis is -1), of `size`-byte
 * elements: the rows gathered in compare order, three int64 per row. */
#define RT_UNIQUE_WORK_BYTES(numel, rows, size) ((numel) * (size) + (rows) * 32 + 64)

/* Paddle 2.6's CPU unique: with `sorted`, the distinct elements (axis -1)
 * or slices along the axis in ascending order (slices compared element by
 * element in the order of x transposed to put the axis first: Paddle's
 * TransCompute with dims 0 and axis swapped); out takes x's layout with the
 * axis as long as the count.  indices: each one's first position in x
 * (slices: among equal ones, the first of std::sort's order, which for up
 * to 16 slices -- insertion sort -- is the first in x; the caller refuses
 * more); inverse: for each element or slice of x, the position of its
 * value in out; counts: how many of x each holds.  Without `sorted`
 * (axis -1 only; fluid's UniqueOpFunctor): in the order first seen, NaN
 * each its own, inverse only.  With `consecutive` (phi
 * UniqueConsecutiveKernel): each run of equal neighbours once, in x's
 * order (a NaN equal to nothing), no indices; without an axis, a NaN
 * first in x gives an extra first element counted 0, as Paddle's loop
 * compares x[0] with itself (the count can be numel + 1).  indices, inverse and counts
 * may be NULL.
 * Returns the count, or -1 for a NaN with `sorted` but not `consecutive` (Paddle orders NaN
 * through std::set and std::sort, which NaN leaves without an order). */
int64_t rt_unique_f32(const RtUnique *p, const float *x, float *out, void *indices, void *inverse, void *counts,
                      void *work);
int64_t rt_unique_f64(const RtUnique *p, const double *x, double *out, void *indices, void *inverse, void *counts,
                      void *work);
int64_t rt_unique_i32(const RtUnique *p, const int32_t *x, int32_t *out, void *indices, void *inverse, void *counts,
                      void *work);
int64_t rt_unique_i64(const RtUnique *p, const int64_t *x, int64_t *out, void *indices, void *inverse, void *counts,
                      void *work);

#endif
