/* erfinv, digamma and the modified Bessel functions (see rt_special.h). */
#include "rt_special.h"

#include <math.h>

float rt_erfinvf(float y) {
  double x = y;
  if (isnan(x)) return NAN;
  if (x >= 1.0) return INFINITY; /* Eigen's ndtri saturates outside (0, 1) */
  if (x <= -1.0) return -INFINITY;
  /* M. Giles' single-precision approximation ("Approximating the erfinv
   * function", GPU Computing Gems, 2011) as the starting point ... */
  double w = -log((1.0 - x) * (1.0 + x)), p;
  if (w < 5.0) {
    w -= 2.5;
    p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w;
    p = -3.5233877e-06 + p * w;
    p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;
    p = 1.50140941 + p * w;
  } else {
    w = sqrt(w) - 3.0;
    p = -0.000200214257;
    p = 0.000100950558 + p * w;
    p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w;
    p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w;
    p = 2.83297682 + p * w;
  }
  double r = p * x;
  /* ... then Newton steps on erf(r) = x in double: each squares the
   * relative error, so two leave the float result exact. */
  const double two_over_sqrt_pi = 1.1283791670955126;
  for (int i = 0; i < 2; i++) {
    double slope = two_over_sqrt_pi * exp(-r * r);
    if (slope == 0.0) break;
    r -= (erf(r) - x) / slope;
  }
  return (float)r;
}

/* psi(s) for s >= 10: ln(s) - 1/(2s) - sum_k B_2k / (2k s^2k), the
 * asymptotic series with the coefficients of Cephes' psi (which Eigen's
 * digamma implements). */
static double digamma_large(double s) {
  static const double a[] = {8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
                             -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
                             8.33333333333333333333E-2};
  double z = 1.0 / (s * s), y = 0.0;
  if (s < 1e17) {
    for (int i = 0; i < 7; i++) y = y * z + a[i];
    y *= z;
  }
  return log(s) - 0.5 / s - y;
}

float rt_digammaf(float xf) {
  const double pi = 3.14159265358979323846;
  double x = xf, reflect = 0.0;
  int negative = 0;
  if (x <= 0.0) { /* psi(x) = psi(1 - x) - pi / tan(pi x), NaN at the poles */
    double p = floor(x);
    if (p == x) return NAN;
    double frac = x - p;
    negative = 1;
    if (frac != 0.5) {
      if (frac > 0.5) frac = x - (p + 1.0);
      reflect = pi / tan(pi * frac);
    }
    x = 1.0 - x;
  }
  double w = 0.0; /* psi(x + 1) = psi(x) + 1 / x up to x >= 10 */
  while (x < 10.0) {
    w += 1.0 / x;
    x += 1.0;
  }
  double y = digamma_large(x) - w;
  return (float)(negative ? y - reflect : y);
}

/* I_nu(ax) for nu 0 or 1 and ax >= 0 finite, times exp(-ax) when `scaled`:
 * the power series sum (ax/2)^(2k+nu) / (k! (k+nu)!) up to 30 (positive
 * terms, no cancellation), Hankel's asymptotic expansion
 * e^ax / sqrt(2 pi ax) * sum_k t_k with t_k = -t_(k-1) (4 nu^2 - (2k-1)^2)
 * / (8 k ax) beyond. */
static double bessel_i(int nu, double ax, int scaled) {
  const double pi = 3.14159265358979323846;
  if (ax <= 30.0) {
    double h = 0.5 * ax, term = nu ? h : 1.0, sum = term;
    for (int k = 1; term > sum * 1e-17; k++) {
      term *= h * h / ((double)k * (k + nu));
      sum += term;
    }
    return scaled ? sum * exp(-ax) : sum;
  }
  double t = 1.0, s = 1.0, mu = 4.0 * nu * nu;
  for (int k = 1; k < 60 && fabs(t) > 1e-17 * fabs(s); k++) {
    t *= -(mu - (2.0 * k - 1) * (2.0 * k - 1)) / (8.0 * k * ax);
    s += t;
  }
  s /= sqrt(2.0 * pi * ax);
  return scaled ? s : s * exp(ax);
}

/* I_nu(x) with its symmetry (I0 even, I1 odd) and Paddle's infinities. */
static float bessel_if(int nu, float xf, int scaled) {
  double x = xf, ax = fabs(x);
  if (isnan(x)) return NAN;
  if (isinf(x)) return scaled ? (nu && x < 0 ? -0.0f : 0.0f) : NAN;
  if (!scaled && isinf(expf((float)ax))) /* Paddle's float exp(|x|) factor overflows */
    return nu && x < 0 ? -INFINITY : INFINITY;
  double r = bessel_i(nu, ax, scaled);
  return (float)(nu && x < 0 ? -r : r);
}

float rt_i0f(float x) { return bessel_if(0, x, 0); }
float rt_i0ef(float x) { return bessel_if(0, x, 1); }
float rt_i1f(float x) { return bessel_if(1, x, 0); }
float rt_i1ef(float x) { return bessel_if(1, x, 1); }
