/* The C printer of per-channel kernels (chan_call.h). */
#include "chan_call.h"

#include <float.h>

#include "../util.h"
#include "tensor_util.h"

/* The walk over x as [outer, channels, inner] in element order: the
 * outer loop declares o (and `more`), the channel's alpha `a` is declared
 * when with_a, and `inner_loop` (a whole statement) runs per channel. */
static void prelu_walk(Printer *p, const ChanCall *c, const char *more, int with_a, const char *inner_loop) {
  pr_line(p, "for (int64_t o = 0%s; o < %s; o++) {", more, c->outer);
  pr_line(p, "for (int64_t k = 0; k < %s; k++) {", c->channels);
  if (with_a) tu_pr_to(p, c->dtype, "const float a = alpha[k];");
  tu_pr_to(p, c->dtype, "%s", inner_loop);
  pr_close(p, 2);
}

/* Paddle's PReluKernel: out = x > 0 ? x : alpha * x, alpha by channel. */
static void print_prelu(Printer *p, const ChanCall *c) {
  const int dt = c->dtype;
  tu_pr_to(p, dt, "const float *x = %s, *alpha = %s;", c->x, c->slope);
  tu_pr_to(p, dt, "float *out = %s;", c->out);
  prelu_walk(p, c, "", 1,
             pool_printf("for (int64_t i = 0; i < %s; i++, x++, out++) *out = *x > 0.0f ? *x : a * *x;", c->inner));
}

/* phi PReluGradKernel: dx, then each alpha's sum in element order. */
static void print_prelu_grad(Printer *p, const ChanCall *c) {
  const int dt = c->dtype;
  tu_pr_to(p, dt, "const float *x = %s, *dout = %s;", c->x, c->dout);
  if (c->dx) {
    tu_pr_to(p, dt, "const float *alpha = %s;", c->slope);
    tu_pr_to(p, dt, "float *dx = %s;", c->dx);
    prelu_walk(p, c, ", i = 0", 1,
               pool_printf("for (int64_t j = 0; j < %s; j++, i++) dx[i] = x[i] > 0.0f ? dout[i] : a * dout[i];",
                           c->inner));
  }
  if (c->dslope) {
    tu_pr_to(p, dt, "float *dalpha = %s;", c->dslope);
    tu_pr_to(p, dt, "for (int64_t k = 0; k < %s; k++) dalpha[k] = 0.0f;", c->numel);
    prelu_walk(p, c, ", i = 0", 0,
               pool_printf("for (int64_t j = 0; j < %s; j++, i++) dalpha[k] += x[i] > 0.0f ? 0.0f : x[i] * dout[i];",
                           c->inner));
  }
}

/* Declares maxout's geometry: oc, fea and groups. */
static void declare_maxout(Printer *p, const ChanCall *c) {
  pr_line(p, "const int64_t oc = %s, fea = %s, groups = %lld;", c->channels, c->inner, (long long)c->groups);
}

/* The flat index of out's element (n, c, f), and of x's element ph of its group. */
static const char *maxout_out_at(const ChanCall *c) {
  return c->last ? "n * oc * fea + f * oc + c" : "n * oc * fea + c * fea + f";
}
static const char *maxout_x_at(const ChanCall *c) {
  return c->last ? "(n * oc * fea + f * oc + c) * groups + ph" : "(n * oc * fea + c * fea) * groups + ph * fea + f";
}

/* Opens the three loops over out's elements, n, c and f; closed by three "}". */
static void open_maxout_loops(Printer *p, const ChanCall *c) {
  pr_line(p, "for (int64_t n = 0; n < %s; n++) {", c->outer);
  pr_line(p, "for (int64_t c = 0; c < oc; c++) {");
  pr_line(p, "for (int64_t f = 0; f < fea; f++) {");
}

/* Paddle's MaxOutFunctor: ele = ele > x ? ele : x from (T)-FLT_MAX. */
static void print_maxout(Printer *p, const ChanCall *c) {
  const char *t = em_ctype(c->dtype);
  pr_line(p, "const %s *x = %s;", t, c->x);
  pr_line(p, "%s *out = %s;", t, c->out);
  declare_maxout(p, c);
  open_maxout_loops(p, c);
  pr_line(p, "%s ele = (%s)%s;", t, t, em_float(-FLT_MAX));
  pr_line(p, "for (int64_t ph = 0; ph < groups; ph++) {");
  pr_line(p, "const %s v = x[%s];", t, maxout_x_at(c));
  pr_line(p, "ele = ele > v ? ele : v;");
  pr_line(p, "}");
  pr_line(p, "out[%s] = ele;", maxout_out_at(c));
  pr_close(p, 3);
}

/* phi MaxOutGradFunctor: dout to the first element of the group equal to out. */
static void print_maxout_grad(Printer *p, const ChanCall *c) {
  const char *t = em_ctype(c->dtype);
  pr_line(p, "const %s *x = %s;", t, c->x);
  pr_line(p, "const %s *out = %s;", t, c->out);
  pr_line(p, "const %s *dout = %s;", t, c->dout);
  pr_line(p, "%s *dx = %s;", t, c->dx);
  declare_maxout(p, c);
  pr_line(p, "for (int64_t q = 0; q < %s; q++) dx[q] = 0;", c->numel);
  open_maxout_loops(p, c);
  pr_line(p, "const int64_t o = %s;", maxout_out_at(c));
  pr_line(p, "for (int64_t ph = 0; ph < groups; ph++) {");
  pr_line(p, "const int64_t at = %s;", maxout_x_at(c));
  pr_line(p, "if (x[at] == out[o]) {");
  pr_line(p, "dx[at] += dout[o];");
  pr_line(p, "break;");
  pr_line(p, "}");
  pr_line(p, "}");
  pr_close(p, 3);
}

/* The channel stride and the pixel stride of x. */
static const char *lrn_cs(const ChanCall *c) { return c->last ? "1" : c->inner; }
static const char *lrn_ps(const ChanCall *c) { return c->last ? c->channels : "1"; }

/* Paddle's CPU LRNFunctor, per pixel: the window sum slides one channel
 * at a time; channel j of pixel p of image b sits at b * C * hw + j * cs + p * ps. */
static void print_lrn(Printer *p, const ChanCall *c) {
  pr_line(p, "const float *x = %s;", c->x);
  pr_line(p, "float *out = %s;", c->out);
  if (c->mid) pr_line(p, "float *mid = %s;", c->mid);
  pr_line(p, "const float k = %s, alpha = %s, beta = %s;", em_float(c->k), em_float(c->alpha), em_float(c->beta));
  pr_line(p, "const int64_t C = %s, hw = %s, n = %lld, pre = %lld, cs = %s, ps = %s;", c->channels, c->inner,
          (long long)c->window, (long long)((c->window - 1) / 2), lrn_cs(c), lrn_ps(c));
  pr_line(p, "for (int64_t b = 0; b < %s; b++) {", c->outer);
  pr_line(p, "for (int64_t p = 0; p < hw; p++) {");
  pr_line(p, "const float *xp = x + b * C * hw + p * ps;");
  pr_line(p, "const int64_t at0 = b * C * hw + p * ps;");
  pr_line(p, "#define SQ(j) ((j) >= pre && (j) - pre < C ? xp[((j) - pre) * cs] * xp[((j) - pre) * cs] : 0.0f)");
  pr_line(p, "float m = k;");
  pr_line(p, "for (int64_t j = 0; j < n; j++) m += alpha * SQ(j);");
  pr_line(p, "for (int64_t ch = 0; ch < C; ch++) {");
  pr_line(p, "if (ch > 0) {");
  pr_line(p, "m += alpha * SQ(ch + n - 1);");
  pr_line(p, "m += -alpha * SQ(ch - 1);");
  pr_line(p, "}");
  if (c->mid) pr_line(p, "mid[at0 + ch * cs] = m;");
  pr_line(p, "out[at0 + ch * cs] = powf(m, -beta) * xp[ch * cs];");
  pr_line(p, "}");
  pr_line(p, "#undef SQ");
  pr_close(p, 2);
}

/* fluid LRNGradFunctor, per pixel and channel, in Paddle's order. */
static void print_lrn_grad(Printer *p, const ChanCall *c) {
  const long long start = -(c->window - 1) / 2;
  pr_line(p, "const float *x = %s;", c->x);
  pr_line(p, "const float *out = %s;", c->out);
  pr_line(p, "const float *mid = %s;", c->mid);
  pr_line(p, "const float *dout = %s;", c->dout);
  pr_line(p, "float *dx = %s;", c->dx);
  pr_line(p, "const float beta = %s, ratio = %s;", em_float(c->beta), em_float(-2 * c->alpha * c->beta));
  pr_line(p, "const int64_t C = %s, hw = %s, start = %lld, end = %lld, cs = %s, ps = %s;", c->channels, c->inner,
          start, start + (long long)c->window, lrn_cs(c), lrn_ps(c));
  pr_line(p, "for (int64_t b = 0; b < %s; b++) {", c->outer);
  pr_line(p, "for (int64_t i = 0; i < C; i++) {");
  pr_line(p, "for (int64_t p = 0; p < hw; p++) {");
  pr_line(p, "const int64_t base = b * C * hw + p * ps, at = base + i * cs;");
  pr_line(p, "float g = powf(mid[at], -beta) * dout[at];");
  pr_line(p, "for (int64_t c = start; c < end; c++) {");
  pr_line(p, "const int64_t ch = i + c;");
  pr_line(p, "if (ch < 0 || ch >= C) continue;");
  pr_line(p, "const int64_t o = base + ch * cs;");
  pr_line(p, "g += ratio * dout[o] * out[o] * x[at] / mid[o];");
  pr_line(p, "}");
  pr_line(p, "dx[at] = g;");
  pr_close(p, 3);
}

/* fluid AffineChannelGradKernel: dx per element, the parameter grads
 * summed image by image, pixels in order. */
static void print_affine_grad(Printer *p, const ChanCall *c) {
  const int dt = c->dtype;
  tu_pr_to(p, dt, "const float *x = %s;", c->x);
  tu_pr_to(p, dt, "const float *scale = %s;", c->scale);
  tu_pr_to(p, dt, "const float *dout = %s;", c->dout);
  pr_line(p, "const int64_t outer = %s, C = %s, inner = %s;", c->outer, c->channels, c->inner);
  pr_line(p, "(void)x;");
  if (c->dx) {
    tu_pr_to(p, dt, "float *dx = %s;", c->dx);
    pr_line(p, "for (int64_t o = 0; o < outer; o++)");
    pr_line(p, "  for (int64_t c = 0; c < C; c++)");
    pr_line(p, "    for (int64_t i = 0; i < inner; i++) dx[(o * C + c) * inner + i] = "
               "dout[(o * C + c) * inner + i] * scale[c];");
  }
  if (!c->dscale && !c->dbias) return;
  pr_line(p, "for (int64_t c = 0; c < C; c++) {");
  tu_pr_to(p, dt, "float s = 0.0f, b = 0.0f;");
  pr_line(p, "for (int64_t o = 0; o < outer; o++) {");
  pr_line(p, "for (int64_t i = 0; i < inner; i++) {");
  pr_line(p, "const int64_t at = (o * C + c) * inner + i;");
  pr_line(p, "s += x[at] * dout[at];");
  pr_line(p, "b += dout[at];");
  pr_close(p, 2);
  if (c->dscale) pr_line(p, "%s[c] = s;", c->dscale);
  else pr_line(p, "(void)s;");
  if (c->dbias) pr_line(p, "%s[c] = b;", c->dbias);
  else pr_line(p, "(void)b;");
  pr_line(p, "}");
}

void chan_print_c(Printer *p, const ChanCall *c) {
  switch (c->kind) {
    case CHAN_PRELU:
      print_prelu(p, c);
      break;
    case CHAN_PRELU_GRAD:
      print_prelu_grad(p, c);
      break;
    case CHAN_MAXOUT:
      print_maxout(p, c);
      break;
    case CHAN_MAXOUT_GRAD:
      print_maxout_grad(p, c);
      break;
    case CHAN_LRN:
      print_lrn(p, c);
      break;
    case CHAN_LRN_GRAD:
      print_lrn_grad(p, c);
      break;
    case CHAN_AFFINE_GRAD:
      print_affine_grad(p, c);
      break;
  }
}
