/* Multi-head attention (see rt_attention.h).  The projections are GEMMs
 * with a bias epilogue on the model's threads; the (image, head) pairs are
 * tasks (rt_parallel.h) that each keep their score matrix in their thread's
 * scratch; the output projection adds bias and residual in its epilogue. */
#include "rt_attention.h"
#include "rt_kernels.h"
#include "rt_parallel.h"

typedef struct AttnJob {
  const RtAttention *p;     /* the geometry */
  const RtAttentionIo *io;  /* the tensors */
  const float *q, *k, *v;   /* the projections */
  float *c;                 /* the context */
  float *scores;            /* thread 0's scratch (scores, keys transposed) */
} AttnJob;

/* Task t: image t / heads, head t % heads. */
static void head_task(void *ctx, int64_t t, int tid) {
  const AttnJob *j = ctx;
  const RtAttention *p = j->p;
  const int64_t hd = p->heads * p->dh, b = t / p->heads, h = t % p->heads;
  float *sc = rt_task_scratch(tid, j->scores);
  const float *q = j->q + b * p->s * hd + h * p->dh, *k = j->k + b * p->sk * hd + h * p->dh;
  if (rt_wide_gemm_suits(p->s, p->sk, p->dh)) {
    /* the keys transposed, [dh, sk] after the scores, so that the product
     * is one the wide kernel takes (no transposed operand) */
    float *kt = sc + p->s * p->sk;
    for (int64_t c = 0; c < p->sk; c++)
      for (int64_t d = 0; d < p->dh; d++) kt[d * p->sk + c] = k[c * hd + d];
    rt_sgemm_ws(0, 0, p->s, p->sk, p->dh, p->scale, q, hd, kt, p->sk, 0.0f, sc, p->sk, NULL);
  } else {
    rt_sgemm_ws(0, 1, p->s, p->sk, p->dh, p->scale, q, hd, k, hd, 0.0f, sc, p->sk, NULL);
  }
  if (j->io->mask) {
    const int64_t *ms = p->mask_stride;
    const float *m = j->io->mask + b * ms[0] + h * ms[1];
    for (int64_t i = 0; i < p->s; i++)
      for (int64_t c = 0; c < p->sk; c++) sc[i * p->sk + c] += m[i * ms[2] + c * ms[3]];
  }
  for (int64_t i = 0; i < p->s; i++) rt_softmax_row(sc + i * p->sk, sc + i * p->sk, p->sk);
  rt_sgemm_ws(0, 0, p->s, p->dh, p->sk, 1.0f, sc, p->sk, j->v + b * p->sk * hd + h * p->dh, hd, 0.0f,
              j->c + b * p->s * hd + h * p->dh, hd, NULL);
}

/* y = x w + bias for `rows` rows. */
static void project(int64_t rows, int64_t e, int64_t n, const float *x, const float *w, const float *bias, float *y,
                    float *gemm_ws) {
  const RtEpilogue ep = {bias, NULL, 0, RT_ACT_NONE, 0.0f, 0.0f};
  rt_sgemm_ep(0, 0, rows, n, e, x, e, w, n, y, n, gemm_ws, &ep);
}

void rt_attention(const RtAttention *p, int64_t batch, const RtAttentionIo *io, float *out, float *ws,
                  float *gemm_ws) {
  const int64_t hd = p->heads * p->dh;
  float *q = ws, *k = q + batch * p->s * hd, *v = k + batch * p->sk * hd, *c = v + batch * p->sk * hd;
  AttnJob j = {p, io, q, k, v, c, c + batch * p->s * hd};
  project(batch * p->s, p->eq, hd, io->xq, io->wq, io->bq, q, gemm_ws);
  project(batch * p->sk, p->ek, hd, io->xk, io->wk, io->bk, k, gemm_ws);
  project(batch * p->sk, p->ev, hd, io->xv, io->wv, io->bv, v, gemm_ws);
  rt_parallel(batch * p->heads, head_task, &j);
  const RtEpilogue ep = {io->bo, io->res, p->eo, RT_ACT_NONE, 0.0f, 0.0f};
  rt_sgemm_ep(0, 0, batch * p->s, p->eo, hd, c, hd, io->wo, p->eo, out, p->eo, gemm_ws, &ep);
  if (p->post_ln) rt_layer_norm(out, out, io->ln_scale, io->ln_bias, p->ln_eps, batch * p->s, p->eo, NULL, NULL);
}
