/* The C printer of the fused batch norms' kernels (bnact_call.h). */
#include "bnact_call.h"

/* The running statistics as a per-channel scale and shift. */
static void print_fold(Printer *p, const BnActCall *c) {
  const long long ch = (long long)c->channels;
  pr_line(p, "float *sc = (float *)%s, *sh = sc + %lld;", c->ws, ch);
  pr_line(p, "const float *mean = %s, *var = %s;", c->mean, c->var);
  if (c->scale) pr_line(p, "const float *scale = %s;", c->scale);
  if (c->bias) pr_line(p, "const float *bias = %s;", c->bias);
  pr_line(p, "for (int64_t c = 0; c < %lld; c++) {", ch);
  pr_line(p, "sc[c] = %s / sqrtf(var[c] + %s);", c->scale ? "scale[c]" : "1.0f", c->eps);
  pr_line(p, "sh[c] = %s - mean[c] * sc[c];", c->bias ? "bias[c]" : "0.0f");
  pr_line(p, "}");
}

/* Rows lo..hi: v = x * scale + shift (+ z), out = act(v). */
static void print_apply(Printer *p, const BnActCall *c) {
  const long long ch = (long long)c->channels;
  pr_line(p, "const float *sc = (const float *)%s, *sh = sc + %lld;", c->ws, ch);
  pr_line(p, "const float *x = %s;", c->x);
  if (c->z) pr_line(p, "const float *z = %s;", c->z);
  pr_line(p, "float *out = %s;", c->out);
  pr_line(p, "const int64_t inner = %s;", c->inner);
  const char *add = c->z ? " + z[i]" : "";
  pr_line(p, "for (int64_t r = lo; r < hi; r++) {");
  if (c->nhwc) {
    pr_line(p, "for (int64_t i = r * inner, c = 0; c < inner; i++, c++) {");
    pr_line(p, "const float v = x[i] * sc[c] + sh[c]%s;", add);
  } else {
    pr_line(p, "const float a = sc[r %% %lld], b = sh[r %% %lld];", ch, ch);
    pr_line(p, "for (int64_t i = r * inner; i < (r + 1) * inner; i++) {");
    pr_line(p, "const float v = x[i] * a + b%s;", add);
  }
  pr_line(p, "out[i] = %s;", c->act);
  pr_close(p, 2);
}

/* Elements lo..hi: gact = the activation's gradient from y and dy. */
static void print_act_grad(Printer *p, const BnActCall *c) {
  if (c->dz) pr_line(p, "float *gact = %s;", c->dz);
  else pr_line(p, "float *gact = (float *)%s;", c->ws);
  pr_line(p, "const float *py = %s, *pdy = %s;", c->y, c->dy);
  pr_line(p, "for (int64_t i = lo; i < hi; i++) {");
  pr_line(p, "const float y = py[i], dy = pdy[i];");
  if (c->body) pr_line(p, "%s", c->body);
  pr_line(p, "gact[i] = %s;", c->term);
  pr_line(p, "}");
}

void bnact_print_c(Printer *p, const BnActCall *c) {
  switch (c->kind) {
    case BNACT_FOLD:
      print_fold(p, c);
      break;
    case BNACT_APPLY:
      print_apply(p, c);
      break;
    case BNACT_ACT_GRAD:
      print_act_grad(p, c);
      break;
  }
}
