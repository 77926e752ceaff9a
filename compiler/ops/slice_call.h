/* One kernel over a box of a tensor as the lowering decided it, and its C
 * printer: the gradients of slices and crops (zeros with the gradient
 * written into the box), set_value and its grads (a strided box written,
 * read or zeroed), constant padding and its grad (rows copied into or out
 * of the box) and the gradient of the repeating copies (expand, tile,
 * broadcast_tensors: sums over the repeats).
 *
 * slice with bounds held in tensors finds its start at run time (BOUNDS).
 * The emitters (slice.c, crop.c, set_value.c, pad.c, expand.c) check the
 * tensors and the attributes and fill one record: the kind, the C type,
 * the box's dims, starts, steps and strides as C expressions and the
 * buffers; slice_print_c prints the loops; another backend prints the same
 * records.  The box's loop variables are the printer's (i0, i1, ... or s0,
 * s1, ...): the record holds no index expression. */
#ifndef PADDLEC_OPS_SLICE_CALL_H
#define PADDLEC_OPS_SLICE_CALL_H

#include "ops.h"

typedef enum SliceKind {
  SLICE_EMPTY,        /* slice, strided_slice: the slice has no element, a note and nothing copied */
  SLICE_GRAD,         /* dx = 0, then dx[offset + sum(i[a] * strides[a])] = dout[k++] (empty: the zeros alone) */
  SLICE_CROP_GRAD,    /* dx = 0, then dx[sum((i[a] + offsets[a]) * strides[a])] = dout[p++] */
  SLICE_SET,          /* set_value: out[start + s * step] = val[sum(s[a] * vstrides[a])] (empty: a note) */
  SLICE_SET_GRAD,     /* set_value_grad's ValueTensor@GRAD: dv = 0, then dv[...] += dout[start + s * step] */
  SLICE_SET_ZERO,     /* set_value_grad's Input@GRAD (a copy of dout first): dx[start + s * step] = 0 */
  SLICE_PAD,          /* pad: out = value, then x's rows (last dim) copied to offsets in out */
  SLICE_PAD_GRAD,     /* pad_grad: dx's rows copied from offsets in dout */
  SLICE_REPEAT_GRAD,  /* dx = 0, then dx[sum(i[k] * strides[k])] += dout[at++] (no repeat: dx = dout) */
  SLICE_BOUNDS,       /* slice with bounds from tensors: start<a>, end<a> per sliced axis a as Paddle's
                       * kernel normalizes them; a fault unless each gives one element (a dropped axis)
                       * or ends at or after its start (a kept one, whose extent the run writes) */
  SLICE_STRIDED_BOUNDS, /* strided_slice with bounds from tensors: begin<a> (the first element read) and
                       * cnt<a> per sliced axis a as phi's StridedSliceOutDims / Functor find them; a
                       * fault where Paddle stops, or on a dropped axis of more than one element */
  SLICE_SECTIONS,     /* split's sections from tensors: sec<i> per output (rank of them: bstart, the dim
                       * bdim[0]), one -1 the rest; a fault unless they split the dim */
  SLICE_CROP_BOUNDS,  /* crop_tensor with offsets or shape from tensors: off<a>, size<a> per dim a as Paddle's
                       * kernel checks them (a fault where it stops); the extent written or checked */
} SliceKind;

typedef struct SliceCall {
  SliceKind kind;
  const char *type;                        /* C element type */
  int rank;                                /* the box's dims (REPEAT_GRAD: its merged loops) */
  const char *dims[2 * RT_MAX_RANK];       /* the box's extents (GRAD, SET*: "1" opens no loop) */
  const char *strides[2 * RT_MAX_RANK];    /* the written (GRADs, SET, SET_ZERO) or read (SET_GRAD) tensor's,
                                            * REPEAT_GRAD: dx's ("0" along a repeat) */
  const char *offset;                      /* GRAD: the box's first element in dx */
  const char *offsets[RT_MAX_RANK];        /* CROP_GRAD, PAD, PAD_GRAD: where the box starts along each dim */
  const char *odims[RT_MAX_RANK];          /* PAD: Out's, PAD_GRAD: Out@GRAD's dims */
  const char *start[RT_MAX_RANK];          /* SET*: the first index along a sliced dim (NULL: taken whole) */
  const char *step[RT_MAX_RANK];           /* SET*: the step along a sliced dim */
  int down[RT_MAX_RANK];                   /* SET_GRAD, SET_ZERO: walked from the last index down */
  const char *vstrides[RT_MAX_RANK];       /* SET, SET_GRAD: the value's stride along each dim (NULL: none) */
  const char *x, *out;                     /* PAD: read, written; SET: out written */
  const char *val;                         /* SET: the value tensor (NULL: the literals vals) */
  const char *const *vals;                 /* SET: nvals literals of type */
  int nvals;
  const char *value;                       /* PAD: the padding's literal (float) */
  const char *dout, *dx, *dv;              /* the grads: read; written (SET_GRAD: dv) */
  const char *numel;                       /* the zeroed or filled tensor's elements (dx, dv, PAD: out) */
  int empty;                               /* GRAD, SET, SET_GRAD: the box has no element */
  int reduce;                              /* REPEAT_GRAD: some dim repeats (else dx = dout) */
  int braced;                              /* REPEAT_GRAD: in braces of its own (broadcast_tensors_grad: one per X) */
  const char *bstart[RT_MAX_RANK];         /* BOUNDS: per axis, its start and end (int64 expressions), */
  const char *bend[RT_MAX_RANK];           /* NULL where the axis is taken whole, */
  const char *bdim[RT_MAX_RANK];           /* and its size; */
  int blast[RT_MAX_RANK];                  /* 1: start -1 with end 0 means the last element (infer_flags -1, dropped) */
  int bkeep[RT_MAX_RANK];                  /* 1: the axis is kept (end - start elements, not one) */
  const char *bextent[RT_MAX_RANK];        /* a kept axis: the lvalue of Out's run-time extent, or NULL */
  const char *bmost[RT_MAX_RANK];          /* BOUNDS: the most the extent may be where the compiler planned Out
                                            * below the axis' size (a bound it proved), checked; NULL: none */
  const char *bwant[RT_MAX_RANK];          /* CROP_BOUNDS, STRIDED_BOUNDS without an extent: the size Out has */
  const char *bstep[RT_MAX_RANK];          /* STRIDED_BOUNDS: the stride (int64 expression), */
  int bsingle[RT_MAX_RANK];                /* 1: a dropped axis with infer_flags -1 (start -1, end 0: the last), */
  int bnozero;                             /* and 1: a kept axis with no element stops the run (Paddle would
                                            * drop it too: decrease_axis drops every dim of size 0) */
} SliceCall;

void slice_print_c(Printer *p, const SliceCall *c);

#endif
