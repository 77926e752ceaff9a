/* The C printer of embedding kernels (embed_call.h). */
#include "embed_call.h"

#include "../util.h"
#include "move_call.h"

/* lookup_table: W as [1, V, row bytes] gathered by the ids (move_call.h),
 * padding_idx's row reading as zeros. */
static void print_lookup(Printer *p, const EmbedCall *c) {
  pr_line(p, "/* W as [1, rows, row bytes], ids (bytes per entry, count), padding_idx -> out */");
  move_print_c(p, &(MoveCall){.kind = MOVE_GATHER, .src = c->w, .outer = "1", .rows = c->rows,
                              .row_bytes = c->row, .index = c->ids, .index_bytes = c->ids_bytes,
                              .count = c->count, .pad = c->pad ? c->pad : "INT64_MIN", .dst = c->out});
}

/* lookup_table_grad (phi EmbeddingGradKernel, dense): dw = 0, then each
 * id's row of dout is added to row id, in id order. */
static void print_lookup_grad(Printer *p, const EmbedCall *c) {
  pr_line(p, "const %s *ids = %s;", c->ids_type, c->ids);
  pr_line(p, "const %s *dout = %s;", c->type, c->dout);
  pr_line(p, "%s *dw = %s;", c->type, c->dw);
  pr_line(p, "const int64_t V = %s, D = %s, n = %s;", c->rows, c->row, c->count);
  pr_line(p, "for (int64_t i = 0; i < V * D; i++) dw[i] = 0;");
  pr_line(p, "for (int64_t i = 0; i < n; i++) {");
  pr_line(p, "const int64_t id = (int64_t)ids[i];");
  pr_line(p, "if (%sid < 0 || id >= V) continue;", c->pad ? pool_printf("id == %s || ", c->pad) : "");
  pr_line(p, "for (int64_t j = 0; j < D; j++) dw[id * D + j] += dout[i * D + j];");
  pr_line(p, "}");
}

/* c_embedding's loop head over the ids: `local`, each id's row of W, or
 * outside [0, V). */
static void ids_loop(Printer *p, const EmbedCall *c) {
  pr_line(p, "const %s *ids = %s;", c->ids_type, c->ids);
  pr_line(p, "const int64_t V = %s, D = %s, n = %s, start = %s;", c->rows, c->row, c->count, c->start);
  pr_line(p, "for (int64_t i = 0; i < n; i++) {");
  pr_line(p, "const int64_t local = (int64_t)ids[i] - start;");
}

/* c_embedding (phi CEmbeddingKernel): row local of w, or zeros. */
static void print_c_embedding(Printer *p, const EmbedCall *c) {
  pr_line(p, "const %s *w = %s;", c->type, c->w);
  pr_line(p, "%s *out = %s;", c->type, c->out);
  ids_loop(p, c);
  pr_line(p, "if (local >= 0 && local < V) memcpy(out + i * D, w + local * D, (size_t)D * sizeof *out);");
  pr_line(p, "else memset(out + i * D, 0, (size_t)D * sizeof *out);");
  pr_line(p, "}");
}

/* c_embedding_grad (phi CEmbeddingGradKernel): dw = 0, then each id's row
 * of dout added to row local, in id order. */
static void print_c_embedding_grad(Printer *p, const EmbedCall *c) {
  pr_line(p, "const %s *dout = %s;", c->type, c->dout);
  pr_line(p, "%s *dw = %s;", c->type, c->dw);
  pr_line(p, "memset(dw, 0, (size_t)%s * sizeof *dw);", c->dw_numel);
  ids_loop(p, c);
  pr_line(p, "if (local < 0 || local >= V) continue;");
  pr_line(p, "for (int64_t j = 0; j < D; j++) dw[local * D + j] += dout[i * D + j];");
  pr_line(p, "}");
}

void embed_print_c(Printer *p, const EmbedCall *c) {
  switch (c->kind) {
    case EMBED_LOOKUP:
      print_lookup(p, c);
      break;
    case EMBED_LOOKUP_GRAD:
      print_lookup_grad(p, c);
      break;
    case EMBED_C:
      print_c_embedding(p, c);
      break;
    case EMBED_C_GRAD:
      print_c_embedding_grad(p, c);
      break;
  }
}
