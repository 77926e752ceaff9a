/* Convolution, pooling, normalization and resampling kernels (NCHW, fp32). */
#ifndef PADDLEC_RT_CNN_H
#define PADDLEC_RT_CNN_H

#include <stdint.h>

#endif
