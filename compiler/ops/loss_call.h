/* One element-wise loss kernel as the lowering decided it, and its C
 * printer.
 *
 * sigmoid_cross_entropy_with_logits, bce_loss, huber_loss, log_loss,
 * kldiv_loss and their grads walk their tensors' n elements in memory
 * order (kldiv_loss may sum them into one); smooth_l1_loss and its grad
 * walk X as [rows, cols] (a loss per row); nll_loss and its grad walk X
 * as [batch, classes, maps] (maps 1 for a 2-D X), a sample per batch and
 * map position.  The emitters (loss.c, nll_loss.c) check
 * the tensors and fill one record: the kind, the element type, the op's
 * constants, the geometry as C expressions and the buffers; loss_print_c
 * prints the loops (written for float32, respelled for float64: the same
 * operations in the same order); another backend prints the same records.
 * Each buffer is declared under its field's name. */
#ifndef PADDLEC_OPS_LOSS_CALL_H
#define PADDLEC_OPS_LOSS_CALL_H

#include <stdint.h>

#include "ops.h"

typedef enum LossKind {
  LOSS_SIGMOID_CE,      /* out = max(x, 0) - x * label + log(1 + exp(-|x|)) * pw */
  LOSS_SIGMOID_CE_GRAD, /* out (X@GRAD) = dout * (pw * sigmoid(x) - label) */
  LOSS_BCE,             /* out = (label - 1) * max(log(1 - x), -100) - label * max(log(x), -100) */
  LOSS_BCE_GRAD,        /* out (X@GRAD) = dout * (x - label) / max((1 - x) * x, 1e-12) */
  LOSS_HUBER,           /* res = y - x, out = huber(res) */
  LOSS_HUBER_GRAD,      /* dx, dy from res and dout */
  LOSS_SMOOTH_L1,       /* diff = (x - y) * iw, out[row] = sum of smooth_l1(diff) * ow */
  LOSS_SMOOTH_L1_GRAD,  /* dx, dy from diff, iw, ow and dout[row] */
  LOSS_LOG,             /* out = -(label * log(p + eps)) - (1 - label) * log(1 - p + eps) */
  LOSS_LOG_GRAD,        /* out (Predicted@GRAD) from p, label and dout */
  LOSS_HINGE,           /* out = max(1 - p * (2 * label - 1), 0) */
  LOSS_HINGE_GRAD,      /* out (Logits@GRAD) = dout * (p * alt < 1) * -alt, alt = 2 * label - 1 */
  LOSS_RANK,            /* out = log(1 + exp(x - y)) - label * (x - y), x Left, y Right */
  LOSS_RANK_GRAD,       /* dx = dout * (1 / (1 + exp(y - x)) - label), dy = -dout * (the same) */
  LOSS_KLDIV,           /* loss = t * (log(t) - x) where t > 0, kept or reduced */
  LOSS_KLDIV_GRAD,      /* dx = -t * dout where t > 0, divided as the reduction */
  LOSS_NLL,             /* out = -x[label] * w[label] per sample, kept or summed (mean: over the weights) */
  LOSS_NLL_GRAD,        /* dx = 0, then -dout * w[label] at each label (mean: / total weight) */
} LossKind;

typedef struct LossCall {
  LossKind kind;
  int dtype;                /* RT_DT_FP32 or RT_DT_FP64 (SMOOTH_L1*, LOG*: RT_DT_FP32) */
  const char *n;            /* the elements walked (all kinds but SMOOTH_L1*) */
  const char *rows, *cols;  /* SMOOTH_L1*: X (or Diff) as [rows, cols] */
  const char *batch;        /* KLDIV* with batchmean: X's first dim ("1" for a 0-D X) */
  int64_t ignore_index;     /* SIGMOID_CE*: labels equal to it give 0 */
  int normalize;            /* SIGMOID_CE*: divide by the count of labels that are not ignored */
  float delta;              /* HUBER*: the quadratic zone's half width */
  float sigma;              /* SMOOTH_L1*: s2 = sigma * sigma */
  float epsilon;            /* LOG*: added to the probabilities */
  int reduction;            /* KLDIV*, NLL*: 0 none, 1 mean, 2 sum, 3 batchmean (KLDIV) */
  const char *classes;      /* NLL*: X's dim 1; n: the samples (X's dim 0 times its maps), maps: dims 2.. */
  const char *maps;
  const char *weight;       /* NLL*: Weight, or NULL (1) */
  const char *total;        /* NLL: Total_weight written; NLL_GRAD: read */
  int dout_scalar;          /* KLDIV_GRAD: dout holds one value, else one per element */
  const char *x, *p, *y;    /* the inputs: X (p: log_loss's Predicted), Y (HUBER, SMOOTH_L1) */
  const char *label, *t;    /* Label (Labels), kldiv_loss's Target */
  const char *pw;           /* SIGMOID_CE*: pos_weight, or NULL (1) */
  const char *res, *diff;   /* HUBER*: Residual, SMOOTH_L1*: Diff (written by the forward, read by the grad) */
  const char *iw, *ow;      /* SMOOTH_L1*: InsideWeight, OutsideWeight, both or NULL */
  const char *dout;         /* the grads' Out@GRAD (Loss@GRAD) */
  const char *out, *loss;   /* the forward's Out (SIGMOID_CE, BCE, LOG: also their grads' X@GRAD), KLDIV's Loss */
  const char *dx, *dy;      /* HUBER_GRAD, SMOOTH_L1_GRAD (NULL: not computed), KLDIV_GRAD (dx) */
} LossCall;

/* The kernel as C statements (declaring the buffers and the walk). */
void loss_print_c(Printer *p, const LossCall *c);

#endif
