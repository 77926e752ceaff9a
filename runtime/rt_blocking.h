/* The portable GEMM's blocking, and the workspace size it packs into: what
 * generated code, the kernels and the compiler's arena plan agree on. */
#ifndef PADDLEC_RT_BLOCKING_H
#define PADDLEC_RT_BLOCKING_H

/* Blocking of the portable GEMM and the workspace it packs into. */
#define RT_SGEMM_MR 6
#define RT_SGEMM_NR 16
#define RT_SGEMM_KC 256
#define RT_SGEMM_MC 96
#define RT_SGEMM_NC 1024
#define RT_SGEMM_MIN_(a, b) ((a) < (b) ? (a) : (b))
#define RT_SGEMM_UP_(a, b) (((a) + (b) - 1) / (b) * (b))
#define RT_SGEMM_WS_FLOATS(m, n, k)                                                            \
  (RT_SGEMM_MIN_((k), RT_SGEMM_KC) *                                                          \
   (RT_SGEMM_UP_(RT_SGEMM_MIN_((n), RT_SGEMM_NC), RT_SGEMM_NR) + RT_SGEMM_UP_(RT_SGEMM_MIN_((m), RT_SGEMM_MC), RT_SGEMM_MR)))

/* The pre-packed GEMM (rt_ppgemm.c): a weight matrix [M, K] is packed once,
 * when the weights are bound, into blocks of RT_PP_KC rows of K, each a run
 * of panels of RT_PP_MR rows of M (the last panel: the rest of M rounded up
 * to RT_PP_MR_MIN, zero padded), stored k-major: panel[k][row].  The layout
 * is the same for every target, so that the compiler can size and write it;
 * RT_PP_FLOATS is its size.  The other operand is packed per call into
 * column panels of at most RT_PP_NR_MAX columns: RT_PP_B_FLOATS. */
#define RT_PP_MR 64
#define RT_PP_MR_MIN 16
#define RT_PP_KC 512
#define RT_PP_NR_MAX 8
#define RT_PP_FLOATS(m, k) (RT_SGEMM_UP_((m), RT_PP_MR_MIN) * (k))
#define RT_PP_B_FLOATS(n, k) (((n) + RT_PP_NR_MAX - 1) * (k))

#endif
