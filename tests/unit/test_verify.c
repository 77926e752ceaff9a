/* Unit tests of the IR verifier: a program written as IR text verifies;
 * each kind of damage a broken pass could do is caught and named. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "graph.h"
#include "infer.h"
#include "load.h"
#include "rewrite.h"
#include "unit.h"
#include "util.h"
#include "verify.h"

void test_verify_catches_broken_rewrites(void);

static const char program[] =
    "# paddlec IR\n"
    "program version 2006002\n"
    "var feed: feed_list\n"
    "var fetch: fetch_list\n"
    "var x: float32[-1, 4]\n"
    "var b: float32[4] param = rand(3)\n"
    "var t: float32[-1, 4]\n"
    "var y: float32[-1, 4]\n"
    "op feed(X: feed) -> (Out: x) {col: 0}\n"
    "op elementwise_add(X: x, Y: b) -> (Out: t) {axis: -1}\n"
    "op relu(X: t) -> (Out: y)\n"
    "op fetch(X: y) -> (Out: fetch) {col: 0}\n";

/* Loads the program above (written to a temporary file) into g. */
static int load(Graph *g) {
  char path[] = "/tmp/paddlec_verify_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return -1;
  FILE *f = fdopen(fd, "w");
  fputs(program, f);
  fclose(f);
  LoadOpts o = {0};
  int st = load_model(path, &o, g);
  InferReport r;
  if (!st) st = infer_program(g, &r);
  remove(path);
  return st;
}

void test_verify_catches_broken_rewrites(void) {
  Graph g;
  CHECK(load(&g) == 0);
  CHECK(verify_graph(&g, "the loader") == 0);
  /* ops out of order: relu before the add that writes its input */
  Block *b = &g.blocks[0];
  int t = b->ops[1];
  b->ops[1] = b->ops[2], b->ops[2] = t;
  int before = diag_count();
  CHECK(verify_graph(&g, "a reordering") == -1);
  CHECK(diag_count() == before + 1);
  b->ops[2] = b->ops[1], b->ops[1] = t;
  CHECK(verify_graph(&g, "the repair") == 0);
  /* a rewired input without graph_relink */
  int relu = b->ops[2], x = graph_find_var(&g, 0, "x");
  rw_set_slot(&g, relu, 0, "X", &x, 1);
  CHECK(verify_graph(&g, "a rewiring") == -1);
  graph_relink(&g);
  CHECK(verify_graph(&g, "the relink") == 0);
  /* a shape no rule gives */
  int y = graph_find_var(&g, 0, "y");
  g.vars[y].shape.d[1] = 5;
  CHECK(verify_graph(&g, "a bad shape") == -1);
  CHECK(g.vars[y].shape.d[1] == 4); /* the rule's shape, re-inferred */
  /* a fused op that names an op still in the program */
  int f = rw_new_op(&g, "relu", relu, 1), add = b->ops[1];
  rw_set_fused(&g, f, &add, 1);
  CHECK(verify_graph(&g, "a half fusion") == -1);
  graph_free(&g);
}
