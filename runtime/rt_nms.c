/* multiclass_nms3 and matrix_nms (see rt_nms.h), written once in
 * rt_nms_body.h, and generate_proposals_v2, distribute_fpn_proposals and
 * collect_fpn_proposals (rt_proposals.h), written once in
 * rt_proposals_body.h, instantiated here for float and double.
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

/* One RoI of collect_fpn_proposals: its score (T, exactly as a double), its
 * image, its row in its level, and the level (phi's ScoreWithID). */
typedef struct FpnItem {
  double score;
  int32_t batch_id, index, level;
} FpnItem;

/* CompareByScore (>=: no strict weak order, so the order among equal
 * scores is the algorithm's) and CompareByBatchid. */
static int fpn_by_score(const FpnItem *a, const FpnItem *b) { return a->score >= b->score; }
static int fpn_by_batch(const FpnItem *a, const FpnItem *b) { return a->batch_id < b->batch_id; }
typedef int (*FpnComp)(const FpnItem *, const FpnItem *);

/* libstdc++'s std::stable_sort with a buffer as long as the range, step for
 * step (stl_algo.h: __stable_sort_adaptive, __merge_sort_with_buffer with
 * chunks of 7 by __insertion_sort, __merge_sort_loop, __move_merge,
 * __merge_adaptive forward when the first half is not longer, else
 * backward), so that a comparator like >= leaves equal items where
 * Paddle's build leaves them. */
static void fpn_insertion_sort(FpnItem *first, FpnItem *last, FpnComp comp) {
  if (first == last) return;
  for (FpnItem *i = first + 1; i != last; ++i) {
    FpnItem val = *i;
    if (comp(&val, first)) {
      for (FpnItem *k = i; k != first; --k) k[0] = k[-1];
      *first = val;
    } else { /* __unguarded_linear_insert */
      FpnItem *hole = i, *next = i - 1;
      while (comp(&val, next)) *hole = *next, hole = next, --next;
      *hole = val;
    }
  }
}

static FpnItem *fpn_move_merge(const FpnItem *f1, const FpnItem *l1, const FpnItem *f2, const FpnItem *l2,
                               FpnItem *out, FpnComp comp) {
  while (f1 != l1 && f2 != l2) *out++ = comp(f2, f1) ? *f2++ : *f1++;
  while (f1 != l1) *out++ = *f1++;
  while (f2 != l2) *out++ = *f2++;
  return out;
}

static void fpn_merge_sort_loop(const FpnItem *first, const FpnItem *last, FpnItem *out, int64_t step, FpnComp comp) {
  const int64_t two = 2 * step;
  while (last - first >= two) {
    out = fpn_move_merge(first, first + step, first + step, first + two, out, comp);
    first += two;
  }
  if (last - first < step) step = last - first;
  fpn_move_merge(first, first + step, first + step, last, out, comp);
}

static void fpn_merge_sort_with_buffer(FpnItem *first, FpnItem *last, FpnItem *buf, FpnComp comp) {
  const int64_t len = last - first;
  int64_t step = 7;
  FpnItem *f = first;
  for (; last - f >= step; f += step) fpn_insertion_sort(f, f + step, comp);
  fpn_insertion_sort(f, last, comp);
  while (step < len) {
    fpn_merge_sort_loop(first, last, buf, step, comp);
    step *= 2;
    fpn_merge_sort_loop(buf, buf + len, first, step, comp);
    step *= 2;
  }
}

static void fpn_stable_sort(FpnItem *first, FpnItem *last, FpnItem *buf, FpnComp comp) {
  FpnItem *middle = first + (last - first + 1) / 2;
  fpn_merge_sort_with_buffer(first, middle, buf, comp);
  fpn_merge_sort_with_buffer(middle, last, buf, comp);
  const int64_t len1 = middle - first, len2 = last - middle;
  if (len1 <= len2) { /* __move_merge_adaptive */
    for (int64_t k = 0; k < len1; k++) buf[k] = first[k];
    const FpnItem *f1 = buf, *l1 = buf + len1, *f2 = middle;
    FpnItem *out = first;
    while (f1 != l1 && f2 != last) *out++ = comp(f2, f1) ? *f2++ : *f1++;
    while (f1 != l1) *out++ = *f1++;
  } else if (len2 > 0) { /* __move_merge_adaptive_backward */
    for (int64_t k = 0; k < len2; k++) buf[k] = middle[k];
    FpnItem *l1 = middle - 1, *l2 = buf + len2 - 1, *out = last;
    for (;;) {
      if (comp(l2, l1)) {
        *--out = *l1;
        if (l1 == first) {
          for (FpnItem *k = l2 + 1; k != buf;) *--out = *--k;
          return;
        }
        --l1;
      } else {
        *--out = *l2;
        if (l2 == buf) return;
        --l2;
      }
    }
  }
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
#include "rt_proposals_body.h" /* undefines the NMS_ macros */

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
#include "rt_proposals_body.h" /* undefines the NMS_ macros */
