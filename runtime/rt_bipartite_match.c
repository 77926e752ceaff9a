/* bipartite_match (see rt_bipartite_match.h), written once in
 * rt_bipartite_match_body.h and instantiated here for float and double.
 *
 * From 130 rows on, Paddle sorts std::tuple<int, int, T>(row, column,
 * distance) with std::sort and the comparator "a's distance > b's", so the
 * order of equal distances is libstdc++'s: the body's sort_pairs() takes its
 * steps one for one (bits/stl_algo.h, bits/stl_heap.h): introsort loop
 * (median of first+1, middle, last-1 to first; unguarded Hoare partition;
 * right part recursed, left part looped; heap sort after 2*floor(log2(n))
 * levels) down to 16 elements, then a final insertion sort. */
#include <string.h>

#include "rt_bipartite_match.h"

#define BM_T float
#define BM_NAME(n) n##_f32
#include "rt_bipartite_match_body.h"

#define BM_T double
#define BM_NAME(n) n##_f64
#include "rt_bipartite_match_body.h"
