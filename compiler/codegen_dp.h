/* A trainer's code for data parallelism (data_parallel.h): which kernels
 * are part A and part B, the gradients the places sum, the loss@GRAD seed
 * the gradient scale strategy sets, which state each place keeps apart. */
#ifndef PADDLEC_CODEGEN_DP_H
#define PADDLEC_CODEGEN_DP_H

#include "emit.h"

typedef struct DpText {
  const char *code; /* the tables and functions, printed after the kernels */
  int seed_kernel;  /* the (first) kernel that writes loss@GRAD, -1 if none */
  const char *why;  /* why the trainer cannot run on several places, or NULL */
} DpText;

/* 1 when op is the loss@GRAD seed: the Backward|Loss fill_constant
 * append_backward writes (Paddle's IsScaleLossOp,
 * multi_devices_graph_pass.cc). */
int dp_is_seed(const Op *op);
/* e: the model's emit context; kops: its nk kernels' ops. */
DpText dp_text(EmitCtx *e, const Op *const *kops, int nk);

#endif
