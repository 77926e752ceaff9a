/* rt_wide_conv (runtime/rt_wide.c: 1x1 convolutions over many pixels) against a
 * double-precision reference, on sizes around its blocking (row tiles of 4
 * or 6, vectors of 4 to 16 floats, tiles of 1 to 4 vectors, a scalar tail,
 * column blocks sized by k), with and without bias and residual, for the
 * activations with parameters (relu, clip), with 1 and 3 threads: the results
 * must match the reference to 1e-5 and be bitwise the same for both thread
 * counts; the padding after each row of C stays untouched.
 * tests/test_ppgemm.py builds it for every vector width the machine runs.
 * Prints "ok" and exits 0, or names the failing case. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_kernels.h"
#include "rt_parallel.h"

static float val(int64_t i, int salt) { return (float)((i * 7 + salt * 13) % 23) / 11.0f - 1.0f; }

static double act(int a, double v) {
  if (a == 1) return v > 0 ? v : 0.0;                     /* relu */
  if (a == 2) return v < -0.5 ? -0.5 : v > 0.75 ? 0.75 : v; /* clip(-0.5, 0.75) */
  return v;
}

int main(void) {
  static const int64_t ms[] = {1, 5, 6, 7, 13, 24};
  static const int64_t ns[] = {257, 300, 784, 1000, 3136};
  static const int64_t ks[] = {1, 16, 24, 100, 1100};
  RtPool *pool = NULL;
  if (rt_pool_create(&pool, 3, 1 << 16)) return 2;
  int bad = 0;
  for (size_t mi = 0; mi < sizeof ms / sizeof *ms; mi++)
    for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++)
      for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ki++)
        for (int variant = 0; variant < 3; variant++) {
          const int64_t m = ms[mi], n = ns[ni], k = ks[ki];
          const int a = variant; /* 0: none, no bias; 1: relu, bias; 2: clip, bias and residual */
          const RtAct acts[] = {RT_ACT_NONE, RT_ACT_RELU, RT_ACT_CLIP};
          float *w = malloc(sizeof(float) * (size_t)(m * k)), *x = malloc(sizeof(float) * (size_t)(k * n));
          float *bias = malloc(sizeof(float) * (size_t)m), *res = malloc(sizeof(float) * (size_t)(m * n));
          float *c1 = malloc(sizeof(float) * (size_t)(m * n + 8)), *c3 = malloc(sizeof(float) * (size_t)(m * n + 8));
          for (int64_t i = 0; i < m * k; i++) w[i] = val(i, 1);
          for (int64_t i = 0; i < k * n; i++) x[i] = val(i, 2);
          for (int64_t i = 0; i < m; i++) bias[i] = val(i, 3);
          for (int64_t i = 0; i < m * n; i++) res[i] = val(i, 4);
          for (int64_t i = 0; i < m * n + 8; i++) c1[i] = c3[i] = NAN;
          const float *b = a ? bias : NULL, *r = a == 2 ? res : NULL;
          rt_wide_conv(w, m, k, x, n, n, b, r, acts[a], a == 2 ? -0.5f : 0.0f, a == 2 ? 0.75f : 0.0f, c1, n);
          RtPool *prev = rt_pool_enter(pool);
          rt_wide_conv(w, m, k, x, n, n, b, r, acts[a], a == 2 ? -0.5f : 0.0f, a == 2 ? 0.75f : 0.0f, c3, n);
          rt_pool_enter(prev);
          double err = 0;
          for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
              double s = 0;
              for (int64_t p = 0; p < k; p++) s += (double)w[i * k + p] * x[p * n + j];
              const double ref = act(a, s + (b ? b[i] : 0) + (r ? r[i * n + j] : 0));
              err = fmax(err, fabs(c1[i * n + j] - ref) / (1.0 + fabs(ref)));
            }
          int pad = 1;
          for (int i = 0; i < 8; i++) pad &= isnan(c1[m * n + i]) && isnan(c3[m * n + i]);
          const int same = !memcmp(c1, c3, sizeof(float) * (size_t)(m * n));
          if (!(err < 1e-5) || !same || !pad) {
            printf("m %lld n %lld k %lld variant %d: max rel err %g, threads agree %d, padding untouched %d\n",
                   (long long)m, (long long)n, (long long)k, variant, err, same, pad);
            bad = 1;
          }
          free(w), free(x), free(bias), free(res), free(c1), free(c3);
        }
  rt_pool_destroy(pool);
  if (!bad) printf("ok\n");
  return bad;
}
