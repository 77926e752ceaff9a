/* One softmax kernel as the lowering decided it, and its C printer: the
 * softmax over an axis, its gradient, and the fused attention block built
 * around one.
 *
 * The emitters of softmax, log_softmax, their grads,
 * softmax_with_cross_entropy and fused_attention fill one record: which
 * routine, the sizes and buffers as C expressions (fused_attention: its
 * geometry's values, its tensors, and the scratch the planner sized).
 * attention_print_c is the only code that spells the runtime's calls
 * (rt_softmax, rt_log_softmax, rt_attention) and prints the grads' loops
 * and fused_attention's constant RtAttention `geo` and RtAttentionIo `io`;
 * another backend prints the same records. */
#ifndef PADDLEC_OPS_ATTENTION_CALL_H
#define PADDLEC_OPS_ATTENTION_CALL_H

#include "ops.h"
#include "rt_attention.h"

typedef enum AttentionKind {
  ATTN_SOFTMAX,          /* out = softmax(x) along n, x viewed as [outer, n, inner] */
  ATTN_LOG_SOFTMAX,      /* out = log(softmax(x)), the same view */
  ATTN_SOFTMAX_GRAD,     /* dx = (dout - sum(dout * out)) * out per line along n, the same view */
  ATTN_LOG_SOFTMAX_GRAD, /* dx = dout - exp(out) * sum(dout) per line, the same view */
  ATTN_FUSED,            /* out = fused_attention's block of the batch, operands in io */
} AttentionKind;

/* ATTN_FUSED's tensors as rt_attention.h's RtAttentionIo names them: buffers, NULL where absent (the
 * biases, mask, res, ln_scale and ln_bias are optional). */
typedef struct AttentionIo {
  const char *xq, *xk, *xv, *wq, *wk, *wv, *bq, *bk, *bv, *mask, *wo, *bo, *res, *ln_scale, *ln_bias;
} AttentionIo;

typedef struct AttentionCall {
  AttentionKind kind;
  int f64;                       /* softmax: float64 buffers (rt_softmax_f64, rt_log_softmax_f64), else float32 */
  const char *x, *out;           /* input (softmax), output (the grads: the forward's, read) */
  const char *dout, *dx;         /* the grads: read, written */
  const char *outer, *n, *inner; /* softmax and its grads: the view */
  RtAttention geo;               /* ATTN_FUSED: the geometry's values */
  AttentionIo io;                /* ATTN_FUSED: the inputs */
  const char *batch;             /* ATTN_FUSED: sequences */
  const char *ws, *gemm_ws;      /* ATTN_FUSED: the routine's scratch and the GEMM's packing room */
  /* ATTN_FUSED with sequence lengths the run gives (geo holds their
   * bounds): the run's s, sk and the mask's strides as C expressions,
   * geo then a local computed at each call; NULL: geo's values */
  const char *run_s, *run_sk, *run_mask_stride[4];
} AttentionCall;

void attention_print_c(Printer *p, const AttentionCall *c);

#endif
