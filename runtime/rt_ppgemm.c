/* The pre-packed GEMM: C = A x B with A (the weights) packed once, when the
 * model binds its weights, and B packed per call (rt_kernels.h,
 * rt_blocking.h).  The micro-kernel keeps a tile of SUB rows x NR columns
 * of C in registers as vectors down M (SUB / VL vectors per column), reads
 * SUB rows of A (from one panel, or from SUB / 16 panels of 16 rows side by
 * side) and broadcasts NR floats of the B panel per step of k.  SUB, NR and the vector length VL are chosen by the
 * target the runtime is compiled for (its -march): 64 x 7 with AVX-512,
 * 16 x 6 with AVX, 16 x 6 with NEON, 8 x 6 otherwise; generic vectors of
 * GCC and Clang, so no intrinsics; plain loops for other compilers.  The
 * packed layout of A is the same for every target. */
#include <string.h>

#include "rt_kernels.h"
#include "rt_parallel.h"

enum { PP_MIN = RT_PP_MR_MIN, PP_KC = RT_PP_KC, PP_TILE = 64 /* rows of C per task */ };

/* Rows of the panel of height ph that starts at row i0 of a matrix padded to mp rows. */
static int64_t panel_rows(int64_t mp, int ph, int64_t i0) { return mp - i0 < ph ? mp - i0 : ph; }

void rt_pp_pack(const void *a, int64_t m, int64_t k, int ph, float *out) {
  const unsigned char *src = a; /* a .pdiparams record's data: not aligned */
  const int64_t mp = RT_SGEMM_UP_(m, PP_MIN);
  for (int64_t k0 = 0; k0 < k; k0 += PP_KC) {
    const int64_t kc = k - k0 < PP_KC ? k - k0 : PP_KC;
    for (int64_t i0 = 0; i0 < mp; i0 += ph) {
      const int64_t pr = panel_rows(mp, ph, i0);
      for (int64_t p = 0; p < kc; p++)
        for (int64_t i = 0; i < pr; i++, out++) {
          *out = 0.0f;
          if (i0 + i < m) memcpy(out, src + sizeof(float) * (size_t)((i0 + i) * k + k0 + p), sizeof(float));
        }
    }
  }
}

int64_t rt_pp_index(int64_t m, int64_t k, int ph, int64_t i, int64_t p) {
  const int64_t mp = RT_SGEMM_UP_(m, PP_MIN), k0 = p / PP_KC * PP_KC, kc = k - k0 < PP_KC ? k - k0 : PP_KC;
  const int64_t i0 = i / ph * ph;
  return k0 * mp + i0 * kc + (p - k0) * panel_rows(mp, ph, i0) + (i - i0);
}

#if defined(__GNUC__)
#if defined(__AVX512F__)
#define VL 16
#define SUB 64
#define NR 7
#elif defined(__AVX__)
#define VL 8
#define SUB 16
#define NR 6
#elif defined(__aarch64__)
#define VL 4
#define SUB 16
#define NR 6
#else
#define VL 4
#define SUB 8
#define NR 6
#endif
typedef float PpVec __attribute__((vector_size(VL * 4)));

/* C[mr x nr] (+)= A[kc x SUB: MRV vectors, vector q of step p at
 * ap + q * qs + p * ks] x B[kc x NR]; `first`: store instead of add. */
static inline __attribute__((always_inline)) void micro_v(int mrv, int64_t kc, const float *ap, int64_t qs,
                                                          int64_t ks, const float *bp, float *c, int64_t ldc,
                                                          int64_t mr, int64_t nr, int first) {
  PpVec acc[NR][SUB / VL];
  memset(acc, 0, sizeof acc);
  for (int64_t p = 0; p < kc; p++) {
    PpVec a[SUB / VL];
    for (int q = 0; q < mrv; q++) memcpy(&a[q], ap + q * qs + p * ks, sizeof a[q]);
    const float *br = bp + p * NR;
    for (int j = 0; j < NR; j++) {
      const float bv = br[j];
      for (int q = 0; q < mrv; q++) acc[j][q] += a[q] * bv;
    }
  }
  float out[NR][SUB];
  /* cppcheck-suppress bufferAccessOutOfBounds ; cppcheck sizes acc as floats: its vectors (vector_size) hold VL each */
  memcpy(out, acc, sizeof out);
  for (int64_t i = 0; i < mr; i++)
    for (int64_t j = 0; j < nr; j++) {
      float *o = c + i * ldc + j;
      *o = first ? out[j][i] : *o + out[j][i];
    }
}

/* One tile of `rows` (a multiple of VL, at most SUB) rows. */
static void micro(int64_t rows, int64_t kc, const float *ap, int64_t qs, int64_t ks, const float *bp, float *c,
                  int64_t ldc, int64_t mr, int64_t nr, int first) {
  switch (rows / VL) {
#if SUB / VL >= 4
    case 4: micro_v(4, kc, ap, qs, ks, bp, c, ldc, mr, nr, first); break;
    case 3: micro_v(3, kc, ap, qs, ks, bp, c, ldc, mr, nr, first); break;
#endif
    case 2: micro_v(2, kc, ap, qs, ks, bp, c, ldc, mr, nr, first); break;
    default: micro_v(1, kc, ap, qs, ks, bp, c, ldc, mr, nr, first); break;
  }
}
#else
#define SUB 8
#define NR 4
#define VL 4
static void micro(int64_t rows, int64_t kc, const float *ap, int64_t qs, int64_t ks, const float *bp, float *c,
                  int64_t ldc, int64_t mr, int64_t nr, int first) {
  float acc[NR][SUB] = {{0}};
  for (int64_t p = 0; p < kc; p++)
    for (int j = 0; j < NR; j++)
      for (int64_t i = 0; i < rows; i++) acc[j][i] += ap[i / VL * qs + p * ks + i % VL] * bp[p * NR + j];
  for (int64_t i = 0; i < mr; i++)
    for (int64_t j = 0; j < nr; j++) c[i * ldc + j] = first ? acc[j][i] : c[i * ldc + j] + acc[j][i];
}
#endif

/* One product: its operands, and its tasks = PP_TILE rows of M x ranges of
 * B's column panels. */
typedef struct PpJob {
  const float *ap, *b;
  float *c, *bp;
  int ph;               /* A's panel height */
  int64_t m, mp, k, n, ldb, ldc;
  int64_t np;           /* column panels of B */
  int64_t mt, nsplit;   /* tiles down M, column ranges per tile */
} PpJob;

/* Block kb of B's rows into bp: for each column panel jp, [kc][NR] (zero
 * padded columns), reading B row by row. */
static void pack_b_task(void *ctx, int64_t kb, int tid) {
  const PpJob *j = ctx;
  (void)tid;
  const int64_t k0 = kb * PP_KC, kc = j->k - k0 < PP_KC ? j->k - k0 : PP_KC;
  float *blk = j->bp + k0 * j->np * NR;
  for (int64_t p = 0; p < kc; p++) {
    const float *row = j->b + (k0 + p) * j->ldb;
    for (int64_t jp = 0; jp < j->np; jp++) {
      const int64_t j0 = jp * NR, nr = j->n - j0 < NR ? j->n - j0 : NR;
      float *out = blk + (jp * kc + p) * NR;
      for (int64_t c = 0; c < NR; c++) out[c] = c < nr ? row[j0 + c] : 0.0f;
    }
  }
}

/* Where the SUB-row tile at row i of C (in K block k0, kc long) reads A:
 * its first vector at *ap, the next ones qs floats on, each step of k ks
 * floats on.  A tile lies in one panel (VL consecutive floats apart) or,
 * when wider than the panels, takes one panel per vector (VL == ph). */
static const float *tile_a(const PpJob *j, int64_t k0, int64_t kc, int64_t i, int64_t *qs, int64_t *ks) {
  const int64_t i0 = i / j->ph * j->ph, pr = panel_rows(j->mp, j->ph, i0);
  *qs = SUB > j->ph ? j->ph * kc : VL, *ks = pr;
  return j->ap + k0 * j->mp + i0 * kc + (i - i0);
}

static void gemm_task(void *ctx, int64_t t, int tid) {
  const PpJob *j = ctx;
  (void)tid;
  const int64_t i0 = t % j->mt * PP_TILE, s = t / j->mt;
  const int64_t jp0 = s * j->np / j->nsplit, jp1 = (s + 1) * j->np / j->nsplit;
  const int64_t tr = j->mp - i0 < PP_TILE ? j->mp - i0 : PP_TILE;
  for (int64_t k0 = 0; k0 < j->k; k0 += PP_KC) {
    const int64_t kc = j->k - k0 < PP_KC ? j->k - k0 : PP_KC;
    for (int64_t r = 0; r < tr; r += SUB) {
      const int64_t rows = tr - r < SUB ? tr - r : SUB, real = j->m - (i0 + r);
      if (real <= 0) break;
      int64_t qs, ks;
      const float *a = tile_a(j, k0, kc, i0 + r, &qs, &ks);
      for (int64_t jp = jp0; jp < jp1; jp++) {
        const int64_t j0 = jp * NR;
        micro(rows, kc, a, qs, ks, j->bp + k0 * j->np * NR + jp * kc * NR, j->c + (i0 + r) * j->ldc + j0, j->ldc,
              real < rows ? real : rows, j->n - j0 < NR ? j->n - j0 : NR, k0 == 0);
      }
    }
  }
}

enum { PP_TASKS = 8 };

void rt_pp_gemm(const float *ap, int ph, int64_t m, int64_t k, const float *b, int64_t ldb, int64_t n, float *c,
                int64_t ldc, float *ws) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    for (int64_t i = 0; i < m; i++) memset(c + i * ldc, 0, sizeof(float) * (size_t)n);
    return;
  }
  PpJob j = {.ap = ap, .b = b, .c = c, .bp = ws, .ph = ph, .m = m, .mp = RT_SGEMM_UP_(m, PP_MIN), .k = k, .n = n,
             .ldb = ldb, .ldc = ldc, .np = rt_div_up(n, NR)};
  j.mt = rt_div_up(j.mp, PP_TILE);
  j.nsplit = j.mt >= PP_TASKS ? 1 : rt_div_up(PP_TASKS, j.mt);
  if (j.nsplit > j.np) j.nsplit = j.np;
  rt_parallel(rt_div_up(k, PP_KC), pack_b_task, &j);
  rt_parallel(j.mt * j.nsplit, gemm_task, &j);
}
