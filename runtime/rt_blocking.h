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
 * of panels of `ph` rows of M (the panel height, 16 or 64; the last panel:
 * the rest of M rounded up to RT_PP_MR_MIN, zero padded), each stored
 * k-major: panel[k][row].  A micro-kernel streams the panel it reads as one
 * contiguous run, so the height suits the target's kernel: 64 for AVX-512
 * (64 rows a step of k), 16 for the others (RT_PP_PANEL: the runtime's own
 * choice; the compiler picks it for the target it compiles for, and any
 * height gives the same results on any target).  RT_PP_FLOATS is the size,
 * the same for both heights.  The other operand is packed per call into
 * column panels of at most RT_PP_NR_MAX columns: RT_PP_B_FLOATS. */
#define RT_PP_MR_MIN 16
#define RT_PP_PANEL_NARROW 16
#define RT_PP_PANEL_WIDE 64
#if defined(__AVX512F__)
#define RT_PP_PANEL RT_PP_PANEL_WIDE
#else
#define RT_PP_PANEL RT_PP_PANEL_NARROW
#endif
#define RT_PP_KC 512
#define RT_PP_NR_MAX 8
#define RT_PP_FLOATS(m, k) (RT_SGEMM_UP_((m), RT_PP_MR_MIN) * (k))
#define RT_PP_B_FLOATS(n, k) (((n) + RT_PP_NR_MAX - 1) * (k))

#endif
