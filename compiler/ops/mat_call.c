/* The C printers of the small matrix kernels (mat_call.h). */
#include "mat_call.h"

#include "../util.h"
#include "gemm_call.h"
#include "move_call.h"
#include "tensor_util.h"

/* The C type of RT_DT_FP32 or RT_DT_FP64. */

/* phi BilinearKernel's order: per k the product X x Weight[k] (sums over
 * i), then the row sums of its product with Y, then the bias. */
static void print_bilinear(Printer *p, const BilinearCall *c) {
  const char *t = em_ctype(c->dtype);
  pr_line(p, "const %s *x = %s, *y = %s, *w = %s;", t, c->x, c->y, c->w);
  if (c->bias) pr_line(p, "const %s *bias = %s;", t, c->bias);
  pr_line(p, "%s *out = %s;", t, c->out);
  pr_line(p, "const int64_t K = %s, M = %s, N = %s;", c->k, c->m, c->n);
  pr_line(p, "for (int64_t r = 0; r < %s; r++) {", c->rows);
  pr_line(p, "for (int64_t k = 0; k < K; k++) {");
  pr_line(p, "%s sum = 0;", t);
  pr_line(p, "for (int64_t j = 0; j < N; j++) {");
  pr_line(p, "%s left = 0;", t);
  pr_line(p, "for (int64_t i = 0; i < M; i++) left += x[r * M + i] * w[(k * M + i) * N + j];");
  pr_line(p, "sum += left * y[r * N + j];");
  pr_line(p, "}");
  pr_line(p, "out[r * K + k] = %s;", c->bias ? "sum + bias[k]" : "sum");
  pr_line(p, "}");
  pr_line(p, "}");
}

/* dx or dy: `name` (at `ptr`) [nb, len] = the sum over k (Paddle's loop)
 * of `sum`, the line that adds dout[b, k] times the other input times
 * Weight[k] into s for element (b, idx). */
static void print_bilinear_dxy(Printer *p, const char *t, const char *name, const char *ptr, const char *len,
                               const char *idx, const char *sum) {
  pr_line(p, "{");
  pr_line(p, "%s *%s = %s;", t, name, ptr);
  pr_line(p, "for (int64_t q = 0; q < nb * %s; q++) %s[q] = 0;", len, name);
  pr_line(p, "for (int64_t k = 0; k < K; k++) {");
  pr_line(p, "for (int64_t b = 0; b < nb; b++) {");
  pr_line(p, "for (int64_t %s = 0; %s < %s; %s++) {", idx, idx, len, idx);
  pr_line(p, "%s s = 0;", t);
  pr_line(p, "%s", sum);
  pr_line(p, "%s[b * %s + %s] += s;", name, len, idx);
  pr_line(p, "}");
  pr_line(p, "}");
  pr_line(p, "}");
  pr_line(p, "}");
}

/* phi BilinearGradKernel, k by k as its loop over k runs. */
static void print_bilinear_grad(Printer *p, const BilinearCall *c) {
  const char *t = em_ctype(c->dtype);
  pr_line(p, "const %s *x = %s, *y = %s, *w = %s, *dout = %s;", t, c->x, c->y, c->w, c->dout);
  pr_line(p, "const int64_t nb = %s, K = %s, M = %s, N = %s;", c->rows, c->k, c->m, c->n);
  if (c->dx)
    print_bilinear_dxy(p, t, "dx", c->dx, "M", "i",
                       "for (int64_t j = 0; j < N; j++) s += dout[b * K + k] * y[b * N + j] * w[(k * M + i) * N + j];");
  if (c->dy)
    print_bilinear_dxy(p, t, "dy", c->dy, "N", "j",
                       "for (int64_t i = 0; i < M; i++) s += dout[b * K + k] * x[b * M + i] * w[(k * M + i) * N + j];");
  if (c->dw) {
    pr_line(p, "{");
    pr_line(p, "%s *dw = %s;", t, c->dw);
    pr_line(p, "for (int64_t k = 0; k < K; k++) {");
    pr_line(p, "for (int64_t i = 0; i < M; i++) {");
    pr_line(p, "for (int64_t j = 0; j < N; j++) {");
    pr_line(p, "%s s = 0;", t);
    pr_line(p, "for (int64_t b = 0; b < nb; b++) s += dout[b * K + k] * x[b * M + i] * y[b * N + j];");
    pr_line(p, "dw[(k * M + i) * N + j] = s;");
    pr_line(p, "}");
    pr_line(p, "}");
    pr_line(p, "}");
    pr_line(p, "}");
  }
  if (c->db) {
    pr_line(p, "{");
    pr_line(p, "%s *db = %s;", t, c->db);
    pr_line(p, "for (int64_t k = 0; k < K; k++) {");
    pr_line(p, "%s s = 0;", t);
    pr_line(p, "for (int64_t b = 0; b < nb; b++) s += dout[b * K + k];");
    pr_line(p, "db[k] = s;");
    pr_line(p, "}");
    pr_line(p, "}");
  }
}

void bilinear_print_c(Printer *p, const BilinearCall *c) {
  if (c->grad) print_bilinear_grad(p, c);
  else print_bilinear(p, c);
}

/* `dst` (a [h, w] scratch matrix) = the matrix view of the tensor at `src`
 * (Weight's layout): a copy for dim 0, [d1, d0 * rest] from [d0, d1, rest]
 * for dim 1. */
static void spectral_to_matrix(Printer *p, const SpectralCall *c, const char *src, const char *dst) {
  if (c->dim == 0) {
    pr_line(p, "memcpy(%s, %s, (size_t)(h * w) * sizeof *%s);", dst, src, dst);
    return;
  }
  const char *dims[3] = {pool_printf("%lld", (long long)c->d1), pool_printf("%lld", (long long)c->d0),
                         pool_printf("%lld", (long long)c->rest)};
  const char *strides[3] = {pool_printf("%lld", (long long)c->rest), pool_printf("%lld", (long long)(c->d1 * c->rest)),
                            "1"};
  move_print_c(p, &(MoveCall){.kind = MOVE_COPY_STRIDED, .src = src, .dst = dst, .esize = pool_printf("sizeof *%s", dst),
                              .rank = 3, .dims = dims, .strides = strides});
}

/* `dst[<Weight's layout>] = <expr>` for every element of the matrix view,
 * `expr` reading element k = i * w + j of matrices (and i, j themselves). */
static void spectral_from_matrix(Printer *p, const SpectralCall *c, const char *dst, const char *expr) {
  if (c->dim == 0) {
    pr_line(p, "for (int64_t i = 0; i < h; i++)");
    pr_line(p, "  for (int64_t j = 0, k = i * w; j < w; j++, k++) %s[k] = %s;", dst, expr);
    return;
  } /* back to [d0, d1, rest]: column j = a * rest + q of row i */
  pr_line(p, "for (int64_t a = 0; a < %lld; a++) {", (long long)c->d0);
  pr_line(p, "for (int64_t i = 0; i < h; i++) {");
  pr_line(p, "for (int64_t q = 0; q < %lld; q++) {", (long long)c->rest);
  pr_line(p, "const int64_t j = a * %lld + q, k = i * w + j;", (long long)c->rest);
  pr_line(p, "%s[(a * h + i) * %lld + q] = %s;", dst, (long long)c->rest, expr);
  for (int k = 0; k < 3; k++) pr_line(p, "}");
}

/* phi's CalcMatrixSigmaAndNormWeight on copies of U and V: wm (the matrix
 * view of Weight), u, v after power_iters steps, wv = W v and sigma = u .
 * (W v), in scratch and locals; h and w are declared. */
static void spectral_sigma(Printer *p, const SpectralCall *c) {
  const char *t = em_ctype(c->dtype), *sq = c->dtype == RT_DT_FP32 ? "sqrtf" : "sqrt";
  pr_line(p, "%s *wm = (%s *)%s;", t, t, c->wm);
  pr_line(p, "%s *u = (%s *)%s;", t, t, c->u);
  pr_line(p, "%s *v = (%s *)%s;", t, t, c->v);
  pr_line(p, "%s *wv = (%s *)%s;", t, t, c->wv);
  pr_line(p, "const int64_t h = %lld, w = %lld;", (long long)c->h, (long long)c->w);
  pr_line(p, "const %s eps = (%s)%s;", t, t, c->eps);
  spectral_to_matrix(p, c, c->weight, "wm");
  pr_line(p, "memcpy(u, %s, (size_t)h * sizeof *u);", c->u_in);
  pr_line(p, "memcpy(v, %s, (size_t)w * sizeof *v);", c->v_in);
  pr_line(p, "for (int64_t it = 0; it < %lld; it++) {", (long long)c->power_iters);
  pr_line(p, "%s norm = 0;", t);
  pr_line(p, "for (int64_t j = 0; j < w; j++) {");
  pr_line(p, "%s s = 0;", t);
  pr_line(p, "for (int64_t i = 0; i < h; i++) s += wm[i * w + j] * u[i];");
  pr_line(p, "v[j] = s;");
  pr_line(p, "norm += s * s;");
  pr_line(p, "}");
  pr_line(p, "norm = %s(norm);", sq);
  pr_line(p, "for (int64_t j = 0; j < w; j++) v[j] = v[j] / (norm + eps);");
  pr_line(p, "norm = 0;");
  pr_line(p, "for (int64_t i = 0; i < h; i++) {");
  pr_line(p, "%s s = 0;", t);
  pr_line(p, "for (int64_t j = 0; j < w; j++) s += wm[i * w + j] * v[j];");
  pr_line(p, "u[i] = s;");
  pr_line(p, "norm += s * s;");
  pr_line(p, "}");
  pr_line(p, "norm = %s(norm);", sq);
  pr_line(p, "for (int64_t i = 0; i < h; i++) u[i] = u[i] / (norm + eps);");
  pr_line(p, "}");
  pr_line(p, "%s sigma = 0;", t);
  pr_line(p, "for (int64_t i = 0; i < h; i++) {");
  pr_line(p, "wv[i] = 0;");
  pr_line(p, "for (int64_t j = 0; j < w; j++) wv[i] += wm[i * w + j] * v[j];");
  pr_line(p, "sigma += u[i] * wv[i];");
  pr_line(p, "}");
}

/* Out = W / sigma; the grad (phi SpectralNormGradKernel, 2.6): S = the sum
 * of W / sigma, dW = dOut * (1 - u[i] * v[j] * S) / sigma. */
void spectral_print_c(Printer *p, const SpectralCall *c) {
  const char *t = em_ctype(c->dtype);
  spectral_sigma(p, c);
  if (!c->grad) {
    pr_line(p, "%s *out = %s;", t, c->out);
    spectral_from_matrix(p, c, "out", "wm[k] / sigma");
    return;
  }
  pr_line(p, "%s *gm = (%s *)%s;", t, t, c->gm);
  spectral_to_matrix(p, c, c->dout, "gm");
  pr_line(p, "%s sum = 0;", t);
  pr_line(p, "for (int64_t k = 0; k < h * w; k++) sum += wm[k] / sigma;");
  pr_line(p, "%s *dw = %s;", t, c->dw);
  spectral_from_matrix(p, c, "dw", pool_printf("gm[k] * ((%s)1 - u[i] * v[j] * sum) / sigma", t));
}

/* Out = Input broadcast, then Out = alpha * X Y + beta * Out: one product
 * (float32) or a loop summed in double. */
static void print_addmm(Printer *p, const AddmmCall *c) {
  const char *t = em_ctype(c->dtype);
  pr_line(p, "const int64_t M = %s, N = %s, K = %s;", c->m, c->n, c->k);
  pr_line(p, "const %s *in = %s;", t, c->in);
  pr_line(p, "%s *out = %s;", t, c->out);
  pr_line(p, "/* Input [%s, %s] broadcast to [M, N] */", c->in_rows, c->in_cols);
  pr_line(p, "for (int64_t i = 0; i < M; i++)");
  pr_line(p, "  for (int64_t j = 0; j < N; j++) out[i * N + j] = in[%s];",
          tu_add(c->one_row ? "0" : tu_mul("i", c->in_cols), c->one_col ? "0" : "j"));
  if (c->dtype == RT_DT_FP32) {
    pr_line(p, "/* out = Alpha * x @ y + Beta * out */");
    gemm_print_c(p, &(GemmCall){.m = "M", .n = "N", .k = "K", .alpha = c->alpha, .a = c->x, .lda = "K", .b = c->y,
                                .ldb = "N", .c = "out", .ldc = "N", .beta = c->beta, .ws = c->ws});
    return;
  }
  pr_line(p, "const double *x = %s, *y = %s;", c->x, c->y);
  pr_line(p, "for (int64_t i = 0; i < M; i++) {");
  pr_line(p, "for (int64_t j = 0; j < N; j++) {");
  pr_line(p, "double acc = 0.0;");
  pr_line(p, "for (int64_t k = 0; k < K; k++) acc += x[i * K + k] * y[k * N + j];");
  pr_line(p, "out[i * N + j] = %s * acc + %s * out[i * N + j];", c->alpha, c->beta);
  pr_line(p, "}");
  pr_line(p, "}");
}

/* phi AddmmGradKernel: din = beta * dout summed back over Input's
 * broadcast; dx = dout Y^T and dy = X^T dout, each product then times
 * alpha (blas SCAL). */
static void print_addmm_grad(Printer *p, const AddmmCall *c) {
  const char *t = em_ctype(c->dtype), *sb = c->beta;
  const char *one = tu_literal(c->dtype, 1), *zero = tu_literal(c->dtype, 0);
  const int f64 = c->dtype != RT_DT_FP32;
  pr_line(p, "const int64_t M = %s, N = %s, K = %s;", c->m, c->n, c->k);
  pr_line(p, "const %s *dout = %s;", t, c->dout);
  if (c->din) {
    pr_line(p, "%s *din = %s;", t, c->din);
    if (c->sum_rows && c->sum_cols) {
      pr_line(p, "%s acc = 0;", t);
      pr_line(p, "for (int64_t i = 0; i < M * N; i++) acc += dout[i];");
      pr_line(p, "din[0] = acc * %s;", sb);
    } else if (c->sum_rows) {
      pr_line(p, "for (int64_t j = 0; j < N; j++) din[j] = 0;");
      pr_line(p, "for (int64_t i = 0; i < M; i++)");
      pr_line(p, "  for (int64_t j = 0; j < N; j++) din[j] += dout[i * N + j];");
      pr_line(p, "for (int64_t j = 0; j < N; j++) din[j] *= %s;", sb);
    } else if (c->sum_cols) {
      pr_line(p, "for (int64_t i = 0; i < M; i++) {");
      pr_line(p, "%s acc = 0;", t);
      pr_line(p, "for (int64_t j = 0; j < N; j++) acc += dout[i * N + j];");
      pr_line(p, "din[i] = acc * %s;", sb);
      pr_line(p, "}");
    } else {
      pr_line(p, "for (int64_t i = 0; i < M * N; i++) din[i] = dout[i] * %s;", sb);
    }
  }
  if (c->dx) {
    pr_line(p, "%s *dx = %s;", t, c->dx);
    gemm_print_c(p, &(GemmCall){.f64 = f64, .trans_b = 1, .m = "M", .n = "K", .k = "N", .alpha = one, .a = "dout",
                                .lda = "N", .b = c->y, .ldb = "N", .beta = zero, .c = "dx", .ldc = "K", .ws = c->ws_dx});
    pr_line(p, "for (int64_t i = 0; i < M * K; i++) dx[i] *= %s;", c->alpha);
  }
  if (c->dy) {
    pr_line(p, "%s *dy = %s;", t, c->dy);
    gemm_print_c(p, &(GemmCall){.f64 = f64, .trans_a = 1, .m = "K", .n = "N", .k = "M", .alpha = one, .a = c->x,
                                .lda = "K", .b = "dout", .ldb = "N", .beta = zero, .c = "dy", .ldc = "N", .ws = c->ws_dy});
    pr_line(p, "for (int64_t i = 0; i < K * N; i++) dy[i] *= %s;", c->alpha);
  }
}

void addmm_print_c(Printer *p, const AddmmCall *c) {
  if (c->grad) print_addmm_grad(p, c);
  else print_addmm(p, c);
}

/* funcs::FCFunctor: the product (blas GEMM, beta 0), then each row's bias
 * added (jit VAdd) or added and clamped at 0 (jit VAddRelu); relu comes
 * with a bias only. */
void fc_print_c(Printer *p, const FcCall *c) {
  const char *t = em_ctype(c->dtype);
  pr_line(p, "const int64_t M = %s, N = %s, K = %s;", c->m, c->n, c->k);
  pr_line(p, "%s *out = %s;", t, c->out);
  gemm_print_c(p, &(GemmCall){.f64 = c->dtype == RT_DT_FP64, .m = "M", .n = "N", .k = "K",
                              .alpha = c->dtype == RT_DT_FP64 ? "1.0" : "1.0f", .a = c->x, .lda = "K", .b = c->w,
                              .ldb = "N", .c = "out", .ldc = "N", .beta = c->dtype == RT_DT_FP64 ? "0.0" : "0.0f",
                              .ws = c->ws});
  if (!c->bias) return;
  pr_line(p, "const %s *bias = %s;", t, c->bias);
  pr_line(p, "for (int64_t i = 0; i < M; i++) {");
  pr_line(p, "for (int64_t j = 0; j < N; j++) {");
  pr_line(p, "const %s v = bias[j] + out[i * N + j];", t);
  pr_line(p, c->relu ? "out[i * N + j] = v > 0 ? v : 0;" : "out[i * N + j] = v;");
  pr_line(p, "}");
  pr_line(p, "}");
}
