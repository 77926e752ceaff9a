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

#endif
