/* The C printers of the beam_search step and of beam_search_decode
 * (beam_call.h). */
#include "beam_call.h"

/* Keeps at most beam_size a source, and a source has rows: the run stops
 * where neither bound fits the outputs' room (sources_bound). */
static void print_room(Printer *p, const BeamCall *c) {
  pr_line(p, "if (nsrc * %lld > %s && R * %lld > %s) return 1; /* more than the outputs have room for */",
          (long long)c->beam_size, c->room, (long long)c->beam_size, c->room);
}

/* The sources' offsets as rows of scores in `high` (Paddle's ToAbsOffset
 * of the level read), the step, then each made LoD's two levels: the
 * sources, and where each prefix's kept candidates start. */
void beam_print_c(Printer *p, const BeamCall *c) {
  pr_line(p, "const int64_t R = %s, W = %s;", c->rows, c->width);
  pr_line(p, "if (%s < R || %s < R) return 1;", c->pre_rows[0], c->pre_rows[1]);
  if (c->ids) pr_line(p, "if (%s != R || %s != W) return 1;", c->ids_rows, c->ids_width);
  if (c->outer) {
    pr_line(p, "const int64_t *outer = m->lod_outer[%d], *inner = m->lod[%d], nsrc = m->lod_outer_count[%d] - 1;",
            c->lod, c->lod, c->lod);
    print_room(p, c);
    pr_line(p, "int64_t *high = %s;", c->made_outer[0]);
    pr_line(p, "for (int64_t s = 0; s <= nsrc; s++) high[s] = inner[outer[s]]; /* as rows of scores */");
  } else {
    pr_line(p, "const int64_t *high = m->lod[%d], nsrc = m->lod_count[%d] - 1;", c->lod, c->lod);
    print_room(p, c);
  }
  pr_line(p, "int64_t *low = %s;", c->made_rows[0]);
  pr_line(p, "const int64_t kept = rt_beam_search(%s, %s, %s, %s, W, high, nsrc, %lld, %lld, %d, %s, %s, %s, low, %s);",
          c->pre_ids, c->pre_scores, c->ids ? c->ids : "NULL", c->scores, (long long)c->beam_size,
          (long long)c->end_id, c->is_accumulated, c->sel_ids, c->sel_scores, c->parent ? c->parent : "NULL", c->top);
  if (!c->outer) pr_line(p, "for (int64_t s = 0; s <= nsrc; s++) %s[s] = high[s];", c->made_outer[0]);
  pr_line(p, "for (int64_t r = 0; r <= R; r++) %s[r] = low[r];", c->made_rows[1]);
  pr_line(p, "for (int64_t s = 0; s <= nsrc; s++) %s[s] = %s[s];", c->made_outer[1], c->made_outer[0]);
  pr_line(p, "m->lod_count[%d] = m->lod_count[%d] = R + 1;", c->made[0], c->made[1]);
  pr_line(p, "m->lod_outer_count[%d] = m->lod_outer_count[%d] = nsrc + 1;", c->made[0], c->made[1]);
  pr_line(p, "%s = kept;", c->kept);
  for (int i = 0; i < 2; i++)
    if (c->kept_more[i]) pr_line(p, "%s = kept;", c->kept_more[i]);
}

/* The two arrays as rt_beam_search_decode reads them, the backtrace into
 * SentenceIds' LoD, then SentenceScores' LoD the same. */
void beam_decode_print_c(Printer *p, const BeamDecodeCall *c) {
  const BeamDecodeArray *a[2] = {&c->ids, &c->scores};
  for (int i = 0; i < 2; i++)
    pr_line(p, "const RtLodArray %s = {%s, %s, %s, %s, %s};", i ? "scores" : "ids", a[i]->data, a[i]->stride,
            a[i]->slots, a[i]->cap, a[i]->len);
  pr_line(p, "int64_t *lod0 = %s, *lod1 = %s, nsrc = 0;", c->made_outer[0], c->made_rows[0]);
  pr_line(p, "const int64_t n = rt_beam_search_decode(&ids, &scores, %d, %lld, %lld, %s, %s, %s, lod0, lod1, &nsrc, %s);",
          c->f64, (long long)c->beam_size, (long long)c->end_id, c->max_src, c->out_ids, c->out_scores, c->work);
  pr_line(p, "if (n < 0) return 1;");
  pr_line(p, "for (int64_t s = 0; s <= nsrc; s++) %s[s] = lod0[s];", c->made_outer[1]);
  pr_line(p, "for (int64_t k = 0; k <= nsrc * %lld; k++) %s[k] = lod1[k];", (long long)c->beam_size, c->made_rows[1]);
  pr_line(p, "m->lod_count[%d] = m->lod_count[%d] = nsrc * %lld + 1;", c->made[0], c->made[1],
          (long long)c->beam_size);
  pr_line(p, "m->lod_outer_count[%d] = m->lod_outer_count[%d] = nsrc + 1;", c->made[0], c->made[1]);
  for (int i = 0; i < 2; i++)
    if (c->tokens[i]) pr_line(p, "%s = n;", c->tokens[i]);
}
