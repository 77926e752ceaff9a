/* One data-movement kernel as the lowering decided it, and its C printer:
 * gathers, strided copies and layout transposes, and two small passes over
 * one tensor that have no family of their own (affine_channel's
 * per-channel scale and bias, fake_quant's largest magnitude); and the
 * copies tensor_util.c's helpers print as loops (whole copies, pieces side
 * by side, the gradient of picking along an axis by index) and the run-time
 * extent an output takes from its input (tu_pass_extent).
 *
 * The emitters (gather.c, lookup_table.c, tensor_util.c's tu_strided_copy,
 * tu_copy, tu_pieces and tu_index_grad, diagonal.c, nanmedian.c, the NHWC
 * convolutions (conv_util.c fills their ConvCall records with them),
 * affine_channel.c, fake_quant.c, pad.c, expand.c) and spectral_norm's
 * printer (mat_call.c) fill one record: which routine, its buffers and
 * geometry as C expressions.  move_print_c and move_expr_c are the only
 * code that spells these runtime calls (rt_gather, rt_gather_nd,
 * rt_copy_strided, rt_nhwc_to_nchw, rt_nchw_to_nhwc, rt_channel_affine,
 * rt_abs_max, rt_pad3d) and prints those loops; another backend prints the
 * same records. */
#ifndef PADDLEC_OPS_MOVE_CALL_H
#define PADDLEC_OPS_MOVE_CALL_H

#include "ops.h"

struct RtPad3d; /* rt_cnn.h */

typedef enum MoveKind {
  MOVE_GATHER,         /* src as [outer, rows, row_bytes]: dst[o, j, :] = src[o, index[j], :]; an index
                        * outside (not pad) returns 1 from the kernel (its op calls em_fault) */
  MOVE_GATHER_ND,      /* dst row r (row_bytes) = the slice of src index row r addresses; one
                        * outside returns 1 from the kernel */
  MOVE_COPY_STRIDED,   /* dst (contiguous, dims) = src at sum(i[k] * strides[k]) */
  MOVE_NHWC_TO_NCHW,   /* dst [outer, channels, inner] = src [outer, inner, channels] */
  MOVE_NCHW_TO_NHWC,   /* dst [outer, inner, channels] = src [outer, channels, inner] */
  MOVE_CHANNEL_AFFINE, /* dst = src * scale[c] + bias[c], both [outer, channels, inner] */
  MOVE_ABS_MAX,        /* max |src[i]| over count elements: an expression (move_expr_c) */
  MOVE_PAD3D,          /* dst = src padded as the RtPad3d geo says, outer times */
  MOVE_PAD3D_GRAD,     /* dst = the part of src (the padded gradient) that geo's padding did not add */
  MOVE_COPY,           /* dst = src, count elements of type (memcpy); alias: nothing copied, a note says why */
  MOVE_ONE,            /* dst[0] = src[0]: a strided copy of one element */
  MOVE_PIECES,         /* the whole as [outer, width], piece i as [outer, cols[i]] at columns sum(cols[:i]) */
  MOVE_TAKE_GRAD,      /* dx = 0; dx[a, idx[at], b] += dout[at], at walking dout ([outer, len, post]) */
  MOVE_EXTENT,         /* dst = src: a run-time extent (both lvalues of the model's run-time dims) */
} MoveKind;

typedef struct MoveCall {
  MoveKind kind;
  const char *src, *dst;                 /* read, written (MOVE_ABS_MAX: src alone) */
  const char *outer, *channels, *inner;  /* transposes (outer: images, inner: pixels), CHANNEL_AFFINE */
  const char *scale, *bias;              /* CHANNEL_AFFINE: [channels] each */
  const char *rows;                      /* GATHER: the rows of src the index picks from */
  const char *row_bytes;                 /* GATHER: a row; GATHER_ND: a slice */
  const char *index;                     /* gathers: the index buffer, */
  int index_bytes;                       /* 4 or 8 bytes an entry */
  const char *count;                     /* GATHER: index entries; GATHER_ND: index rows; ABS_MAX: elements */
  const char *pad;                       /* GATHER: the entry that gives zeros ("INT64_MIN": none) */
  int rank;                              /* COPY_STRIDED: dims and strides; GATHER_ND: k, src's dims indexed */
  const char *const *dims;               /* C expressions, rank of them */
  const char *const *strides;            /* COPY_STRIDED: in elements */
  const char *esize;                     /* COPY_STRIDED: bytes of an element */
  const char *geo;                       /* PAD3D, PAD3D_GRAD: the RtPad3d's name (outer: its repeats) */
  int f64;                               /* transposes, CHANNEL_AFFINE, PAD3D(_GRAD): double elements (rt_*_f64) */
  const struct RtPad3d *pad3d;           /* PAD3D(_GRAD): declared first as static const `geo` (NULL: not) */
  const char *const *run_pads;           /* PAD3D: pad3d's 6 pads as C expressions the run gives (geo a local) */
  const char *const *run_in;             /* PAD3D: X's d, h, w as C expressions, NULL entries the geo's (a local
                                          * when one is the run's) */
  int braced;                            /* the kernel in braces of its own (broadcast_tensors: one per Out) */
  const char *note;                      /* a comment printed first (meshgrid: which Out), or NULL */
  const char *type;                      /* COPY, PIECES, TAKE_GRAD: the C element type */
  int alias;                             /* COPY: 1 dst is src, 2 dst shares src's buffer (enable_inplace) */
  const char *whole;                     /* PIECES: the whole (written when join, else read) */
  int npieces, join;                     /* PIECES: how many; 1 copies them into the whole, 0 out of it */
  const char *const *pieces;             /* PIECES: each piece (NULL: skipped; its columns stay as they are) */
  const char *const *cols;               /* PIECES: each piece's row length */
  const char *width;                     /* PIECES: the whole's row length ("0": every piece empty, no buffer) */
  const char *itype, *idx, *dout, *dx;   /* TAKE_GRAD: the index's C type; the index, dout read; dx written */
  const char *dx_numel;                  /* TAKE_GRAD: dx's elements, zeroed first */
  const char *scalar;                    /* TAKE_GRAD: a 0-D dx: its value, an expression of dout, idx */
  const char *n, *len, *post;            /* TAKE_GRAD: dx's axis, dout's (1 when dropped), the elements after it */
} MoveCall;

/* The call as a C statement; COPY_STRIDED and GATHER_ND as a block that
 * declares the arrays dims (and strides) the call reads; COPY, ONE, PIECES,
 * TAKE_GRAD and EXTENT as their statements and loops. */
void move_print_c(Printer *p, const MoveCall *c);

/* The call as a C expression (MOVE_ABS_MAX: a float, for the emitter's
 * own statement); COPY_STRIDED and GATHER_ND read the arrays dims and
 * strides that move_print_c declares.  The runtime calls only. */
const char *move_expr_c(const MoveCall *c);

#endif
