/* Activations that kernels apply in their epilogue (fused_conv2d,
 * fused_gemm_epilogue, fused_feedforward), with the parameters of Paddle's
 * oneDNN fusion attributes (fuse_alpha, fuse_beta). */
#ifndef PADDLEC_RT_ACT_H
#define PADDLEC_RT_ACT_H

#include <stdint.h>

typedef enum RtAct {
  RT_ACT_NONE = 0,
  RT_ACT_RELU = 1,         /* x > 0 ? x : alpha * x (leaky when alpha != 0) */
  RT_ACT_CLIP = 2,         /* min(max(x, alpha), beta); relu6 is clip(0, 6) */
  RT_ACT_SWISH = 3,        /* x * sigmoid(alpha * x) */
  RT_ACT_HARD_SWISH = 4,   /* x * max(0, min(1, alpha * x + beta)) */
  RT_ACT_HARD_SIGMOID = 5, /* max(0, min(1, alpha * x + beta)) */
  RT_ACT_SIGMOID = 6,      /* 1 / (1 + exp(-x)) */
  RT_ACT_TANH = 7,         /* tanh(x) */
  RT_ACT_GELU = 8,         /* 0.5 x (1 + erf(x / sqrt(2))) */
  RT_ACT_GELU_TANH = 9,    /* 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))) */
} RtAct;

/* v[i] = act(v[i]) for n floats. */
void rt_act_apply(RtAct act, float alpha, float beta, float *v, int64_t n);

#endif
