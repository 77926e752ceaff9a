/* einsum (see rt_einsum.h): two odometers, one over the output labels and
 * one over the summed labels, each moving every operand's offset by its
 * stride as an index steps and back when it wraps. */
#include <string.h>

#include "rt_kernels.h"

/* Element i of a float32 or float64 tensor, as double. */
static double load(const void *p, int64_t i, int f64) {
  return f64 ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

/* The sum over the labels [p->nout, p->nlabels) of the operands' products,
 * starting from the offsets `base` of the current output element. */
static double contract(const RtEinsum *p, const void *const *ops, const int64_t *base, int f64) {
  const int first = p->nout, last = p->nlabels - 1;
  for (int l = first; l <= last; l++)
    if (p->size[l] == 0) return 0.0;
  int64_t idx[RT_EINSUM_MAX_LABELS] = {0}, off[RT_EINSUM_MAX_OPS];
  memcpy(off, base, sizeof(int64_t) * (size_t)p->nops);
  double acc = 0.0;
  for (;;) {
    /* the last summed label runs innermost */
    const int64_t n = last >= first ? p->size[last] : 1;
    for (int64_t j = 0; j < n; j++) {
      double prod = 1.0;
      for (int k = 0; k < p->nops; k++)
        prod *= load(ops[k], off[k] + (last >= first ? j * p->stride[k][last] : 0), f64);
      acc += prod;
    }
    int l = last - 1;
    for (; l >= first; l--) {
      idx[l]++;
      for (int k = 0; k < p->nops; k++) off[k] += p->stride[k][l];
      if (idx[l] < p->size[l]) break;
      for (int k = 0; k < p->nops; k++) off[k] -= p->stride[k][l] * p->size[l];
      idx[l] = 0;
    }
    if (l < first) return acc;
  }
}

static void einsum(const RtEinsum *p, const void *const *ops, void *out, int f64) {
  const size_t esize = f64 ? sizeof(double) : sizeof(float);
  if (p->zero_out) memset(out, 0, (size_t)p->out_numel * esize);
  for (int l = 0; l < p->nout; l++)
    if (p->size[l] == 0) return;
  int64_t idx[RT_EINSUM_MAX_LABELS] = {0}, off[RT_EINSUM_MAX_OPS] = {0}, o = 0;
  for (;;) {
    const double v = contract(p, ops, off, f64);
    if (f64) ((double *)out)[o] = v;
    else ((float *)out)[o] = (float)v;
    int l = p->nout - 1;
    for (; l >= 0; l--) {
      idx[l]++;
      o += p->out_stride[l];
      for (int k = 0; k < p->nops; k++) off[k] += p->stride[k][l];
      if (idx[l] < p->size[l]) break;
      o -= p->out_stride[l] * p->size[l];
      for (int k = 0; k < p->nops; k++) off[k] -= p->stride[k][l] * p->size[l];
      idx[l] = 0;
    }
    if (l < 0) return;
  }
}

void rt_einsum_f32(const RtEinsum *p, const float *const *ops, float *out) {
  const void *v[RT_EINSUM_MAX_OPS] = {0};
  for (int k = 0; k < p->nops; k++) v[k] = ops[k];
  einsum(p, v, out, 0);
}

void rt_einsum_f64(const RtEinsum *p, const double *const *ops, double *out) {
  const void *v[RT_EINSUM_MAX_OPS] = {0};
  for (int k = 0; k < p->nops; k++) v[k] = ops[k];
  einsum(p, v, out, 1);
}
