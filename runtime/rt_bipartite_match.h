/* bipartite_match on one distance matrix (no LoD), for
 * compiler/ops/bipartite_match.c. */
#ifndef PADDLEC_RT_BIPARTITE_MATCH_H
#define PADDLEC_RT_BIPARTITE_MATCH_H

#include <stdint.h>

/* Bytes of the work buffer for a [row, col] matrix of float (pair 12) or
 * double (pair 16) distances: row * col (row, column, distance) triples of
 * `pair` bytes, and row ints. */
#define RT_BIPARTITE_WORK_BYTES(row, col, pair) ((row) * (col) * (pair) + (row) * 4)

/* Matches the columns of dist [row, col] to rows as Paddle 2.6's CPU
 * kernel does (fluid bipartite_match_op.cc, BipartiteMatch then, for
 * per_prediction, ArgMaxMatch): match_indices[col] gets the row matched to
 * each column or -1, match_dist[col] its distance or 0.  The greedy
 * matching takes the largest remaining distance (>= 1e-6) over unmatched
 * rows and columns; from 130 rows on, Paddle sorts all pairs with
 * libstdc++'s std::sort by distance, descending, and walks them (pairs
 * with distance > 0), which this function reproduces step for step,
 * including the order of equal distances.  per_prediction then gives each
 * unmatched column its best row at distance >= threshold. */
void rt_bipartite_match_f32(const float *dist, int64_t row, int64_t col, int per_prediction, float threshold,
                            int32_t *match_indices, float *match_dist, void *work);
/* The same in double (Paddle's double kernel: distances, eps and the
 * float dist_threshold as doubles). */
void rt_bipartite_match_f64(const double *dist, int64_t row, int64_t col, int per_prediction, double threshold,
                            int32_t *match_indices, double *match_dist, void *work);

#endif
