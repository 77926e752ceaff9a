/* SeqCall's C printer (seq_call.h): the sequence kernels' loops. */
#include "seq_call.h"

#include <stdlib.h>
#include <string.h>

#include "gemm_call.h"

/* The LoD's offsets and its number of sequences N, as locals. */
static void print_lod(Printer *p, const SeqCall *c) {
  pr_line(p, "const int64_t *lod = m->lod[%d];", c->input);
  pr_line(p, "const int64_t N = m->lod_count[%d] - 1;", c->input);
}

static void print_pool(Printer *p, const SeqCall *c) {
  const char *t = c->f64 ? "double" : "float";
  const char *pt = c->pooltype;
  int max = !strcmp(pt, "MAX");
  pr_line(p, "/* sequence_pool %s over the LoD of input %d ('%s') */", pt, c->input, c->feed);
  pr_line(p, "const int64_t *lod = m->lod[%d];", c->input);
  pr_line(p, "const int64_t N = m->lod_count[%d] - 1, W = %s;", c->input, c->width);
  for (int k = 0; k < 2; k++)
    if (c->extents[k]) pr_line(p, "%s = N;", c->extents[k]);
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  pr_line(p, "const int64_t h = lod[i + 1] - lod[i];");
  pr_line(p, "%s *o = %s + i * W;", t, c->out);
  pr_line(p, "const %s *s = %s + lod[i] * W;", t, c->x);
  if (max && c->index) pr_line(p, "int32_t *ix = %s + i * W;", c->index);
  pr_line(p, "if (h == 0) {");
  pr_line(p, "for (int64_t j = 0; j < W; j++) o[j] = %s;", c->pad);
  if (max && c->index) pr_line(p, "for (int64_t j = 0; j < W; j++) ix[j] = -1;");
  pr_line(p, "continue;");
  pr_line(p, "}");
  if (!strcmp(pt, "FIRST")) {
    pr_line(p, "for (int64_t j = 0; j < W; j++) o[j] = s[j];");
  } else if (!strcmp(pt, "LAST")) {
    pr_line(p, "for (int64_t j = 0; j < W; j++) o[j] = s[(h - 1) * W + j];");
  } else if (max) {
    pr_line(p, "for (int64_t j = 0; j < W; j++) o[j] = s[j];");
    if (c->index) pr_line(p, "for (int64_t j = 0; j < W; j++) ix[j] = (int32_t)lod[i];");
    pr_line(p, "for (int64_t r = 1; r < h; r++) {");
    pr_line(p, "for (int64_t j = 0; j < W; j++) {");
    if (c->index) {
      pr_line(p, "if (s[r * W + j] > o[j]) {");
      pr_line(p, "o[j] = s[r * W + j];");
      pr_line(p, "ix[j] = (int32_t)(lod[i] + r);");
      pr_line(p, "}");
    } else {
      pr_line(p, "if (s[r * W + j] > o[j]) o[j] = s[r * W + j];");
    }
    pr_line(p, "}");
    pr_line(p, "}");
  } else { /* AVERAGE, SUM, SQRT: the rows added in order */
    pr_line(p, "for (int64_t j = 0; j < W; j++) o[j] = s[j];");
    pr_line(p, "for (int64_t r = 1; r < h; r++)");
    pr_line(p, "  for (int64_t j = 0; j < W; j++) o[j] += s[r * W + j];");
    if (!strcmp(pt, "AVERAGE"))
      pr_line(p, "for (int64_t j = 0; j < W; j++) o[j] /= (%s)h;", t);
    else if (!strcmp(pt, "SQRT"))
      pr_line(p, "for (int64_t j = 0; j < W; j++) o[j] /= %s((%s)h);", c->f64 ? "sqrt" : "sqrtf", t);
  }
  pr_line(p, "}");
}

static void print_conv(Printer *p, const SeqCall *c) {
  const char *t = c->f64 ? "double" : "float";
  pr_line(p, "/* sequence_conv over the LoD of input %d ('%s'): contextStart %d, contextLength %d */", c->input,
          c->feed, c->start, c->length);
  print_lod(p, c);
  pr_line(p, "const int64_t T = %s, C = %s, M = %s, LC = %d * C;", c->rows, c->width, c->m, c->length);
  pr_line(p, "memset(%s, 0, (size_t)(T * LC) * sizeof(%s));", c->col, t);
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  pr_line(p, "for (int64_t r = lod[i]; r < lod[i + 1]; r++) {");
  pr_line(p, "/* col row r: the rows r %s %d ... r %s %d of x that lie in r's sequence, 0 for the others */",
          c->start < 0 ? "-" : "+", abs(c->start), c->start + c->length - 1 < 0 ? "-" : "+",
          abs(c->start + c->length - 1));
  pr_line(p, "for (int64_t j = 0; j < %d; j++) {", c->length);
  pr_line(p, "const int64_t from = r + j %s %d;", c->start < 0 ? "-" : "+", abs(c->start));
  pr_line(p, "if (from >= lod[i] && from < lod[i + 1])");
  pr_line(p, "  memcpy(%s + r * LC + j * C, %s + from * C, (size_t)C * sizeof(%s));", c->col, c->x, t);
  pr_line(p, "}");
  pr_line(p, "}");
  pr_line(p, "}");
  gemm_print_c(p, &(GemmCall){.f64 = c->f64, .m = "T", .n = "M", .k = "LC", .alpha = c->f64 ? "1.0" : "1.0f",
                              .a = c->col, .lda = "LC", .b = c->filter, .ldb = "M", .beta = c->f64 ? "0.0" : "0.0f",
                              .c = c->out, .ldc = "M", .ws = c->ws});
}

static void print_softmax(Printer *p, const SeqCall *c) {
  const char *t = c->f64 ? "double" : "float", *ex = c->f64 ? "exp" : "expf";
  pr_line(p, "/* sequence_softmax over the LoD of input %d ('%s') */", c->input, c->feed);
  print_lod(p, c);
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  pr_line(p, "%s s = 0;", t);
  pr_line(p, "for (int64_t r = lod[i]; r < lod[i + 1]; r++) s += %s(%s[r]);", ex, c->x);
  pr_line(p, "for (int64_t r = lod[i]; r < lod[i + 1]; r++) %s[r] = %s(%s[r]) / s;", c->out, ex, c->x);
  pr_line(p, "}");
}

static void print_reverse(Printer *p, const SeqCall *c) {
  pr_line(p, "/* sequence_reverse over the LoD of input %d ('%s') */", c->input, c->feed);
  print_lod(p, c);
  pr_line(p, "const size_t row = (size_t)(%s) * %d;", c->width, c->esize);
  pr_line(p, "for (int64_t i = 0; i < N; i++)");
  pr_line(p, "  for (int64_t r = lod[i]; r < lod[i + 1]; r++)");
  pr_line(p, "    memcpy((char *)%s + (size_t)r * row, (const char *)%s + (size_t)(lod[i] + lod[i + 1] - 1 - r) * row, "
             "row);", c->out, c->x);
}

static void print_expand_as(Printer *p, const SeqCall *c) {
  pr_line(p, "/* sequence_expand_as by the LoD of input %d ('%s') */", c->input, c->feed);
  print_lod(p, c);
  if (c->rows) pr_line(p, "if (N != %s) return 1; /* X: a row per sequence */", c->rows);
  pr_line(p, "const size_t row = (size_t)(%s) * %d;", c->width, c->esize);
  pr_line(p, "for (int64_t i = 0; i < N; i++)");
  pr_line(p, "  for (int64_t r = lod[i]; r < lod[i + 1]; r++)");
  pr_line(p, "    memcpy((char *)%s + (size_t)r * row, (const char *)%s + (size_t)i * row, row);", c->out, c->x);
}

static void print_enumerate(Printer *p, const SeqCall *c) {
  const char *t = c->f64 ? "int64_t" : "int32_t";
  pr_line(p, "/* sequence_enumerate over the LoD of input %d ('%s'): win_size %d, pad_value %lld */", c->input,
          c->feed, c->length, (long long)c->pad_int);
  print_lod(p, c);
  pr_line(p, "for (int64_t i = 0; i < N; i++)");
  pr_line(p, "  for (int64_t r = lod[i]; r < lod[i + 1]; r++)");
  pr_line(p, "    for (int64_t j = 0; j < %d; j++)", c->length);
  pr_line(p, "      %s[r * %d + j] = r + j < lod[i + 1] ? %s[r + j] : (%s)%lld;", c->out, c->length, c->x, t,
          (long long)c->pad_int);
}

void seq_print_c(Printer *p, const SeqCall *c) {
  switch (c->kind) {
    case SEQ_POOL:
      print_pool(p, c);
      break;
    case SEQ_CONV:
      print_conv(p, c);
      break;
    case SEQ_SOFTMAX:
      print_softmax(p, c);
      break;
    case SEQ_REVERSE:
      print_reverse(p, c);
      break;
    case SEQ_EXPAND_AS:
      print_expand_as(p, c);
      break;
    case SEQ_ENUMERATE:
      print_enumerate(p, c);
      break;
  }
}
