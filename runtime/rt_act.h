/* Activations that kernels apply in their epilogue (fused_conv2d,
 * fused_gemm_epilogue, fused_feedforward), with the parameters of Paddle's
 * oneDNN fusion attributes (fuse_alpha, fuse_beta). */
#ifndef PADDLEC_RT_ACT_H
#define PADDLEC_RT_ACT_H

#include <stdint.h>

typedef enum RtAct {
  RT_ACT_NONE = 0,
  RT_ACT_RELU = 1,         /* x > 0 ? x : alpha * x (leaky when alpha != 0); with alpha 0
                            * Paddle's relu, 0 also for -inf and NaN */
  RT_ACT_CLIP = 2,         /* x clamped to [alpha, beta], NaN kept (Paddle's Eigen max/min);
                            * relu6 is clip(0, 6) */
  RT_ACT_SWISH = 3,        /* x * sigmoid(alpha * x) */
  RT_ACT_HARD_SWISH = 4,   /* x * clamp(alpha * x + beta, 0, 1) (NaN kept, as CLIP) */
  RT_ACT_HARD_SIGMOID = 5, /* clamp(alpha * x + beta, 0, 1) */
  RT_ACT_SIGMOID = 6,      /* 1 / (1 + exp(-x)) */
  RT_ACT_TANH = 7,         /* tanh(x) */
  RT_ACT_GELU = 8,         /* 0.5 x (1 + erf(x / sqrt(2))) */
  RT_ACT_GELU_TANH = 9,    /* 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))) */
} RtAct;

/* erf(x) as Eigen computes it for float packets (its generic_fast_erf:
 * a rational function of x, clamped to [-4, 4]; absolute error below 5e-7),
 * in plain arithmetic that vectorizes, unlike a call to erff.  gelu uses it,
 * fused or not, so the two agree. */
static inline float rt_erff(float x) {
  x = x < -4.0f ? -4.0f : x > 4.0f ? 4.0f : x;
  const float x2 = x * x;
  float p = x2 * -2.72614225801306e-10f + 2.77068142495902e-08f;
  p = x2 * p + -2.10102402082508e-06f;
  p = x2 * p + -5.69250639462346e-05f;
  p = x2 * p + -7.34990630326855e-04f;
  p = x2 * p + -2.95459980854025e-03f;
  p = x2 * p + -1.60960333262415e-02f;
  float q = x2 * -1.45660718464996e-05f + -2.13374055278905e-04f;
  q = x2 * q + -1.68282697438203e-03f;
  q = x2 * q + -7.37332916720468e-03f;
  q = x2 * q + -1.42647390514189e-02f;
  return x * p / q;
}

/* v[i] = act(v[i]) for n floats. */
void rt_act_apply(RtAct act, float alpha, float beta, float *v, int64_t n);
/* v = act(v + c), in one pass: what v[i] += c followed by rt_act_apply
 * computes, bit for bit (a conv epilogue's bias and activation). */
void rt_act_apply_bias(RtAct act, float alpha, float beta, float *v, int64_t n, float c);
/* The epilogue of one output row or plane of a convolution: v = act(v + *bias
 * + res[i]) with the residual (bias NULL: 0), else act(v + *bias) in one
 * pass, else act(v).  rt_conv.c and rt_wide.c both end with it, so both
 * give the same bits. */
void rt_act_epilogue(RtAct act, float alpha, float beta, float *v, int64_t n, const float *bias, const float *res);

/* What a GEMM does to each block of C as soon as it is computed:
 * c = act(c + bias[col] + res[row * ld_res + col]) (fused_gemm_epilogue,
 * fused_feedforward). */
typedef struct RtEpilogue {
  const float *bias;   /* [n], one per column, or NULL */
  const float *res;    /* a residual shaped like C, or NULL */
  int64_t ld_res;      /* its row stride */
  RtAct act;           /* the activation (rt_act.h) */
  float alpha, beta;   /* its parameters */
} RtEpilogue;
/* The epilogue of columns [j0, j0 + n) of row i of C, stored at row. */
void rt_ep_row(const RtEpilogue *ep, float *row, int64_t i, int64_t j0, int64_t n);

#endif
