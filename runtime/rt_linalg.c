/* Square matrices through their LU factorization (rt_linalg.h). */
#include "rt_linalg.h"

#include <math.h>
#include <string.h>

#define T float
#define SQRT sqrtf
#define F_CHOLESKY rt_cholesky_f32
#define F_MATMUL matmul_f32
#define F_MATPOW rt_matrix_power_f32
#define F_LU lu_f32
#define F_DET rt_det_f32
#define F_INVERSE rt_inverse_f32
#define F_INVERSE_GRAD rt_inverse_grad_f32
#define lu_det lu_det_f32
#include "rt_linalg_body.h"
#undef T
#undef F_LU
#undef F_DET
#undef F_INVERSE
#undef F_INVERSE_GRAD
#undef lu_det
#undef SQRT
#undef F_CHOLESKY
#undef F_MATMUL
#undef F_MATPOW

#define T double
#define SQRT sqrt
#define F_CHOLESKY rt_cholesky_f64
#define F_MATMUL matmul_f64
#define F_MATPOW rt_matrix_power_f64
#define F_LU lu_f64
#define F_DET rt_det_f64
#define F_INVERSE rt_inverse_f64
#define F_INVERSE_GRAD rt_inverse_grad_f64
#define lu_det lu_det_f64
#include "rt_linalg_body.h"
