/* Softmax and log-softmax over the middle dim of a [outer, n, inner] view,
 * numerically stable (the max is subtracted first), as Paddle computes them. */
#include <math.h>

#include "rt_kernels.h"
#include "rt_parallel.h"

typedef struct SoftmaxJob {
  const float *x;          /* input */
  float *out;              /* output */
  int64_t n, inner;        /* the softmax dim and what follows it */
  int log_out;             /* log_softmax */
} SoftmaxJob;

/* Rows [lo, hi) of the outer dim. */
static void softmax_rows(void *ctx, int64_t lo, int64_t hi) {
  const SoftmaxJob *j = ctx;
  const int64_t n = j->n, inner = j->inner;
  for (int64_t o = lo; o < hi; o++)
    for (int64_t i = 0; i < inner; i++) {
      const float *xp = j->x + o * n * inner + i;
      float *op = j->out + o * n * inner + i;
      float mx = xp[0];
      for (int64_t k = 1; k < n; k++) mx = xp[k * inner] > mx ? xp[k * inner] : mx;
      float sum = 0.0f;
      for (int64_t k = 0; k < n; k++) {
        float v = expf(xp[k * inner] - mx);
        sum += v;
        if (!j->log_out) op[k * inner] = v;
      }
      if (j->log_out) {
        float ls = logf(sum);
        for (int64_t k = 0; k < n; k++) op[k * inner] = xp[k * inner] - mx - ls;
      } else {
        float inv = 1.0f / sum;
        for (int64_t k = 0; k < n; k++) op[k * inner] *= inv;
      }
    }
}

static void softmax_impl(const float *x, float *out, int64_t outer, int64_t n, int64_t inner, int log_out) {
  SoftmaxJob j = {x, out, n, inner, log_out};
  rt_parallel_range(outer, outer * n * inner * 4, softmax_rows, &j);
}

void rt_softmax(const float *x, float *out, int64_t outer, int64_t n, int64_t inner) {
  softmax_impl(x, out, outer, n, inner, 0);
}

void rt_log_softmax(const float *x, float *out, int64_t outer, int64_t n, int64_t inner) {
  softmax_impl(x, out, outer, n, inner, 1);
}
