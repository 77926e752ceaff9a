/* The C printer of image / column-matrix moves (fold_call.h). */
#include "fold_call.h"

#include "../util.h"

/* The loop over column elements: channel c of the column matrix, its
 * block (y, x) and the image position (iy, ix) it maps to.  Closed by
 * three "}". */
static void open_columns(Printer *p, const FoldCall *c) {
  const long long kh = c->k[0], kw = c->k[1];
  const char *bh = c->run_bh ? "bh" : pool_printf("%lld", (long long)c->bh);
  const char *bw = c->run_bh ? "bw" : pool_printf("%lld", (long long)c->bw);
  pr_line(p, "for (int64_t c = 0; c < %lld; c++) {", (long long)c->C * kh * kw);
  pr_line(p, "const int64_t j = c %% %lld, i = c / %lld %% %lld, ch = c / %lld;", kw, kw, kh, kh * kw);
  pr_line(p, "for (int64_t y = 0; y < %s; y++) {", bh);
  pr_line(p, "const int64_t iy = y * %lld - %lld + i * %lld;", (long long)c->s[0], (long long)c->pad[0],
          (long long)c->d[0]);
  pr_line(p, "for (int64_t x = 0; x < %s; x++) {", bw);
  pr_line(p, "const int64_t ix = x * %lld - %lld + j * %lld;", (long long)c->s[1], (long long)c->pad[1],
          (long long)c->d[1]);
  pr_line(p, "const int64_t at = (c * %s + y) * %s + x;", bh, bw);
  pr_line(p, "const int inside = iy >= 0 && iy < H && ix >= 0 && ix < W;");
}

void fold_print_c(Printer *p, const FoldCall *c) {
  const int to_img = c->kind == FOLD_COL2IM;
  const char *img_size = pool_printf("%lld", (long long)(c->C * c->H * c->W));
  const char *col_size = pool_printf("%lld", (long long)(c->C * c->k[0] * c->k[1] * c->bh * c->bw));
  if (c->run_h) { /* the run's sizes */
    pr_line(p, "const int64_t H = %s, W = %s;", c->run_h, c->run_w);
    pr_line(p, "const int64_t bh = %s, bw = %s;", c->run_bh, c->run_bw);
    img_size = pool_printf("%lld * H * W", (long long)c->C);
    col_size = pool_printf("%lld * bh * bw", (long long)(c->C * c->k[0] * c->k[1]));
  } else {
    pr_line(p, "const int64_t H = %lld, W = %lld;", (long long)c->H, (long long)c->W);
  }
  pr_line(p, "for (int64_t n = 0; n < %s; n++) {", c->batch);
  pr_line(p, "const %s *src = %s + n * %s;", c->type, c->src, to_img ? col_size : img_size);
  pr_line(p, "%s *dst = %s + n * %s;", c->type, c->dst, to_img ? img_size : col_size);
  if (to_img) pr_line(p, "memset(dst, 0, %s * sizeof *dst);", img_size);
  open_columns(p, c);
  if (to_img)
    pr_line(p, "if (inside) dst[(ch * H + iy) * W + ix] += src[at];");
  else
    pr_line(p, "dst[at] = inside ? src[(ch * H + iy) * W + ix] : (%s)0;", c->type);
  for (int i = 0; i < 4; i++) pr_line(p, "}");
}
