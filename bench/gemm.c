/* GEMM throughput: paddlec's portable kernel (rt_sgemm_ws) against OpenBLAS
 * sgemm on one large square product, single thread; prints GFLOP/s and the
 * fraction of OpenBLAS.  Built and run by bench/run.py. */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rt_kernels.h"

void openblas_set_num_threads(int n);

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2048, reps = 5;
  float *a = malloc(sizeof(float) * (size_t)n * n), *b = malloc(sizeof(float) * (size_t)n * n);
  float *c = malloc(sizeof(float) * (size_t)n * n), *ws = malloc(sizeof(float) * RT_SGEMM_WS_FLOATS(n, n, n));
  if (!a || !b || !c || !ws) return 1;
  for (long i = 0; i < (long)n * n; i++) a[i] = (float)(i % 7) - 3, b[i] = (float)(i % 5) - 2;
  openblas_set_num_threads(1);
  double best_ours = 1e9, best_blas = 1e9;
  for (int r = 0; r < reps; r++) {
    double t = now();
    rt_sgemm_ws(0, 0, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n, ws);
    t = now() - t;
    best_ours = t < best_ours ? t : best_ours;
    t = now();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
    t = now() - t;
    best_blas = t < best_blas ? t : best_blas;
  }
  double flop = 2.0 * n * n * n;
  printf("sgemm %dx%dx%d, 1 thread: paddlec portable %.1f GFLOP/s, OpenBLAS %.1f GFLOP/s, ratio %.2f\n", n, n, n,
         flop / best_ours / 1e9, flop / best_blas / 1e9, best_blas / best_ours);
  free(a);
  free(b);
  free(c);
  free(ws);
  return 0;
}
