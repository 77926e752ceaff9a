/* One fused feed-forward block as the lowering decided it, and its C
 * printer.
 *
 * fused_feedforward (fused_feedforward.c) is Out = [layer_norm](act(X W1
 * + b1) W2 + b2 + Residual), X viewed as [M, E], W1 [E, F], W2 [F, E2]:
 * two products whose epilogues (runtime/rt_act.h's RtEpilogue ep1, ep2)
 * add the biases, the activation and the residual, the hidden [M, F] in
 * kernel scratch, then the layer_norm of Out in place.  The emitter checks
 * the tensors, decides the activation and fills one record: the sizes, the
 * epilogue's activation with its literals, the scratch and the buffers;
 * ffn_print_c prints the sizes and epilogues and the products and
 * layer_norm through their own records (GemmCall, NormCall); another
 * backend prints the same records. */
#ifndef PADDLEC_OPS_FFN_CALL_H
#define PADDLEC_OPS_FFN_CALL_H

#include "ops.h"

typedef struct FfnCall {
  const char *m;                  /* the rows M of X (its dims but the last), a C expression */
  int64_t e, f, e2;               /* X's last dim E, the hidden width F, Out's last dim E2 */
  const char *hidden;             /* the kernel scratch of the hidden [M, F] floats */
  const char *ws;                 /* the products' packing scratch (em_gemm_ws) */
  RtAct act;                      /* the first epilogue's activation */
  const char *alpha, *beta;       /* its parameters, float literals */
  const char *x, *w1, *w2;        /* read */
  const char *b1, *b2, *residual; /* read, or NULL when not given */
  const char *out;                /* written */
  int layer_norm;                 /* post_layer_norm: Out's rows normalized in place */
  const char *eps;                /* layer_norm: its epsilon, a float literal */
  const char *scale, *bias;       /* layer_norm: read, or NULL when not given */
} FfnCall;

void ffn_print_c(Printer *p, const FfnCall *c);

#endif
