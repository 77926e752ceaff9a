/* polygamma and the Hurwitz zeta function (see rt_polygamma.h): Paddle
 * 2.6's zeta<T> step for step, in the element type T, with its constants
 * rounded to T as Paddle's T{...} initializers round them. */
#include <math.h>

#include "rt_polygamma.h"

/* Expansion coefficients: (2k)! / B_2k. */
static const double zeta_a[12] = {
    12.0,
    -720.0,
    30240.0,
    -1209600.0,
    47900160.0,
    -1.8924375803183791606e9, /* 1.307674368e12/691 */
    7.47242496e10,
    -2.950130727918164224e12,  /* 1.067062284288e16/3617 */
    1.1646782814350067249e14,  /* 5.109094217170944e18/43867 */
    -4.5979787224074726105e15, /* 8.028576626982912e20/174611 */
    1.8152105401943546773e17,  /* 1.5511210043330985984e23/854513 */
    -7.1661652561756670113e18  /* 1.6938241367317436694528e27/236364091 */
};

/* ZETA(name, T, SFX): rt_zeta_<name> in type T, SFX the <math.h> suffix. */
#define ZETA(name, T, SFX)                                                     \
  T rt_zeta_##name(T x, T q) {                                                 \
    const T machep = (T)1.11022302462515654042E-16, zero = 0, half = 0.5, one = 1; \
    if (x == one) return (T)INFINITY;                                          \
    if (x < one) return (T)NAN;                                                \
    if (q <= zero) {                                                           \
      if (q == floor##SFX(q)) return (T)INFINITY;                              \
      if (x != floor##SFX(x)) return (T)NAN;                                   \
    }                                                                          \
    T s = pow##SFX(q, -x), a = q, b = zero;                                    \
    int i = 0;                                                                 \
    while (i < 9 || a <= (T)9.0) {                                             \
      i += 1;                                                                  \
      a += one;                                                                \
      b = pow##SFX(a, -x);                                                     \
      s += b;                                                                  \
      if (-machep * s < b && b < machep * s) return s;                         \
    }                                                                          \
    const T w = a;                                                             \
    s += b * w / (x - one);                                                    \
    s -= half * b;                                                             \
    a = one;                                                                   \
    T k = zero;                                                                \
    for (int j = 0; j < 12; j++) {                                             \
      a *= x + k;                                                              \
      b /= w;                                                                  \
      T t = a * b / (T)zeta_a[j];                                              \
      s = s + t;                                                               \
      t = fabs##SFX(t / s);                                                    \
      if (t < machep) return s;                                                \
      k += one;                                                                \
      a *= x + k;                                                              \
      b /= w;                                                                  \
      k += one;                                                                \
    }                                                                          \
    return s;                                                                  \
  }                                                                            \
  T rt_polygamma_##name(int n, T x) {                                          \
    const T one = 1;                                                           \
    return ((n % 2) ? one : -one) * exp##SFX(lgamma##SFX((T)n + one)) * rt_zeta_##name((T)(n + 1), x); \
  }

ZETA(f32, float, f)
ZETA(f64, double, )
