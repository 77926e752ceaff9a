/* 2-D and 3-D ops whose input's height and width (and depth) the run gives (issue 19 item 1:
 * a feed bounded by --max-shape, `x: [B, 3, -1, -1]`, and the ops after
 * it).  The tensors are planned for the bound; the kernel reads the run's
 * sizes of its input from the model's runtime_dims[], works out its
 * output's with the op's rule, stops the run on an output size below 1
 * (which Paddle's kernels reject or, for a convolution, crash on) and
 * writes them for the kernels after it.  The geometry (RtConv2d, RtPool2d) is then a local of the kernel
 * whose size fields name those sizes (ConvCall / PoolCall .run_sizes).
 *
 * Infer side: run_hw_infer checks that only the spatial dims of the
 * input are the run's and marks the output's; emit side: run_hw_print
 * prints the sizes. */
#ifndef PADDLEC_OPS_RUN_HW_H
#define PADDLEC_OPS_RUN_HW_H

#include "ops.h"

/* The per-dim rule of an output's height and width: out = (in + add) /
 * stride + 1 (C's division, as Paddle's ConvOutputSize / PoolOutputSize),
 * or with mul, out = in * mul + add (a transposed convolution's); or,
 * fixed, the output's dim as compiled (adaptive or global pooling); or
 * another rule the op prints itself, named (an interp's scales). */
typedef struct RunHwRule {
  int64_t add[3], stride[3], mul[3];
  int fixed[3];
  const char *name; /* NULL: the division or product; else the other rule, one name per rule */
  const char *expr[3]; /* run_hw_print: the output's sizes as C expressions of the op's (an output_size the
                        * run reads), NULL: the rule's */
  int batch; /* run_hw_infer: x's dim 0 may be the run's too (frames folded into the batch), passed to the
              * output's (run_hw_print writes it): the op's kernel loops over em_dim(x, 0) images */
  int dims; /* the spatial dims from sp0: 2 (or 0), 3 (depth, height, width: entries [0..2], run_hw_print's
             * locals d_in, h_in, w_in), or in run_hw_infer 1: a 1-D op's length at sp0 (a resize of [N, C, L]);
             * entries [0] of the arrays rule it */
} RunHwRule;

/* Input x of the op has run-time extents: 0 when it has none (nor has
 * any other input); -1 (after ctx_fail) when one of them is not a spatial
 * dim from sp0 (nor dim 0, with rule->batch), or another input has some that are not the
 * output's (a residual shaped like it); otherwise 1, output
 * `slot` having run-time extents on the spatial dims x has them on that
 * `rule` does not fix.  Their root (Var.runtime_root) is x's when the
 * rule keeps each size (add -1, stride 1: a 3x3 convolution with padding
 * 1), else that of the first output made from x's root by the same rule,
 * so that two branches computing one size (a 1x1 convolution with stride 2
 * beside a 3x3 one with padding 1) are the same extent to a residual add
 * of the two (same_runtime_extent).  `rule` is not read when x has no
 * run-time extents. */
int run_hw_infer(OpCtx *c, const Var *x, const char *slot, int sp0, const RunHwRule *rule);

/* v, whose run-time extents an op just set, made by `rule` (a text naming
 * the extents they come from and how): it shares the root of the first
 * var made by the same rule (same_runtime_extent). */
void run_hw_share_root(const Graph *g, Var *v, const char *rule);

/* Prints the locals h_in, w_in, h_out, w_out of the kernel (with
 * rule->dims 3 also d_in, d_out first): x's spatial dims (from sp0) and
 * out's by `rule`, the run's where the run
 * gives them, a stop (em_fault `why`) on an output size below 1, and
 * out's run-time extents written for the kernels after it (a run-time
 * dim 0 x's). */
void run_hw_print(EmitCtx *e, const Var *x, const Var *out, int sp0, const RunHwRule *rule, const char *why);
/* The same locals (2-D) for a gradient, from its forward's input x and
 * output (or output gradient) out, whose run sizes are set already:
 * nothing is written. */
void run_hw_print_known(EmitCtx *e, const Var *x, const Var *out, int sp0);
/* run_hw_print_known of 3-D x and out: d_in and d_out too. */
void run_hw_print_known3(EmitCtx *e, const Var *x, const Var *out, int sp0);

/* v's dims as its bounds, the batch B ("[B, 3, 32, 32]"), for the comments
 * of kernels that read the run's sizes. */
const char *run_hw_bound_text(EmitCtx *e, const Var *v);

#endif
