/* Small matrix kernels printed as loops, as the lowering decided them, and
 * their C printers: bilinear_tensor_product, spectral_norm, addmm and
 * their grads, fc.
 *
 * Each op has its own record (its geometry is its own): the emitters
 * (bilinear_tensor_product.c, spectral_norm.c, addmm.c, fc.c) check the tensors
 * and fill it with the element type, the sizes and the buffers as C
 * expressions, the scratch and the literals; the printers print the loops
 * (and addmm's products through gemm_call.h, spectral_norm's transposes
 * through move_call.h); another backend prints the same records. */
#ifndef PADDLEC_OPS_MAT_CALL_H
#define PADDLEC_OPS_MAT_CALL_H

#include "ops.h"

/* X [rows, m], Y [rows, n], Weight [k, m, n] -> Out [rows, k]. */
typedef struct BilinearCall {
  int grad;                     /* the grad: dx, dy, dw, db; else out */
  int dtype;                    /* RT_DT_FP32 or RT_DT_FP64 */
  const char *rows, *k, *m, *n; /* C expressions (k, m, n: constants) */
  const char *x, *y, *w;        /* read */
  const char *bias;             /* the forward's [k], or NULL */
  const char *out;              /* the forward's */
  const char *dout;             /* the grad's Out@GRAD [rows, k] */
  const char *dx, *dy, *dw, *db; /* the grad's outputs, each NULL when not wanted */
} BilinearCall;

void bilinear_print_c(Printer *p, const BilinearCall *c);

/* Weight [d0, d1, rest...] as the matrix W [h, w] (h = d0 for dim 0; for
 * dim 1 h = d1 and W is [d1, d0 * rest]), U [h], V [w]. */
typedef struct SpectralCall {
  int grad;                     /* the grad: dw from dout; else out */
  int dtype;                    /* RT_DT_FP32 or RT_DT_FP64 */
  int dim;                      /* 0 or 1 */
  int64_t h, w;                 /* the matrix view */
  int64_t d0, d1, rest;         /* dim 1: Weight's first two dims and the product of the dims after them */
  int64_t power_iters;          /* the power iteration's steps */
  const char *eps;              /* a float literal */
  const char *wm, *u, *v, *wv;  /* scratch: W, u, v and W v */
  const char *gm;               /* the grad's scratch: dOut's matrix view */
  const char *weight, *u_in, *v_in; /* read (U and V are copied, not updated) */
  const char *out;              /* the forward's */
  const char *dout, *dw;        /* the grad's */
} SpectralCall;

void spectral_print_c(Printer *p, const SpectralCall *c);

/* Out [m, n] = beta * Input (broadcast) + alpha * X [m, k] @ Y [k, n]. */
typedef struct AddmmCall {
  int grad;                     /* the grad: din, dx, dy from dout; else out */
  int dtype;                    /* RT_DT_FP32 or RT_DT_FP64 */
  const char *m, *n, *k;        /* C expressions */
  const char *in_rows, *in_cols; /* the forward's: Input as [in_rows, in_cols] (C expressions) */
  int one_row, one_col;         /* the forward's: Input has one row / column (read at 0 for every i / j) */
  int sum_rows, sum_cols;       /* the grad's: Out has more rows / columns than Input (summed into din) */
  const char *alpha, *beta;     /* literals in the element type's spelling */
  const char *x, *y;            /* X, Y: read */
  const char *in, *out;         /* the forward's */
  const char *dout;             /* the grad's Out@GRAD [m, n] */
  const char *din, *dx, *dy;    /* the grad's outputs, each NULL when not wanted */
  const char *ws, *ws_dx, *ws_dy; /* float32: the packing scratch of the forward's product, of dx's, of dy's */
} AddmmCall;

void addmm_print_c(Printer *p, const AddmmCall *c);

/* fc (Paddle Inference's fused op): Out [m, n] = X [m, k] @ W [k, n], then
 * + Bias[j] per row and max(., 0) with relu. */
typedef struct FcCall {
  int dtype;              /* RT_DT_FP32 or RT_DT_FP64 */
  const char *m, *n, *k;  /* C expressions */
  const char *x, *w;      /* read */
  const char *bias;       /* read, or NULL */
  int relu;
  const char *out;        /* written */
  const char *ws;         /* float32: the product's packing scratch */
} FcCall;

void fc_print_c(Printer *p, const FcCall *c);

#endif
