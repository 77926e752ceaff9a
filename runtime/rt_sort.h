/* Sorting along an axis, for argsort (compiler/ops/argsort.c). */
#ifndef PADDLEC_RT_SORT_H
#define PADDLEC_RT_SORT_H

#include <stdint.h>

/* Bytes of the work buffer rt_argsort_* needs for lines of n elements: n
 * (value, index) pairs of 16 bytes. */
#define RT_ARGSORT_WORK_BYTES(n) ((n) * 16)

/* Sorts each line of x viewed as [outer, n, inner] (the middle dim, stride
 * inner) into vals with the original positions in idx (both [outer, n,
 * inner]): ascending with NaN last, or descending with NaN first.  The order
 * is the one Paddle 2.6's CPU kernel gives, including among equal values:
 * the same steps as libstdc++'s std::sort (introsort, median-of-three
 * pivot, a final insertion sort), which that kernel calls -- stable for
 * n <= 16, not beyond.  `work` holds RT_ARGSORT_WORK_BYTES(n) bytes, 8-byte
 * aligned. */
void rt_argsort_f32(const float *x, int64_t outer, int64_t n, int64_t inner, int descending, float *vals,
                    int64_t *idx, void *work);
void rt_argsort_f64(const double *x, int64_t outer, int64_t n, int64_t inner, int descending, double *vals,
                    int64_t *idx, void *work);
void rt_argsort_i32(const int32_t *x, int64_t outer, int64_t n, int64_t inner, int descending, int32_t *vals,
                    int64_t *idx, void *work);
void rt_argsort_i64(const int64_t *x, int64_t outer, int64_t n, int64_t inner, int descending, int64_t *vals,
                    int64_t *idx, void *work);

#endif
