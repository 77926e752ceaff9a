/* polygamma (compiler/ops/polygamma.c): the n-th derivative of digamma,
 *   psi_n(x) = (-1)^(n+1) * n! * zeta(n + 1, x)   (n >= 1),
 * with the Hurwitz zeta function as Paddle 2.6 computes it (phi
 * polygamma_kernel_impl.h, after Cephes zeta.c: the Euler-Maclaurin sum
 * with 12 Bernoulli terms), in float for float32 and double for float64,
 * n! as exp(lgamma(n + 1)). */
#ifndef PADDLEC_RT_POLYGAMMA_H
#define PADDLEC_RT_POLYGAMMA_H

/* Hurwitz zeta(x, q) = sum_{k >= 0} (k + q)^-x: +inf for x == 1 or a
 * non-positive integer q, NaN for x < 1 or (q <= 0 and x not an
 * integer). */
float rt_zeta_f32(float x, float q);
double rt_zeta_f64(double x, double q);

float rt_polygamma_f32(int n, float x);
double rt_polygamma_f64(int n, double x);

#endif
