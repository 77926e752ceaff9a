/* The k-th smallest value along an axis, for kthvalue
 * (compiler/ops/kthvalue.c). */
#ifndef PADDLEC_RT_KTHVALUE_H
#define PADDLEC_RT_KTHVALUE_H

#include <stdint.h>

/* Bytes of the work buffer for lines of n elements: n (value, position)
 * pairs of 16 bytes. */
#define RT_KTHVALUE_WORK_BYTES(n) ((n) * 16)

/* For each line of x viewed as [outer, n, inner] (the middle dim, stride
 * inner): the k-th smallest value (1 <= k <= n; NaN is larger than any
 * number) into vals[outer, inner] and its position in the line into
 * idx[outer, inner].  Which of several equal values is reported is the one
 * Paddle 2.6's CPU kernel reports: it copies the line into (value,
 * position) pairs and calls libstdc++'s std::partial_sort (when 64 * k < n)
 * or std::nth_element with a comparator on the value alone; the same steps
 * are taken here.  `work` holds RT_KTHVALUE_WORK_BYTES(n) bytes, 8-byte
 * aligned. */
void rt_kthvalue_f32(const float *x, int64_t outer, int64_t n, int64_t inner, int64_t k, float *vals, int64_t *idx,
                     void *work);
void rt_kthvalue_f64(const double *x, int64_t outer, int64_t n, int64_t inner, int64_t k, double *vals,
                     int64_t *idx, void *work);
void rt_kthvalue_i32(const int32_t *x, int64_t outer, int64_t n, int64_t inner, int64_t k, int32_t *vals,
                     int64_t *idx, void *work);
void rt_kthvalue_i64(const int64_t *x, int64_t outer, int64_t n, int64_t inner, int64_t k, int64_t *vals,
                     int64_t *idx, void *work);

#endif
