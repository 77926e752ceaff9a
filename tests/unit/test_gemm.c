/* Unit tests of the portable GEMM (runtime/rt_gemm.c): both the workspace
 * and the stack path (and the one-row GEMV) against a naive triple loop, for every transpose
 * combination, odd sizes around the blocking, alpha and beta. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rt_kernels.h"
#include "unit.h"

void test_gemm_paths(void);

static float val(int64_t i, int salt) { return (float)((i * 7 + salt * 13) % 23) / 11.0f - 1.0f; }

void test_gemm_paths(void) {
  static const int64_t sizes[][3] = {{1, 1, 1}, {5, 7, 3}, {6, 16, 256}, {13, 33, 257}, {97, 17, 300}, {7, 1025, 9},
                                     {1, 1100, 37},  /* one row: the GEMV path, whole rows */
                                     {1, 2500, 37}}; /* and by three column ranges */
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    int64_t m = sizes[s][0], n = sizes[s][1], k = sizes[s][2];
    float *a = malloc(sizeof(float) * (size_t)(m * k)), *b = malloc(sizeof(float) * (size_t)(k * n));
    float *c0 = malloc(sizeof(float) * (size_t)(m * n)), *c1 = malloc(sizeof(float) * (size_t)(m * n));
    float *c2 = malloc(sizeof(float) * (size_t)(m * n));
    float *ws = malloc(sizeof(float) * (size_t)RT_SGEMM_WS_FLOATS(m, n, k));
    for (int64_t i = 0; i < m * k; i++) a[i] = val(i, 1);
    for (int64_t i = 0; i < k * n; i++) b[i] = val(i, 2);
    for (int ta = 0; ta < 2; ta++)
      for (int tb = 0; tb < 2; tb++) {
        const float alpha = 0.5f, beta = ta ? 0.0f : 2.0f;
        for (int64_t i = 0; i < m * n; i++) c0[i] = c1[i] = c2[i] = val(i, 3);
        for (int64_t i = 0; i < m; i++)
          for (int64_t j = 0; j < n; j++) {
            double acc = 0;
            for (int64_t p = 0; p < k; p++)
              acc += (double)(ta ? a[p * m + i] : a[i * k + p]) * (tb ? b[j * k + p] : b[p * n + j]);
            c0[i * n + j] = (float)(alpha * acc + (beta == 0.0f ? 0.0 : beta * c0[i * n + j]));
          }
        rt_sgemm_ws(ta, tb, m, n, k, alpha, a, ta ? m : k, b, tb ? k : n, beta, c1, n, ws);
        rt_sgemm(ta, tb, m, n, k, alpha, a, ta ? m : k, b, tb ? k : n, beta, c2, n);
        double err = 0;
        for (int64_t i = 0; i < m * n; i++) {
          err = fmax(err, fabs(c1[i] - c0[i]) / (1.0 + fabs(c0[i])));
          err = fmax(err, fabs(c2[i] - c0[i]) / (1.0 + fabs(c0[i])));
        }
        CHECK(err < 1e-5);
      }
    free(a);
    free(b);
    free(c0);
    free(c1);
    free(c2);
    free(ws);
  }
}
