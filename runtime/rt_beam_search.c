/* beam_search's step (see rt_beam_search.h). */
#include "rt_beam_search.h"

#include <math.h>

/* Paddle's Item::operator<: the lower score, or the same score at a lower
 * row. */
static int item_less(const RtBeamItem *a, const RtBeamItem *b) {
  return a->score < b->score || (a->score == b->score && a->row < b->row);
}

/* Paddle's Insert: top[0..*n) best first, at most beam_size. */
static void insert(RtBeamItem *top, int64_t *n, RtBeamItem it, int64_t beam_size) {
  if (*n < beam_size) {
    ++*n;
  } else if (item_less(&it, &top[beam_size - 1])) {
    return;
  }
  for (int64_t k = *n - 2; k >= 0; k--) {
    if (!item_less(&top[k], &it)) {
      top[k + 1] = it;
      return;
    }
    top[k + 1] = top[k];
  }
  top[0] = it;
}

int64_t rt_beam_search(const int64_t *pre_ids, const float *pre_scores, const int64_t *ids, const float *scores,
                       int64_t width, const int64_t *high, int64_t nsrc, int64_t beam_size, int64_t end_id,
                       int is_accumulated, int64_t *sel_ids, float *sel_scores, int32_t *parent, int64_t *low,
                       RtBeamItem *top) {
  int64_t out = 0;
  for (int64_t s = 0; s < nsrc; s++) {
    int64_t n = 0;
    for (int64_t r = high[s]; r < high[s + 1]; r++) {
      if (pre_ids[r] == end_id) { /* a finished prefix: all its mass on end_id */
        insert(top, &n, (RtBeamItem){r, end_id, pre_scores[r]}, beam_size);
        continue;
      }
      for (int64_t d = 0; d < width; d++) {
        const int64_t at = r * width + d;
        const float sc = is_accumulated ? scores[at] : pre_scores[r] + logf(scores[at]);
        insert(top, &n, (RtBeamItem){r, ids ? ids[at] : d, sc}, beam_size);
      }
    }
    /* PruneEndBeams: every kept candidate end_id after an end_id prefix */
    int finished = 1;
    for (int64_t k = 0; k < n && finished; k++) finished = top[k].id == end_id && pre_ids[top[k].row] == end_id;
    if (finished) n = 0;
    /* ToMap: each row's candidates, best first */
    for (int64_t r = high[s]; r < high[s + 1]; r++) {
      low[r] = out;
      for (int64_t k = 0; k < n; k++) {
        if (top[k].row != r) continue;
        sel_ids[out] = top[k].id;
        sel_scores[out] = top[k].score;
        if (parent) parent[out] = (int32_t)r;
        out++;
      }
    }
  }
  low[high[nsrc]] = out;
  return out;
}
