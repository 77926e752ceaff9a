/* One convolution step as the lowering decided it, and its C printer.
 *
 * A step is one runtime routine (kind, dims): rt_conv2d, rt_conv2d_transpose,
 * rt_conv2d_filter_grad, their 3-D and float64 namesakes.  The emitters
 * (conv.c, conv_transpose.c) check the op and decide the geometry, then fill
 * one record per step: the geometry's values and C name (declared as a
 * static const by the step that first uses it), C expressions for the batch
 * and the buffers, and for channel-last 2-D convolutions the NCHW copies in
 * kernel scratch the routine runs on (Paddle's kernels transpose too):
 * their pointers and the transposes (MoveCall records) into them before the
 * call and back after it.  conv_print_c (conv_util.c) prints the whole step
 * and is the only code that spells the runtime's convolution calls; another
 * backend prints the same records. */
#ifndef PADDLEC_OPS_CONV_CALL_H
#define PADDLEC_OPS_CONV_CALL_H

#include "move_call.h"
#include "ops.h"
#include "rt_cnn.h"

typedef enum ConvKind {
  CONV_FORWARD,     /* rt_conv2d: out = act(conv(x, w) + bias + res) */
  CONV_TRANSPOSE,   /* rt_conv2d_transpose: out = conv^T(x, w) + bias */
  CONV_FILTER_GRAD, /* rt_conv2d_filter_grad: out (dW) = sum over images of dy col(x)^T */
} ConvKind;

typedef enum ConvCopies {
  CONV_COPIES_NONE,    /* NCHW (NCDHW) buffers, or the copies an earlier step made */
  CONV_COPIES_FORWARD, /* Input into its NCHW copy; the routine writes Output's */
  CONV_COPIES_GRAD,    /* Output@GRAD into its copy, Input into its copy when to_nchw[1] is set */
} ConvCopies;

typedef struct ConvCall {
  ConvKind kind;
  int dims;                 /* 3: rt_conv3d*; otherwise 2-D (no bias or residual in 3-D) */
  int channel_last;         /* 3-D CONV_TRANSPOSE: NDHWC buffers */
  int f64;                  /* float64: rt_conv2d*_f64, rt_conv3d*_f64 (no bias, residual or gemm_ws) */
  const char *geo;          /* the geometry's C name (a constant RtConv2d or RtConv3d) */
  int declare;              /* the step declares it first (else an earlier step did) from g2 or g3: */
  RtConv2d g2;              /* 2-D */
  RtConv3d g3;              /* 3-D */
  int compact;              /* spelled in fewer lines: 2-D in two (no fused activation), 3-D positionally */
  int run_sizes;            /* the sizes are the locals h_in, w_in, h_out, w_out (3-D: and d_in, d_out) the run
                             * gives (run_hw.h) */
  int run_pads;             /* and the padding the locals pad_t, pad_l (3-D: and pad_f) (SAME:
                             * conv_print_same_pads) */
  int run_swap;             /* run_sizes of a gradient's transposed geometry (CONV_TRANSPOSE of Output@GRAD):
                             * its input the locals h_out, w_out, its output h_in, w_in */
  int braced;               /* the declaration and the call in braces of their own (the copies outside) */
  const char *batch;        /* images */
  const char *x, *w, *dy;   /* input images, filter (not FILTER_GRAD), output gradient (FILTER_GRAD) */
  const char *bias, *res;   /* NULL: none */
  const char *out;          /* output images, or the filter gradient */
  const char *ws, *gemm_ws; /* the routine's buffer (im2col / col) and the GEMM's packing room */
  /* channel last (2-D): the copies this step makes, before the call */
  ConvCopies copies;
  int copies_first;         /* before the geometry's declaration (else after it) */
  const char *type;         /* the copies' C element type */
  MoveCall to_nchw[2];      /* the transposes into the NCHW copies in scratch (x_nchw FORWARD; dout_nchw and
                             * x_nchw GRAD, [1].src NULL: none); x, out, dy then name the copies */
  MoveCall to_nhwc;         /* the transpose of the result back, after the call (.src NULL: none) */
} ConvCall;

/* The step: the copies and the geometry's declaration (in the order
 * copies_first and braced say), the call, the transpose back. */
void conv_print_c(Printer *p, const ConvCall *c);

/* Channel-last (NHWC) 2-D convolutions run as NCHW between two transposes
 * (conv_util.c).  conv_nhwc fills a forward step's copies (Input x, Output
 * out) and points c->x and c->out at them.  conv_nhwc_grad fills the copies
 * of the gradient steps, for the first step to print: c->x (Input), c->dy
 * (Output@GRAD) and c->out (Input@GRAD's buffer when dx) come in as the
 * channel-last buffers and leave as their NCHW copies (Input's only when
 * dw; Input@GRAD's room and its transpose back only when dx). */
void conv_nhwc(EmitCtx *e, const Var *x, const Var *out, ConvCall *c);
void conv_nhwc_grad(EmitCtx *e, const Var *x, const Var *dy, int dx, int dw, ConvCall *c);

#endif
