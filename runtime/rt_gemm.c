/* Single-precision GEMM: C = alpha * op(A) * op(B) + beta * C, row-major.
 *
 * Built with PADDLEC_BLAS_OPENBLAS it calls cblas_sgemm.  Otherwise a
 * portable blocked kernel in plain C: B is packed into column panels of
 * RT_NR floats, A into row panels of RT_MR, and a fixed-size MR x NR
 * micro-kernel (plain loops that compilers vectorize for the target's -march)
 * accumulates over a K block.  No intrinsics, so it builds for any target.
 *
 * Either way the product is split into blocks of C computed as tasks on the
 * model's thread pool (rt_parallel.h); each C element is computed by the
 * same sequence of operations whichever block and thread it falls to.  A
 * product with one row of A (and B not transposed) is a plain sum of B's
 * rows instead (gemv_task), with either build; products that transpose
 * neither operand and do not add to C (beta 0) go to rt_wide_gemm where it
 * is the faster (rt_wide_gemm_suits). */
#include <string.h>

#include "rt_kernels.h"
#include "rt_parallel.h"

/* One product being computed: C = alpha * op(A) * op(B) + beta * C, split
 * into blocks of mb rows x nb columns of C (task t = block (t % mt, t / mt)). */
typedef struct GemmJob {
  int ta, tb;              /* transpose flags */
  int64_t m, n, k;         /* the product's dims */
  float alpha, beta;       /* the scalars */
  const float *a, *b;      /* the operands */
  int64_t lda, ldb, ldc;   /* their row strides */
  float *c;                /* the result */
  float *ws;               /* the caller's workspace (thread 0's) */
  const RtEpilogue *ep;    /* applied to each block once computed, or NULL */
  int64_t mb, nb, mt;      /* block rows, block columns, blocks down M */
} GemmJob;

/* Computes the block of C at rows [i0, i0 + mc), columns [j0, j0 + nc)
 * with workspace ws (the backend's part, below). */
static void gemm_block(const GemmJob *j, int64_t i0, int64_t mc, int64_t j0, int64_t nc, float *ws);

/* The blocks: as many as about 8 (enough to keep 2-4 threads busy) of at
 * least RT_GEMM_MIN_TASK multiply-adds each, full MC-row panels down M; a
 * function of (m, n, k) only, so that the result does not depend on the
 * thread count.  No workspace: one block (the stack path).  With OpenBLAS,
 * each block is a call that packs its own operands, so the blocks are few
 * and large: up to 4 column blocks of at least 256 columns and
 * RT_GEMM_MIN_BLAS multiply-adds each (a panel down M would pack all of B
 * again), or, when B has few columns, up to 4 panels down M. */
enum { RT_GEMM_TASKS = 8, RT_GEMM_MIN_TASK = 1 << 17, RT_GEMM_MIN_BLAS = 1 << 21 };
static void gemm_split(GemmJob *j) {
  j->mb = j->m, j->nb = j->n, j->mt = 1;
#ifdef PADDLEC_BLAS_OPENBLAS
  const double work = (double)j->m * (double)j->n * (double)j->k;
  int64_t nt = 4;
  while (nt > 1 && (j->n / nt < 256 || work / (double)nt < RT_GEMM_MIN_BLAS)) nt--;
  if (nt > 1) {
    j->nb = rt_div_up(rt_div_up(j->n, nt), 16) * 16;
    if (j->nb > j->n) j->nb = j->n;
    return;
  }
  /* few columns (late conv layers, small batches): B is small, so panels
   * down M (each packing B again) are cheap */
  int64_t mt = 4;
  while (mt > 1 && (j->m / mt < 64 || work / (double)mt < RT_GEMM_MIN_BLAS)) mt--;
  j->mb = rt_div_up(rt_div_up(j->m, mt), 16) * 16;
  if (j->mb > j->m) j->mb = j->m;
  j->mt = rt_div_up(j->m, j->mb);
#else
  if (!j->ws || (double)j->m * (double)j->n * (double)j->k < 2.0 * RT_GEMM_MIN_TASK) return;
  if (j->m > RT_SGEMM_MC) j->mb = RT_SGEMM_MC, j->mt = rt_div_up(j->m, RT_SGEMM_MC);
  if (j->mt >= RT_GEMM_TASKS) return;
  int64_t nt = rt_div_up(RT_GEMM_TASKS, j->mt);
  while (nt > 1 && (double)j->mb * (double)rt_div_up(j->n, nt) * (double)j->k < RT_GEMM_MIN_TASK) nt--;
  int64_t nb = rt_div_up(rt_div_up(j->n, nt), RT_SGEMM_NR) * RT_SGEMM_NR;
  j->nb = nb < j->n ? nb : j->n;
#endif
}

/* The epilogue over the block's rows, while it is in cache. */
static void epilogue(const GemmJob *j, int64_t i0, int64_t mc, int64_t j0, int64_t nc) {
  for (int64_t i = i0; i < i0 + mc; i++) rt_ep_row(j->ep, j->c + i * j->ldc + j0, i, j0, nc);
}

static void gemm_task(void *ctx, int64_t t, int tid) {
  const GemmJob *j = ctx;
  const int64_t i0 = t % j->mt * j->mb, j0 = t / j->mt * j->nb;
  const int64_t mc = j->m - i0 < j->mb ? j->m - i0 : j->mb, nc = j->n - j0 < j->nb ? j->n - j0 : j->nb;
  gemm_block(j, i0, mc, j0, nc, rt_task_scratch(tid, j->ws));
  if (j->ep) epilogue(j, i0, mc, j0, nc);
}

/* A product with one row (batch-1 fully connected layers): c = alpha * a
 * B + beta * c as a sum of B's rows scaled by a's elements, so that B is
 * read once, in place: a BLAS would first pack all of B for one row of
 * output.  B's rows are read whole when they are at most RT_GEMV_ROW floats
 * (one task: one contiguous stream, which the hardware prefetchers follow:
 * ResNet-50's 2048 x 1000 classifier 0.55 -> 0.23 ms, where columns split
 * into tasks of 512 read runs of 2 KiB apart and reached 14 GB/s), else by
 * ranges of RT_GEMV_COLS columns, one task each, so that threads share the
 * large ones. */
enum { RT_GEMV_ROW = 2048, RT_GEMV_COLS = 1024 };
static int64_t gemv_cols(int64_t n) { return n <= RT_GEMV_ROW ? n : RT_GEMV_COLS; }

static void gemv_task(void *ctx, int64_t t, int tid) {
  const GemmJob *j = ctx;
  (void)tid;
  const int64_t w = gemv_cols(j->n), j0 = t * w, nc = j->n - j0 < w ? j->n - j0 : w;
  float acc[RT_GEMV_ROW];
  for (int64_t c = 0; c < nc; c++) acc[c] = 0.0f;
  for (int64_t p = 0; p < j->k; p++) {
    const float av = j->ta ? j->a[p * j->lda] : j->a[p];
    const float *restrict br = j->b + p * j->ldb + j0;
    for (int64_t c = 0; c < nc; c++) acc[c] += av * br[c];
  }
  float *restrict row = j->c + j0;
  for (int64_t c = 0; c < nc; c++) row[c] = j->alpha * acc[c] + (j->beta == 0.0f ? 0.0f : j->beta * row[c]);
  if (j->ep) epilogue(j, 0, 1, j0, nc);
}

static void run_job(GemmJob *j) {
  if (j->m == 1 && !j->tb) {
    rt_parallel(rt_div_up(j->n, gemv_cols(j->n)), gemv_task, j);
    return;
  }
  if (!j->ta && !j->tb && j->beta == 0.0f && rt_wide_gemm_suits(j->m, j->n, j->k)) {
    rt_wide_gemm(j->a, j->lda, j->m, j->k, j->alpha, j->b, j->ldb, j->n, j->c, j->ldc, j->ep);
    return;
  }
  gemm_split(j);
  rt_parallel(j->mt * rt_div_up(j->n, j->nb), gemm_task, j);
}

void rt_sgemm_ws(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float *a,
                 int64_t lda, const float *b, int64_t ldb, float beta, float *c, int64_t ldc, float *ws) {
  if (m == 0 || n == 0) return;
  GemmJob j = {.ta = trans_a, .tb = trans_b, .m = m, .n = n, .k = k, .alpha = alpha, .beta = beta, .a = a,
               .b = b, .lda = lda, .ldb = ldb, .ldc = ldc, .c = c, .ws = ws};
  run_job(&j);
}

void rt_sgemm_ep(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                 const float *b, int64_t ldb, float *c, int64_t ldc, float *ws, const RtEpilogue *ep) {
  if (m == 0 || n == 0) return;
  GemmJob j = {.ta = trans_a, .tb = trans_b, .m = m, .n = n, .k = k, .alpha = 1.0f, .beta = 0.0f, .a = a,
               .b = b, .lda = lda, .ldb = ldb, .ldc = ldc, .c = c, .ws = ws, .ep = ep};
  run_job(&j);
}

void rt_sgemm(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float *a,
              int64_t lda, const float *b, int64_t ldb, float beta, float *c, int64_t ldc) {
  rt_sgemm_ws(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, NULL);
}

/* The operands of a block: rows i0.. of op(A), columns j0.. of op(B). */
static const float *a_at(const GemmJob *j, int64_t i0) { return j->ta ? j->a + i0 : j->a + i0 * j->lda; }
static const float *b_at(const GemmJob *j, int64_t j0) { return j->tb ? j->b + j0 * j->ldb : j->b + j0; }

#ifdef PADDLEC_BLAS_OPENBLAS
#include <cblas.h>

/* OpenBLAS keeps its own buffers: ws is not used.  The generated driver sets
 * OpenBLAS to one thread; the blocks are the parallelism. */
static void gemm_block(const GemmJob *j, int64_t i0, int64_t mc, int64_t j0, int64_t nc, float *ws) {
  (void)ws;
  cblas_sgemm(CblasRowMajor, j->ta ? CblasTrans : CblasNoTrans, j->tb ? CblasTrans : CblasNoTrans, (int)mc,
              (int)nc, (int)j->k, j->alpha, a_at(j, i0), (int)j->lda, b_at(j, j0), (int)j->ldb, j->beta,
              j->c + i0 * j->ldc + j0, (int)j->ldc);
}

const char *rt_blas_name(void) { return "OpenBLAS"; }

#else

enum { RT_MR = RT_SGEMM_MR, RT_NR = RT_SGEMM_NR, RT_KC = RT_SGEMM_KC, RT_MC = RT_SGEMM_MC, RT_NC = RT_SGEMM_NC };

static float at(const float *x, int64_t ld, int trans, int64_t r, int64_t col) {
  return trans ? x[col * ld + r] : x[r * ld + col];
}

/* Packs op(B)[k0:k0+kc, j0:j0+nc] into panels of RT_NR columns (zero padded). */
static void pack_b(const float *b, int64_t ldb, int tb, int64_t k0, int64_t kc, int64_t j0, int64_t nc,
                   float *out) {
  for (int64_t j = 0; j < nc; j += RT_NR)
    for (int64_t p = 0; p < kc; p++)
      for (int64_t jj = 0; jj < RT_NR; jj++)
        *out++ = j + jj < nc ? at(b, ldb, tb, k0 + p, j0 + j + jj) : 0.0f;
}

/* Packs alpha * op(A)[i0:i0+mc, k0:k0+kc] into panels of RT_MR rows. */
static void pack_a(const float *a, int64_t lda, int ta, int64_t i0, int64_t mc, int64_t k0, int64_t kc,
                   float alpha, float *out) {
  for (int64_t i = 0; i < mc; i += RT_MR)
    for (int64_t p = 0; p < kc; p++)
      for (int64_t ii = 0; ii < RT_MR; ii++)
        *out++ = i + ii < mc ? alpha * at(a, lda, ta, i0 + i + ii, k0 + p) : 0.0f;
}

/* acc[MR][NR] += Apanel[kc][MR] x Bpanel[kc][NR]; then adds into C.  With
 * GCC/Clang the accumulators are generic vectors (lowered to whatever SIMD
 * the target has, or to scalars), so they stay in registers. */
#if defined(__GNUC__)
#if defined(__AVX__)
#define RT_VL 8 /* 256-bit registers */
#else
#define RT_VL 4 /* 128-bit: SSE, NEON, or scalar lowering */
#endif
typedef float RtVec __attribute__((vector_size(RT_VL * 4)));

static void micro(int64_t kc, const float *ap, int64_t ars, int64_t aks, const float *bp, float alpha,
                  float *c, int64_t ldc, int64_t mr, int64_t nr) {
  /* one row of accumulators = RT_NR floats = 16 / RT_VL vectors, named
   * explicitly so they live in registers */
  RtVec acc[RT_MR][4];
  memset(acc, 0, sizeof acc);
  for (int64_t p = 0; p < kc; p++) {
    RtVec b0, b1, b2 = {0}, b3 = {0};
    const float *br = bp + p * RT_NR;
    memcpy(&b0, br, sizeof b0);
    memcpy(&b1, br + RT_VL, sizeof b1);
    if (RT_VL == 4) {
      memcpy(&b2, br + 2 * RT_VL, sizeof b2);
      memcpy(&b3, br + 3 * RT_VL, sizeof b3);
    }
    const float *ar = ap + p * aks;
    for (int i = 0; i < RT_MR; i++) {
      const float av = ar[i * ars];
      acc[i][0] += av * b0;
      acc[i][1] += av * b1;
      if (RT_VL == 4) {
        acc[i][2] += av * b2;
        acc[i][3] += av * b3;
      }
    }
  }
  float out[RT_MR][RT_NR];
  for (int i = 0; i < RT_MR; i++) memcpy(out[i], acc[i], sizeof out[i]);
  for (int64_t i = 0; i < mr; i++)
    for (int64_t j = 0; j < nr; j++) c[i * ldc + j] += alpha * out[i][j];
}
#else
static void micro(int64_t kc, const float *ap, int64_t ars, int64_t aks, const float *bp, float alpha,
                  float *c, int64_t ldc, int64_t mr, int64_t nr) {
  float acc[RT_MR][RT_NR];
  memset(acc, 0, sizeof acc);
  for (int64_t p = 0; p < kc; p++) {
    const float *ar = ap + p * aks, *br = bp + p * RT_NR;
    for (int i = 0; i < RT_MR; i++)
      for (int j = 0; j < RT_NR; j++) acc[i][j] += ar[i * ars] * br[j];
  }
  for (int64_t i = 0; i < mr; i++)
    for (int64_t j = 0; j < nr; j++) c[i * ldc + j] += alpha * acc[i][j];
}
#endif

/* C *= beta (C = 0 when beta is 0, so NaNs in C do not survive). */
static void scale_c(int64_t m, int64_t n, float beta, float *c, int64_t ldc) {
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) c[i * ldc + j] = beta == 0.0f ? 0.0f : beta * c[i * ldc + j];
}

/* With a workspace: B and A both packed (the fast path). */
static void gemm_packed(int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
                        const float *b, int64_t ldb, float *c, int64_t ldc, float *ws) {
  int64_t kcap = k < RT_KC ? k : RT_KC, ncap = n < RT_NC ? n : RT_NC;
  float *bp = ws, *ap = ws + kcap * ((ncap + RT_NR - 1) / RT_NR * RT_NR);
  for (int64_t j0 = 0; j0 < n; j0 += RT_NC) {
    int64_t nc = n - j0 < RT_NC ? n - j0 : RT_NC;
    for (int64_t k0 = 0; k0 < k; k0 += RT_KC) {
      int64_t kc = k - k0 < RT_KC ? k - k0 : RT_KC;
      pack_b(b, ldb, tb, k0, kc, j0, nc, bp);
      for (int64_t i0 = 0; i0 < m; i0 += RT_MC) {
        int64_t mc = m - i0 < RT_MC ? m - i0 : RT_MC;
        pack_a(a, lda, ta, i0, mc, k0, kc, 1.0f, ap);
        for (int64_t i = 0; i < mc; i += RT_MR)
          for (int64_t j = 0; j < nc; j += RT_NR)
            micro(kc, ap + i * kc, 1, RT_MR, bp + j * kc, alpha, c + (i0 + i) * ldc + j0 + j, ldc,
                  mc - i < RT_MR ? mc - i : RT_MR, nc - j < RT_NR ? nc - j : RT_NR);
      }
    }
  }
}

/* Without a workspace: one B panel at a time packed on the stack, A read in
 * place (a padded copy only for a last partial block of rows). */
static void gemm_stack(int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
                       const float *b, int64_t ldb, float *c, int64_t ldc) {
  float bp[RT_KC * RT_NR], tail[RT_KC * RT_MR];
  int64_t ars = ta ? 1 : lda, aks = ta ? lda : 1;
  for (int64_t k0 = 0; k0 < k; k0 += RT_KC) {
    int64_t kc = k - k0 < RT_KC ? k - k0 : RT_KC;
    for (int64_t j = 0; j < n; j += RT_NR) {
      int64_t nr = n - j < RT_NR ? n - j : RT_NR;
      pack_b(b, ldb, tb, k0, kc, j, nr, bp);
      for (int64_t i = 0; i < m; i += RT_MR) {
        int64_t mr = m - i < RT_MR ? m - i : RT_MR;
        if (mr == RT_MR) {
          micro(kc, a + i * ars + k0 * aks, ars, aks, bp, alpha, c + i * ldc + j, ldc, mr, nr);
        } else {
          pack_a(a, lda, ta, i, mr, k0, kc, 1.0f, tail);
          micro(kc, tail, 1, RT_MR, bp, alpha, c + i * ldc + j, ldc, mr, nr);
        }
      }
    }
  }
}

static void gemm_block(const GemmJob *j, int64_t i0, int64_t mc, int64_t j0, int64_t nc, float *ws) {
  float *c = j->c + i0 * j->ldc + j0;
  scale_c(mc, nc, j->beta, c, j->ldc);
  if (j->k == 0 || j->alpha == 0.0f) return;
  if (ws) gemm_packed(j->ta, j->tb, mc, nc, j->k, j->alpha, a_at(j, i0), j->lda, b_at(j, j0), j->ldb, c, j->ldc, ws);
  else gemm_stack(j->ta, j->tb, mc, nc, j->k, j->alpha, a_at(j, i0), j->lda, b_at(j, j0), j->ldb, c, j->ldc);
}

const char *rt_blas_name(void) { return "portable C"; }

#endif
