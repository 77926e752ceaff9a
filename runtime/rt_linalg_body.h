/* The body of rt_linalg.c for one element type: T, SQRT, and the names
 * F_LU, F_DET, F_INVERSE, F_INVERSE_GRAD, F_CHOLESKY, F_MATMUL, F_MATPOW, defined by the
 * includer. */

/* In-place LU of the row-major n x n matrix lu with partial pivoting (Eigen's
 * unblocked_lu): piv[k] the row swapped with row k; returns the
 * permutation's sign. */
static int F_LU(T *lu, int64_t n, int64_t *piv) {
  int sign = 1;
  for (int64_t k = 0; k < n; k++) {
    int64_t p = k;
    T big = lu[k * n + k] < 0 ? -lu[k * n + k] : lu[k * n + k];
    for (int64_t i = k + 1; i < n; i++) {
      const T v = lu[i * n + k] < 0 ? -lu[i * n + k] : lu[i * n + k];
      if (v > big) big = v, p = i;
    }
    piv[k] = p;
    if (big != 0) {
      if (p != k) {
        sign = -sign;
        for (int64_t j = 0; j < n; j++) {
          const T t = lu[k * n + j];
          lu[k * n + j] = lu[p * n + j];
          lu[p * n + j] = t;
        }
      }
      for (int64_t i = k + 1; i < n; i++) lu[i * n + k] /= lu[k * n + k];
    }
    for (int64_t i = k + 1; i < n; i++)
      for (int64_t j = k + 1; j < n; j++) lu[i * n + j] -= lu[i * n + k] * lu[k * n + j];
  }
  return sign;
}

/* The determinant of the factorized matrix: the sign times the pivots'
 * product, in order. */
static T lu_det(const T *lu, int64_t n, int sign) {
  T d = (T)sign;
  T prod = 1;
  for (int64_t k = 0; k < n; k++) prod *= lu[k * n + k];
  return d * prod;
}

void F_DET(const T *a, int64_t batch, int64_t n, T *det, void *work) {
  T *lu = work;
  int64_t *piv = (int64_t *)((unsigned char *)work + (size_t)(n * n) * 8);
  for (int64_t b = 0; b < batch; b++) {
    memcpy(lu, a + b * n * n, (size_t)(n * n) * sizeof(T));
    const int sign = F_LU(lu, n, piv);
    det[b] = n ? lu_det(lu, n, sign) : (T)1;
  }
}

int F_INVERSE(const T *a, int64_t batch, int64_t n, T *inv, void *work) {
  T *lu = work;
  int64_t *piv = (int64_t *)((unsigned char *)work + (size_t)(n * n) * 8);
  for (int64_t b = 0; b < batch; b++) {
    T *x = inv + b * n * n;
    memcpy(lu, a + b * n * n, (size_t)(n * n) * sizeof(T));
    const int sign = F_LU(lu, n, piv);
    if (lu_det(lu, n, sign) == 0) return 1;
    /* X = P I, its rows swapped as the factorization swapped them */
    for (int64_t i = 0; i < n * n; i++) x[i] = 0;
    for (int64_t i = 0; i < n; i++) x[i * n + i] = 1;
    for (int64_t k = 0; k < n; k++)
      if (piv[k] != k)
        for (int64_t j = 0; j < n; j++) {
          const T t = x[k * n + j];
          x[k * n + j] = x[piv[k] * n + j];
          x[piv[k] * n + j] = t;
        }
    /* L Y = X (unit lower), then U X = Y, every column at once */
    for (int64_t i = 1; i < n; i++)
      for (int64_t k = 0; k < i; k++)
        for (int64_t j = 0; j < n; j++) x[i * n + j] -= lu[i * n + k] * x[k * n + j];
    for (int64_t i = n - 1; i >= 0; i--) {
      for (int64_t k = i + 1; k < n; k++)
        for (int64_t j = 0; j < n; j++) x[i * n + j] -= lu[i * n + k] * x[k * n + j];
      for (int64_t j = 0; j < n; j++) x[i * n + j] /= lu[i * n + i];
    }
  }
  return 0;
}

/* Eigen's llt_inplace::unblocked on the lower triangle: column k's
 * diagonal from the row's squares, the entries below it updated by the
 * earlier columns in order, then divided. */
int F_CHOLESKY(const T *a, int64_t batch, int64_t n, int upper, T *out) {
  for (int64_t b = 0; b < batch; b++) {
    const T *m = a + b * n * n;
    T *l = out + b * n * n;
    for (int64_t i = 0; i < n; i++) /* the lower triangle read (the upper one, transposed, for upper) */
      for (int64_t j = 0; j < n; j++) l[i * n + j] = j > i ? 0 : upper ? m[j * n + i] : m[i * n + j];
    for (int64_t k = 0; k < n; k++) {
      T x = l[k * n + k];
      if (k > 0) {
        T sq = 0;
        for (int64_t j = 0; j < k; j++) sq += l[k * n + j] * l[k * n + j];
        x -= sq;
      }
      if (x <= 0) return 1; /* Eigen: not positive definite (a NaN goes on) */
      x = SQRT(x);
      l[k * n + k] = x;
      for (int64_t i = k + 1; i < n; i++) {
        for (int64_t j = 0; j < k; j++) l[i * n + k] -= l[k * n + j] * l[i * n + j];
        l[i * n + k] /= x;
      }
    }
    if (upper)
      for (int64_t i = 0; i < n; i++)
        for (int64_t j = i + 1; j < n; j++) {
          l[i * n + j] = l[j * n + i];
          l[j * n + i] = 0;
        }
  }
  return 0;
}

/* c = a b, n x n, each entry's products summed in order. */
static void F_MATMUL(const T *a, const T *b, T *c, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) {
      T acc = 0;
      for (int64_t k = 0; k < n; k++) acc += a[i * n + k] * b[k * n + j];
      c[i * n + j] = acc;
    }
}

void F_INVERSE_GRAD(const T *out, const T *dout, int64_t batch, int64_t n, T *tmp, T *dx) {
  for (int64_t b = 0; b < batch; b++) {
    const T *o = out + b * n * n, *g = dout + b * n * n;
    T *m = tmp + b * n * n, *d = dx + b * n * n;
    for (int64_t i = 0; i < n; i++) /* m = dOut Out^T */
      for (int64_t j = 0; j < n; j++) {
        T acc = 0;
        for (int64_t k = 0; k < n; k++) acc += g[i * n + k] * o[j * n + k];
        m[i * n + j] = acc;
      }
    for (int64_t i = 0; i < n; i++) /* dX = -Out^T m */
      for (int64_t j = 0; j < n; j++) {
        T acc = 0;
        for (int64_t k = 0; k < n; k++) acc += o[k * n + i] * m[k * n + j];
        d[i * n + j] = -acc;
      }
  }
}

int F_MATPOW(const T *a, int64_t batch, int64_t n, int k, T *out, void *work) {
  const size_t nn = (size_t)(n * n);
  T *x = work, *z = x + nn, *tmp = z + nn;
  void *lu_work = (unsigned char *)work + 3 * nn * 8;
  for (int64_t b = 0; b < batch; b++) {
    T *o = out + (size_t)b * nn;
    if (k == 0) {
      for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) o[i * n + j] = i == j ? 1 : 0;
      continue;
    }
    int p = k;
    if (k > 0) {
      memcpy(x, a + (size_t)b * nn, nn * sizeof(T));
    } else {
      if (F_INVERSE(a + (size_t)b * nn, 1, n, x, lu_work)) return 1;
      p = -k;
    }
    if (p == 1) {
      memcpy(o, x, nn * sizeof(T));
    } else if (p == 2) {
      F_MATMUL(x, x, o, n);
    } else if (p == 3 || p == 4) {
      F_MATMUL(x, x, tmp, n);
      F_MATMUL(tmp, p == 3 ? x : tmp, o, n);
    } else {
      int have_z = 0, have_out = 0;
      while (p > 0) {
        const int bit = p & 1;
        p >>= 1;
        if (have_z) {
          F_MATMUL(z, z, tmp, n);
          memcpy(z, tmp, nn * sizeof(T));
        } else {
          memcpy(z, x, nn * sizeof(T));
          have_z = 1;
        }
        if (bit) {
          if (have_out) {
            F_MATMUL(o, z, tmp, n);
            memcpy(o, tmp, nn * sizeof(T));
          } else {
            memcpy(o, z, nn * sizeof(T));
            have_out = 1;
          }
        }
      }
    }
  }
  return 0;
}
