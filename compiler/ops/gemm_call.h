/* One matrix product as an op's lowering decided it, and its printer.
 *
 *   C = alpha * op(A) op(B) + beta * C, then the epilogue (bias, residual,
 *   activation: runtime/rt_act.h's RtEpilogue) when `ep` names one.
 *
 * matmul_print_c (for the kernels of matmul, matmul_v2, bmm, mul, their
 * grads, fused_gemm_epilogue and its grad: MatmulCall below), the emitter
 * of fused_feedforward and addmm's printer (mat_call.c) fill one record
 * per product: sizes, operands and leading dimensions as C expressions in
 * the kernel's names, the scratch the planner sized (em_gemm_ws).
 * gemm_print_c is the only code that knows how the C runtime spells a
 * product (rt_sgemm_ws, rt_sgemm_ep, rt_dgemm); another backend prints the
 * same records. */
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

/* A matrix-product kernel as the lowering of matmul, matmul_v2, bmm, mul,
 * their grads, fused_gemm_epilogue and its grad decided it: the operands,
 * the sizes M, N, K, the batch walk, the epilogue and one or two products.
 *
 * A batched kernel walks the batch dims of Out (right-aligned, the
 * outermost first); X's and Y's batch stride is 0 along a dim where they
 * are broadcast (their dim is 1 or absent), so each operand's offset
 * follows from the dims and the flags: X's and X@GRAD's walk is X's, Y's
 * and Y@GRAD's is Y's, Out's and Out@GRAD's is Out's.  A gradient summed
 * over a broadcast dim is zeroed first and its products add to it.  The
 * emitters (matmul.c, fused_gemm_epilogue.c) check the tensors and fill
 * the record: the pointers from em_ptr, the sizes and the batch dims as C
 * expressions, the scratch from em_gemm_ws; matmul_print_c prints the
 * kernel, each product through gemm_print_c.  A CUDA printer can print the
 * same record as cuBLAS calls (a strided batched product per batch walk). */
typedef enum GemmOperand {
  GEMM_X,    /* X: read (the forward's A; the grads' dY factor) */
  GEMM_Y,    /* Y: read */
  GEMM_OUT,  /* Out: written (fused_gemm_epilogue with ReserveSpace: ReserveSpace) */
  GEMM_DOUT, /* Out@GRAD: read */
  GEMM_DX,   /* X@GRAD: written */
  GEMM_DY,   /* Y@GRAD: written */
  GEMM_NOPERANDS
} GemmOperand;

/* One product of the kernel: C = alpha * op(A) op(B) (+ C when acc), or
 * C = op(A) op(B) then the kernel's epilogue. */
typedef struct GemmProduct {
  int trans_a, trans_b;             /* op(A) = A^T, op(B) = B^T */
  const char *m, *n, *k;            /* C is m x n, the inner dim k: in the kernel's M, N, K (or X's rows) */
  const char *alpha;                /* a literal; NULL with the epilogue */
  GemmOperand a, b, c;              /* the operands, each at its batch walk's offset */
  const char *lda, *ldb, *ldc;      /* leading dims */
  int acc;                          /* C += the product (the gradient of a broadcast operand), else C = */
  const char *ws;                   /* float32: the packing scratch (em_gemm_ws); float64: unused */
} GemmProduct;

typedef struct MatmulCall {
  int f64;                          /* float64, else float32 */
  const char *ptr[GEMM_NOPERANDS];  /* each operand's pointer (em_ptr), NULL when the kernel has none */
  int named;                        /* declare the operands as locals x, y, out, dout, dx, dy, which the
                                       products name; else the products use the pointers */
  int block;                        /* the kernel in braces of its own */
  const char *m, *n, *k;            /* the values of the locals M, N, K */
  int mkn;                          /* declared in the order M, K, N (mul's), else M, N, K */
  int ep;                           /* the products' epilogue, a local RtEpilogue ep (float32, beta 0): */
  const char *bias, *residual, *ldr; /*  its bias [N], residual and the residual's leading dim (NULL: none) */
  const char *act, *act_alpha, *act_beta; /* its activation (RT_ACT_*) and the activation's alpha and beta */
  int batched;                      /* named: the products are per batch matrix of Out, the operands at their
                                       walk's offset (printed even without batch dims: "x + (0)"); else once */
  int nbatch;                       /* batched: Out's batch dims walked */
  const char *bdim[RT_MAX_RANK];    /* each batch dim of Out */
  int xbcast[RT_MAX_RANK], ybcast[RT_MAX_RANK]; /* X, Y broadcast along it (batch stride 0) */
  const char *zero_dx, *zero_dy;    /* named: X@GRAD's, Y@GRAD's elements when zeroed first (acc), else NULL */
  int nprod;                        /* the products, in order */
  GemmProduct prod[2];
} MatmulCall;

/* The kernel as C statements. */
void matmul_print_c(Printer *p, const MatmulCall *c);

/* Lowering shared by mul_grad and fused_gemm_epilogue_grad (defined in
 * matmul.c): the products of a 2-D product's gradient, X [M, K] Y [K, N] =
 * Out, into mc -- X@GRAD = Out@GRAD Y^T when dx, Y@GRAD = X^T Out@GRAD when
 * dy -- with their operands' pointers and scratch (m, k, n: the sizes for
 * em_gemm_ws; float32 only, by mc->f64). */
void matmul_grad_products(EmitCtx *e, MatmulCall *mc, const Var *x, const Var *y, const Var *dout, const Var *dx,
                          const Var *dy, SymDim m, SymDim k, SymDim n);

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
