/* Compute kernels shared by generated code: GEMM (OpenBLAS or portable C),
 * convolution, pooling, normalization.  Plain C11; shapes come from the
 * caller (generated code validated them at compile time). */
#ifndef PADDLEC_RT_KERNELS_H
#define PADDLEC_RT_KERNELS_H

#include <stdint.h>

#include "rt_act.h"
#include "rt_attention.h"
#include "rt_beam_search.h"
#include "rt_beam_search_decode.h"
#include "rt_bipartite_match.h"
#include "rt_blocking.h"
#include "rt_cnn.h"
#include "rt_collective.h"
#include "rt_conv3d_transpose.h"
#include "rt_detection.h"
#include "rt_einsum.h"
#include "rt_grid_sample.h"
#include "rt_kthvalue.h"
#include "rt_linalg.h"
#include "rt_nms.h"
#include "rt_proposals.h"
#include "rt_roi.h"
#include "rt_unique.h"
#include "rt_polygamma.h"
#include "rt_random.h"
#include "rt_pool3d.h"
#include "rt_resize.h"
#include "rt_sort.h"
#include "rt_special.h"
#include "rt_rnn.h"
#include "rt_tensor.h"

/* C = alpha * op(A) * op(B) + beta * C, row-major; op = transpose when set.
 * Never allocates.  With a workspace `ws` (RT_SGEMM_WS_FLOATS(m, n, k)
 * floats) the product is split into blocks of C that run on the model's
 * threads (rt_parallel.h), and the portable kernel packs into ws (worker
 * threads into their own scratch); with ws NULL it runs on the calling thread
 * and packs one 16 KiB panel at a time on the stack.  OpenBLAS uses its own
 * buffers either way. */
void rt_sgemm_ws(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float *a,
                 int64_t lda, const float *b, int64_t ldb, float beta, float *c, int64_t ldc, float *ws);
void rt_sgemm(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float *a,
              int64_t lda, const float *b, int64_t ldb, float beta, float *c, int64_t ldc);
/* The same in double (float64 matrix products): cblas_dgemm with OpenBLAS,
 * otherwise plain loops, row by row of C on the calling thread. */
void rt_dgemm(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, double alpha, const double *a,
              int64_t lda, const double *b, int64_t ldb, double beta, double *c, int64_t ldc);

/* C = epilogue(op(A) * op(B)), otherwise as rt_sgemm_ws. */
void rt_sgemm_ep(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                 const float *b, int64_t ldb, float *c, int64_t ldc, float *ws, const RtEpilogue *ep);

/* The pre-packed GEMM (layout: rt_blocking.h).  rt_pp_pack writes the
 * [m, k] row-major float matrix at a (any alignment) in that layout with
 * panels of ph rows (16 or 64; RT_PP_FLOATS(m, k) floats); rt_pp_gemm
 * computes C [m, n] (row stride ldc) = A x B for A so packed and
 * B [k, n] (row stride ldb), packing B into ws (RT_PP_B_FLOATS(n, k)
 * floats), in tasks on the model's threads.  Each element of C is the same
 * sum in the same order whatever the threads.  It packs nothing of A at run
 * time: for products with few columns (late convolution layers), where
 * repacking the weights on every call costs as much as the arithmetic. */
void rt_pp_pack(const void *a, int64_t m, int64_t k, int ph, float *out);
/* Where element (i, p) of an [m, k] matrix lies in its packed copy. */
int64_t rt_pp_index(int64_t m, int64_t k, int ph, int64_t i, int64_t p);
void rt_pp_gemm(const float *ap, int ph, int64_t m, int64_t k, const float *b, int64_t ldb, int64_t n, float *c,
                int64_t ldc, float *ws);

/* c [m, n] = act(w [m, k] x x [k, n] + bias[row] (+ res [m, n])), the
 * product and epilogue of a convolution over many pixels (n) with a short
 * sum (k: a 1x1's input channels, or an im2col pass's rows): nothing
 * packed, C written once (rt_wide.c), in tasks on the model's threads;
 * each element the same sum in the same order whatever the threads.  Row
 * strides ldx (x) and ldc (c and res); bias and res may be NULL. */
void rt_wide_conv(const float *w, int64_t m, int64_t k, const float *x, int64_t ldx, int64_t n, const float *bias,
                  const float *res, RtAct act, float alpha, float beta, float *c, int64_t ldc);

/* c [m, n] = epilogue(alpha * a [m, k] x b [k, n]) (ep may be NULL) the same way,
 * a's rows broadcast against vectors along b's rows, nothing packed, the
 * epilogue applied per row and block of columns (rt_wide.c); row strides
 * lda, ldb, ldc.  rt_sgemm_ws and rt_sgemm_ep take it for the products
 * rt_wide_gemm_suits accepts: targets where it beats the GEMM (AVX-512, or
 * no OpenBLAS: on the linear layers of BERT-style encoders 0.87-0.96 of
 * OpenBLAS's time with AVX-512; with AVX2 as fast at best, up to twice as
 * slow), rows of b
 * filling whole vectors (a scalar tail is slow), sums of at most 2048
 * terms and an a of at most 4 MiB (re-read once per block of columns). */
void rt_wide_gemm(const float *a, int64_t lda, int64_t m, int64_t k, float alpha, const float *b, int64_t ldb,
                  int64_t n, float *c, int64_t ldc, const RtEpilogue *ep);
int rt_wide_gemm_suits(int64_t m, int64_t n, int64_t k);

/* "OpenBLAS" or "portable C". */
const char *rt_blas_name(void);

/* Softmax / log-softmax over the middle dim of x viewed as [outer, n, inner]. */
void rt_softmax(const float *x, float *out, int64_t outer, int64_t n, int64_t inner);
void rt_log_softmax(const float *x, float *out, int64_t outer, int64_t n, int64_t inner);
/* The same in float64 (Paddle's double functors: plain exp, sums in order). */
void rt_softmax_f64(const double *x, double *out, int64_t outer, int64_t n, int64_t inner);
void rt_log_softmax_f64(const double *x, double *out, int64_t outer, int64_t n, int64_t inner);
/* Softmax of one contiguous row of n floats (out may be x), as rt_softmax. */
void rt_softmax_row(const float *x, float *out, int64_t n);

/* max |x[i]| over n elements as Paddle finds it: the first largest |x[i]|,
 * so a NaN counts only in x[0] (0 for n == 0). */
float rt_abs_max(const float *x, int64_t n);

#endif
