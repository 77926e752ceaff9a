/* The C printer of softmax and attention calls (attention_call.h). */
#include "attention_call.h"

void attention_print_c(Printer *p, const AttentionCall *c) {
  switch (c->kind) {
    case ATTN_SOFTMAX:
    case ATTN_LOG_SOFTMAX:
      pr_line(p, "rt_%ssoftmax%s(%s, %s, %s, %s, %s);", c->kind == ATTN_LOG_SOFTMAX ? "log_" : "", c->f64 ? "_f64" : "",
              c->x, c->out, c->outer, c->n, c->inner);
      break;
    case ATTN_FUSED:
      pr_line(p, "rt_attention(&%s, %s, &%s, %s, %s, %s);", c->geo, c->batch, c->io, c->out, c->ws, c->gemm_ws);
      break;
  }
}
