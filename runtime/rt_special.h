/* Special functions that C's <math.h> lacks, for the unary ops erfinv and
 * digamma (compiler/ops/activation.c) and i0, i0e, i1, i1e
 * (compiler/ops/bessel.c).  The float ones are computed in double and
 * rounded to float once, so they are as close to the true value as a float
 * gets; Paddle's Eigen kernels are within a few ulp of it.  The double ones
 * follow Paddle's double kernels step for step. */
#ifndef PADDLEC_RT_SPECIAL_H
#define PADDLEC_RT_SPECIAL_H

/* The inverse error function: erf(rt_erfinvf(y)) = y for y in (-1, 1);
 * +infinity for y >= 1 and -infinity for y <= -1, as Paddle's erfinv (the
 * normal quantile ndtri((y + 1) / 2) / sqrt(2), which saturates). */
float rt_erfinvf(float y);

/* erfinv for float64 as Paddle's double kernel (erfinv_kernel_impl.h):
 * ndtri(y / 2 + 1 / 2) / sqrt(2), Eigen's ndtri (Cephes' rational
 * approximations), which saturates as rt_erfinvf's. */
double rt_erfinv(double y);

/* The digamma function psi(x) = d/dx ln(Gamma(x)); NaN at 0 and the negative
 * integers (the poles) and at -infinity, as Eigen's digamma that Paddle
 * uses. */
float rt_digammaf(float x);
double rt_digamma(double x);

/* Modified Bessel functions of the first kind of orders 0 and 1, plain
 * (i0, i1) and exponentially scaled by exp(-|x|) (i0e, i1e), as Paddle's
 * double kernels compute them (Cephes' Chebyshev series, bessel_kernel_impl.h):
 * infinite unscaled once exp(|x|) overflows (|x| > 709.78), NaN for an
 * infinite x unscaled, 0 (with x's sign for i1e) scaled.  The float ones
 * are those rounded to float, infinite unscaled once Paddle's float
 * exp(|x|) factor overflows (|x| > 88.72). */
double rt_i0(double x);
double rt_i0e(double x);
double rt_i1(double x);
double rt_i1e(double x);
float rt_i0f(float x);
float rt_i0ef(float x);
float rt_i1f(float x);
float rt_i1ef(float x);

#endif
