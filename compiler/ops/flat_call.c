/* The C printer of flat element-by-element kernels (flat_call.h). */
#include "flat_call.h"

/* atan2: atan2f on float32, atan2 on float64, atan2f on the integers cast
 * to float, widened to double (Paddle's Atan2Functor). */
static void print_atan2(Printer *p, const FlatCall *c) {
  const char *t = em_ctype(c->dtype);
  pr_line(p, "const %s *x1 = %s;", t, c->x);
  pr_line(p, "const %s *x2 = %s;", t, c->y);
  pr_line(p, "%s *out = %s;", em_ctype(c->out_dtype), c->out);
  const char *f = c->dtype == RT_DT_FP32   ? "atan2f(x1[i], x2[i])"
                  : c->dtype == RT_DT_FP64 ? "atan2(x1[i], x2[i])"
                                           : "(double)atan2f((float)x1[i], (float)x2[i])";
  pr_line(p, "for (int64_t i = 0; i < %s; i++) out[i] = %s;", c->numel, f);
}

static void print_atan2_grad(Printer *p, const FlatCall *c) {
  const char *t = em_ctype(c->dtype);
  pr_line(p, "const %s *x1 = %s;", t, c->x);
  pr_line(p, "const %s *x2 = %s;", t, c->y);
  pr_line(p, "const %s *dout = %s;", t, c->dout);
  if (c->dx) pr_line(p, "%s *dx1 = %s;", t, c->dx);
  if (c->dy) pr_line(p, "%s *dx2 = %s;", t, c->dy);
  pr_line(p, "for (int64_t i = 0; i < %s; i++) {", c->numel);
  pr_line(p, "const %s r = x1[i] * x1[i] + x2[i] * x2[i];", t);
  if (c->dx) pr_line(p, "dx1[i] = dout[i] * x2[i] / r;");
  if (c->dy) pr_line(p, "dx2[i] = -dout[i] * x1[i] / r;");
  pr_line(p, "}");
}

/* equal_all: phi EqualFunctor on floats (with an infinity the values must
 * be equal, else |a - b| < 1e-8), == on the rest. */
static void print_equal_all(Printer *p, const FlatCall *c) {
  const char *t = em_ctype(c->dtype);
  const int fp = c->dtype == RT_DT_FP32 || c->dtype == RT_DT_FP64;
  pr_line(p, "const %s *x = %s, *y = %s;", t, c->x, c->y);
  pr_line(p, "bool all = %s; /* dims differ: not equal */", c->same);
  pr_line(p, "for (int64_t i = 0; all && i < %s; i++) {", c->numel);
  pr_line(p, "  const %s a = x[i], b = y[i];", t);
  pr_line(p, "  all = %s;", fp ? "(isinf(a) || isinf(b)) ? a == b : fabs((double)(a - b)) < 1e-8" : "a == b");
  pr_line(p, "}");
  pr_line(p, "%s[0] = all;", c->out);
}

/* sequence_mask: each length's row, 1 below it and 0 from it on. */
static void print_sequence_mask(Printer *p, const FlatCall *c) {
  const char *ty = em_ctype(c->out_dtype);
  pr_line(p, "const %s *x = %s;", em_ctype(c->dtype), c->x);
  pr_line(p, "%s *y = %s;", ty, c->out);
  pr_line(p, "for (int64_t i = 0; i < %s; i++)", c->numel);
  pr_line(p, "  for (int j = 0; j < %s; j++) y[i * %s + j] = (%s)(j < x[i] ? 1 : 0);", c->width, c->width, ty);
}

void flat_print_c(Printer *p, const FlatCall *c) {
  switch (c->kind) {
    case FLAT_ATAN2:
      print_atan2(p, c);
      break;
    case FLAT_ATAN2_GRAD:
      print_atan2_grad(p, c);
      break;
    case FLAT_INT_CLASS:
      pr_line(p, "/* integers are never NaN or infinite */");
      pr_line(p, "for (int64_t i = 0; i < %s; i++) %s[i] = %s;", c->numel, c->out, c->value);
      break;
    case FLAT_EQUAL_ALL:
      print_equal_all(p, c);
      break;
    case FLAT_SEQUENCE_MASK:
      print_sequence_mask(p, c);
      break;
    case FLAT_INCREMENT:
      pr_line(p, "%s[0] = (%s)(%s[0] + %s);", c->out, em_ctype(c->dtype), c->x, c->value);
      break;
  }
}
