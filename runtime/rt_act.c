/* Epilogue activations (see rt_act.h).  Each case is its own loop so that
 * the compiler vectorizes it. */
#include "rt_act.h"

#include <math.h>

/* x clamped to [lo, hi] as Paddle's kernels (Eigen's cwiseMax/cwiseMin): a NaN stays NaN. */
static inline float clamp(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }

/* v[i] = act(X) for every i, X being v[i] (+ c): each case its own loop. */
#define ACT_LOOPS(X)                                                                                      \
  switch (act) {                                                                                          \
    case RT_ACT_NONE:                                                                                     \
      for (int64_t i = 0; i < n; i++) v[i] = (X);                                                         \
      break;                                                                                              \
    case RT_ACT_RELU:                                                                                     \
      for (int64_t i = 0; i < n; i++) {                                                                   \
        const float x = (X);                                                                              \
        v[i] = x > 0.0f ? x : a != 0.0f ? a * x : 0.0f; /* relu(-inf), relu(NaN): 0 as Paddle's */       \
      }                                                                                                   \
      break;                                                                                              \
    case RT_ACT_CLIP:                                                                                     \
      for (int64_t i = 0; i < n; i++) v[i] = clamp((X), a, b);                                            \
      break;                                                                                              \
    case RT_ACT_SWISH:                                                                                    \
      for (int64_t i = 0; i < n; i++) {                                                                   \
        const float x = (X);                                                                              \
        v[i] = x / (1.0f + expf(-a * x));                                                                 \
      }                                                                                                   \
      break;                                                                                              \
    case RT_ACT_HARD_SWISH:                                                                               \
      for (int64_t i = 0; i < n; i++) {                                                                   \
        const float x = (X);                                                                              \
        v[i] = x * clamp(a * x + b, 0.0f, 1.0f);                                                          \
      }                                                                                                   \
      break;                                                                                              \
    case RT_ACT_HARD_SIGMOID:                                                                             \
      for (int64_t i = 0; i < n; i++) v[i] = clamp(a * (X) + b, 0.0f, 1.0f);                              \
      break;                                                                                              \
    case RT_ACT_SIGMOID:                                                                                  \
      for (int64_t i = 0; i < n; i++) v[i] = 1.0f / (1.0f + expf(-(X)));                                  \
      break;                                                                                              \
    case RT_ACT_TANH:                                                                                     \
      for (int64_t i = 0; i < n; i++) v[i] = tanhf(X);                                                    \
      break;                                                                                              \
    case RT_ACT_GELU: /* as activation.c's gelu (approximate = false) */                                  \
      for (int64_t i = 0; i < n; i++) {                                                                   \
        const float x = (X);                                                                              \
        v[i] = 0.5f * x * (1.0f + rt_erff(x * 0.70710678f));                                              \
      }                                                                                                   \
      break;                                                                                              \
    case RT_ACT_GELU_TANH: /* approximate = true */                                                       \
      for (int64_t i = 0; i < n; i++) {                                                                   \
        const float x = (X);                                                                              \
        v[i] = 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));                    \
      }                                                                                                   \
      break;                                                                                              \
  }

void rt_act_apply(RtAct act, float alpha, float beta, float *v, int64_t n) {
  const float a = alpha, b = beta;
  if (act == RT_ACT_NONE) return;
  ACT_LOOPS(v[i])
}

void rt_act_apply_bias(RtAct act, float alpha, float beta, float *v, int64_t n, float c) {
  const float a = alpha, b = beta;
  ACT_LOOPS(v[i] + c)
}

void rt_act_epilogue(RtAct act, float alpha, float beta, float *v, int64_t n, const float *bias, const float *res) {
  const float c = bias ? *bias : 0.0f;
  if (res) {
    for (int64_t i = 0; i < n; i++) v[i] += c + res[i];
    rt_act_apply(act, alpha, beta, v, n);
  } else if (bias) { /* one pass: the row may not fit L1 */
    rt_act_apply_bias(act, alpha, beta, v, n, c);
  } else {
    rt_act_apply(act, alpha, beta, v, n);
  }
}

void rt_ep_row(const RtEpilogue *ep, float *row, int64_t i, int64_t j0, int64_t n) {
  if (ep->bias)
    for (int64_t c = 0; c < n; c++) row[c] += ep->bias[j0 + c];
  if (ep->res) {
    const float *restrict r = ep->res + i * ep->ld_res + j0;
    for (int64_t c = 0; c < n; c++) row[c] += r[c];
  }
  rt_act_apply(ep->act, ep->alpha, ep->beta, row, n);
}
