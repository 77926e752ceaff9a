/* The C printer of matrix products (gemm_call.h). */
#include "gemm_call.h"

void einsum_print_c(Printer *p, const EinsumCall *c) {
  pr_line(p, "rt_einsum_%s(&%s, %s, %s);", c->f64 ? "f64" : "f32", c->geo, c->operands, c->out);
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
