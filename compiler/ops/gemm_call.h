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
#include "rt_einsum.h"

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

/* An einsum kernel (runtime/rt_einsum.h): einsum and einsum_grad are
 * general contractions.  Every distinct letter of the equation and every
 * broadcast dim of its "..." is a label with an extent; the output's labels
 * come first, then those summed over, and each operand and the output is
 * addressed by one stride per label.  einsum.c parses the equation, checks
 * the operands against it, orders the labels and fills the record: per
 * contraction the labels' names, extents and strides as C expressions and
 * the buffers, and the forward's InnerCache copies.  einsum_print_c prints
 * each contraction as constant arrays, an RtEinsum named `geo` and one
 * rt_einsum_f32 / rt_einsum_f64 call. */
typedef enum EinsumKind {
  EINSUM_FORWARD, /* Out = contract[0], then InnerCache[i] = operand i where cache[i] is set */
  EINSUM_GRAD,    /* each contract[j] writes Operands@GRAD[contract[j].grad], in a block of its own */
} EinsumKind;

/* out = the contraction of nops operands over nlabels labels (rt_einsum.h). */
typedef struct EinsumContraction {
  int grad;                                                  /* EINSUM_GRAD: the gradient's index */
  const char *target;                                        /* the output's name in the comment ("Out") */
  int nops, nlabels, nout;                                   /* operands; labels; the first nout index out */
  const char *label[RT_EINSUM_MAX_LABELS];                   /* each label's name: "a", or "...k" */
  const char *size[RT_EINSUM_MAX_LABELS];                    /* each label's extent */
  const char *stride[RT_EINSUM_MAX_OPS][RT_EINSUM_MAX_LABELS]; /* each operand's element stride per label */
  const char *out_stride[RT_EINSUM_MAX_LABELS];              /* [nout] the output's stride per label */
  const char *out_numel;                                     /* elements of out */
  int zero_out;                                              /* out repeats a label: zero it first */
  const char *operands[RT_EINSUM_MAX_OPS];                   /* the operands' buffers */
  const char *out;                                           /* the output's buffer */
} EinsumContraction;

typedef struct EinsumCall {
  EinsumKind kind;
  int f64;                                       /* float64 (rt_einsum_f64), else float32 */
  const char *type;                              /* the C element type: "float" or "double" */
  const char *equation;                          /* the op's equation, for the comments */
  int ncontract;                                 /* FORWARD: 1; GRAD: one per gradient written */
  EinsumContraction contract[RT_EINSUM_MAX_OPS];
  /* FORWARD: InnerCache[i]'s buffer (NULL: none read), a copy of operand i (contract[0].operands[i]) of
   * cache_numel[i] elements */
  const char *cache[RT_EINSUM_MAX_OPS], *cache_numel[RT_EINSUM_MAX_OPS];
} EinsumCall;

void einsum_print_c(Printer *p, const EinsumCall *c);

#endif
