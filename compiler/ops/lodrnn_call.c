/* LodRnnCall's C printer (lodrnn_call.h): gru's, lstm's and
 * crf_decoding's loops over the sequences of a LoD; and the checks gru's
 * and lstm's emitters share (lodrnn_check). */
#include "lodrnn_call.h"

#include <string.h>

#include "../util.h"
#include "gemm_call.h"

/* `v = act(v);` as Paddle's detail/activation_functions.h computes it, or
 * with `plain` as activation_op.h's functors do (gru_unit): sigmoid
 * 1 / (1 + exp(-v)) and tanh unclamped. */
static void print_act_as(Printer *p, const char *act, const char *v, int f64, int plain) {
  const char *t = f64 ? "double" : "float", *e = f64 ? "exp" : "expf", *s = f64 ? "" : "f";
  if (plain && !strcmp(act, "sigmoid")) {
    pr_line(p, "%s = 1.0%s / (1.0%s + %s(-%s));", v, s, s, e, v);
  } else if (plain && !strcmp(act, "tanh")) {
    pr_line(p, "%s = %s(%s);", v, f64 ? "tanh" : "tanhf", v);
  } else if (!strcmp(act, "sigmoid")) {
    pr_line(p, "{ const %s a_ = %s < -40.0%s ? -40.0%s : (%s > 13.0%s ? 13.0%s : %s);", t, v, s, s, v, s, s, v);
    pr_line(p, "  %s = 1.0%s / (1.0%s + %s(-a_)); }", v, s, s, e);
  } else if (!strcmp(act, "tanh")) {
    pr_line(p, "{ %s a_ = (%s)(-2.0 * %s);", t, t, v);
    pr_line(p, "  if (a_ > 40.0%s) a_ = 40.0%s;", s, s);
    pr_line(p, "  %s = (%s)(2.0 / (1.0 + %s(a_)) - 1.0); }", v, t, e);
  } else if (!strcmp(act, "relu")) {
    pr_line(p, "if (!(%s > 0)) %s = 0;", v, v);
  } /* identity: nothing */
}

static void print_act(Printer *p, const char *act, const char *v, int f64) { print_act_as(p, act, v, f64, 0); }

/* The frame's LoD and sizes: lod, N (the sequences) and D. */
static void print_frame(Printer *p, const LodRnnCall *c) {
  pr_line(p, "const int64_t *lod = m->lod[%d];", c->input);
  pr_line(p, "const int64_t N = m->lod_count[%d] - 1, D = %lld;", c->input, (long long)c->d);
}

/* Opens step s of sequence i: its row r, from the last row back with
 * is_reverse. */
static void print_step_open(Printer *p, const LodRnnCall *c) {
  pr_line(p, "for (int64_t s = 0; s < lod[i + 1] - lod[i]; s++) {");
  pr_line(p, "const int64_t r = %s;", c->reverse ? "lod[i + 1] - 1 - s" : "lod[i] + s");
}

/* With a previous state h, `g[off + j] += (v x w)[j]` for j < n, w [D, n]:
 * the product summed in acc first, then added, as Paddle's GEMM with beta 1
 * does. */
static void print_matvec(Printer *p, const char *v, const char *w, const char *n, const char *off) {
  pr_line(p, "if (h) {");
  pr_line(p, "for (int64_t j = 0; j < %s; j++) acc[j] = 0;", n);
  pr_line(p, "for (int64_t k = 0; k < D; k++)");
  pr_line(p, "  for (int64_t j = 0; j < %s; j++) acc[j] += %s[k] * %s[k * %s + j];", n, v, w, n);
  pr_line(p, "for (int64_t j = 0; j < %s; j++) g[%sj] += acc[j];", n, off);
  pr_line(p, "}");
}

/* One GRU step's gates from row x and the previous h (NULL: zeros): g =
 * x + bias, the update and reset gates through gate_act, rh = r * h, and
 * the candidate's pre-activation through act left open in `v` (in a loop
 * over j the caller closes). */
static void print_gru_gates(Printer *p, const LodRnnCall *c, const char *t) {
  if (c->bias)
    pr_line(p, "for (int64_t j = 0; j < 3 * D; j++) g[j] = x[j] + %s[j];", c->bias);
  else
    pr_line(p, "for (int64_t j = 0; j < 3 * D; j++) g[j] = x[j];");
  print_matvec(p, "h", "wg", "2 * D", "");
  pr_line(p, "for (int64_t j = 0; j < 2 * D; j++) {");
  pr_line(p, "%s v = g[j];", t);
  print_act(p, c->gate_act, "v", c->f64);
  pr_line(p, "g[j] = v;");
  pr_line(p, "}");
  pr_line(p, "for (int64_t j = 0; j < D; j++) rh[j] = h ? h[j] * g[D + j] : 0;");
  print_matvec(p, "rh", "wc", "D", "2 * D + ");
  pr_line(p, "for (int64_t j = 0; j < D; j++) {");
  pr_line(p, "%s v = g[2 * D + j];", t);
  print_act(p, c->act, "v", c->f64);
}


static void print_gru(Printer *p, const LodRnnCall *c) {
  const char *t = c->f64 ? "double" : "float";
  pr_line(p, "/* gru over the LoD of input %d ('%s'): D %lld, %s, activation %s, gate_activation %s%s */", c->input,
          c->feed, (long long)c->d, c->reverse ? "reversed" : "forward", c->act, c->gate_act,
          c->origin ? ", origin_mode" : "");
  print_frame(p, c);
  pr_line(p, "const %s *wg = %s, *wc = %s + 2 * D * D; /* [D, 2D] update and reset, [D, D] candidate */", t,
          c->weight, c->weight);
  pr_line(p, "%s *g = %s, *acc = g + 3 * D, *rh = acc + 2 * D;", t, c->ws);
  if (c->h0) pr_line(p, "if (N > %s) return 1; /* H0 holds one row per sequence */", c->h0_rows);
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  if (c->h0)
    pr_line(p, "const %s *h = %s + i * D; /* H0 row i starts sequence i */", t, c->h0);
  else
    pr_line(p, "const %s *h = NULL;", t);
  print_step_open(p, c);
  pr_line(p, "const %s *x = %s + r * 3 * D;", t, c->x);
  pr_line(p, "%s *o = %s + r * D;", t, c->out);
  print_gru_gates(p, c, t);
  pr_line(p, "const %s u = g[j], hp = h ? h[j] : 0;", t);
  if (c->origin)
    pr_line(p, "o[j] = u * hp + v - u * v;");
  else
    pr_line(p, "o[j] = hp - u * hp + u * v;");
  pr_line(p, "}");
  pr_line(p, "h = o;");
  pr_line(p, "}");
  pr_line(p, "}");
}

static void print_act_grad(Printer *p, const char *act, const char *v, const char *dy, const char *y, int f64);

/* gru_grad: the forward recomputed per sequence into scratch (gates, r * h),
 * then back through each sequence. */
static void print_gru_grad(Printer *p, const LodRnnCall *c) {
  const char *t = c->f64 ? "double" : "float";
  pr_line(p, "/* gru_grad over the LoD of input %d ('%s'): D %lld, %s, activation %s, gate_activation %s%s */",
          c->input, c->feed, (long long)c->d, c->reverse ? "reversed" : "forward", c->act, c->gate_act,
          c->origin ? ", origin_mode" : "");
  print_frame(p, c);
  pr_line(p, "const int64_t T = %s;", c->rows);
  pr_line(p, "const %s *wg = %s, *wc = %s + 2 * D * D; /* [D, 2D] update and reset, [D, D] candidate */", t,
          c->weight, c->weight);
  pr_line(p, "const %s *hidden = %s, *dout = %s;", t, c->out, c->dout);
  pr_line(p, "%s *G = %s, *RH = G + T * 3 * D, *dh = RH + T * D, *drh = dh + D, *acc = drh + D;", t, c->ws);
  pr_line(p, "%s *dg = %s;", t, c->dx ? c->dx : "NULL");
  if (!c->dx) pr_line(p, "dg = acc + 2 * D; /* Input@GRAD not asked for: scratch */");
  if (c->h0) pr_line(p, "if (N > %s) return 1; /* H0 holds one row per sequence */", c->h0_rows);
  if (c->dweight) pr_line(p, "%s *dw = %s;", t, c->dweight);
  if (c->dweight) pr_line(p, "for (int64_t k = 0; k < 3 * D * D; k++) dw[k] = 0;");
  pr_line(p, "for (int64_t r = 0; r < T * 3 * D; r++) dg[r] = 0;");
  pr_line(p, "/* the forward's gates and r * h, row by row */");
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  pr_line(p, "const %s *h = %s;", t, c->h0 ? pool_printf("%s + i * D", c->h0) : "NULL");
  print_step_open(p, c);
  pr_line(p, "const %s *x = %s + r * 3 * D;", t, c->x);
  pr_line(p, "%s *g = G + r * 3 * D, *rh = RH + r * D;", t);
  print_gru_gates(p, c, t);
  pr_line(p, "g[2 * D + j] = v;");
  pr_line(p, "}");
  pr_line(p, "h = hidden + r * D;");
  pr_line(p, "}");
  pr_line(p, "}");
  pr_line(p, "/* back through each sequence from its last step */");
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  pr_line(p, "const int64_t len = lod[i + 1] - lod[i];");
  pr_line(p, "for (int64_t j = 0; j < D; j++) dh[j] = 0;");
  pr_line(p, "for (int64_t s = len - 1; s >= 0; s--) {");
  pr_line(p, "const int64_t r = %s;", c->reverse ? "lod[i + 1] - 1 - s" : "lod[i] + s");
  pr_line(p, "const int64_t pr = %s; /* the previous step's row */", c->reverse ? "r + 1" : "r - 1");
  pr_line(p, "const %s *h = s > 0 ? hidden + pr * D : %s;", t, c->h0 ? pool_printf("%s + i * D", c->h0) : "NULL");
  pr_line(p, "const %s *g = G + r * 3 * D, *rh = RH + r * D;", t);
  pr_line(p, "%s *dgr = dg + r * 3 * D;", t);
  pr_line(p, "for (int64_t j = 0; j < D; j++) {");
  pr_line(p, "const %s d = dout[r * D + j] + dh[j], u = g[j], cs = g[2 * D + j], hp = h ? h[j] : 0;", t);
  pr_line(p, "const %s dc = d * %s;", t, c->origin ? "(1 - u)" : "u");
  pr_line(p, "dgr[j] = d * (%s);", c->origin ? "hp - cs" : "cs - hp");
  pr_line(p, "dh[j] = d * %s; /* to the previous state */", c->origin ? "u" : "(1 - u)");
  print_act_grad(p, c->act, "dgr[2 * D + j]", "dc", "cs", c->f64);
  pr_line(p, "}");
  pr_line(p, "for (int64_t j = 0; j < D; j++) drh[j] = 0;");
  pr_line(p, "if (h) {");
  pr_line(p, "/* drh = dc x Wc^T; Wc's gradient += rh^T x dc */");
  pr_line(p, "for (int64_t j = 0; j < D; j++) {");
  pr_line(p, "%s sum = 0;", t);
  pr_line(p, "for (int64_t k = 0; k < D; k++) sum += dgr[2 * D + k] * wc[j * D + k];");
  pr_line(p, "drh[j] = sum;");
  pr_line(p, "}");
  if (c->dweight) {
    pr_line(p, "for (int64_t j = 0; j < D; j++)");
    pr_line(p, "  for (int64_t k = 0; k < D; k++) dw[2 * D * D + j * D + k] += rh[j] * dgr[2 * D + k];");
  }
  pr_line(p, "}");
  pr_line(p, "for (int64_t j = 0; j < D; j++) {");
  pr_line(p, "const %s dr = drh[j] * (h ? h[j] : 0), du = dgr[j];", t);
  pr_line(p, "dh[j] += drh[j] * g[D + j]; /* through r * h */");
  print_act_grad(p, c->gate_act, "dgr[j]", "du", "g[j]", c->f64);
  print_act_grad(p, c->gate_act, "dgr[D + j]", "dr", "g[D + j]", c->f64);
  pr_line(p, "}");
  pr_line(p, "if (h) {");
  pr_line(p, "/* the state gets [du dr] x Wg^T; Wg's gradient += h^T x [du dr] */");
  pr_line(p, "for (int64_t j = 0; j < D; j++) {");
  pr_line(p, "%s sum = 0;", t);
  pr_line(p, "for (int64_t k = 0; k < 2 * D; k++) sum += dgr[k] * wg[j * 2 * D + k];");
  pr_line(p, "dh[j] += sum;");
  pr_line(p, "}");
  if (c->dweight) {
    pr_line(p, "for (int64_t j = 0; j < D; j++)");
    pr_line(p, "  for (int64_t k = 0; k < 2 * D; k++) dw[j * 2 * D + k] += h[j] * dgr[k];");
  }
  pr_line(p, "}");
  pr_line(p, "}");
  if (c->dh0) pr_line(p, "for (int64_t j = 0; j < D; j++) %s[i * D + j] = dh[j];", c->dh0);
  pr_line(p, "}");
  if (c->dh0) {
    pr_line(p, "/* H0 rows past the sequences get no gradient */");
    pr_line(p, "for (int64_t k = N * D; k < %s * D; k++) %s[k] = 0;", c->h0_rows, c->dh0);
  }
  if (c->dbias) {
    pr_line(p, "/* Bias@GRAD: the gates' gradient summed over the rows */");
    pr_line(p, "for (int64_t j = 0; j < 3 * D; j++) {");
    pr_line(p, "%s sum = 0;", t);
    pr_line(p, "for (int64_t r = 0; r < T; r++) sum += dg[r * 3 * D + j];");
    pr_line(p, "%s[j] = sum;", c->dbias);
    pr_line(p, "}");
  }
}

/* gru_unit over N rows: the two products as Paddle's GEMMs (beta 1 into
 * Gate, ldc 3D), the activations as activation_op.h's functors. */
static void print_gru_unit(Printer *p, const LodRnnCall *c) {
  const char *t = c->f64 ? "double" : "float", *one = c->f64 ? "1.0" : "1.0f";
  pr_line(p, "/* gru_unit: D %lld, activation %s, gate_activation %s%s */", (long long)c->d, c->act, c->gate_act,
          c->origin ? ", origin_mode" : "");
  pr_line(p, "const int64_t N = %s, D = %lld;", c->rows, (long long)c->d);
  pr_line(p, "const %s *x = %s, *hp = %s, *w = %s;", t, c->x, c->h0, c->weight);
  pr_line(p, "%s *g = %s, *rh = %s, *o = %s;", t, c->gate, c->reset, c->out);
  if (c->bias) {
    pr_line(p, "const %s *b = %s;", t, c->bias);
    pr_line(p, "for (int64_t i = 0; i < N; i++)");
    pr_line(p, "  for (int64_t j = 0; j < 3 * D; j++) g[i * 3 * D + j] = x[i * 3 * D + j] + b[j];");
  } else {
    pr_line(p, "for (int64_t i = 0; i < N * 3 * D; i++) g[i] = x[i];");
  }
  pr_line(p, "/* update and reset gates: g[:, 0:2D] += hp x w[0:2D*D] as [D, 2D] */");
  gemm_print_c(p, &(GemmCall){.f64 = c->f64, .m = "N", .n = "2 * D", .k = "D", .alpha = one, .a = "hp", .lda = "D",
                              .b = "w", .ldb = "2 * D", .beta = one, .c = "g", .ldc = "3 * D", .ws = c->ws});
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  pr_line(p, "for (int64_t j = 0; j < 2 * D; j++) {");
  pr_line(p, "%s v = g[i * 3 * D + j];", t);
  print_act_as(p, c->gate_act, "v", c->f64, 1);
  pr_line(p, "g[i * 3 * D + j] = v;");
  pr_line(p, "}");
  pr_line(p, "for (int64_t j = 0; j < D; j++) rh[i * D + j] = g[i * 3 * D + D + j] * hp[i * D + j];");
  pr_line(p, "}");
  pr_line(p, "/* candidate: g[:, 2D:3D] += rh x w[2D*D:] as [D, D] */");
  gemm_print_c(p, &(GemmCall){.f64 = c->f64, .m = "N", .n = "D", .k = "D", .alpha = one, .a = "rh", .lda = "D",
                              .b = "w + 2 * D * D", .ldb = "D", .beta = one, .c = "g + 2 * D", .ldc = "3 * D",
                              .ws = c->ws});
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  pr_line(p, "for (int64_t j = 0; j < D; j++) {");
  pr_line(p, "%s v = g[i * 3 * D + 2 * D + j];", t);
  print_act_as(p, c->act, "v", c->f64, 1);
  pr_line(p, "g[i * 3 * D + 2 * D + j] = v;");
  pr_line(p, "const %s u = g[i * 3 * D + j], h = hp[i * D + j];", t);
  if (c->origin)
    pr_line(p, "o[i * D + j] = v + u * (h - v);");
  else
    pr_line(p, "o[i * D + j] = u * (v - h) + h;");
  pr_line(p, "}");
  pr_line(p, "}");
}

/* `v = dy * act'(y)`, with the derivative from the activated value y as
 * activation_op.h's grad functors take it (gru_unit_grad). */
static void print_act_grad(Printer *p, const char *act, const char *v, const char *dy, const char *y, int f64) {
  const char *one = f64 ? "1.0" : "1.0f";
  if (!strcmp(act, "sigmoid"))
    pr_line(p, "%s = %s * %s * (%s - %s);", v, dy, y, one, y);
  else if (!strcmp(act, "tanh"))
    pr_line(p, "%s = %s * (%s - %s * %s);", v, dy, one, y, y);
  else if (!strcmp(act, "relu"))
    pr_line(p, "%s = %s > 0 ? %s : 0;", v, y, dy);
  else
    pr_line(p, "%s = %s;", v, dy);
}

/* gru_unit_grad over N rows: GRUUnitGradKernel's steps in its order, its
 * four GEMMs through gemm_print_c. */
static void print_gru_unit_grad(Printer *p, const LodRnnCall *c) {
  const char *t = c->f64 ? "double" : "float", *one = c->f64 ? "1.0" : "1.0f", *zero = c->f64 ? "0.0" : "0.0f";
  pr_line(p, "/* gru_unit_grad: D %lld, activation %s, gate_activation %s%s */", (long long)c->d, c->act, c->gate_act,
          c->origin ? ", origin_mode" : "");
  pr_line(p, "const int64_t N = %s, D = %lld;", c->rows, (long long)c->d);
  pr_line(p, "const %s *hp = %s, *w = %s, *g = %s, *rh = %s, *dh = %s;", t, c->h0, c->weight, c->gate, c->reset,
          c->dout);
  pr_line(p, "%s *dg = %s, *drh = %s;", t, c->dgate, c->dreset);
  pr_line(p, "/* the unactivated update gate and candidate */");
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  pr_line(p, "for (int64_t j = 0; j < D; j++) {");
  pr_line(p, "const %s u = g[i * 3 * D + j], c = g[i * 3 * D + 2 * D + j], h = hp[i * D + j], d = dh[i * D + j];", t);
  pr_line(p, "const %s du = d * (%s), dc = d * %s;", t, c->origin ? "h - c" : "c - h", c->origin ? "(1 - u)" : "u");
  print_act_grad(p, c->gate_act, "dg[i * 3 * D + j]", "du", "u", c->f64);
  print_act_grad(p, c->act, "dg[i * 3 * D + 2 * D + j]", "dc", "c", c->f64);
  pr_line(p, "}");
  pr_line(p, "}");
  pr_line(p, "/* ResetHiddenPrev's gradient: drh = dg[:, 2D:3D] x w[2D*D:]^T */");
  gemm_print_c(p, &(GemmCall){.f64 = c->f64, .trans_b = 1, .m = "N", .n = "D", .k = "D", .alpha = one,
                              .a = "dg + 2 * D", .lda = "3 * D", .b = "w + 2 * D * D", .ldb = "D", .beta = zero,
                              .c = "drh", .ldc = "D", .ws = c->ws});
  pr_line(p, "/* the unactivated reset gate */");
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  pr_line(p, "for (int64_t j = 0; j < D; j++) {");
  pr_line(p, "const %s dr = drh[i * D + j] * hp[i * D + j];", t);
  print_act_grad(p, c->gate_act, "dg[i * 3 * D + D + j]", "dr", "g[i * 3 * D + D + j]", c->f64);
  pr_line(p, "}");
  pr_line(p, "}");
  if (c->dweight) {
    pr_line(p, "/* Weight@GRAD: [D, 2D] hp^T x dg[:, 0:2D], then [D, D] rh^T x dg[:, 2D:3D] */");
    pr_line(p, "%s *dw = %s;", t, c->dweight);
    gemm_print_c(p, &(GemmCall){.f64 = c->f64, .trans_a = 1, .m = "D", .n = "D", .k = "N", .alpha = one, .a = "rh",
                                .lda = "D", .b = "dg + 2 * D", .ldb = "3 * D", .beta = zero, .c = "dw + 2 * D * D",
                                .ldc = "D", .ws = c->ws});
    gemm_print_c(p, &(GemmCall){.f64 = c->f64, .trans_a = 1, .m = "D", .n = "2 * D", .k = "N", .alpha = one,
                                .a = "hp", .lda = "D", .b = "dg", .ldb = "3 * D", .beta = zero, .c = "dw",
                                .ldc = "2 * D", .ws = c->ws});
  }
  if (c->dh0) {
    pr_line(p, "/* HiddenPrev@GRAD: drh * r + dh * %s, then += dg[:, 0:2D] x w[0:2D*D]^T */",
            c->origin ? "u" : "(1 - u)");
    pr_line(p, "%s *dhp = %s;", t, c->dh0);
    pr_line(p, "for (int64_t i = 0; i < N; i++)");
    pr_line(p, "  for (int64_t j = 0; j < D; j++)");
    pr_line(p, "    dhp[i * D + j] = drh[i * D + j] * g[i * 3 * D + D + j] + dh[i * D + j] * %s;",
            c->origin ? "g[i * 3 * D + j]" : "(1 - g[i * 3 * D + j])");
    gemm_print_c(p, &(GemmCall){.f64 = c->f64, .trans_b = 1, .m = "N", .n = "D", .k = "2 * D", .alpha = one,
                                .a = "dg", .lda = "3 * D", .b = "w", .ldb = "2 * D", .beta = one, .c = "dhp",
                                .ldc = "D", .ws = c->ws});
  }
  if (c->dx) {
    pr_line(p, "/* Input@GRAD = dg */");
    pr_line(p, "memcpy(%s, dg, (size_t)(N * 3 * D) * sizeof(%s));", c->dx, t);
  }
  if (c->dbias) {
    pr_line(p, "/* Bias@GRAD: dg's column sums */");
    pr_line(p, "%s *db = %s;", t, c->dbias);
    pr_line(p, "for (int64_t j = 0; j < 3 * D; j++) {");
    pr_line(p, "%s s = 0;", t);
    pr_line(p, "for (int64_t i = 0; i < N; i++) s += dg[i * 3 * D + j];");
    pr_line(p, "db[j] = s;");
    pr_line(p, "}");
  }
}

/* `t v = init; v = act(v);` */
static void print_gate(Printer *p, const LodRnnCall *c, const char *v, const char *init, const char *act) {
  pr_line(p, "%s %s = %s;", c->f64 ? "double" : "float", v, init);
  print_act(p, act, v, c->f64);
}

static void print_lstm(Printer *p, const LodRnnCall *c) {
  const char *t = c->f64 ? "double" : "float";
  pr_line(p,
          "/* lstm over the LoD of input %d ('%s'): D %lld, %s, gate_activation %s, cell_activation %s, "
          "candidate_activation %s%s */",
          c->input, c->feed, (long long)c->d, c->reverse ? "reversed" : "forward", c->gate_act, c->cell_act, c->act,
          c->peepholes ? ", peepholes" : "");
  print_frame(p, c);
  pr_line(p, "const %s *w = %s; /* [D, 4D]: candidate, input, forget and output gates */", t, c->weight);
  pr_line(p, "const %s *b = %s; /* [4D] added to each row%s */", t, c->bias,
          c->peepholes ? ", then the input, forget and output peepholes [3D]" : "");
  pr_line(p, "%s *g = %s, *acc = g + 4 * D;", t, c->ws);
  if (c->h0_rows) pr_line(p, "if (N > %s) return 1; /* H0 and C0 hold one row per sequence */", c->h0_rows);
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  if (c->h0)
    pr_line(p, "const %s *h = %s + i * D; /* H0 row i starts sequence i */", t, c->h0);
  else
    pr_line(p, "const %s *h = NULL;", t);
  if (c->c0)
    pr_line(p, "const %s *cp = %s + i * D; /* and C0 row i */", t, c->c0);
  else
    pr_line(p, "const %s *cp = NULL;", t);
  print_step_open(p, c);
  pr_line(p, "const %s *x = %s + r * 4 * D;", t, c->x);
  pr_line(p, "%s *o = %s + r * D, *cell = %s + r * D;", t, c->out, c->cell);
  pr_line(p, "for (int64_t j = 0; j < 4 * D; j++) g[j] = x[j] + b[j];");
  print_matvec(p, "h", "w", "4 * D", "");
  pr_line(p, "for (int64_t j = 0; j < D; j++) {");
  pr_line(p, "const %s prev = cp ? cp[j] : 0;", t);
  print_gate(p, c, "a", "g[j]", c->act);
  print_gate(p, c, "ig", c->peepholes ? "g[D + j] + prev * b[4 * D + j]" : "g[D + j]", c->gate_act);
  print_gate(p, c, "fg", c->peepholes ? "g[2 * D + j] + prev * b[5 * D + j]" : "g[2 * D + j]", c->gate_act);
  pr_line(p, "const %s cs = a * ig + prev * fg;", t);
  print_gate(p, c, "og", c->peepholes ? "g[3 * D + j] + cs * b[6 * D + j]" : "g[3 * D + j]", c->gate_act);
  print_gate(p, c, "ca", "cs", c->cell_act);
  pr_line(p, "cell[j] = cs;");
  pr_line(p, "o[j] = og * ca;");
  pr_line(p, "}");
  pr_line(p, "h = o;");
  pr_line(p, "cp = cell;");
  pr_line(p, "}");
  pr_line(p, "}");
}

/* lstm_grad: the gates recomputed per sequence into scratch, then back
 * through each sequence. */
static void print_lstm_grad(Printer *p, const LodRnnCall *c) {
  const char *t = c->f64 ? "double" : "float";
  pr_line(p,
          "/* lstm_grad over the LoD of input %d ('%s'): D %lld, %s, gate_activation %s, cell_activation %s, "
          "candidate_activation %s%s */",
          c->input, c->feed, (long long)c->d, c->reverse ? "reversed" : "forward", c->gate_act, c->cell_act, c->act,
          c->peepholes ? ", peepholes" : "");
  print_frame(p, c);
  pr_line(p, "const int64_t T = %s;", c->rows);
  pr_line(p, "const %s *w = %s, *b = %s, *hidden = %s, *cells = %s, *dout = %s;", t, c->weight, c->bias, c->out,
          c->cell, c->dout);
  pr_line(p, "%s *G = %s, *dh = G + T * 4 * D, *ds = dh + D, *acc = ds + D;", t, c->ws);
  pr_line(p, "%s *dg = %s;", t, c->dx ? c->dx : "acc + 2 * D; /* Input@GRAD not asked for: scratch */");
  if (c->h0_rows) pr_line(p, "if (N > %s) return 1; /* H0 and C0 hold one row per sequence */", c->h0_rows);
  if (c->dweight) pr_line(p, "%s *dw = %s;", t, c->dweight);
  if (c->dweight) pr_line(p, "for (int64_t k = 0; k < 4 * D * D; k++) dw[k] = 0;");
  if (c->dbias) pr_line(p, "%s *db = %s;", t, c->dbias);
  if (c->dbias) pr_line(p, "for (int64_t k = 0; k < %d * D; k++) db[k] = 0;", c->peepholes ? 7 : 4);
  pr_line(p, "/* the forward's activated gates, row by row */");
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  pr_line(p, "const %s *h = %s;", t, c->h0 ? pool_printf("%s + i * D", c->h0) : "NULL");
  if (c->peepholes) pr_line(p, "const %s *cp = %s;", t, c->c0 ? pool_printf("%s + i * D", c->c0) : "NULL");
  print_step_open(p, c);
  pr_line(p, "const %s *x = %s + r * 4 * D;", t, c->x);
  pr_line(p, "%s *g = G + r * 4 * D;", t);
  pr_line(p, "for (int64_t j = 0; j < 4 * D; j++) g[j] = x[j] + b[j];");
  print_matvec(p, "h", "w", "4 * D", "");
  pr_line(p, "for (int64_t j = 0; j < D; j++) {");
  if (c->peepholes) pr_line(p, "const %s prev = cp ? cp[j] : 0;", t);
  print_gate(p, c, "a", "g[j]", c->act);
  print_gate(p, c, "ig", c->peepholes ? "g[D + j] + prev * b[4 * D + j]" : "g[D + j]", c->gate_act);
  print_gate(p, c, "fg", c->peepholes ? "g[2 * D + j] + prev * b[5 * D + j]" : "g[2 * D + j]", c->gate_act);
  print_gate(p, c, "og", c->peepholes ? "g[3 * D + j] + cells[r * D + j] * b[6 * D + j]" : "g[3 * D + j]",
             c->gate_act);
  pr_line(p, "g[j] = a, g[D + j] = ig, g[2 * D + j] = fg, g[3 * D + j] = og;");
  pr_line(p, "}");
  pr_line(p, "h = hidden + r * D;");
  if (c->peepholes) pr_line(p, "cp = cells + r * D;");
  pr_line(p, "}");
  pr_line(p, "}");
  pr_line(p, "/* back through each sequence from its last step */");
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  pr_line(p, "const int64_t len = lod[i + 1] - lod[i];");
  pr_line(p, "for (int64_t j = 0; j < D; j++) dh[j] = ds[j] = 0;");
  pr_line(p, "for (int64_t s = len - 1; s >= 0; s--) {");
  pr_line(p, "const int64_t r = %s;", c->reverse ? "lod[i + 1] - 1 - s" : "lod[i] + s");
  pr_line(p, "const int64_t pr = %s; /* the previous step's row */", c->reverse ? "r + 1" : "r - 1");
  pr_line(p, "const %s *h = s > 0 ? hidden + pr * D : %s;", t, c->h0 ? pool_printf("%s + i * D", c->h0) : "NULL");
  pr_line(p, "const %s *cp = s > 0 ? cells + pr * D : %s;", t, c->c0 ? pool_printf("%s + i * D", c->c0) : "NULL");
  pr_line(p, "const %s *g = G + r * 4 * D;", t);
  pr_line(p, "%s *dgr = dg + r * 4 * D;", t);
  pr_line(p, "for (int64_t j = 0; j < D; j++) {");
  pr_line(p, "const %s d = dout[r * D + j] + dh[j], a = g[j], ig = g[D + j], fg = g[2 * D + j], og = g[3 * D + j];",
          t);
  pr_line(p, "const %s cs = cells[r * D + j], prev = cp ? cp[j] : 0;", t);
  print_gate(p, c, "ca", "cs", c->cell_act);
  pr_line(p, "%s dog, dca, sg, dig, dfg;", t);
  print_act_grad(p, c->gate_act, "dog", "d * ca", "og", c->f64);
  print_act_grad(p, c->cell_act, "dca", "d * og", "ca", c->f64);
  pr_line(p, "sg = ds[j] + (dca + dog * %s);", c->peepholes ? "b[6 * D + j]" : "0");
  print_act_grad(p, c->act, "dgr[j]", "sg * ig", "a", c->f64);
  print_act_grad(p, c->gate_act, "dig", "sg * a", "ig", c->f64);
  print_act_grad(p, c->gate_act, "dfg", "sg * prev", "fg", c->f64);
  pr_line(p, "dgr[D + j] = dig, dgr[2 * D + j] = dfg, dgr[3 * D + j] = dog;");
  if (c->peepholes)
    pr_line(p, "ds[j] = dig * b[4 * D + j] + dfg * b[5 * D + j] + sg * fg; /* to the previous cell */");
  else
    pr_line(p, "ds[j] = sg * fg; /* to the previous cell */");
  if (c->dbias && c->peepholes) {
    pr_line(p, "db[4 * D + j] += dig * prev;");
    pr_line(p, "db[5 * D + j] += dfg * prev;");
    pr_line(p, "db[6 * D + j] += dog * cs;");
  }
  pr_line(p, "}");
  if (c->dc0) pr_line(p, "if (s == 0) for (int64_t j = 0; j < D; j++) %s[i * D + j] = ds[j];", c->dc0);
  pr_line(p, "/* the previous hidden state's gradient: dg x w^T; Weight@GRAD += h^T x dg */");
  pr_line(p, "for (int64_t j = 0; j < D; j++) {");
  pr_line(p, "%s sum = 0;", t);
  pr_line(p, "for (int64_t k = 0; k < 4 * D; k++) sum += dgr[k] * w[j * 4 * D + k];");
  pr_line(p, "dh[j] = h ? sum : 0;");
  pr_line(p, "}");
  if (c->dweight) {
    pr_line(p, "if (h)");
    pr_line(p, "  for (int64_t j = 0; j < D; j++)");
    pr_line(p, "    for (int64_t k = 0; k < 4 * D; k++) dw[j * 4 * D + k] += h[j] * dgr[k];");
  }
  pr_line(p, "}");
  if (c->dh0) pr_line(p, "for (int64_t j = 0; j < D; j++) %s[i * D + j] = dh[j];", c->dh0);
  pr_line(p, "}");
  const char *rows_past[2] = {c->dh0, c->dc0};
  for (int k = 0; k < 2; k++)
    if (rows_past[k]) pr_line(p, "for (int64_t k = N * D; k < %s * D; k++) %s[k] = 0;", c->h0_rows, rows_past[k]);
  if (c->dbias) {
    pr_line(p, "/* Bias@GRAD[0:4D]: the gates' gradient summed over the rows */");
    pr_line(p, "for (int64_t j = 0; j < 4 * D; j++) {");
    pr_line(p, "%s sum = 0;", t);
    pr_line(p, "for (int64_t r = 0; r < T; r++) sum += dg[r * 4 * D + j];");
    pr_line(p, "db[j] = sum;");
    pr_line(p, "}");
  }
}

static void print_crf(Printer *p, const LodRnnCall *c) {
  const char *t = c->f64 ? "double" : "float";
  if (c->length) {
    pr_line(p, "/* crf_decoding over padded sequences (Length): Viterbi over %lld tags%s */", (long long)c->k,
            c->label ? ", then the path compared with Label" : "");
    pr_line(p, "const int64_t N = %s, S = %s, K = %lld, T = N * S;", c->n, c->s, (long long)c->k);
    pr_line(p, "const int64_t *length = %s;", c->length);
    pr_line(p, "for (int64_t i = 0; i < N; i++)");
    pr_line(p, "  if (length[i] < 0 || length[i] > S) return 1; /* Paddle would read past the row */");
  } else {
    pr_line(p, "/* crf_decoding over the LoD of input %d ('%s'): Viterbi over %lld tags%s */", c->input, c->feed,
            (long long)c->k, c->label ? ", then the path compared with Label" : "");
    pr_line(p, "const int64_t *lod = m->lod[%d];", c->input);
    pr_line(p, "const int64_t N = m->lod_count[%d] - 1, K = %lld, T = %s;", c->input, (long long)c->k, c->rows);
  }
  pr_line(p, "const %s *w = %s; /* start row, end row, then [K, K] */", t, c->trans);
  pr_line(p, "int64_t *path = %s;", c->out);
  pr_line(p, "%s *alpha = %s;", t, c->alpha);
  pr_line(p, "int *track = %s;", c->track);
  pr_line(p, "for (int64_t r = 0; r < T; r++) path[r] = 0;");
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  if (c->length) {
    pr_line(p, "const int64_t start = i * S, len = length[i];");
  } else {
    pr_line(p, "const int64_t start = lod[i], len = lod[i + 1] - lod[i];");
  }
  pr_line(p, "if (len == 0) continue;");
  pr_line(p, "const %s *x = %s + start * K;", t, c->x);
  pr_line(p, "int64_t *pa = path + start;");
  pr_line(p, "for (int64_t j = 0; j < K; j++) alpha[j] = w[j] + x[j];");
  pr_line(p, "for (int64_t s = 1; s < len; s++) {");
  pr_line(p, "for (int64_t j = 0; j < K; j++) {");
  pr_line(p, "%s best = %s; /* -max of the type */", t, c->f64 ? "-1.7976931348623157e+308" : "-3.40282347e+38f");
  pr_line(p, "int from = 0;");
  pr_line(p, "for (int64_t q = 0; q < K; q++) {");
  pr_line(p, "const %s score = alpha[(s - 1) * K + q] + w[(q + 2) * K + j];", t);
  pr_line(p, "if (score > best) {");
  pr_line(p, "best = score;");
  pr_line(p, "from = (int)q;");
  pr_line(p, "}");
  pr_line(p, "}");
  pr_line(p, "alpha[s * K + j] = best + x[s * K + j];");
  pr_line(p, "track[s * K + j] = from;");
  pr_line(p, "}");
  pr_line(p, "}");
  pr_line(p, "%s best = %s; /* -max of the type */", t, c->f64 ? "-1.7976931348623157e+308" : "-3.40282347e+38f");
  pr_line(p, "int last = 0;");
  pr_line(p, "for (int64_t j = 0; j < K; j++) {");
  pr_line(p, "const %s score = alpha[(len - 1) * K + j] + w[K + j];", t);
  pr_line(p, "if (score > best) {");
  pr_line(p, "best = score;");
  pr_line(p, "last = (int)j;");
  pr_line(p, "}");
  pr_line(p, "}");
  pr_line(p, "pa[len - 1] = last;");
  pr_line(p, "for (int64_t s = len - 1; s >= 1; s--) pa[s - 1] = last = track[s * K + last];");
  pr_line(p, "}");
  if (c->label && c->length) {
    pr_line(p, "for (int64_t i = 0; i < N; i++)");
    pr_line(p, "  for (int64_t j = 0; j < S; j++)");
    pr_line(p, "    path[i * S + j] = j < length[i] && %s[i * S + j] == path[i * S + j] ? 1 : 0;", c->label);
  } else if (c->label) {
    pr_line(p, "for (int64_t r = 0; r < T; r++) path[r] = %s[r] == path[r] ? 1 : 0;", c->label);
  }
}

void lodrnn_print_c(Printer *p, const LodRnnCall *c) {
  switch (c->kind) {
    case LODRNN_GRU:
      print_gru(p, c);
      break;
    case LODRNN_GRU_UNIT:
      print_gru_unit(p, c);
      break;
    case LODRNN_GRU_UNIT_GRAD:
      print_gru_unit_grad(p, c);
      break;
    case LODRNN_GRU_GRAD:
      print_gru_grad(p, c);
      break;
    case LODRNN_LSTM:
      print_lstm(p, c);
      break;
    case LODRNN_LSTM_GRAD:
      print_lstm_grad(p, c);
      break;
    case LODRNN_CRF:
      print_crf(p, c);
      break;
  }
}

static int known_act(const char *a) {
  return !strcmp(a, "sigmoid") || !strcmp(a, "tanh") || !strcmp(a, "relu") || !strcmp(a, "identity");
}

int lodrnn_check(EmitCtx *e, const Var *x, const Var *const *same, int nsame, const char *const *batch, int nbatch,
                 LodRnnAct *acts, int nacts) {
  if (x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64)
    return em_fail(e, "Input ('%s') is %s; Paddle's CPU kernel takes float32 and float64", x->name,
                   rt_dtype_name(x->dtype));
  for (int i = 0; i < nsame; i++)
    if (same[i] && same[i]->dtype != x->dtype)
      return em_fail(e, "'%s' is %s, Input %s", same[i]->name, rt_dtype_name(same[i]->dtype),
                     rt_dtype_name(x->dtype));
  OpCtx c = {e->g, (Op *)e->op};
  for (int i = 0; i < nbatch; i++) {
    Var *v = ctx_out(&c, batch[i], 0);
    const char *grad = pool_printf("%s_grad", e->op->type);
    int read = v && (v->flags & VAR_FETCH);
    for (int k = 0; v && k < v->nusers; k++)
      if (strcmp(e->g->ops[v->users[k]].type, grad)) read = 1;
    if (read)
      return em_fail(e, "%s ('%s') is read; paddlec does not write Paddle's time-major intermediates", batch[i],
                     v->name);
  }
  for (int i = 0; i < nacts; i++) {
    acts[i].value = attr_str(e->op, acts[i].attr, acts[i].dflt);
    if (!known_act(acts[i].value))
      return em_fail(e, "%s '%s' must be sigmoid, tanh, relu or identity", acts[i].attr, acts[i].value);
  }
  const char *why;
  int in = op_lod_input(e->g, e->spec, x, &why);
  if (in < 0) return em_fail(e, "Input ('%s') must carry a level-1 LoD (a feed's or one an op makes): %s", x->name, why);
  em_reads_lod(e, in);
  return in;
}

int lodrnn_crf_dtypes(EmitCtx *e, const Var *emission, const Var *transition) {
  if (emission->dtype != RT_DT_FP32 && emission->dtype != RT_DT_FP64)
    return em_fail(e, "Emission ('%s') is %s; Paddle's CPU kernel takes float32 and float64", emission->name,
                   rt_dtype_name(emission->dtype));
  if (transition->dtype != emission->dtype)
    return em_fail(e, "Transition ('%s') is %s, Emission %s", transition->name, rt_dtype_name(transition->dtype),
                   rt_dtype_name(emission->dtype));
  return 0;
}

int lodrnn_same_attrs(EmitCtx *e, const Var *hid, const char *const *bools, const char *const *strs) {
  if (hid->producer < 0) return 0;
  const Op *fwd = &e->g->ops[hid->producer];
  for (int i = 0; bools[i]; i++)
    if (attr_bool(fwd, bools[i], 0) != attr_bool(e->op, bools[i], 0))
      return em_fail(e, "attribute %s differs from its forward op's (%s): the grad recomputes that forward", bools[i],
                     graph_op_where(e->g, fwd));
  for (int i = 0; strs[i]; i++)
    if (strcmp(attr_str(fwd, strs[i], ""), attr_str(e->op, strs[i], "")))
      return em_fail(e, "attribute %s differs from its forward op's (%s): the grad recomputes that forward", strs[i],
                     graph_op_where(e->g, fwd));
  return 0;
}
