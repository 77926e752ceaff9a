/* One matrix product as an op's lowering decided it, and its printer.
 *
 *   C = alpha * op(A) op(B) + beta * C, then the epilogue (bias, residual,
 *   activation: runtime/rt_act.h's RtEpilogue) when `ep` names one.
 *
 * The emitters of matmul, matmul_v2, bmm, mul (and their grads),
 * fused_gemm_epilogue and fused_feedforward, and addmm's printer
 * (mat_call.c) fill one record per product: sizes, operands and leading
 * dimensions as C expressions in the kernel's names, the scratch the
 * planner sized (em_gemm_ws).  gemm_print_c is the
 * only code that knows how the C runtime spells a product (rt_sgemm_ws,
 * rt_sgemm_ep, rt_dgemm); another backend prints the same records. */
#ifndef PADDLEC_OPS_GEMM_CALL_H
#define PADDLEC_OPS_GEMM_CALL_H

#include "ops.h"

typedef struct GemmCall {
  int f64;                 /* float64 (rt_dgemm), else float32 */
  int trans_a, trans_b;    /* op(A) = A^T, op(B) = B^T */
  const char *m, *n, *k;   /* C is m x n, the inner dim k */
  const char *alpha;       /* a literal; NULL with an epilogue (1) */
  const char *a, *lda, *b, *ldb, *c, *ldc;
  const char *beta;        /* a literal: "0.0f" overwrites C, "1.0f" adds to it */
  const char *ws;          /* float32: the packing scratch */
  const char *ep;          /* float32: the name of an RtEpilogue local (beta 0), or NULL */
} GemmCall;

/* The product as one statement of the C runtime. */
void gemm_print_c(Printer *p, const GemmCall *g);

/* An einsum contraction (runtime/rt_einsum.h): the RtEinsum geometry's
 * name, the array of operand pointers and the output. */
typedef struct EinsumCall {
  int f64; /* float64, else float32 */
  const char *geo, *operands, *out;
} EinsumCall;
void einsum_print_c(Printer *p, const EinsumCall *c);

#endif
