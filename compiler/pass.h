/* Passes (DESIGN.md section 5): one file each in passes/, one signature.
 *
 *   int pass_<name>(Graph *g, PassCtx *c);
 *
 * A pass rewrites block 0 of an inference program with compiler/rewrite.h,
 * leaves producers and users up to date (graph_relink) and the shapes as the
 * ops' rules give them, counts its rewrites in c->changes, and returns 0 or
 * -1 after printing an error.  Which passes run and in what order is decided
 * only in compiler/pipeline.c. */
#ifndef PADDLEC_PASS_H
#define PADDLEC_PASS_H

#include "graph.h"
#include "strategy.h"

typedef struct PassCtx {
  const BuildStrategy *bs; /* the options */
  const char *pass;        /* the running pass's name */
  int changes;             /* rewrites the pass made */
} PassCtx;

typedef int (*PassFn)(Graph *g, PassCtx *c);

int pass_constant_folding(Graph *g, PassCtx *c);
int pass_dead_code_elimination(Graph *g, PassCtx *c);
int pass_fold_batch_norm(Graph *g, PassCtx *c);
int pass_conv_elementwise_add_act(Graph *g, PassCtx *c);
int pass_sync_batch_norm(Graph *g, PassCtx *c);
int pass_fuse_bn_add_act_ops(Graph *g, PassCtx *c);
int pass_fuse_bn_act_ops(Graph *g, PassCtx *c);
int pass_fuse_relu_depthwise_conv(Graph *g, PassCtx *c);
int pass_fused_attention(Graph *g, PassCtx *c);
int pass_fused_feedforward(Graph *g, PassCtx *c);
int pass_fuse_gemm_epilogue(Graph *g, PassCtx *c);
int pass_enable_auto_fusion(Graph *g, PassCtx *c);
int pass_fuse_elewise_add_act_ops(Graph *g, PassCtx *c);
int pass_fuse_all_optimizer_ops(Graph *g, PassCtx *c);
int pass_fuse_adamw(Graph *g, PassCtx *c);

#endif
