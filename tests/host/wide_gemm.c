/* rt_sgemm_ep and rt_sgemm_ws on the products they hand to rt_wide_gemm
 * (runtime/rt_wide.c; this build has no OpenBLAS, so every product whose
 * rows of B fill whole vectors goes there) against a double-precision
 * reference: row strides wider than the rows (a's, b's, c's and the
 * residual's), row tiles with remainders, 1 to 4 vectors per tile, column
 * blocks sized by k, epilogues without and with a bias per column, a
 * residual and an activation with parameters, and a scale (alpha); 1 and 3 threads must give the
 * same bits, and the padding after each row of C stays untouched.  Rows of
 * B with a scalar tail (not taken by rt_wide_gemm) are checked the same way.
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
  if (a == 1) return v > 0 ? v : 0.0;                       /* relu */
  if (a == 2) return v < -0.5 ? -0.5 : v > 0.75 ? 0.75 : v; /* clip(-0.5, 0.75) */
  return v;
}

enum { PAD = 3 }; /* floats after each row of every matrix */

/* One product through rt_sgemm_ep (variant 0: rt_sgemm_ws with alpha 0.5) with 1 and 3 threads. */
static int check(RtPool *pool, int64_t m, int64_t n, int64_t k, int variant) {
  const int64_t lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  float *a = malloc(sizeof(float) * (size_t)(m * lda)), *b = malloc(sizeof(float) * (size_t)(k * ldb));
  float *bias = malloc(sizeof(float) * (size_t)n), *res = malloc(sizeof(float) * (size_t)(m * ldc));
  float *c1 = malloc(sizeof(float) * (size_t)(m * ldc)), *c3 = malloc(sizeof(float) * (size_t)(m * ldc));
  for (int64_t i = 0; i < m * lda; i++) a[i] = val(i, 1);
  for (int64_t i = 0; i < k * ldb; i++) b[i] = val(i, 2);
  for (int64_t i = 0; i < n; i++) bias[i] = val(i, 3);
  for (int64_t i = 0; i < m * ldc; i++) res[i] = val(i, 4), c1[i] = c3[i] = NAN;
  const RtAct acts[] = {RT_ACT_NONE, RT_ACT_NONE, RT_ACT_RELU, RT_ACT_CLIP};
  const RtEpilogue ep = {variant >= 2 ? bias : NULL, variant == 3 ? res : NULL, ldc, acts[variant],
                         variant == 3 ? -0.5f : 0.0f, variant == 3 ? 0.75f : 0.0f};
  for (int t = 0; t < 2; t++) {
    RtPool *prev = t ? rt_pool_enter(pool) : NULL;
    float *c = t ? c3 : c1;
    if (variant == 0)
      rt_sgemm_ws(0, 0, m, n, k, 0.5f, a, lda, b, ldb, 0.0f, c, ldc, NULL);
    else
      rt_sgemm_ep(0, 0, m, n, k, a, lda, b, ldb, c, ldc, NULL, &ep);
    if (t) rt_pool_enter(prev);
  }
  double err = 0;
  int pad = 1;
  for (int64_t i = 0; i < m; i++) {
    for (int64_t j = 0; j < n; j++) {
      double s = 0;
      for (int64_t p = 0; p < k; p++) s += (double)a[i * lda + p] * b[p * ldb + j];
      if (variant == 0) s *= 0.5;
      const double ref = act(variant == 3 ? 2 : variant == 2, s + (ep.bias ? bias[j] : 0) + (ep.res ? res[i * ldc + j] : 0));
      err = fmax(err, fabs(c1[i * ldc + j] - ref) / (1.0 + fabs(ref)));
    }
    for (int64_t j = n; j < ldc; j++) pad &= isnan(c1[i * ldc + j]) && isnan(c3[i * ldc + j]);
  }
  int same = 1;
  for (int64_t i = 0; i < m; i++) same &= !memcmp(c1 + i * ldc, c3 + i * ldc, sizeof(float) * (size_t)n);
  const int ok = err < 1e-5 && same && pad;
  if (!ok)
    printf("m %lld n %lld k %lld variant %d: max rel err %g, threads agree %d, padding untouched %d\n", (long long)m,
           (long long)n, (long long)k, variant, err, same, pad);
  free(a), free(b), free(bias), free(res), free(c1), free(c3);
  return ok;
}

int main(void) {
  static const int64_t ms[] = {2, 5, 6, 7, 13, 130};
  static const int64_t ns[] = {16, 64, 80, 1024, 90};
  static const int64_t ks[] = {1, 24, 300};
  RtPool *pool = NULL;
  if (rt_pool_create(&pool, 3, 1 << 16)) return 2;
  int bad = 0;
  /* the shapes of a BERT-style encoder's linear layers must take the path */
  if (!rt_wide_gemm_suits(128, 1024, 256) || !rt_wide_gemm_suits(128, 256, 1024) || rt_wide_gemm_suits(128, 90, 256)) {
    printf("rt_wide_gemm_suits does not take the products this test is for\n");
    bad = 1;
  }
  for (size_t mi = 0; mi < sizeof ms / sizeof *ms; mi++)
    for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++)
      for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ki++)
        for (int variant = 0; variant < 4; variant++) bad |= !check(pool, ms[mi], ns[ni], ks[ki], variant);
  rt_pool_destroy(pool);
  if (!bad) printf("ok\n");
  return bad;
}
