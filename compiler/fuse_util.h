/* Pattern pieces the fusion passes share: activations an epilogue can
 * apply, per-channel bias operands, and the check that an intermediate value
 * has exactly one reader. */
#ifndef PADDLEC_FUSE_UTIL_H
#define PADDLEC_FUSE_UTIL_H

#include "graph.h"

/* An activation as the epilogues of fused_conv2d / fused_gemm_epilogue take
 * it: `fuse_activation` with fuse_alpha / fuse_beta (conv.c's convention). */
typedef struct FuseAct {
  const char *name;  /* "relu", "leaky_relu", "relu6", "clip", "swish", "hard_swish",
                      * "hard_sigmoid", "sigmoid", "tanh", "gelu", "gelu_tanh" (em_act) */
  double alpha;      /* fuse_alpha */
  double beta;       /* fuse_beta */
} FuseAct;

/* 1 and *a when op `id` is a float activation the epilogues compute exactly
 * as the op does (attributes, not tensors, giving its parameters). */
int fuse_act_of(const Graph *g, int id, FuseAct *a);

/* Gives fused grad op fg the inputs of batch_norm_grad bg (X, Scale, Bias,
 * SavedMean, SavedVariance, and with `reserve` ReserveSpace, each when bg
 * has it), Y = y, Y@GRAD = dy, and bg's X@GRAD, Scale@GRAD, Bias@GRAD. */
void fuse_bn_grad_slots(Graph *g, int fg, int bg, int y, int dy, int reserve);

/* 1 when op `id` is an elementwise_add reading `x` in one operand and, in
 * the other, a float32 parameter that broadcasts along dim `dim` of x alone
 * (dim's extent `c` elements) and whose output has x's shape, e.g. a conv
 * bias [C] at axis 1; *param gets it. */
int fuse_channel_param(const Graph *g, int id, int x, int dim, int64_t c, int *param);

/* 1 when op `id` is an elementwise_add of `x` and another tensor of exactly
 * x's shape and dtype (a residual); *other gets that tensor. */
int fuse_same_shape_add(const Graph *g, int id, int x, int *other);

/* The op reading `v` when it is the only reader, v is not fetched and one
 * op alone writes it; -1 otherwise. */
int fuse_next(const Graph *g, int v);

/* 1 when one live op of block 0 writes var `v`. */
int fuse_one_writer(const Graph *g, int v);
/* The op other than `other` reading `v` when exactly those two ops read it
 * (`other` one of them), v is not fetched and one op writes it; -1
 * otherwise: a forward intermediate that its grad op reads too. */
int fuse_next_beside(const Graph *g, int v, int other);

/* 1 when op `id` exists and has type `type`. */
int fuse_is(const Graph *g, int id, const char *type);
/* 1 when op `id` is a dropout at inference that changes nothing
 * (upscale_in_train, or dropout_prob 0) and whose Mask nobody reads. */
int fuse_identity_dropout(const Graph *g, int id);
/* 1 when op `id` is a layer_norm over the last dim of rank-`rank` X whose
 * Mean and Variance nobody reads or fetches. */
int fuse_ln_last_dim(const Graph *g, int id, int rank);

/* 1 when op `id` is a float32 batch_norm at inference (is_test or
 * use_global_stats) whose outputs other than Y (MeanOut, SavedMean, ...) no
 * op but itself reads and no fetch takes. */
int fuse_bn_inference(const Graph *g, int id);

/* 1 when op `id` is a float32 batch_norm with its batch's statistics
 * (training) and no MomentumTensor: the fused training batch norms take it. */
int fuse_bn_training(const Graph *g, int id);

/* Gives op `f` the X, Scale, Bias, Mean and Variance of batch_norm `bn`
 * (Scale and Bias only when it has them). */
void fuse_copy_bn_inputs(Graph *g, int f, int bn);

/* 1 when op `id` is an elementwise (NCHW, or AnyLayout) convolution
 * paddlec's conv epilogue can extend: conv2d, depthwise_conv2d, or a
 * fused_conv2d without an activation or residual yet. */
int fuse_is_plain_conv(const Graph *g, int id);

/* Merges, for each optimizer type in `types` (NULL-terminated), the ops of
 * block 0 of that type that have the same attributes (op_role and the other
 * bookkeeping aside) and read the same shared inputs (LearningRate, ...:
 * optimizer_shared_slot) into one op of that type at the last one's place,
 * its per-parameter slots holding one var per parameter in program order
 * (optimizer.c's merged ops).  A group is merged only when no other op
 * between its first and last op reads what an earlier member writes or
 * writes what it reads or writes, so moving the updates to the last place
 * changes nothing.  Counts merged groups in *changes. */
void fuse_optimizer_ops(Graph *g, const char *const *types, int *changes);

#endif
