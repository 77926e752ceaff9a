/* multiclass_nms3 and matrix_nms (see rt_nms.h), written once in
 * rt_nms_body.h, and generate_proposals_v2 and distribute_fpn_proposals
 * (rt_proposals.h), written once in rt_proposals_body.h, instantiated here
 * for float and double.
 *
 * matrix_nms sorts with std::partial_sort, which is not stable: rt_sort.c's
 * transliteration of libstdc++'s gives its order among equal scores.
 * multiclass_nms3 sorts with std::stable_sort by score, descending; a
 * stable sort's result is the one order that keeps equal scores in their
 * order before, so the merge sort below gives Paddle's order whatever
 * algorithm libstdc++ uses.  Scores above the threshold are never NaN, and the
 * scores keep_top_k compares are floats, so every score fits a double
 * exactly and one item type serves both sorts. */
#include "rt_nms.h"

#include <math.h>

#include "rt_proposals.h"
#include "rt_sort.h"

typedef struct NmsItem {
  double score;
  int32_t label, box;
} NmsItem;

/* Sorts items[0, n) by score, descending, keeping the order of equal
 * scores (bottom-up merge sort through tmp, n items). */
static void sort_items(NmsItem *items, NmsItem *tmp, int64_t n) {
  NmsItem *from = items, *to = tmp;
  for (int64_t w = 1; w < n; w *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * w) {
      const int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      int64_t a = lo, b = mid, k = lo;
      while (a < mid && b < hi) to[k++] = from[b].score > from[a].score ? from[b++] : from[a++];
      while (a < mid) to[k++] = from[a++];
      while (b < hi) to[k++] = from[b++];
    }
    NmsItem *t = from;
    from = to, to = t;
  }
  if (from != items)
    for (int64_t i = 0; i < n; i++) items[i] = from[i];
}

#define NMS_T float
#define NMS_NAME(n) n##_f32
#define NMS_PAIR RtSortPairF32
#define NMS_PARTIAL_SORT rt_stl_partial_sort_f32
#define NMS_SORT rt_stl_sort_f32
#define NMS_NTH_ELEMENT rt_stl_nth_element_f32
#define NMS_EXP expf
#define NMS_SQRT sqrtf
#define NMS_LOG2 log2f
#define NMS_FLOOR floorf
#include "rt_nms_body.h"
#include "rt_proposals_body.h"
#undef NMS_T
#undef NMS_NAME
#undef NMS_PAIR
#undef NMS_PARTIAL_SORT
#undef NMS_SORT
#undef NMS_NTH_ELEMENT
#undef NMS_EXP
#undef NMS_SQRT
#undef NMS_LOG2
#undef NMS_FLOOR

#define NMS_T double
#define NMS_NAME(n) n##_f64
#define NMS_PAIR RtSortPairF64
#define NMS_PARTIAL_SORT rt_stl_partial_sort_f64
#define NMS_SORT rt_stl_sort_f64
#define NMS_NTH_ELEMENT rt_stl_nth_element_f64
#define NMS_EXP exp
#define NMS_SQRT sqrt
#define NMS_LOG2 log2
#define NMS_FLOOR floor
#include "rt_nms_body.h"
#include "rt_proposals_body.h"
#undef NMS_T
#undef NMS_NAME
#undef NMS_PAIR
#undef NMS_PARTIAL_SORT
#undef NMS_SORT
#undef NMS_NTH_ELEMENT
#undef NMS_EXP
#undef NMS_SQRT
#undef NMS_LOG2
#undef NMS_FLOOR
