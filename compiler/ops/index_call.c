/* The C printer of index kernels (index_call.h). */
#include "index_call.h"

#include "../util.h"
#include "move_call.h"

/* gather / index_select: src as [outer, n, row bytes] gathered by the
 * index (move_call.h), no padding row. */
static void print_gather(Printer *p, const IndexCall *c) {
  pr_line(p, "/* x as [outer, n, row bytes], index (bytes per entry, count), no padding row -> out */");
  move_print_c(p, &(MoveCall){.kind = MOVE_GATHER, .src = c->src, .outer = c->outer, .rows = c->n,
                              .row_bytes = c->row, .index = c->index, .index_bytes = c->index_bytes,
                              .count = c->count, .pad = "INT64_MIN", .dst = c->dst});
}

/* one_hot: out = 0, then a 1 at each id inside [0, depth); an id outside
 * leaves its row zero with allow_out_of_range, else stops the run (Paddle
 * raises an error). */
static void print_one_hot(Printer *p, const IndexCall *c) {
  const char *depth = c->depth;
  pr_line(p, "const %s *x = %s;", c->index_type, c->index);
  pr_line(p, "%s *out = %s;", c->type, c->dst);
  pr_line(p, "memset(out, 0, (size_t)%s * sizeof(%s));", c->numel, c->type);
  pr_line(p, "for (int64_t i = 0; i < %s; i++) {", c->count);
  if (c->out_of_range)
    pr_line(p, "if (x[i] < 0 || x[i] >= %s) continue; /* allow_out_of_range: a zero row */", depth);
  else
    pr_line(p, "if (x[i] < 0 || x[i] >= %s) return 1; /* Paddle raises an error */", depth);
  pr_line(p, "out[i * %s + x[i]] = (%s)1;", depth, c->type);
  pr_line(p, "}");
}

/* bincount's size (phi BincountKernel): the largest value plus one, at
 * least minlength; a negative value stops the run (Paddle raises). */
static void print_bincount_size(Printer *p, const IndexCall *c) {
  pr_line(p, "const %s *x = %s;", c->index_type, c->index);
  pr_line(p, "int64_t size = %s;", c->depth);
  pr_line(p, "for (int64_t i = 0; i < %s; i++) {", c->count);
  pr_line(p, "if (x[i] < 0) return 1; /* Paddle raises: the values must not be negative */");
  pr_line(p, "if ((int64_t)x[i] + 1 > size) size = (int64_t)x[i] + 1;");
  pr_line(p, "}");
}

/* bincount's counts: out = 0, then each value's count (or its weights'
 * sum, in the output type, in X's order). */
static void print_bincount(Printer *p, const IndexCall *c) {
  pr_line(p, "%s *out = %s;", c->type, c->dst);
  if (c->src) pr_line(p, "const %s *w = %s;", c->wtype, c->src);
  pr_line(p, "memset(out, 0, (size_t)%s * sizeof(%s));", c->numel, c->type);
  pr_line(p, "for (int64_t i = 0; i < %s; i++) out[x[i]] += %s;", c->count,
          c->src ? pool_printf("(%s)w[i]", c->type) : "1");
}

/* scatter (phi ScatterAssign / ScatterAssignAdd) after out = X: with
 * overwrite each row ids[i] of out is replaced by row i of upd (the last of
 * repeated indices wins); without, the rows named are zeroed first and
 * every row of upd is added to its row. */
static void print_scatter(Printer *p, const IndexCall *c) {
  pr_line(p, "const %s *ids = %s;", c->index_type, c->index);
  pr_line(p, "const %s *upd = %s;", c->type, c->src);
  pr_line(p, "%s *out = %s;", c->type, c->dst);
  pr_line(p, "const int64_t count = %s, rows = %s, row = %s;", c->count, c->rows, c->row);
  if (!c->overwrite) {
    pr_line(p, "/* overwrite = false: the rows named are zeroed, then every update is added */");
    pr_line(p, "for (int64_t i = 0; i < count; i++)");
    pr_line(p, "  if (ids[i] >= 0 && ids[i] < rows)");
    pr_line(p, "    memset(out + (int64_t)ids[i] * row, 0, (size_t)row * sizeof *out);");
  }
  pr_line(p, "for (int64_t i = 0; i < count; i++) {");
  pr_line(p, "if (ids[i] < 0 || ids[i] >= rows) return 1; /* Paddle raises an error (or writes past X) */");
  if (c->overwrite)
    pr_line(p, "memcpy(out + (int64_t)ids[i] * row, upd + i * row, (size_t)row * sizeof *out);");
  else
    pr_line(p, "for (int64_t s = 0; s < row; s++) out[(int64_t)ids[i] * row + s] += upd[i * row + s];");
  pr_line(p, "}");
}

/* scatter_grad (phi ScatterGradKernel, either overwrite): dx = dout with
 * the rows ids names zeroed (CPUScatterGradForX); row i of du = row ids[i]
 * of dout (CPUGather; zeros for a row outside [0, rows)). */
static void print_scatter_grad(Printer *p, const IndexCall *c) {
  pr_line(p, "{");
  pr_line(p, "const %s *ids = %s;", c->index_type, c->index);
  pr_line(p, "const %s *dout = %s;", c->type, c->src);
  pr_line(p, "const int64_t count = %s, rows = %s, row = %s;", c->count, c->rows, c->row);
  if (c->dst) {
    pr_line(p, "%s *dx = %s;", c->type, c->dst);
    pr_line(p, "for (int64_t q = 0; q < rows * row; q++) dx[q] = dout[q];");
    pr_line(p, "for (int64_t i = 0; i < count; i++)");
    pr_line(p, "  if (ids[i] >= 0 && ids[i] < rows) memset(dx + (int64_t)ids[i] * row, 0, (size_t)row * sizeof *dx);");
  }
  if (c->dupd) {
    pr_line(p, "%s *du = %s;", c->type, c->dupd);
    pr_line(p, "for (int64_t i = 0; i < count; i++) {");
    pr_line(p, "const int64_t id = (int64_t)ids[i];");
    pr_line(p, "for (int64_t s = 0; s < row; s++) du[i * row + s] = id >= 0 && id < rows ? dout[id * row + s] : (%s)0;",
            c->type);
    pr_line(p, "}");
  }
  pr_line(p, "}");
}

/* The gathers' gradients' buffers: index, dout, dx. */
static void print_grad_buffers(Printer *p, const IndexCall *c) {
  pr_line(p, "const %s *index = %s;", c->index_type, c->index);
  pr_line(p, "const %s *dout = %s;", c->type, c->src);
  pr_line(p, "%s *dx = %s;", c->type, c->dst);
}

/* gather_grad / index_select_grad: dx [outer, n, inner] = 0, then row i of
 * each dout block is added to row index[i], in index order. */
static void print_gather_grad(Printer *p, const IndexCall *c) {
  print_grad_buffers(p, c);
  pr_line(p, "const int64_t outer = %s, n = %s, inner = %s, count = %s;", c->outer, c->n, c->inner, c->count);
  pr_line(p, "for (int64_t i = 0; i < outer * n * inner; i++) dx[i] = 0;");
  pr_line(p, "for (int64_t o = 0; o < outer; o++) {");
  pr_line(p, "for (int64_t i = 0; i < count; i++) {");
  pr_line(p, "const int64_t id = (int64_t)index[i];");
  pr_line(p, "if (id < 0 || id >= n) continue;");
  pr_line(p, "for (int64_t k = 0; k < inner; k++) dx[(o * n + id) * inner + k] += dout[(o * count + i) * inner + k];");
  pr_line(p, "}");
  pr_line(p, "}");
}

/* gather_nd_grad (ScatterNdAdd): dx = 0, then each slice of dout is added
 * to the slice of dx its k-tuple of the index names, in index order. */
static void print_gather_nd_grad(Printer *p, const IndexCall *c) {
  print_grad_buffers(p, c);
  pr_line(p, "const int64_t rows = %s, slice = %s;", c->rows, c->slice);
  pr_line(p, "for (int64_t i = 0; i < %s; i++) dx[i] = 0;", c->numel);
  pr_line(p, "for (int64_t i = 0; i < rows; i++) {");
  pr_line(p, "int64_t off = 0;");
  pr_line(p, "int inside = 1;");
  for (int j = 0; j < c->k; j++) {
    pr_line(p, "{");
    pr_line(p, "const int64_t v = (int64_t)index[i * %d + %d];", c->k, j);
    pr_line(p, "inside &= v >= 0 && v < %s;", c->dims[j]);
    pr_line(p, "off = off * %s + v;", c->dims[j]);
    pr_line(p, "}");
  }
  if (!c->k) pr_line(p, "(void)index;");
  pr_line(p, "if (!inside) continue;");
  pr_line(p, "for (int64_t j = 0; j < slice; j++) dx[off * slice + j] += dout[i * slice + j];");
  pr_line(p, "}");
}

/* scatter_nd_add's geometry, after its buffers: the tuples' count and
 * slice length, the array dims of X's first k dims (k > 0) and the loop
 * over the tuples, declaring the flat position `at` of the slice tuple i
 * names.  Closed by one "}". */
static void open_tuples(Printer *p, const IndexCall *c) {
  const char *dims = "";
  for (int i = 0; i < c->k; i++) dims = pool_printf("%s%s%s", dims, i ? ", " : "", c->dims[i]);
  pr_line(p, "const int64_t tuples = %s, slice = %s;", c->count, c->slice);
  if (c->k) pr_line(p, "const int64_t dims[%d] = {%s};", c->k, dims);
  else if (c->kind == INDEX_SCATTER_ND_ADD_GRAD) pr_line(p, "(void)index;");
  pr_line(p, "for (int64_t i = 0; i < tuples; i++) {");
  pr_line(p, "int64_t at = 0;");
  if (c->kind == INDEX_SCATTER_ND_ADD_GRAD || c->k) pr_line(p, "int inside = 1;");
  if (!c->k) return;
  pr_line(p, "for (int j = 0; j < %d; j++) {", c->k);
  pr_line(p, "const int64_t v = (int64_t)index[i * %d + j];", c->k);
  pr_line(p, "inside &= v >= 0 && v < dims[j];");
  pr_line(p, "at = at * dims[j] + v;");
  pr_line(p, "}");
}

/* scatter_nd_add (phi ScatterNdAdd) after out = X: each slice of upd is
 * added to the slice of out its index tuple names, tuples in order; a
 * tuple outside X stops the run. */
static void print_scatter_nd_add(Printer *p, const IndexCall *c) {
  pr_line(p, "const %s *index = %s;", c->index_type, c->index);
  pr_line(p, "const %s *upd = %s;", c->type, c->src);
  pr_line(p, "%s *out = %s;", c->type, c->dst);
  open_tuples(p, c);
  if (c->k) pr_line(p, "if (!inside) return 1; /* Paddle raises an error */");
  pr_line(p, "for (int64_t s = 0; s < slice; s++) out[at * slice + s] += upd[i * slice + s];");
  pr_line(p, "}");
}

/* scatter_nd_add_grad's Updates@GRAD (CPUGatherNd): slice i of du = the
 * slice of dout tuple i names, zeros for a tuple outside X. */
static void print_scatter_nd_add_grad(Printer *p, const IndexCall *c) {
  pr_line(p, "{");
  pr_line(p, "const %s *index = %s;", c->index_type, c->index);
  pr_line(p, "const %s *dout = %s;", c->type, c->src);
  pr_line(p, "%s *du = %s;", c->type, c->dupd);
  open_tuples(p, c);
  pr_line(p, "for (int64_t s = 0; s < slice; s++) du[i * slice + s] = inside ? dout[at * slice + s] : (%s)0;", c->type);
  pr_line(p, "}");
  pr_line(p, "}");
}

/* The candidates' pointers as the local array `name`. */
static void print_list(Printer *p, const IndexCall *c, const char *qual, const char *name) {
  const char *init = "";
  for (int k = 0; k < c->nlist; k++) init = pool_printf("%s%s%s", init, k ? ", " : "", c->list[k] ? c->list[k] : "NULL");
  pr_line(p, "%s%s *const %s[%d] = {%s};", qual, c->type, name, c->nlist, init);
}

/* multiplex (phi MultiplexKernel): row i from candidate ids[i]. */
static void print_multiplex(Printer *p, const IndexCall *c) {
  pr_line(p, "const %s *ids = %s;", c->index_type, c->index);
  print_list(p, c, "const ", "xs");
  pr_line(p, "%s *out = %s;", c->type, c->dst);
  pr_line(p, "const int64_t rows = %s, row = %s;", c->rows, c->row);
  pr_line(p, "for (int64_t i = 0; i < rows; i++) {");
  pr_line(p, "if (ids[i] < 0 || ids[i] >= %d) return 1; /* Paddle raises: no such candidate */", c->nlist);
  pr_line(p, "memcpy(out + i * row, xs[ids[i]] + i * row, (size_t)row * sizeof *out);");
  pr_line(p, "}");
}

/* multiplex_grad (phi MultiplexGradKernel): each X@GRAD zeroed, row i of
 * Out@GRAD into candidate ids[i]'s. */
static void print_multiplex_grad(Printer *p, const IndexCall *c) {
  pr_line(p, "const %s *ids = %s;", c->index_type, c->index);
  pr_line(p, "const %s *dout = %s;", c->type, c->src);
  print_list(p, c, "", "dxs");
  pr_line(p, "const int64_t rows = %s, row = %s;", c->rows, c->row);
  pr_line(p, "for (int k = 0; k < %d; k++) {", c->nlist);
  pr_line(p, "if (dxs[k]) memset(dxs[k], 0, (size_t)(rows * row) * sizeof *dout);");
  pr_line(p, "}");
  pr_line(p, "for (int64_t i = 0; i < rows; i++) {");
  pr_line(p, "if (ids[i] >= 0 && ids[i] < %d && dxs[ids[i]]) memcpy(dxs[ids[i]] + i * row, dout + i * row, "
          "(size_t)row * sizeof *dout);", c->nlist);
  pr_line(p, "}");
}

void index_print_c(Printer *p, const IndexCall *c) {
  switch (c->kind) {
    case INDEX_GATHER:
      print_gather(p, c);
      break;
    case INDEX_MULTIPLEX:
      print_multiplex(p, c);
      break;
    case INDEX_MULTIPLEX_GRAD:
      print_multiplex_grad(p, c);
      break;
    case INDEX_ONE_HOT:
      print_one_hot(p, c);
      break;
    case INDEX_SCATTER:
      print_scatter(p, c);
      break;
    case INDEX_SCATTER_GRAD:
      print_scatter_grad(p, c);
      break;
    case INDEX_GATHER_GRAD:
      print_gather_grad(p, c);
      break;
    case INDEX_GATHER_ND_GRAD:
      print_gather_nd_grad(p, c);
      break;
    case INDEX_SCATTER_ND_ADD:
      print_scatter_nd_add(p, c);
      break;
    case INDEX_SCATTER_ND_ADD_GRAD:
      print_scatter_nd_add_grad(p, c);
      break;
    case INDEX_BINCOUNT_SIZE:
      print_bincount_size(p, c);
      break;
    case INDEX_BINCOUNT:
      print_bincount(p, c);
      break;
  }
}
