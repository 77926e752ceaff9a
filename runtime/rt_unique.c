/* unique (see rt_unique.h), written once in rt_unique_body.h and
 * instantiated here for float, double, int32 and int64.
 *
 * Paddle finds distinct values with std::set (ascending, equal values
 * kept once: the first inserted, i.e. the first in x), distinct slices by
 * std::sort of the slice indices then a walk over equal neighbours, and
 * fluid's unsorted unique with an unordered_map in the order first seen.
 * Here a stable merge sort of positions orders values or slices; a stable
 * sort leaves equal ones in x's order, which gives std::set's choice, the
 * first occurrence, and std::sort's order for up to 16 slices (it
 * insertion-sorts those). */
#include <math.h>

#include "rt_unique.h"

/* Stores v as element i of an int32 or int64 array (NULL: not wanted). */
static void put_index(void *a, int64_t i, int64_t v, int index64) {
  if (!a) return;
  if (index64) ((int64_t *)a)[i] = v;
  else ((int32_t *)a)[i] = (int32_t)v;
}

/* The offset of column c of a slice: the dims but the axis, in the order
 * of x transposed with dims 0 and axis swapped (Paddle's permute), c's
 * last coordinate fastest; strides are a layout's (x's or out's). */
static int64_t col_offset(const RtUnique *p, const int64_t *strides, int64_t c) {
  int64_t off = 0;
  for (int k = p->rank - 1; k >= 1; k--) {
    const int d = k == p->axis ? 0 : k; /* permute[axis] = 0 */
    off += (c % p->dims[d]) * strides[d];
    c /= p->dims[d];
  }
  return off;
}

/* Row-major strides of dims with the axis `count` long. */
static void layout(const RtUnique *p, int64_t count, int64_t *strides) {
  int64_t s = 1;
  for (int d = p->rank - 1; d >= 0; d--) {
    strides[d] = s;
    s *= d == p->axis ? count : p->dims[d];
  }
}

#define UQ_T float
#define UQ_NAME(n) n##_f32
#define UQ_ISNAN(v) isnan(v)
#include "rt_unique_body.h"

#define UQ_T double
#define UQ_NAME(n) n##_f64
#define UQ_ISNAN(v) isnan(v)
#include "rt_unique_body.h"

#define UQ_T int32_t
#define UQ_NAME(n) n##_i32
#define UQ_ISNAN(v) 0
#include "rt_unique_body.h"

#define UQ_T int64_t
#define UQ_NAME(n) n##_i64
#define UQ_ISNAN(v) 0
#include "rt_unique_body.h"
