/* The kernels of the 1.x sequence ops over a level-1 LoD, as their
 * emitters (sequence.c) decided them, and their C printer.
 *
 * A LoD feed's offsets reach a kernel as m->lod[input] (count
 * m->lod_count[input], checked when the run starts: 0 = lod[0] <= ... <=
 * lod[N] = the rows, N <= the rows); the number of sequences N is a
 * run-time extent the pool kernel writes into runtime_dims[].
 *
 *   SEQ_POOL: phi SequencePoolKernel on CPU (funcs/sequence_pooling.cc):
 *     per sequence i of h = lod[i+1] - lod[i] rows of W elements, out row
 *     i = pad_value when h is 0, else AVERAGE (sum of the rows in order /
 *     h), SUM, SQRT (sum / sqrt(h)), MAX (strictly greater replaces; the
 *     row index into MaxIndex, int32, -1 for an empty sequence), LAST,
 *     FIRST.
 *   SEQ_CONV: sequence_conv_op.h with paddingTrainable false: col [T, L*C]
 *     zeroed, col[t, j*C..] = X[t + start + j] where that row lies in t's
 *     sequence (math/context_project.h), then Out = col x Filter.
 *   SEQ_SOFTMAX: sequence_softmax_op.h's CPU functor over X [T] or [T, 1]:
 *     per sequence, s = the sum of exp(x) over its rows in order (in the
 *     type, no max taken off), then out = exp(x) / s.
 *   SEQ_REVERSE: sequence_reverse_op.h's CPU loop: row r of each sequence
 *     [lod[i], lod[i+1]) copied (memcpy of W elements of esize bytes) from
 *     row lod[i] + lod[i+1] - 1 - r.
 *   SEQ_EXPAND_AS: sequence_expand_as_op.h's CPU functor: row i of X (one
 *     per sequence of Y's LoD, its finest level; checked by the run where
 *     the compiler cannot prove it) copied into rows [lod[i], lod[i+1]) of Out
 *     (none for an empty sequence); esize bytes an element.
 *   SEQ_ENUMERATE: sequence_enumerate_op.h's CPU kernel over X [T, 1]
 *     (int32 / int64): out[r, j] = x[r + j] while r + j lies in r's
 *     sequence, else pad_value (the attribute, an int, cast to the type),
 *     for j < win_size. */
#ifndef PADDLEC_OPS_SEQ_CALL_H
#define PADDLEC_OPS_SEQ_CALL_H

#include "ops.h"

typedef enum SeqKind { SEQ_POOL, SEQ_CONV, SEQ_SOFTMAX, SEQ_REVERSE, SEQ_EXPAND_AS,
                      SEQ_ENUMERATE } SeqKind;

typedef struct SeqCall {
  SeqKind kind;
  int f64;                /* float64, else float32 */
  int input;              /* the feed (input index) whose LoD is read */
  const char *feed;       /* its name, for the comment */
  const char *x, *out;    /* X read, Out written */
  const char *width;      /* W: the elements of one row of X (SEQ_CONV: C) */
  int esize;              /* SEQ_REVERSE: the bytes of one element */
  /* SEQ_POOL */
  const char *pooltype;   /* "AVERAGE", "SUM", "SQRT", "MAX", "LAST", "FIRST" */
  const char *pad;        /* pad_value as a literal of the type */
  const char *extents[2]; /* the run-time extents N is written to (Out's, MaxIndex's), NULL: none */
  const char *index;      /* MAX: MaxIndex (int32) written, NULL when nobody reads it */
  /* SEQ_CONV */
  const char *rows;       /* T: X's rows (SEQ_EXPAND_AS: checked to be N; NULL when proven) */
  const char *filter;     /* Filter [L*C, M] */
  const char *m;          /* M */
  int start, length;      /* contextStart, contextLength (SEQ_ENUMERATE: length = win_size) */
  int64_t pad_int;        /* SEQ_ENUMERATE: pad_value */
  const char *col;        /* the scratch [T, L*C] */
  const char *ws;         /* float32: the product's packing scratch */
} SeqCall;

void seq_print_c(Printer *p, const SeqCall *c);

#endif
