/* One pooling kernel call as the lowering decided it, and its C printer.
 *
 * The emitters of pool2d, pool3d, max_pool2d/3d_with_index and their grads
 * check the tensors, compute the window geometry (an RtPool2d or RtPool3d)
 * and fill one record: which routine, the geometry's values, the batch and
 * the buffers as C expressions.  pool_print_c prints the geometry (a
 * constant RtPool2d or RtPool3d named `geo`) and the call; it is the only
 * code that spells the runtime's pooling calls (rt_pool2d*, rt_pool3d*,
 * rt_max_pool*d_index*, with _f64 for float64 tensors); another backend
 * prints the same records. */
#ifndef PADDLEC_OPS_POOL_CALL_H
#define PADDLEC_OPS_POOL_CALL_H

#include "ops.h"
#include "rt_cnn.h"
#include "rt_pool3d.h"

typedef enum PoolKind {
  POOL_FORWARD,     /* out = pool(x) */
  POOL_GRAD,        /* dx from x, out and dout */
  POOL_INDEX,       /* max pooling: out and its argmax, mask */
  POOL_INDEX_GRAD,  /* dx: dout added at mask (2-D: rt_max_pool2d_index_grad; 3-D: loops over planes) */
} PoolKind;

typedef struct PoolCall {
  PoolKind kind;
  int dims;                  /* 2 or 3 */
  int f64;                   /* float64 tensors (the _f64 routines), else float32 */
  RtPool2d geo2;             /* dims 2: the geometry (POOL_INDEX_GRAD prints c and the sizes only) */
  int run_sizes;             /* POOL_FORWARD, or dims 2 POOL_INDEX(_GRAD): the sizes are the locals h_in, w_in, h_out, w_out
                              * (dims 3: and d_in, d_out) the run gives (run_hw.h), */
  int k_in;                  /* and the window is the input (global pooling) */
  int run_pads;              /* and the padding the locals pad_t, pad_l (dims 3: and pad_f) (SAME:
                              * conv_print_same_pads) */
  RtPool3d geo3;             /* dims 3: the geometry (not POOL_INDEX_GRAD) */
  const char *batch;         /* images (not the 3-D POOL_INDEX_GRAD) */
  const char *x, *out, *dout; /* input, output, output gradient (as the kind reads them) */
  const char *mask;          /* POOL_INDEX, POOL_INDEX_GRAD */
  const char *dx;            /* the input gradient (grads) */
  /* the 3-D POOL_INDEX_GRAD: C element type, N * C, and the volumes of X and Out@GRAD */
  const char *type, *planes, *in_size, *out_size;
} PoolCall;

void pool_print_c(Printer *p, const PoolCall *c);

#endif
