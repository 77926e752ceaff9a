/* Sorting along an axis, for argsort (compiler/ops/argsort.c), and the
 * libstdc++ algorithms Paddle's CPU kernels call on (value, position) pairs,
 * reproduced step for step (runtime/rt_sort.c) so that equal values end up
 * in the same order as in Paddle: std::sort, std::partial_sort and
 * std::nth_element (top_k, runtime/rt_topk.c). */
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

/* ---- libstdc++ algorithms on (value, position) pairs ---- */

/* A value and its position in its line: the std::pair<T, int64_t> Paddle's
 * kernels sort.  16 bytes for every T below. */
typedef struct {
  float v;   /* the value */
  int64_t i; /* its position in the line */
} RtSortPairF32;
typedef struct {
  double v;  /* the value */
  int64_t i; /* its position in the line */
} RtSortPairF64;
typedef struct {
  int32_t v; /* the value */
  int64_t i; /* its position in the line */
} RtSortPairI32;
typedef struct {
  int64_t v; /* the value */
  int64_t i; /* its position in the line */
} RtSortPairI64;

/* The comparator "a goes before b", on the values alone, as Paddle's
 * kernels write it. */
typedef enum {
  RT_SORT_ASC,  /* (!isnan(a) && isnan(b)) || a < b: ascending, NaN last */
  RT_SORT_DESC, /* (isnan(a) && !isnan(b)) || a > b: descending, NaN first */
  RT_SORT_GT    /* a > b: NaN is "equal" to everything, which is no strict
                 * weak order -- fit only for rt_stl_partial_sort_*, whose
                 * heap steps never leave the range (fluid top_k v1), and
                 * rt_stl_sort_* of at most 16 pairs, a guarded insertion
                 * sort (beam_search_decode) */
} RtSortOrder;

/* std::sort(p, p + n, comp): __introsort_loop (depth 2*floor(log2(n)),
 * then heap sort), then __final_insertion_sort. */
void rt_stl_sort_f32(RtSortPairF32 *p, int64_t n, RtSortOrder order);
void rt_stl_sort_f64(RtSortPairF64 *p, int64_t n, RtSortOrder order);
void rt_stl_sort_i32(RtSortPairI32 *p, int64_t n, RtSortOrder order);
void rt_stl_sort_i64(RtSortPairI64 *p, int64_t n, RtSortOrder order);

/* std::partial_sort(p, p + middle, p + n, comp): __heap_select, then
 * __sort_heap of the first `middle` pairs.  0 <= middle <= n. */
void rt_stl_partial_sort_f32(RtSortPairF32 *p, int64_t middle, int64_t n, RtSortOrder order);
void rt_stl_partial_sort_f64(RtSortPairF64 *p, int64_t middle, int64_t n, RtSortOrder order);
void rt_stl_partial_sort_i32(RtSortPairI32 *p, int64_t middle, int64_t n, RtSortOrder order);
void rt_stl_partial_sort_i64(RtSortPairI64 *p, int64_t middle, int64_t n, RtSortOrder order);

/* std::nth_element(p, p + nth, p + n, comp): __introselect (depth
 * 2*floor(log2(n)), then __heap_select), ending in an insertion sort.
 * 0 <= nth <= n.  Not for RT_SORT_GT. */
void rt_stl_nth_element_f32(RtSortPairF32 *p, int64_t nth, int64_t n, RtSortOrder order);
void rt_stl_nth_element_f64(RtSortPairF64 *p, int64_t nth, int64_t n, RtSortOrder order);
void rt_stl_nth_element_i32(RtSortPairI32 *p, int64_t nth, int64_t n, RtSortOrder order);
void rt_stl_nth_element_i64(RtSortPairI64 *p, int64_t nth, int64_t n, RtSortOrder order);

#endif
