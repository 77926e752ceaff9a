/* Paddle's fused rnn op in double (rt_rnn.h: rt_rnn_f64, rt_rnn_grad_f64),
 * as Paddle's double CPU kernel: the body of rt_rnn.c (rt_rnn_impl.h) with
 * rt_dgemm for the products (serial, no packing room: gemm_ws is unused). */
#include <math.h>
#include <string.h>

#include "rt_kernels.h"

/* after the headers: T names a type only in the body */
#define T double
#define EXP exp
#define TANH tanh
#define GEMM(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, ws) \
  ((void)(ws), rt_dgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc))
#define RNN_FORWARD_NAME rt_rnn_f64
#define RNN_GRAD_NAME rt_rnn_grad_f64
#include "rt_rnn_impl.h"
