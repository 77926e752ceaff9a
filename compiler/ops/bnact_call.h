/* One kernel of the fused batch norms as the lowering decided it, and its
 * C printer.
 *
 * fused_batch_norm_act and fused_bn_add_activation at inference fold the
 * running statistics into a per-channel scale and shift (C floats of
 * scratch: sc[c], then sh[c]) and apply them in one loop over X viewed as
 * rows (an (image, channel) plane, or one pixel's channels with NHWC),
 * adding Z and applying the activation; the grads of the training ones
 * first compute the activation's gradient (one that reads Out alone) from
 * Y and Y@GRAD.  The emitters (fused_elementwise.c) check the tensors,
 * decide the activation's C expressions and fill one record: the kind,
 * the channel count, the epsilon literal, the expressions and the buffers;
 * bnact_print_c prints the loop; another backend prints the same records.
 * BNACT_APPLY and BNACT_ACT_GRAD are a task's body (em_task_begin: rows
 * or elements [lo, hi)). */
#ifndef PADDLEC_OPS_BNACT_CALL_H
#define PADDLEC_OPS_BNACT_CALL_H

#include "ops.h"

typedef enum BnActKind {
  BNACT_FOLD,     /* sc[c] = scale[c] / sqrtf(var[c] + eps), sh[c] = bias[c] - mean[c] * sc[c] into ws */
  BNACT_APPLY,    /* out[i] = act(x[i] * sc[c] + sh[c] (+ z[i])) for the rows lo..hi of `inner` elements */
  BNACT_ACT_GRAD, /* gact[i] = the activation's gradient of y[i], dy[i], for i in lo..hi */
} BnActKind;

typedef struct BnActCall {
  BnActKind kind;
  int64_t channels;        /* FOLD, APPLY: C */
  const char *ws;          /* FOLD, APPLY: the scratch of sc (C floats), then sh (C floats) */
  const char *eps;         /* FOLD: epsilon, a float literal */
  const char *mean, *var;  /* FOLD: the running statistics read */
  const char *scale;       /* FOLD: read, or NULL (1) */
  const char *bias;        /* FOLD: read, or NULL (0) */
  int nhwc;                /* APPLY: the rows are pixels, the channel the index in the row; else planes, row % C */
  const char *inner;       /* APPLY: each row's elements */
  const char *x, *z;       /* APPLY: read (z NULL when there is no Z) */
  const char *out;         /* APPLY: written */
  const char *act;         /* APPLY: the activation's float expression of v */
  const char *y, *dy;      /* ACT_GRAD: read */
  const char *dz;          /* ACT_GRAD: Z@GRAD, written with the gradient, or NULL: the gradient goes to ws */
  const char *body;        /* ACT_GRAD: statements before the term (of y and dy), or NULL */
  const char *term;        /* ACT_GRAD: the gradient's float expression */
} BnActCall;

void bnact_print_c(Printer *p, const BnActCall *c);

#endif
