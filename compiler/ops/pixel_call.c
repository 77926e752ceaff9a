/* The C printer of pixel-shuffle copies (pixel_call.h). */
#include "pixel_call.h"

#include "../util.h"

void pixel_print_c(Printer *p, const PixelCall *c) {
  pr_line(p, "const %s *src = %s;", c->type, c->src);
  pr_line(p, "%s *dst = %s;", c->type, c->dst);
  pr_line(p, "const int64_t C = %lld, H = %s, W = %s, R = %lld;", (long long)c->C, c->H, c->W, (long long)c->R);
  pr_line(p, "for (int64_t n = 0; n < %s; n++) {", c->batch);
  pr_line(p, "for (int64_t c = 0; c < C; c++) {");
  pr_line(p, "for (int64_t i = 0; i < R; i++) {");
  pr_line(p, "for (int64_t j = 0; j < R; j++) {");
  pr_line(p, "const int64_t cin = (c * R + i) * R + j;");
  pr_line(p, "for (int64_t h = 0; h < H; h++) {");
  pr_line(p, "for (int64_t w = 0; w < W; w++) {");
  const char *b = c->last ? "((n * H * R + h * R + i) * W * R + w * R + j) * C + c"
                          : "((n * C + c) * H * R + h * R + i) * W * R + w * R + j";
  const char *sm = c->last ? "((n * H + h) * W + w) * C * R * R + cin" : "((n * C * R * R + cin) * H + h) * W + w";
  pr_line(p, "dst[%s] = src[%s];", c->from_big ? sm : b, c->from_big ? b : sm);
  for (int i = 0; i < 6; i++) pr_line(p, "}");
}
