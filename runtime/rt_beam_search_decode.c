/* beam_search_decode's backtrace (see rt_beam_search_decode.h). */
#include "rt_beam_search_decode.h"

#include "rt_sort.h"

/* One step's ids: its rows and LoD, checked against its slot's room. */
typedef struct Step {
  const int64_t *ids, *lod0, *lod1;
  int64_t rows, n0, n1;
} Step;

/* Element s of a, or -1 when its LoD is not two levels that fit its rows
 * (offsets from 0, never decreasing, level 0 within level 1's sequences,
 * level 1 within the rows). */
static int step_at(const RtLodArray *a, int64_t s, Step *st) {
  const int64_t *slot = a->meta + s * RT_LOD_SLOT_WORDS(a->cap);
  st->ids = (const int64_t *)a->data + s * a->stride;
  st->rows = slot[0], st->n1 = slot[1], st->n0 = slot[2];
  st->lod1 = slot + 3, st->lod0 = slot + 3 + a->cap;
  if (st->n1 < 1 || st->n0 < 1 || st->n1 > a->cap || st->n0 > a->cap || st->rows > a->stride) return -1;
  if (st->lod1[0] != 0 || st->lod0[0] != 0 || st->lod1[st->n1 - 1] > st->rows || st->lod0[st->n0 - 1] > st->n1 - 1)
    return -1;
  for (int64_t k = 1; k < st->n1; k++)
    if (st->lod1[k] < st->lod1[k - 1]) return -1;
  for (int64_t k = 1; k < st->n0; k++)
    if (st->lod0[k] < st->lod0[k - 1]) return -1;
  return 0;
}

static double score_at(const RtLodArray *a, int f64, int64_t s, int64_t row) {
  return f64 ? ((const double *)a->data)[s * a->stride + row] : ((const float *)a->data)[s * a->stride + row];
}

int64_t rt_beam_search_decode(const RtLodArray *ids, const RtLodArray *scores, int f64, int64_t beam,
                              int64_t end_id, int64_t max_src, int64_t *out_ids, void *out_scores, int64_t *lod0,
                              int64_t *lod1, int64_t *nsrc_out, void *work) {
  const int64_t steps = ids->len;
  if (steps < 1 || scores->len != steps || beam < 1) return -1;
  Step st;
  if (step_at(ids, 0, &st)) return -1;
  const int64_t nsrc = st.n0 - 1;
  if (nsrc < 1 || nsrc > max_src) return -1;
  /* per source and sentence: its length, its tokens, its prefix (last step
   * first); then the scores; each source's prefix_idx_vector size; the sort */
  int64_t *len = work, *tok = len + max_src * beam, *prefix = tok + max_src * beam * steps;
  int64_t *count = prefix + max_src * beam;
  void *rest = count + max_src;
  double *sc = rest;
  void *after = sc + max_src * beam * steps;
  RtSortPairF64 *order = after;
  for (int64_t k = 0; k < nsrc * beam; k++) len[k] = 0;
  for (int64_t s = 0; s < nsrc; s++) count[s] = 0;
  for (int64_t t = steps - 1; t >= 0; t--) {
    if (step_at(ids, t, &st) || st.n0 - 1 < nsrc) return -1;
    const int64_t srows = scores->meta[t * RT_LOD_SLOT_WORDS(scores->cap)];
    if (srows < 0 || srows > scores->stride) return -1;
    for (int64_t s = 0; s < nsrc; s++) {
      int64_t *n = len + s * beam, *tk = tok + s * beam * steps, *pre = prefix + s * beam;
      double *sv = sc + s * beam * steps;
      const int64_t p0 = st.lod0[s], p1 = st.lod0[s + 1];
      if (!count[s]) { /* finished and pruned at this step, or the last step: every candidate starts one */
        for (int64_t p = p0; p < p1; p++)
          for (int64_t c = st.lod1[p]; c < st.lod1[p + 1]; c++) {
            if (count[s] == beam || c >= srows) return -1; /* Paddle: SentenceVector::at out of range */
            const int64_t k = count[s]++;
            pre[k] = p;
            tk[k * steps + n[k]] = st.ids[c];
            sv[k * steps + n[k]++] = score_at(scores, f64, t, c);
          }
        continue;
      }
      /* follow each sentence's candidate back to its prefix */
      int64_t p = p0;
      if (p + 1 >= st.n1) return -1;
      const int64_t first = st.lod1[p];
      int64_t num = st.lod1[p + 1] - st.lod1[p];
      for (int64_t k = 0; k < count[s]; k++) {
        const int64_t c = pre[k];
        if (c < 0 || c >= st.rows || c >= srows) return -1;
        if (st.ids[c] != end_id || !n[k]) { /* skip repeated end tokens */
          tk[k * steps + n[k]] = st.ids[c];
          sv[k * steps + n[k]++] = score_at(scores, f64, t, c);
        }
        while (first + num <= c) {
          if (++p + 1 >= st.n1) return -1;
          num += st.lod1[p + 1] - st.lod1[p];
        }
        pre[k] = p;
      }
    }
  }
  int64_t out = 0;
  lod0[0] = lod1[0] = 0;
  for (int64_t s = 0; s < nsrc; s++) {
    const int64_t *n = len + s * beam, *tk = tok + s * beam * steps;
    const double *sv = sc + s * beam * steps;
    for (int64_t k = 0; k < beam; k++) {
      if (!n[k] && beam > 1) return -1; /* Paddle's sort reads the score of an empty sentence */
      order[k] = (RtSortPairF64){n[k] ? sv[k * steps] : 0.0, k};
      if (beam > 16 && order[k].v != order[k].v) return -1; /* NaN: no order std::sort can keep */
    }
    rt_stl_sort_f64(order, beam, beam <= 16 ? RT_SORT_GT : RT_SORT_DESC);
    for (int64_t j = 0; j < beam; j++) {
      const int64_t k = order[j].i;
      for (int64_t i = n[k] - 1; i >= 0; i--, out++) {
        out_ids[out] = tk[k * steps + i];
        if (f64)
          ((double *)out_scores)[out] = sv[k * steps + i];
        else
          ((float *)out_scores)[out] = (float)sv[k * steps + i];
      }
      lod1[s * beam + j + 1] = out;
    }
    lod0[s + 1] = (s + 1) * beam;
  }
  *nsrc_out = nsrc;
  return out;
}
