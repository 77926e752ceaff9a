/* Epilogue activations (see rt_act.h).  Each case is its own loop so that
 * the compiler vectorizes it. */
#include "rt_act.h"

#include <math.h>

void rt_act_apply(RtAct act, float alpha, float beta, float *v, int64_t n) {
  const float a = alpha, b = beta;
  switch (act) {
    case RT_ACT_NONE: break;
    case RT_ACT_RELU:
      for (int64_t i = 0; i < n; i++) v[i] = v[i] > 0.0f ? v[i] : a * v[i];
      break;
    case RT_ACT_CLIP:
      for (int64_t i = 0; i < n; i++) v[i] = fminf(fmaxf(v[i], a), b);
      break;
    case RT_ACT_SWISH:
      for (int64_t i = 0; i < n; i++) v[i] = v[i] / (1.0f + expf(-a * v[i]));
      break;
    case RT_ACT_HARD_SWISH:
      for (int64_t i = 0; i < n; i++) v[i] = v[i] * fmaxf(0.0f, fminf(1.0f, a * v[i] + b));
      break;
    case RT_ACT_HARD_SIGMOID:
      for (int64_t i = 0; i < n; i++) v[i] = fmaxf(0.0f, fminf(1.0f, a * v[i] + b));
      break;
    case RT_ACT_SIGMOID:
      for (int64_t i = 0; i < n; i++) v[i] = 1.0f / (1.0f + expf(-v[i]));
      break;
    case RT_ACT_TANH:
      for (int64_t i = 0; i < n; i++) v[i] = tanhf(v[i]);
      break;
    case RT_ACT_GELU: /* as activation.c's gelu (approximate = false) */
      for (int64_t i = 0; i < n; i++) v[i] = 0.5f * v[i] * (1.0f + rt_erff(v[i] * 0.70710678f));
      break;
    case RT_ACT_GELU_TANH: /* approximate = true */
      for (int64_t i = 0; i < n; i++)
        v[i] = 0.5f * v[i] * (1.0f + tanhf(0.7978845608f * (v[i] + 0.044715f * v[i] * v[i] * v[i])));
      break;
  }
}
