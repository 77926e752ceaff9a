/* Unit tests of runtime/rt_vmath.h: rt_expf against libm's expf (in
 * double) over its whole range and at its edges, and the lane-wise
 * reductions against plain double sums and the sequential max; and of
 * rt_act.h's one-pass bias + activation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rt_act.h"
#include "rt_vmath.h"
#include "unit.h"

void test_vmath_expf(void);
void test_vmath_reductions(void);
void test_act_bias_matches_two_passes(void);

void test_vmath_expf(void) {
  /* points of [-87, 88.7] about 1e-5 (relative) apart: relative error
   * below 4 float ulp (2^-21) of exp computed in double */
  double worst = 0.0;
  for (float x = -87.0f; x <= 88.7f; x = nextafterf(x, INFINITY) + (fabsf(x) + 1e-3f) * 1e-5f) {
    const double want = exp((double)x), got = rt_expf(x);
    const double rel = fabs(got - want) / want;
    if (rel > worst) worst = rel;
  }
  CHECK(worst < 1.0 / (1 << 21));
  CHECK(rt_expf(0.0f) == 1.0f);
  CHECK(isinf(rt_expf(88.73f)) && isinf(rt_expf(INFINITY)));
  CHECK(rt_expf(88.72f) > 3.3e38f && isfinite(rt_expf(88.72f))); /* m = 128 stays finite */
  CHECK(rt_expf(-88.0f) == 0.0f && rt_expf(-INFINITY) == 0.0f);   /* below FLT_MIN: flushed */
  CHECK(isnan(rt_expf(NAN)));
}

void test_vmath_reductions(void) {
  enum { N = 1000 };
  float *x = malloc(N * sizeof *x);
  for (int i = 0; i < N; i++) x[i] = (float)((i * 37) % 101) / 7.0f - 5.0f;
  for (int n = 1; n <= N; n += n < 40 ? 1 : 97) { /* every tail length, then longer rows */
    double sum = 0.0, sq = 0.0;
    float mx = x[0];
    for (int i = 0; i < n; i++) {
      sum += x[i];
      mx = x[i] > mx ? x[i] : mx;
    }
    for (int i = 0; i < n; i++) sq += (x[i] - sum / n) * (x[i] - sum / n);
    CHECK(fabs(rt_sum_f64(x, n) - sum) <= 1e-9 * (1.0 + fabs(sum)));
    CHECK(fabs(rt_sqdev_f64(x, n, sum / n) - sq) <= 1e-9 * (1.0 + sq));
    CHECK(fabs(rt_sum_f32(x, n) - sum) <= 1e-5 * (1.0 + fabs(sum)));
    CHECK(rt_max_f32(x, n) == mx);
  }
  /* exp(x - max) and its sum: the values rt_expf gives, summed as rt_sum_f32 */
  float *r = malloc(N * sizeof *r), *e = malloc(N * sizeof *e);
  for (int i = 0; i < N; i++) r[i] = x[i], e[i] = rt_expf(x[i] - 2.0f);
  CHECK(rt_exp_sub_sum(r, N, 2.0f) == rt_sum_f32(e, N));
  int same = 1;
  for (int i = 0; i < N; i++) same &= r[i] == e[i];
  CHECK(same);
  x[3] = NAN; /* a NaN after the first element is passed over, as the sequential max does */
  float mx = x[0];
  for (int i = 1; i < N; i++) mx = x[i] > mx ? x[i] : mx;
  CHECK(!isnan(mx) && rt_max_f32(x, N) == mx);
  x[0] = NAN; /* ... and a first NaN stays */
  CHECK(isnan(rt_max_f32(x, N)));
  free(x);
  free(r);
  free(e);
}

/* rt_act_apply_bias(v, c) against v[i] += c then rt_act_apply, bit for bit,
 * for every activation, on values around 0 and the clip bounds, with NaN,
 * infinities and signed zeros among them. */
void test_act_bias_matches_two_passes(void) {
  enum { N = 203 };
  float v[N], w[N];
  for (int act = RT_ACT_NONE; act <= RT_ACT_GELU_TANH; act++)
    for (int k = 0; k < 2; k++) {
      const float c = k ? -0.75f : 0.0f;
      for (int i = 0; i < N; i++) v[i] = (float)(i % 29) * 0.5f - 7.0f;
      v[3] = NAN, v[4] = INFINITY, v[5] = -INFINITY, v[6] = -0.0f, v[7] = 6.75f;
      for (int i = 0; i < N; i++) w[i] = v[i] + c;
      rt_act_apply((RtAct)act, 0.25f, 6.0f, w, N);
      rt_act_apply_bias((RtAct)act, 0.25f, 6.0f, v, N, c);
      CHECK(!memcmp(v, w, sizeof v));
    }
}
