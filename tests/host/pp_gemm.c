/* The pre-packed GEMM (runtime/rt_ppgemm.c) against a double-precision
 * triple loop, on sizes around its blocking (tiles of 64 rows, K blocks of
 * 512, column panels of 6 to 8), for both panel heights (16 and 64 rows:
 * every target's kernel reads either), with 1 and 3 threads: the results
 * must match the reference to 1e-5 and be bitwise the same for both thread
 * counts and both heights.  Also rt_pp_pack from an unaligned source, and rt_pp_index
 * (which rt_prepack uses for Winograd's planes) against rt_pp_pack.
 * tests/test_ppgemm.py builds it for every vector width the machine runs
 * (its -march decides the micro-kernel).  Prints "ok" and exits 0, or names the failing case. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_kernels.h"
#include "rt_parallel.h"

static float val(int64_t i, int salt) { return (float)((i * 7 + salt * 13) % 23) / 11.0f - 1.0f; }

/* C = A x B through a packed copy of A read from an odd address. */
static void product(const float *a, const float *b, int64_t m, int64_t n, int64_t k, int ph, int64_t ldc, float *c,
                    float *packed, float *ws) {
  unsigned char *odd = malloc(sizeof(float) * (size_t)(m * k) + 1);
  memcpy(odd + 1, a, sizeof(float) * (size_t)(m * k));
  rt_pp_pack(odd + 1, m, k, ph, packed);
  free(odd);
  rt_pp_gemm(packed, ph, m, k, b, n, n, c, ldc, ws);
}

/* One product: against the reference, both panel heights, 1 and 3 threads. */
static int check(RtPool *pool, int64_t m, int64_t n, int64_t k) {
  int bad = 0;
  const int64_t ldc = n + 3;
  float *a = malloc(sizeof(float) * (size_t)(m * k)), *b = malloc(sizeof(float) * (size_t)(k * n));
  float *packed = malloc(sizeof(float) * (size_t)RT_PP_FLOATS(m, k));
  float *ws = malloc(sizeof(float) * (size_t)RT_PP_B_FLOATS(n, k));
  float *c1 = malloc(sizeof(float) * (size_t)(m * ldc)), *c3 = malloc(sizeof(float) * (size_t)(m * ldc));
  float *cw = malloc(sizeof(float) * (size_t)(m * ldc));
  for (int64_t i = 0; i < m * k; i++) a[i] = val(i, 1);
  for (int64_t i = 0; i < k * n; i++) b[i] = val(i, 2);
  for (int64_t i = 0; i < m * ldc; i++) c1[i] = c3[i] = cw[i] = NAN; /* every element is written, or the pad stays */
  int placed = 1; /* rt_pp_index (Winograd's packing) names the places rt_pp_pack fills */
  product(a, b, m, n, k, RT_PP_PANEL_WIDE, ldc, cw, packed, ws);
  for (int64_t i = 0; i < m; i++)
    for (int64_t p = 0; p < k; p++) placed &= packed[rt_pp_index(m, k, RT_PP_PANEL_WIDE, i, p)] == a[i * k + p];
  product(a, b, m, n, k, RT_PP_PANEL_NARROW, ldc, c1, packed, ws);
  for (int64_t i = 0; i < m; i++)
    for (int64_t p = 0; p < k; p++) placed &= packed[rt_pp_index(m, k, RT_PP_PANEL_NARROW, i, p)] == a[i * k + p];
  RtPool *prev = rt_pool_enter(pool);
  product(a, b, m, n, k, RT_PP_PANEL_NARROW, ldc, c3, packed, ws);
  rt_pool_enter(prev);
  double err = 0;
  int written = 1;
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < ldc; j++) {
      const float got = c1[i * ldc + j];
      if (j >= n) {
        written &= isnan(got) && isnan(c3[i * ldc + j]);
        continue;
      }
      double ref = 0;
      for (int64_t p = 0; p < k; p++) ref += (double)a[i * k + p] * b[p * n + j];
      err = fmax(err, fabs(got - ref) / (1.0 + fabs(ref)));
    }
  const int same = !memcmp(c1, c3, sizeof(float) * (size_t)(m * ldc));
  int heights = 1; /* both layouts give the same bits (NaN padding compared as bits too) */
  for (int64_t i = 0; i < m * ldc; i++) heights &= !memcmp(&c1[i], &cw[i], sizeof(float));
  if (!(err < 1e-5) || !same || !written || !placed || !heights) {
    printf("m %lld n %lld k %lld: max rel err %g, threads agree %d, padding untouched %d, index agrees %d, "
           "panel heights agree %d\n",
           (long long)m, (long long)n, (long long)k, err, same, written, placed, heights);
    bad = 1;
  }
  free(a), free(b), free(packed), free(ws), free(c1), free(c3), free(cw);
  return bad;
}

int main(void) {
  static const int64_t ms[] = {1, 8, 15, 16, 17, 24, 48, 64, 65, 130, 200};
  static const int64_t ns[] = {1, 5, 6, 7, 8, 13, 49, 57};
  static const int64_t ks[] = {1, 3, 511, 512, 513, 1100};
  RtPool *pool = NULL;
  if (rt_pool_create(&pool, 3, 1 << 16)) return 2;
  int bad = 0;
  for (size_t mi = 0; mi < sizeof ms / sizeof *ms; mi++)
    for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++)
      for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ki++) bad |= check(pool, ms[mi], ns[ni], ks[ki]);
  /* one task over all of a tile's column panels (8 tiles down M: no column
   * split), 22 to 25 of them, over three K blocks */
  bad |= check(pool, 520, 150, 1100);
  rt_pool_destroy(pool);
  if (!bad) printf("ok\n");
  return bad;
}
