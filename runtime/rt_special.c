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

/* Eigen's digamma (Cephes' psi) in double, step for step. */
double rt_digamma(double x) {
  const double pi = 3.14159265358979323846;
  double reflect = 0.0;
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
  return negative ? y - reflect : y;
}

float rt_digammaf(float x) { return (float)rt_digamma(x); }

/* c[0] x^n + c[1] x^(n-1) + ... + c[n] by Horner's rule (Eigen's ppolevl). */
static double polevl(double x, const double *c, int n) {
  double y = c[0];
  for (int i = 1; i <= n; i++) y = y * x + c[i];
  return y;
}

/* Eigen's ndtri (Cephes'), the normal quantile: for b > exp(-2) away
 * from both tails w + w^3 R(w^2) / S(w^2) with w = b - 1/2, else from
 * z = sqrt(-2 ln b) on the nearer tail, flipped to the lower one. */
static double ndtri(double a) {
  static const double p0[5] = {-5.99633501014107895267e1, 9.80010754185999661536e1, -5.66762857469070293439e1,
                               1.39312609387279679503e1, -1.23916583867381258016e0};
  static const double q0[9] = {1.0,
                               1.95448858338141759834e0,
                               4.67627912898881538453e0,
                               8.63602421390890590575e1,
                               -2.25462687854119370527e2,
                               2.00260212380060660359e2,
                               -8.20372256168333339912e1,
                               1.59056225126211695515e1,
                               -1.18331621121330003142e0};
  static const double p1[9] = {4.05544892305962419923e0,   3.15251094599893866154e1,  5.71628192246421288162e1,
                               4.40805073893200834700e1,   1.46849561928858024014e1,  2.18663306850790267539e0,
                               -1.40256079171354495875e-1, -3.50424626827848203418e-2, -8.57456785154685413611e-4};
  static const double q1[9] = {1.0,
                               1.57799883256466749731e1,
                               4.53907635128879210584e1,
                               4.13172038254672030440e1,
                               1.50425385692907503408e1,
                               2.50464946208309415979e0,
                               -1.42182922854787788574e-1,
                               -3.80806407691578277194e-2,
                               -9.33259480895457427372e-4};
  static const double p2[9] = {3.23774891776946035970e0,  6.91522889068984211695e0,  3.93881025292474443415e0,
                               1.33303460815807542389e0,  2.01485389549179081538e-1, 1.23716634817820021358e-2,
                               3.01581553508235416007e-4, 2.65806974686737550832e-6, 6.23974539184983293730e-9};
  static const double q2[9] = {1.0,
                               6.02427039364742014255e0,
                               3.67983563856160859403e0,
                               1.37702099489081330271e0,
                               2.16236993594496635890e-1,
                               1.34204006088543189037e-2,
                               3.28014464682127739104e-4,
                               2.89247864745380683936e-6,
                               6.79019408009981274425e-9};
  const double exp_neg_two = 0.13533528323661269189;
  if (a <= 0.0) return -INFINITY; /* saturates outside (0, 1) */
  if (a >= 1.0) return INFINITY;
  const int lower = a <= 1.0 - exp_neg_two;
  const double b = lower ? a : 1.0 - a;
  if (exp_neg_two < b) {
    const double c = b - 0.5, c2 = c * c;
    return (c * (c2 * (polevl(c2, p0, 4) / polevl(c2, q0, 8))) + c) * 2.50662827463100050242e0;
  }
  const double x = sqrt(-2.0 * log(b)), x0 = x - log(x) / x, z = 1.0 / x;
  const double x1 = z * (x < 8.0 ? polevl(z, p1, 8) / polevl(z, q1, 8) : polevl(z, p2, 8) / polevl(z, q2, 8));
  return lower ? -(x0 - x1) : x0 - x1;
}

double rt_erfinv(double y) { return ndtri(y * 0.5 + 0.5) * 0.70710678118654752440; }

/* Chebyshev coefficients (Cephes', as phi's bessel_kernel_impl.h holds them
 * for double) of exp(-x) I0(x) on [0, 8] in y = x / 2 - 2 (I0A) and of
 * exp(-x) sqrt(x) I0(x) on [8, inf) in y = 32 / x - 2 (I0B); I1A and I1B
 * the same for I1, I1A's series being exp(-x) I1(x) / x. */
static const double I0A[30] = {
    -4.41534164647933937950E-18, 3.33079451882223809783E-17,  -2.43127984654795469359E-16,
    1.71539128555513303061E-15,  -1.16853328779934516808E-14, 7.67618549860493561688E-14,
    -4.85644678311192946090E-13, 2.95505266312963983461E-12,  -1.72682629144155570723E-11,
    9.67580903537323691224E-11,  -5.18979560163526290666E-10, 2.65982372468238665035E-9,
    -1.30002500998624804212E-8,  6.04699502254191894932E-8,   -2.67079385394061173391E-7,
    1.11738753912010371815E-6,   -4.41673835845875056359E-6,  1.64484480707288970893E-5,
    -5.75419501008210370398E-5,  1.88502885095841655729E-4,   -5.76375574538582365885E-4,
    1.63947561694133579842E-3,   -4.32430999505057594430E-3,  1.05464603945949983183E-2,
    -2.37374148058994688156E-2,  4.93052842396707084878E-2,   -9.49010970480476444210E-2,
    1.71620901522208775349E-1,   -3.04682672343198398683E-1,  6.76795274409476084995E-1};
static const double I0B[25] = {
    -7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
    3.46122286769746109310E-17,  -2.82762398051658348494E-16, -3.42548561967721913462E-16,
    1.77256013305652638360E-15,  3.81168066935262242075E-15,  -9.55484669882830764870E-15,
    -4.15056934728722208663E-14, 1.54008621752140982691E-14,  3.85277838274214270114E-13,
    7.18012445138366623367E-13,  -1.79417853150680611778E-12, -1.32158118404477131188E-11,
    -3.14991652796324136454E-11, 1.18891471078464383424E-11,  4.94060238822496958910E-10,
    3.39623202570838634515E-9,   2.26666899049817806459E-8,   2.04891858946906374183E-7,
    2.89137052083475648297E-6,   6.88975834691682398426E-5,   3.36911647825569408990E-3,
    8.04490411014108831608E-1};
static const double I1A[29] = {
    2.77791411276104639959E-18, -2.11142121435816608115E-17, 1.55363195773620046921E-16,
    -1.10559694773538630805E-15, 7.60068429473540693410E-15, -5.04218550472791168711E-14,
    3.22379336594557470981E-13, -1.98397439776494371520E-12, 1.17361862988909016308E-11,
    -6.66348972350202774223E-11, 3.62559028155211703701E-10, -1.88724975172282928790E-9,
    9.38153738649577178388E-9,  -4.44505912879632808065E-8,  2.00329475355213526229E-7,
    -8.56872026469545474066E-7, 3.47025130813767847674E-6,   -1.32731636560394358279E-5,
    4.78156510755005422638E-5,  -1.61760815825896745588E-4,  5.12285956168575772895E-4,
    -1.51357245063125314899E-3, 4.15642294431288815669E-3,   -1.05640848946261981558E-2,
    2.47264490306265168283E-2,  -5.29459812080949914269E-2,  1.02643658689847095384E-1,
    -1.76416518357834055153E-1, 2.52587186443633654823E-1};
static const double I1B[25] = {
    7.51729631084210481353E-18,  4.41434832307170791151E-18,  -4.65030536848935832153E-17,
    -3.20952592199342395980E-17, 2.96262899764595013876E-16,  3.30820231092092828324E-16,
    -1.88035477551078244854E-15, -3.81440307243700780478E-15, 1.04202769841288027642E-14,
    4.27244001671195135429E-14,  -2.10154184277266431302E-14, -4.08355111109219731823E-13,
    -7.19855177624590851209E-13, 2.03562854414708950722E-12,  1.41258074366137813316E-11,
    3.25260358301548823856E-11,  -1.89749581235054123450E-11, -5.58974346219658380687E-10,
    -3.83538038596423702205E-9,  -2.63146884688951950684E-8,  -2.51223623787020892529E-7,
    -3.88256480887769039346E-6,  -1.10588938762623716291E-4,  -9.76109749136146840777E-3,
    7.78576235018280120474E-1};

/* Clenshaw's recurrence for sum' a[i] T_i(y / 2) (Cephes' chbevl), in
 * phi's Chbevl order of operations. */
static double chbevl(double y, const double *a, int n) {
  double b0 = a[0], b1 = 0.0, b2 = 0.0;
  for (int i = 1; i < n; i++) {
    b2 = b1;
    b1 = b0;
    b0 = y * b1 - b2 + a[i];
  }
  return 0.5 * (b0 - b2);
}

/* phi's I0Functor, I0eFunctor, I1Functor and I1eFunctor for double, operand
 * for operand: exp(|x|) overflows past 709.78 (an infinite I0, I1), and an
 * infinite x gives inf / inf = NaN unscaled, 0 (x's sign for i1e) scaled. */
double rt_i0e(double v) {
  const double x = fabs(v);
  return x <= 8.0 ? chbevl(x / 2.0 - 2.0, I0A, 30) : chbevl(32.0 / x - 2.0, I0B, 25) / sqrt(x);
}

double rt_i0(double v) {
  const double x = fabs(v);
  return x <= 8.0 ? exp(x) * chbevl(x / 2.0 - 2.0, I0A, 30) : exp(x) * chbevl(32.0 / x - 2.0, I0B, 25) / sqrt(x);
}

double rt_i1e(double v) {
  const double x = fabs(v);
  const double r = x <= 8.0 ? chbevl(x / 2.0 - 2.0, I1A, 29) * x : chbevl(32.0 / x - 2.0, I1B, 25) / sqrt(x);
  return v < 0.0 ? -r : r;
}

double rt_i1(double v) {
  const double x = fabs(v);
  const double r = x <= 8.0 ? exp(x) * x * chbevl(x / 2.0 - 2.0, I1A, 29)
                            : exp(x) * chbevl(32.0 / x - 2.0, I1B, 25) / sqrt(x);
  return v < 0.0 ? -r : r;
}

/* The float functions round the double ones once; unscaled, infinite where
 * Paddle's float exp(|x|) factor overflows (|x| > 88.72). */
static float unscaled_f(double (*fn)(double), int odd, float x) {
  if (isfinite(x) && isinf(expf(fabsf(x)))) return odd && x < 0 ? -INFINITY : INFINITY;
  return (float)fn(x);
}

float rt_i0f(float x) { return unscaled_f(rt_i0, 0, x); }
float rt_i0ef(float x) { return (float)rt_i0e(x); }
float rt_i1f(float x) { return unscaled_f(rt_i1, 1, x); }
float rt_i1ef(float x) { return (float)rt_i1e(x); }
