/* The C printer of softmax and attention calls (attention_call.h). */
#include "attention_call.h"

#include "../util.h"

/* phi SoftmaxGradFunctor / LogSoftmaxGradFunctor per line of [n, c, r]:
 * the sum in double, in class order, then each element. */
static void print_softmax_grad(Printer *p, const AttentionCall *c) {
  const char *t = c->f64 ? "double" : "float";
  const int is_log = c->kind == ATTN_LOG_SOFTMAX_GRAD;
  pr_line(p, "const %s *out = %s;", t, c->out);
  pr_line(p, "const %s *dout = %s;", t, c->dout);
  pr_line(p, "%s *dx = %s;", t, c->dx);
  pr_line(p, "const int64_t n = %s, c = %s, r = %s;", c->outer, c->n, c->inner);
  pr_line(p, "for (int64_t i = 0; i < n; i++) {");
  pr_line(p, "for (int64_t j = 0; j < r; j++) {");
  pr_line(p, "const int64_t at = i * c * r + j;");
  pr_line(p, "double acc = 0.0;");
  pr_line(p, "for (int64_t k = 0; k < c; k++) acc += (double)dout[at + k * r]%s;", is_log ? "" : " * out[at + k * r]");
  pr_line(p, "const %s s = (%s)acc;", t, t);
  if (is_log)
    pr_line(p, "for (int64_t k = 0; k < c; k++) dx[at + k * r] = dout[at + k * r] - %s(out[at + k * r]) * s;",
            c->f64 ? "exp" : "expf");
  else
    pr_line(p, "for (int64_t k = 0; k < c; k++) dx[at + k * r] = (dout[at + k * r] - s) * out[at + k * r];");
  pr_line(p, "}");
  pr_line(p, "}");
}

/* A buffer of the io, or NULL. */
static const char *or_null(const char *ptr) { return ptr ? ptr : "NULL"; }

/* fused_attention's geometry and tensors as the constants `geo` and `io`,
 * then the call. */
static void print_fused(Printer *p, const AttentionCall *c) {
  const RtAttention *g = &c->geo;
  const AttentionIo *io = &c->io;
  const char *s = pool_printf("%lld", (long long)g->s), *sk = pool_printf("%lld", (long long)g->sk), *ms[4];
  for (int i = 0; i < 4; i++)
    ms[i] = c->run_mask_stride[i] ? c->run_mask_stride[i] : pool_printf("%lld", (long long)g->mask_stride[i]);
  const int run = c->run_s || c->run_sk;
  if (run) pr_line(p, "/* the run's sequence lengths (their bounds: the comment above) */");
  pr_line(p, "%sconst RtAttention geo = {", run ? "" : "static ");
  pr_line(p, ".s = %s, .sk = %s, .eq = %lld, .ek = %lld, .ev = %lld, .heads = %lld, .dh = %lld, .eo = %lld,",
          c->run_s ? c->run_s : s, c->run_sk ? c->run_sk : sk, (long long)g->eq, (long long)g->ek, (long long)g->ev,
          (long long)g->heads, (long long)g->dh, (long long)g->eo);
  pr_line(p, ".scale = %s, .mask_stride = {%s, %s, %s, %s}, .post_ln = %d, .ln_eps = %s,", em_float(g->scale), ms[0],
          ms[1], ms[2], ms[3], g->post_ln, em_float(g->ln_eps));
  pr_line(p, "};");
  pr_line(p, "const RtAttentionIo io = {");
  pr_line(p, ".xq = %s, .xk = %s, .xv = %s,", io->xq, io->xk, io->xv);
  pr_line(p, ".wq = %s, .wk = %s, .wv = %s,", io->wq, io->wk, io->wv);
  pr_line(p, ".bq = %s, .bk = %s, .bv = %s,", or_null(io->bq), or_null(io->bk), or_null(io->bv));
  pr_line(p, ".mask = %s, .wo = %s, .bo = %s, .res = %s,", or_null(io->mask), io->wo, or_null(io->bo),
          or_null(io->res));
  pr_line(p, ".ln_scale = %s, .ln_bias = %s,", or_null(io->ln_scale), or_null(io->ln_bias));
  pr_line(p, "};");
  pr_line(p, "rt_attention(&geo, %s, &io, %s, %s, %s);", c->batch, c->out, c->ws, c->gemm_ws);
}

void attention_print_c(Printer *p, const AttentionCall *c) {
  switch (c->kind) {
    case ATTN_SOFTMAX:
    case ATTN_LOG_SOFTMAX:
      pr_line(p, "rt_%ssoftmax%s(%s, %s, %s, %s, %s);", c->kind == ATTN_LOG_SOFTMAX ? "log_" : "", c->f64 ? "_f64" : "",
              c->x, c->out, c->outer, c->n, c->inner);
      break;
    case ATTN_SOFTMAX_GRAD:
    case ATTN_LOG_SOFTMAX_GRAD:
      print_softmax_grad(p, c);
      break;
    case ATTN_FUSED:
      print_fused(p, c);
      break;
  }
}
