/* grid_sampler (see rt_grid_sample.h), float32 and float64: one body
 * (rt_grid_sample_body.h) for each type, as Paddle's CPU kernels are one
 * template (phi grid_sample_kernel.cc, grid_sample_grad_kernel.cc) that
 * computes in the tensors' type throughout. */
#include <math.h>

#include "rt_kernels.h"

#define GT float
#define GF(name) name
#define GFLOOR floorf
#define GROUND roundf
#define GFABS fabsf
#include "rt_grid_sample_body.h"

#define GT double
#define GF(name) name##_f64
#define GFLOOR floor
#define GROUND round
#define GFABS fabs
#include "rt_grid_sample_body.h"
