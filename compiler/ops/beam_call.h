/* One beam_search step as the lowering decided it, and its C printer.
 *
 * The emitter (beam_search.c) checks the tensors and the LoD scores
 * carries and fills one record: the operands, the LoD read (its index, and
 * whether the sources are its level 0 of two, made absolute through level
 * 1, or its level of the rows), the attributes and the two LoDs the kernel
 * makes (selected_ids' and selected_scores', the same offsets);
 * beam_print_c prints the row checks, the call of rt_beam_search and the
 * LoDs' counts; another backend prints the same records. */
#ifndef PADDLEC_OPS_BEAM_CALL_H
#define PADDLEC_OPS_BEAM_CALL_H

#include <stdint.h>

#include "ops.h"

typedef struct BeamCall {
  const char *rows, *width;          /* scores' rows R and elements a row W */
  const char *pre_rows[2];           /* pre_ids' and pre_scores' rows (each >= R) */
  const char *ids_rows, *ids_width;  /* ids' (NULL: no ids; the column is the id) */
  const char *pre_ids, *pre_scores, *ids, *scores; /* read */
  const char *sel_ids, *sel_scores, *parent;       /* written (parent NULL: not bound) */
  const char *top;                   /* scratch of beam_size RtBeamItem */
  const char *room;                  /* the rows the outputs have room for */
  const char *kept;                  /* lvalues of the kept count: selected_ids' rows, */
  const char *kept_more[2];          /* and the others' where the spec keeps them apart (NULL) */
  int lod;                           /* the LoD scores carries (m->lod[lod]) */
  int outer;                         /* 1: the sources are its level 0 of two (m->lod_outer[lod]) */
  int made[2];                       /* the LoDs made: selected_ids', selected_scores' */
  const char *made_rows[2], *made_outer[2]; /* their stores: level 1 (rows), level 0 (sources) */
  int64_t beam_size, end_id;
  int is_accumulated;
} BeamCall;

void beam_print_c(Printer *p, const BeamCall *c);

/* One beam_search_decode as the lowering decided it (beam_search_decode.c):
 * the two arrays of LoD tensors as rt_beam_search_decode reads them, the
 * outputs and the LoD the kernel makes for both. */
typedef struct BeamDecodeArray {
  const char *data, *stride;  /* the elements, and elements a slot of them holds */
  const char *slots, *cap;    /* the elements' rows and LoDs (runtime/rt_lod_array.h) */
  const char *len;            /* the run's length */
} BeamDecodeArray;

typedef struct BeamDecodeCall {
  BeamDecodeArray ids, scores;
  int f64;                    /* scores are double */
  int64_t beam_size, end_id;
  const char *max_src;        /* the most sources the outputs have room for */
  const char *out_ids, *out_scores; /* written */
  const char *tokens[2];      /* lvalues of their run-time extents (the second NULL: one root) */
  int made[2];                /* the LoDs made: SentenceIds', SentenceScores' */
  const char *made_rows[2], *made_outer[2]; /* their stores: level 1 (sentences), level 0 (sources) */
  const char *work;           /* scratch of RT_BEAM_DECODE_WORK bytes */
} BeamDecodeCall;

void beam_decode_print_c(Printer *p, const BeamDecodeCall *c);

#endif
