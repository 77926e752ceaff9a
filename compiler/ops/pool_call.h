/* One pooling kernel call as the lowering decided it, and its C printer.
 *
 * The emitters of pool2d, pool3d, max_pool2d/3d_with_index and their grads
 * print the geometry (a constant RtPool2d or RtPool3d named `geo`) and fill
 * one record: which routine, the batch and the buffers as C expressions.
 * pool_print_c is the only code that spells the runtime's pooling calls
 * (rt_pool2d*, rt_pool3d*, rt_max_pool*d_index*, with _f64 for float64
 * tensors); another backend prints the same records. */
#ifndef PADDLEC_OPS_POOL_CALL_H
#define PADDLEC_OPS_POOL_CALL_H

#include "ops.h"

typedef enum PoolKind {
  POOL_FORWARD,     /* out = pool(x) */
  POOL_GRAD,        /* dx from x, out and dout */
  POOL_INDEX,       /* max pooling: out and its argmax, mask */
  POOL_INDEX_GRAD,  /* dx: dout added at mask */
} PoolKind;

typedef struct PoolCall {
  PoolKind kind;
  int dims;                  /* 2 or 3 (POOL_INDEX_GRAD: 2; pool.c loops the 3-D one) */
  int f64;                   /* float64 tensors (the _f64 routines), else float32 */
  const char *batch;         /* images */
  const char *x, *out, *dout; /* input, output, output gradient (as the kind reads them) */
  const char *mask;          /* POOL_INDEX, POOL_INDEX_GRAD */
  const char *dx;            /* the input gradient (grads) */
} PoolCall;

void pool_print_c(Printer *p, const PoolCall *c);

#endif
