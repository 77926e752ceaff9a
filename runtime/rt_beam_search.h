/* The 1.x beam_search op's step, for compiler/ops/beam_search.c. */
#ifndef PADDLEC_RT_BEAM_SEARCH_H
#define PADDLEC_RT_BEAM_SEARCH_H

#include <stdint.h>

/* One candidate: the prefix (row) it extends, its id and its score. */
typedef struct RtBeamItem {
  int64_t row, id;
  float score;
} RtBeamItem;

/* One step of beam search over `rows` prefixes as Paddle 2.6's CPU kernel
 * takes it (fluid operators/math/beam_search.cc, BeamSearchFunctor): the
 * rows of source s are high[s] .. high[s + 1] (nsrc sources; high[nsrc] =
 * rows); a prefix whose pre_ids is end_id offers only (end_id,
 * pre_scores), any other its `width` candidates: ids (or the column, when
 * ids is NULL) with scores (is_accumulated) or pre_scores + log(scores).
 * Each source keeps its best beam_size candidates (the higher score first,
 * then the higher row; a candidate equal to the last kept one takes its
 * place, as Paddle's Insert does), and loses them all when every kept one
 * is end_id after an end_id prefix.  The kept candidates are written row
 * by row (in each row best first): sel_ids, sel_scores, parent (the row;
 * NULL: not written), low[0..rows] their offsets per row.  `top` has room
 * for beam_size items.  Returns how many were written. */
int64_t rt_beam_search(const int64_t *pre_ids, const float *pre_scores, const int64_t *ids, const float *scores,
                       int64_t width, const int64_t *high, int64_t nsrc, int64_t beam_size, int64_t end_id,
                       int is_accumulated, int64_t *sel_ids, float *sel_scores, int32_t *parent, int64_t *low,
                       RtBeamItem *top);

#endif
