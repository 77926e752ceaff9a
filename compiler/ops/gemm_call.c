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
        pr_line(p, "{ /* Operands@GRAD[%d] */", c->contract[j].grad);
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
