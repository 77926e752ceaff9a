/* The C printer of matrix products and einsum contractions (gemm_call.h). */
#include "gemm_call.h"

#include "../util.h"

/* s[0..n) joined by sep. */
static const char *join(const char *const *s, int n, const char *sep) {
  const char *r = "";
  for (int k = 0; k < n; k++) r = pool_printf("%s%s%s", r, k ? sep : "", s[k]);
  return r;
}

/* The contraction's arrays, its RtEinsum `geo`, the operands and the call. */
static void print_contraction(Printer *p, const EinsumCall *c, const EinsumContraction *k) {
  const int nl = k->nlabels, nout = k->nout, n = k->nops;
  pr_line(p, "/* \"%s\": labels %s (the first %d index %s, the rest are summed) */", c->equation,
          nl ? join(k->label, nl, " ") : "(none)", nout, k->target);
  pr_line(p, "const int64_t size[%d] = {%s};", nl ? nl : 1, nl ? join(k->size, nl, ", ") : "0");
  for (int i = 0; i < n; i++)
    pr_line(p, "const int64_t stride%d[%d] = {%s};", i, nl ? nl : 1, nl ? join(k->stride[i], nl, ", ") : "0");
  pr_line(p, "const int64_t out_stride[%d] = {%s};", nout ? nout : 1, nout ? join(k->out_stride, nout, ", ") : "0");
  pr_line(p, "const RtEinsum geo = {.nops = %d, .nlabels = %d, .nout = %d, .size = size,", n, nl, nout);
  pr_line(p, "                      .stride = {stride0%s}, .out_stride = out_stride,", n > 1 ? ", stride1" : "");
  pr_line(p, "                      .out_numel = %s, .zero_out = %d};", k->out_numel, k->zero_out);
  pr_line(p, "const %s *const operands[%d] = {%s%s%s};", c->type, n, k->operands[0], n > 1 ? ", " : "",
          n > 1 ? k->operands[1] : "");
  pr_line(p, "rt_einsum_%s(&geo, operands, %s);", c->f64 ? "f64" : "f32", k->out);
}

void einsum_print_c(Printer *p, const EinsumCall *c) {
  switch (c->kind) {
    case EINSUM_FORWARD:
      print_contraction(p, c, &c->contract[0]);
      for (int i = 0; i < c->contract[0].nops; i++)
        if (c->cache[i])
          pr_line(p, "memcpy(%s, %s, sizeof(%s) * %s); /* InnerCache[%d]: operand %d for einsum_grad */", c->cache[i],
                  c->contract[0].operands[i], c->type, c->cache_numel[i], i, i);
      break;
    case EINSUM_GRAD:
      for (int j = 0; j < c->ncontract; j++) {
        pr_line(p, "/* Operands@GRAD[%d] */", c->contract[j].grad);
        pr_line(p, "{");
        print_contraction(p, c, &c->contract[j]);
        pr_line(p, "}");
      }
      break;
  }
}

void gemm_print_c(Printer *p, const GemmCall *g) {
  if (g->ep)
    pr_line(p, "rt_sgemm_ep(%d, %d, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, &%s);", g->trans_a, g->trans_b, g->m, g->n,
            g->k, g->a, g->lda, g->b, g->ldb, g->c, g->ldc, g->ws, g->ep);
  else if (g->f64)
    pr_line(p, "rt_dgemm(%d, %d, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s);", g->trans_a, g->trans_b, g->m, g->n,
            g->k, g->alpha, g->a, g->lda, g->b, g->ldb, g->beta, g->c, g->ldc);
  else
    pr_line(p, "rt_sgemm_ws(%d, %d, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s);", g->trans_a, g->trans_b, g->m,
            g->n, g->k, g->alpha, g->a, g->lda, g->b, g->ldb, g->beta, g->c, g->ldc, g->ws);
}

/* The locals a named kernel declares, by GemmOperand. */
static const char *const operand_name[GEMM_NOPERANDS] = {"x", "y", "out", "dout", "dx", "dy"};
static const int operand_read[GEMM_NOPERANDS] = {1, 1, 0, 1, 0, 0};

void matmul_print_c(Printer *p, const MatmulCall *c) {
  const char *t = c->f64 ? "double" : "float";
  if (c->block) pr_line(p, "{");
  for (int i = 0; c->named && i < GEMM_NOPERANDS; i++)
    if (c->ptr[i]) pr_line(p, "%s%s *%s = %s;", operand_read[i] ? "const " : "", t, operand_name[i], c->ptr[i]);
  if (c->mkn)
    pr_line(p, "const int64_t M = %s, K = %s, N = %s;", c->m, c->k, c->n);
  else
    pr_line(p, "const int64_t M = %s, N = %s, K = %s;", c->m, c->n, c->k);
  if (c->ep)
    pr_line(p, "const RtEpilogue ep = {%s, %s, %s, %s, %s, %s};", c->bias ? c->bias : "NULL",
            c->residual ? c->residual : "NULL", c->ldr ? c->ldr : "0", c->act, c->act_alpha, c->act_beta);
  /* the batch walk: n<i> the dim, xs<i> / ys<i> 0 where X / Y is broadcast;
   * each operand's offset in the loops over i<i>, the innermost dim last */
  for (int i = 0; i < c->nbatch; i++) {
    pr_line(p, "const int64_t n%d = %s;", i, c->bdim[i]);
    pr_line(p, "const int64_t xs%d = %s, ys%d = %s;", i, c->xbcast[i] ? "0" : "1", i, c->ybcast[i] ? "0" : "1");
  }
  const char *xo = "0", *yo = "0", *oo = "0";
  const char *xstride = "M * K", *ystride = "K * N", *ostride = "M * N";
  for (int i = c->nbatch - 1; i >= 0; i--) {
    xo = pool_printf("%s + i%d * xs%d * (%s)", xo, i, i, xstride);
    yo = pool_printf("%s + i%d * ys%d * (%s)", yo, i, i, ystride);
    oo = pool_printf("%s + i%d * (%s)", oo, i, ostride);
    xstride = pool_printf("%s * (xs%d ? n%d : 1)", xstride, i, i);
    ystride = pool_printf("%s * (ys%d ? n%d : 1)", ystride, i, i);
    ostride = pool_printf("%s * n%d", ostride, i);
  }
  const char *const off[GEMM_NOPERANDS] = {xo, yo, oo, oo, xo, yo};
  if (c->zero_dx) pr_line(p, "for (int64_t i = 0; i < %s; i++) dx[i] = 0;", c->zero_dx);
  if (c->zero_dy) pr_line(p, "for (int64_t i = 0; i < %s; i++) dy[i] = 0;", c->zero_dy);
  for (int i = 0; i < c->nbatch; i++) pr_line(p, "for (int64_t i%d = 0; i%d < n%d; i%d++) {", i, i, i, i);
  for (int j = 0; j < c->nprod; j++) {
    const GemmProduct *g = &c->prod[j];
    const char *arg[3];
    const GemmOperand op[3] = {g->a, g->b, g->c};
    for (int q = 0; q < 3; q++) {
      arg[q] = c->named ? operand_name[op[q]] : c->ptr[op[q]];
      if (c->batched) arg[q] = pool_printf("%s + (%s)", arg[q], off[op[q]]);
    }
    const char *beta = c->ep ? NULL : c->f64 ? (g->acc ? "1.0" : "0.0") : (g->acc ? "1.0f" : "0.0f");
    gemm_print_c(p, &(GemmCall){.f64 = c->f64, .trans_a = g->trans_a, .trans_b = g->trans_b, .m = g->m, .n = g->n,
                                .k = g->k, .alpha = g->alpha, .a = arg[0], .lda = g->lda, .b = arg[1], .ldb = g->ldb,
                                .c = arg[2], .ldc = g->ldc, .beta = beta, .ws = g->ws, .ep = c->ep ? "ep" : NULL});
  }
  pr_close(p, c->nbatch);
  if (c->block) pr_line(p, "}");
}
