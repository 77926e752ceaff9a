/* The 1.x beam_search_decode op, for compiler/ops/beam_search_decode.c,
 * over tensor arrays of LoD tensors (compiler/ops/tensor_array.c). */
#ifndef PADDLEC_RT_BEAM_SEARCH_DECODE_H
#define PADDLEC_RT_BEAM_SEARCH_DECODE_H

#include <stdint.h>

#include "rt_lod_array.h"

/* Bytes of the work rt_beam_search_decode needs for max_src sources of
 * beam sentences over steps. */
#define RT_BEAM_DECODE_WORK(max_src, beam, steps) ((max_src) * (beam) * (16 + 16 * (steps)) + 8 * (max_src) + 16 * (beam))

/* Paddle 2.6's BeamSearchDecoder (fluid beam_search_decode_op_def.h):
 * Backtrace from the last element back to the first, ids' LoD giving the
 * tree (level 0: each source's prefixes, level 1: each prefix's
 * candidates), each source with beam sentences: a source without
 * sentences yet takes every candidate of its prefixes as one (more than
 * beam stops it), the others follow each sentence's candidate back to
 * its prefix, skipping an end_id after the first token.  Then per source
 * its sentences sorted by their last step's score, highest first (the
 * steps of libstdc++'s std::sort with Paddle's `>`; stable up to 16;
 * above 16 a NaN score, which leaves `>` no order, stops it),
 * each written in step order: ids into out_ids, scores (float, or double
 * with f64) into out_scores, the LoD into lod0 (*nsrc + 1 offsets, nsrc
 * the first element's sources) and lod1 (*nsrc * beam + 1).  Returns the tokens written, or -1 where
 * Paddle stops or crashes: no element, the arrays' lengths differ, the
 * first element has no source or more than max_src, a LoD that does not
 * fit its rows or its room, a candidate past the rows of scores, a source
 * with more candidates than beam where it starts, or (beam > 1) with
 * fewer sentences than beam at the end (Paddle's sort then reads an empty
 * sentence's score: a crash). */
int64_t rt_beam_search_decode(const RtLodArray *ids, const RtLodArray *scores, int f64, int64_t beam,
                              int64_t end_id, int64_t max_src, int64_t *out_ids, void *out_scores, int64_t *lod0,
                              int64_t *lod1, int64_t *nsrc, void *work);

#endif
