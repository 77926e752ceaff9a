/* Unit tests of the convolution kernels' edge cases (runtime/rt_conv.c). */
#include <math.h>

#include "rt_cnn.h"
#include "unit.h"

void test_conv_filter_grad_empty_batch(void);

/* A batch of no images gives a zero filter gradient, as phi's
 * ConvGradKernel (which zeroes dW before adding each image's product)
 * does: the first image's product is what writes dW otherwise. */
void test_conv_filter_grad_empty_batch(void) {
  const RtConv2d p = {.c_in = 4, .h_in = 5, .w_in = 5, .c_out = 6, .h_out = 5, .w_out = 5, .k_h = 3, .k_w = 3,
                      .stride_h = 1, .stride_w = 1, .pad_t = 1, .pad_l = 1, .dil_h = 1, .dil_w = 1, .groups = 2};
  enum { DW = 6 * 2 * 3 * 3 };
  float dw[DW], x[1] = {0}, dy[1] = {0}, ws[1];
  double dw64[DW], x64[1] = {0}, dy64[1] = {0}, ws64[1];
  for (int i = 0; i < DW; i++) dw[i] = NAN, dw64[i] = NAN;
  rt_conv2d_filter_grad(&p, 0, x, dy, dw, ws, NULL);
  rt_conv2d_filter_grad_f64(&p, 0, x64, dy64, dw64, ws64);
  int zeros = 0;
  for (int i = 0; i < DW; i++) zeros += dw[i] == 0.0f && dw64[i] == 0.0;
  CHECK(zeros == DW);
}
