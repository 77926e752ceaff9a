/* GEMM throughput, single thread, in GFLOP/s and as a fraction of OpenBLAS
 * sgemm: paddlec's portable kernel (rt_sgemm_ws) on one large square
 * product; then paddlec's prepared-weights GEMM (rt_pp_gemm, the weights
 * packed once beforehand) on the products of ResNet-50's late convolutions
 * (few columns), against sgemm on the same row-major operands.  Between
 * repetitions a 64 MiB buffer is swept, so that the weights come from
 * memory as they do in a model run, and the other operand is read back
 * into cache (a layer's input was just written by the layer before); then
 * the wide GEMM on the linear layers of transformer encoders.  Built and
 * run by bench/run.py. */
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

static volatile float sink_out;

/* Evicts the caches (a write and a read of 64 MiB). */
static float sweep(void) {
  static float junk[16 << 20];
  float s = 0.0f;
  for (long i = 0; i < (16 << 20); i += 16) junk[i] += 1.0f, s += junk[i];
  return s;
}

/* Reads x (the activations a layer has just written are in cache). */
static float warm(const float *x, long n) {
  float s = 0.0f;
  for (long i = 0; i < n; i += 16) s += x[i];
  return s;
}

/* One product's operands: C [m, n] = A [m, k] x B [k, n], row-major (ap:
 * A prepared for rt_pp_gemm, ws its B workspace). */
typedef struct Gemm {
  int m, n, k;
  const float *a, *b, *ap;
  float *c, *ws;
} Gemm;

static void run_blas(const Gemm *g) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, g->m, g->n, g->k, 1.0f, g->a, g->k, g->b, g->n, 0.0f, g->c,
              g->n);
}
static void run_pp(const Gemm *g) { rt_pp_gemm(g->ap, RT_PP_PANEL, g->m, g->k, g->b, g->n, g->n, g->c, g->n, g->ws); }
static void run_wide(const Gemm *g) { rt_wide_gemm(g->a, g->k, g->m, g->k, 1.0f, g->b, g->n, g->n, g->c, g->n, NULL); }

/* The best of 20 runs of ours and of sgemm, taken in turns, each after the
 * caches are swept and `hot` (n_hot floats) is read back: the weights come
 * from memory, the operand a layer just wrote from cache.  Prints the line. */
static void cold_pair(const char *what, void (*ours)(const Gemm *), const Gemm *g, const float *hot, long n_hot) {
  double best_ours = 1e9, best_blas = 1e9;
  float sink = 0.0f;
  for (int r = 0; r < 20; r++) {
    sink += sweep() + warm(hot, n_hot);
    double t = now();
    ours(g);
    t = now() - t;
    best_ours = t < best_ours ? t : best_ours;
    sink += sweep() + warm(hot, n_hot);
    t = now();
    run_blas(g);
    t = now() - t;
    best_blas = t < best_blas ? t : best_blas;
  }
  sink_out = sink; /* keeps the sweeps */
  const double flop = 2.0 * g->m * g->n * g->k;
  printf("%s %dx%dx%d, 1 thread, weights cold: paddlec %.1f GFLOP/s, OpenBLAS %.1f GFLOP/s, ratio %.2f\n", what, g->m,
         g->n, g->k, flop / best_ours / 1e9, flop / best_blas / 1e9, best_blas / best_ours);
}

/* rt_pp_gemm against sgemm on the few-column products of ResNet-50's late
 * convolutions (A the weights, B the layer's input). */
static int prepared(void) {
  static const int shapes[][3] = {{512, 49, 4608}, {2048, 49, 512}, {512, 49, 2048}, {256, 196, 2304}, {1024, 196, 256}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    const int m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
    float *a = malloc(sizeof(float) * (size_t)m * k), *b = malloc(sizeof(float) * (size_t)k * n);
    float *c = malloc(sizeof(float) * (size_t)m * n), *ap = malloc(sizeof(float) * (size_t)RT_PP_FLOATS(m, k));
    float *ws = malloc(sizeof(float) * (size_t)RT_PP_B_FLOATS(n, k));
    if (!a || !b || !c || !ap || !ws) return 1;
    for (long i = 0; i < (long)m * k; i++) a[i] = (float)(i % 7) - 3;
    for (long i = 0; i < (long)k * n; i++) b[i] = (float)(i % 5) - 2;
    rt_pp_pack(a, m, k, RT_PP_PANEL, ap);
    const Gemm g = {m, n, k, a, b, ap, c, ws};
    cold_pair("prepared-weights GEMM", run_pp, &g, b, (long)k * n);
    free(a), free(b), free(c), free(ap), free(ws);
  }
  return 0;
}

/* rt_wide_gemm against sgemm on the linear layers of BERT-style encoders
 * (128 tokens: C [128, n] = X [128, k] W [k, n]; A the tokens, B the
 * weights).  paddlec takes rt_wide_gemm for these with AVX-512
 * (rt_wide_gemm_suits); with AVX2 OpenBLAS is the faster. */
static int linear(void) {
  static const int shapes[][2] = {{256, 1024}, {1024, 256}, {256, 256}, {768, 768}, {768, 3072}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    const int m = 128, k = shapes[s][0], n = shapes[s][1];
    float *x = malloc(sizeof(float) * (size_t)m * k), *w = malloc(sizeof(float) * (size_t)k * n);
    float *c = malloc(sizeof(float) * (size_t)m * n);
    if (!x || !w || !c) return 1;
    for (long i = 0; i < (long)m * k; i++) x[i] = (float)(i % 7) - 3;
    for (long i = 0; i < (long)k * n; i++) w[i] = (float)(i % 5) - 2;
    const Gemm g = {m, n, k, x, w, NULL, c, NULL};
    cold_pair("linear layer (rt_wide_gemm)", run_wide, &g, x, (long)m * k);
    free(x), free(w), free(c);
  }
  return 0;
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
  return prepared() || linear();
}
