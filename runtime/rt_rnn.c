/* Paddle's fused rnn op in float (rt_rnn.h); the body, shared with
 * rt_rnn_f64.c, is rt_rnn_impl.h. */
#include <math.h>
#include <string.h>

#include "rt_kernels.h"

/* after the headers: T names a type only in the body */
#define T float
#define EXP expf
#define TANH tanhf
#define GEMM rt_sgemm_ws
#define RNN_FORWARD_NAME rt_rnn
#define RNN_GRAD_NAME rt_rnn_grad
#include "rt_rnn_impl.h"
