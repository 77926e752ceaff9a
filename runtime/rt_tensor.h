/* Data-movement kernels: transpose, gather, slicing, concatenation. */
#ifndef PADDLEC_RT_TENSOR_H
#define PADDLEC_RT_TENSOR_H

#include <stdint.h>

#endif
