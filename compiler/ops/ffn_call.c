/* The C printer of fused feed-forward blocks (ffn_call.h). */
#include "ffn_call.h"

#include "gemm_call.h"
#include "norm_call.h"

void ffn_print_c(Printer *p, const FfnCall *c) {
  pr_line(p, "const int64_t M = %s, E = %lld, F = %lld, E2 = %lld;", c->m, (long long)c->e, (long long)c->f,
          (long long)c->e2);
  pr_line(p, "float *hidden = (float *)%s;", c->hidden);
  pr_line(p, "const RtEpilogue ep1 = {%s, NULL, 0, %s, %s, %s};", c->b1 ? c->b1 : "NULL", em_act_name(c->act),
          c->alpha, c->beta);
  gemm_print_c(p, &(GemmCall){.m = "M", .n = "F", .k = "E", .a = c->x, .lda = "E", .b = c->w1, .ldb = "F",
                              .c = "hidden", .ldc = "F", .ws = c->ws, .ep = "ep1"});
  pr_line(p, "const RtEpilogue ep2 = {%s, %s, E2, RT_ACT_NONE, 0.0f, 0.0f};", c->b2 ? c->b2 : "NULL",
          c->residual ? c->residual : "NULL");
  gemm_print_c(p, &(GemmCall){.m = "M", .n = "E2", .k = "F", .a = "hidden", .lda = "F", .b = c->w2, .ldb = "E2",
                              .c = c->out, .ldc = "E2", .ws = c->ws, .ep = "ep2"});
  if (c->layer_norm)
    norm_print_c(p, &(NormCall){.kind = NORM_LAYER, .rows = "M", .cols = "E2", .eps = c->eps, .x = c->out,
                                .y = c->out, .scale = c->scale, .bias = c->bias});
}
