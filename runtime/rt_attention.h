/* Multi-head attention as one kernel sequence (the fused_attention op that
 * passes/fused_attention.c writes):
 *
 *   Q = xq Wq + bq, K = xk Wk + bk, V = xv Wv + bv       ([rows, heads * dh])
 *   for each image b and head h:
 *     P = softmax(scale * Q_bh K_bh^T + mask_bh)            ([s, sk], per thread)
 *     C_bh = P V_bh
 *   out = C Wo + bo (+ residual), then layer_norm over each row when asked.
 *
 * The score matrix of one (image, head) lives in the calling thread's
 * scratch only: nothing of size batch * heads * s * sk is ever stored.
 * Q, K, V and C are laid out [rows, heads * dh] (the layout of the
 * reshape/transpose pairs the unfused program used), so head h of image b
 * is a strided matrix of them. */
#ifndef PADDLEC_RT_ATTENTION_H
#define PADDLEC_RT_ATTENTION_H

#include <stdint.h>

typedef struct RtAttention {
  int64_t s, sk;             /* query and key/value sequence lengths */
  int64_t eq, ek, ev;        /* widths of the query, key and value inputs */
  int64_t heads, dh;         /* heads and the width of one */
  int64_t eo;                /* output width */
  float scale;               /* multiplies the scores */
  int64_t mask_stride[4];    /* element strides of the mask over [batch, heads, s, sk], 0 = broadcast */
  int post_ln;               /* layer_norm the result (ln_scale / ln_bias optional) */
  float ln_eps;              /* its epsilon */
} RtAttention;

/* The tensors (NULL where absent: biases, mask, residual, ln_scale/bias). */
typedef struct RtAttentionIo {
  const float *xq, *xk, *xv;    /* the inputs: [batch, s, eq], [batch, sk, ek], [batch, sk, ev] */
  const float *wq, *wk, *wv;    /* projections [e*, heads * dh] */
  const float *bq, *bk, *bv;    /* their biases [heads * dh] */
  const float *mask;            /* added to the scores (mask_stride) */
  const float *wo, *bo;         /* output projection [heads * dh, eo] and bias [eo] */
  const float *res;             /* added to the output [batch, s, eo] */
  const float *ln_scale, *ln_bias; /* layer_norm parameters [eo] */
} RtAttentionIo;

/* Floats of private scratch each thread needs: one score matrix and one
 * head's keys transposed. */
static inline int64_t rt_attention_task_floats(const RtAttention *p) { return (p->s + p->dh) * p->sk; }
/* Floats of workspace: Q, K, V, C, and thread 0's scratch. */
static inline int64_t rt_attention_ws_floats(const RtAttention *p, int64_t batch) {
  return batch * (2 * p->s + 2 * p->sk) * p->heads * p->dh + rt_attention_task_floats(p);
}

/* out [batch, s, eo]; ws holds rt_attention_ws_floats; gemm_ws the GEMM
 * packing room of the largest projection (rt_sgemm_ws). */
void rt_attention(const RtAttention *p, int64_t batch, const RtAttentionIo *io, float *out, float *ws,
                  float *gemm_ws);

#endif
