/* einsum as one general contraction, for compiler/ops/einsum.c.
 *
 * The compiler turns the equation into labels: every distinct letter and
 * every broadcast (ellipsis) dim is one label with an extent.  The output
 * labels come first (each distinct output label once, in the order the
 * output names them), then the labels summed over.  Each operand, and the
 * output, is addressed by one stride per label: the sum of its strides
 * along every dim that carries the label (a label repeated in an operand
 * walks its diagonal) and 0 for a label it lacks or broadcasts.  Then
 *   out[sum_l i_l * out_stride[l]] =
 *       sum over the summed labels of prod_k op_k[sum_l i_l * stride_k[l]]
 * with every product and the sum in double.  An output that repeats a
 * label (Paddle's undiagonal, "i->ii") is zero off its diagonal. */
#ifndef PADDLEC_RT_EINSUM_H
#define PADDLEC_RT_EINSUM_H

#include <stdint.h>

enum {
  RT_EINSUM_MAX_OPS = 2,     /* operands of one einsum op (Paddle's kernel takes 1 or 2) */
  RT_EINSUM_MAX_LABELS = 48, /* 26 letters and the broadcast dims of the ellipsis */
};

typedef struct RtEinsum {
  int nops;                                 /* operands */
  int nlabels;                              /* labels in all */
  int nout;                                 /* the first nout labels index the output */
  const int64_t *size;                      /* [nlabels] extent of each label */
  const int64_t *stride[RT_EINSUM_MAX_OPS]; /* [nlabels] each operand's element stride per label */
  const int64_t *out_stride;                /* [nout] the output's element stride per label */
  int64_t out_numel;                        /* elements of the output */
  int zero_out;                             /* 1: the output repeats a label; zero it first */
} RtEinsum;

void rt_einsum_f32(const RtEinsum *p, const float *const *ops, float *out);
void rt_einsum_f64(const RtEinsum *p, const double *const *ops, double *out);

#endif
