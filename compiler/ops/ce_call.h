/* One cross-entropy kernel as the lowering decided it, and its C printer.
 *
 * softmax_with_cross_entropy and its grad walk the rows of a [n, c, r]
 * view around the class axis; cross_entropy / cross_entropy2 and their
 * grads the rows of [n, c].  A label is hard (int32 or int64, [n, 1, r]:
 * ignore_index and labels outside [0, c) give zeros) or soft (a
 * distribution over the classes, in the tensors' dtype).  The emitters
 * (loss.c) check the tensors and fill one record: the kind, the dtype, the
 * label's form, the geometry as C expressions and the buffers; ce_print_c
 * prints the loops (written for float32, respelled for float64: the same
 * operations in the same order); another backend prints the same records. */
#ifndef PADDLEC_OPS_CE_CALL_H
#define PADDLEC_OPS_CE_CALL_H

#include <stdint.h>

#include "ops.h"

typedef enum CeKind {
  CE_SOFTMAX_LOSS, /* softmax_with_cross_entropy: sm = softmax(x) (or x), loss */
  CE_SOFTMAX_GRAD, /* its grad: dx from sm, label and dloss */
  CE_LOSS,         /* cross_entropy(2): y (and mx, the probability at the label) from x */
  CE_GRAD,         /* their grads: dx from x (or MatchX), label and dy */
} CeKind;

typedef struct CeCall {
  CeKind kind;
  int dtype;              /* RT_DT_FP32 or RT_DT_FP64 */
  int soft;               /* soft labels, else hard */
  const char *label_type; /* hard labels' C type (int32_t, int64_t) */
  int64_t ignore_index;   /* hard labels */
  int use_softmax;        /* CE_SOFTMAX_*: softmax of the logits, else they are probabilities */
  int match_x;            /* CE_GRAD: x is cross_entropy2's MatchX ([n]), else X ([n, c]) */
  const char *n, *c, *r;  /* the geometry (r: CE_SOFTMAX_* only) */
  const char *x;          /* CE_SOFTMAX_LOSS: Logits; CE_LOSS, CE_GRAD: X or MatchX */
  const char *label;
  const char *sm;         /* CE_SOFTMAX_*: Softmax (written, then read by the grad) */
  const char *loss;       /* CE_SOFTMAX_LOSS: Loss; CE_LOSS: Y */
  const char *mx;         /* CE_LOSS: MatchX, or NULL */
  const char *dloss;      /* CE_SOFTMAX_GRAD: Loss@GRAD; CE_GRAD: Y@GRAD */
  const char *dx;         /* the grads: Logits@GRAD, X@GRAD */
} CeCall;

/* The kernel as C statements (declaring n, c, r and the buffers' names). */
void ce_print_c(Printer *p, const CeCall *c);

#endif
