/* Unit tests of the IR builder, attributes, op table and broadcasting, on
 * programs built in memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attr.h"
#include "diag.h"
#include "graph.h"
#include "load.h"
#include "ops/ops.h"
#include "unit.h"
#include "util.h"

void test_op_table(void);
void test_attr_defaults_and_types(void);
void test_graph_feeds_fetches_params(void);
void test_graph_undeclared_var(void);
void test_graph_parent_lookup(void);
void test_broadcast(void);
void test_params_combined(void);

/* ---- in-memory program builders (pool memory, never freed singly) ---- */

static Paddlec__Fw__VarDesc *var(const char *name, int dtype, int rank, const int64_t *dims,
                                 int persistable) {
  Paddlec__Fw__VarDesc *v = pool_alloc(sizeof *v);
  Paddlec__Fw__VarType *t = pool_alloc(sizeof *t);
  Paddlec__Fw__VarType__LoDTensorDesc *l = pool_alloc(sizeof *l);
  Paddlec__Fw__VarType__TensorDesc *td = pool_alloc(sizeof *td);
  paddlec__fw__var_desc__init(v);
  paddlec__fw__var_type__init(t);
  paddlec__fw__var_type__lo_dtensor_desc__init(l);
  paddlec__fw__var_type__tensor_desc__init(td);
  v->name = pool_strdup(name);
  v->type = t;
  v->has_persistable = 1;
  v->persistable = persistable;
  t->has_type = 1;
  t->type = dtype < 0 ? -dtype : VT_LOD_TENSOR;
  if (dtype >= 0) {
    t->lod_tensor = l;
    l->tensor = td;
    td->has_data_type = 1;
    td->data_type = dtype;
    td->n_dims = (size_t)rank;
    td->dims = pool_alloc(sizeof(int64_t) * (size_t)(rank + 1));
    memcpy(td->dims, dims, sizeof(int64_t) * (size_t)rank);
  }
  return v;
}

static Paddlec__Fw__OpDesc__Var *slot(const char *name, const char *arg) {
  Paddlec__Fw__OpDesc__Var *s = pool_alloc(sizeof *s);
  paddlec__fw__op_desc__var__init(s);
  s->parameter = pool_strdup(name);
  s->n_arguments = 1;
  s->arguments = pool_alloc(sizeof(char *));
  s->arguments[0] = pool_strdup(arg);
  return s;
}

static OpAttr *iattr(const char *name, int type, int64_t v) {
  OpAttr *a = pool_alloc(sizeof *a);
  paddlec__fw__op_desc__attr__init(a);
  a->name = pool_strdup(name);
  a->has_type = 1;
  a->type = type;
  if (type == AT_INT) a->has_i = 1, a->i = (int32_t)v;
  if (type == AT_LONG) a->has_l = 1, a->l = v;
  return a;
}

static Paddlec__Fw__OpDesc *op(const char *type, Paddlec__Fw__OpDesc__Var *in,
                               Paddlec__Fw__OpDesc__Var *out, OpAttr *attr) {
  Paddlec__Fw__OpDesc *o = pool_alloc(sizeof *o);
  paddlec__fw__op_desc__init(o);
  o->type = pool_strdup(type);
  if (in) o->n_inputs = 1, o->inputs = pool_alloc(sizeof in), o->inputs[0] = in;
  if (out) o->n_outputs = 1, o->outputs = pool_alloc(sizeof out), o->outputs[0] = out;
  if (attr) o->n_attrs = 1, o->attrs = pool_alloc(sizeof attr), o->attrs[0] = attr;
  return o;
}

static Paddlec__Fw__BlockDesc *block(int idx, int parent, Paddlec__Fw__VarDesc **vars, int nv,
                                     Paddlec__Fw__OpDesc **ops, int no) {
  Paddlec__Fw__BlockDesc *b = pool_alloc(sizeof *b);
  paddlec__fw__block_desc__init(b);
  b->has_idx = b->has_parent_idx = 1;
  b->idx = idx;
  b->parent_idx = parent;
  b->n_vars = (size_t)nv;
  b->vars = vars;
  b->n_ops = (size_t)no;
  b->ops = ops;
  return b;
}

static ProgramDesc *program(Paddlec__Fw__BlockDesc **blocks, int n) {
  ProgramDesc *p = pool_alloc(sizeof *p);
  paddlec__fw__program_desc__init(p);
  p->n_blocks = (size_t)n;
  p->blocks = blocks;
  return p;
}

/* feed(col 1) y, feed(col 0) x (reverse order, as save_inference_model
 * writes), relu x -> a, fetch(col 0) a; params w_10, w_2, W sorted. */
static ProgramDesc *two_feed_program(void) {
  static const int64_t d[] = {-1, 4};
  Paddlec__Fw__VarDesc **vars = pool_alloc(sizeof *vars * 8);
  vars[0] = var("feed", -VT_FEED_MINIBATCH, 0, NULL, 1);
  vars[1] = var("fetch", -VT_FETCH_LIST, 0, NULL, 1);
  vars[2] = var("x", RT_DT_FP32, 2, d, 0);
  vars[3] = var("y", RT_DT_FP32, 2, d, 0);
  vars[4] = var("a", RT_DT_FP32, 2, d, 0);
  vars[5] = var("conv2d_2.w_0", RT_DT_FP32, 1, d + 1, 1);
  vars[6] = var("conv2d_10.w_0", RT_DT_FP32, 1, d + 1, 1);
  vars[7] = var("Zeta", RT_DT_FP32, 1, d + 1, 1);
  Paddlec__Fw__OpDesc **ops = pool_alloc(sizeof *ops * 4);
  ops[0] = op("feed", slot("X", "feed"), slot("Out", "y"), iattr("col", AT_INT, 1));
  ops[1] = op("feed", slot("X", "feed"), slot("Out", "x"), iattr("col", AT_INT, 0));
  ops[2] = op("relu", slot("X", "x"), slot("Out", "a"), NULL);
  ops[3] = op("fetch", slot("X", "a"), slot("Out", "fetch"), iattr("col", AT_INT, 0));
  Paddlec__Fw__BlockDesc **blocks = pool_alloc(sizeof *blocks);
  blocks[0] = block(0, -1, vars, 8, ops, 4);
  return program(blocks, 1);
}

void test_op_table(void) {
  CHECK(op_table_check() == -1);
  CHECK(op_def_count() > 0);
  CHECK(op_def_find("relu") != NULL);
  CHECK(op_def_find("no_such_op") == NULL);
}

void test_attr_defaults_and_types(void) {
  Op o = {0};
  Paddlec__Fw__OpDesc *d = op("x", NULL, NULL, iattr("axis", AT_LONG, -3));
  o.desc = d;
  CHECK(attr_int(&o, "axis", 7) == -3);   /* LONG read as int */
  CHECK(attr_int(&o, "missing", 7) == 7); /* default */
  CHECK(attr_float(&o, "axis", 0) == -3.0);
  CHECK(attr_bool(&o, "missing", 1) == 1);
  CHECK(strcmp(attr_str(&o, "missing", "NCHW"), "NCHW") == 0);
  int64_t *v;
  CHECK(attr_ints(&o, "axis", &v) == 1 && v[0] == -3); /* scalar read as list */
  d->attrs[0] = iattr("axis", AT_INT, 2);
  CHECK(attr_int(&o, "axis", 7) == 2);
}

void test_graph_feeds_fetches_params(void) {
  Graph g;
  CHECK(graph_build(&g, two_feed_program(), "mem") == 0);
  CHECK(g.nfeeds == 2 && g.nfetches == 1);
  CHECK(strcmp(g.vars[g.feeds[0]].name, "x") == 0 && strcmp(g.vars[g.feeds[1]].name, "y") == 0);
  CHECK(strcmp(g.vars[g.fetches[0]].name, "a") == 0);
  /* byte-wise order: uppercase first, "conv2d_10" before "conv2d_2" */
  CHECK(g.nparams == 3);
  CHECK(strcmp(g.vars[g.params[0]].name, "Zeta") == 0);
  CHECK(strcmp(g.vars[g.params[1]].name, "conv2d_10.w_0") == 0);
  CHECK(strcmp(g.vars[g.params[2]].name, "conv2d_2.w_0") == 0);
  int a = graph_find_var(&g, 0, "a");
  CHECK(a >= 0 && g.vars[a].producer == 2 && g.vars[a].nusers == 1);
}

void test_graph_undeclared_var(void) {
  ProgramDesc *p = two_feed_program();
  p->blocks[0]->ops[2]->inputs[0]->arguments[0] = "nowhere";
  Graph g;
  int before = diag_count();
  fprintf(stderr, "  (an error about 'nowhere' is expected below)\n");
  CHECK(graph_build(&g, p, "mem") == -1);
  CHECK(diag_count() == before + 1);
}

void test_graph_parent_lookup(void) {
  static const int64_t d[] = {3};
  Paddlec__Fw__VarDesc **v0 = pool_alloc(sizeof *v0 * 2), **v1 = pool_alloc(sizeof *v1);
  v0[0] = var("outer", RT_DT_FP32, 1, d, 0);
  v0[1] = var("res", RT_DT_FP32, 1, d, 0);
  v1[0] = var("inner", RT_DT_FP32, 1, d, 0);
  Paddlec__Fw__OpDesc **o1 = pool_alloc(sizeof *o1);
  o1[0] = op("relu", slot("X", "outer"), slot("Out", "inner"), NULL);
  Paddlec__Fw__BlockDesc **b = pool_alloc(sizeof *b * 2);
  b[0] = block(0, -1, v0, 2, NULL, 0);
  b[1] = block(1, 0, v1, 1, o1, 1);
  Graph g;
  CHECK(graph_build(&g, program(b, 2), "mem") == 0);
  CHECK(graph_find_var(&g, 1, "outer") == graph_find_var(&g, 0, "outer"));
  CHECK(graph_find_var(&g, 0, "inner") == -1);
  CHECK(g.ops[0].in[0].vars[0] == graph_find_var(&g, 0, "outer"));
}

void test_broadcast(void) {
  Graph g = {0};
  Op o = {0};
  g.file = "mem";
  o.type = "elementwise_add";
  o.desc = op("elementwise_add", NULL, NULL, NULL);
  OpCtx c = {&g, &o};
  Shape x = {4, {-1, 8, 5, 5}}, y = {1, {8}}, w = {1, {5}}, out;
  CHECK(shape_broadcast(&c, &x, &y, 1, &out) == 0 && shape_equal(&out, &x));
  CHECK(shape_broadcast(&c, &x, &w, -1, &out) == 0 && shape_equal(&out, &x));
  fprintf(stderr, "  (a broadcast error is expected below)\n");
  CHECK(shape_broadcast(&c, &x, &y, -1, &out) == -1); /* 8 vs last dim 5 */
  Shape a = {2, {-1, 1}}, b = {2, {1, 6}}, ab = {2, {-1, 6}};
  CHECK(shape_broadcast(&c, &a, &b, -1, &out) == 0 && shape_equal(&out, &ab));
}

static void put_record(FILE *f, int64_t n, float val) {
  uint8_t head[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0x08, 0x05, 0x10, (uint8_t)n};
  fwrite(head, 1, sizeof head, f);
  for (int64_t i = 0; i < n; i++) fwrite(&val, 4, 1, f);
}

void test_params_combined(void) {
  char path[] = "/tmp/paddlec_unit_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  FILE *f = fdopen(fd, "wb");
  put_record(f, 4, 1.0f); /* Zeta */
  put_record(f, 4, 2.0f); /* conv2d_10.w_0 */
  put_record(f, 4, 3.0f); /* conv2d_2.w_0 */
  fclose(f);
  Graph g;
  CHECK(graph_build(&g, two_feed_program(), "mem") == 0);
  CHECK(params_load_combined(&g, path) == 0);
  float v;
  memcpy(&v, g.vars[g.params[1]].param_data, 4);
  CHECK(v == 2.0f);
  f = fopen(path, "ab");
  fputc(0, f);
  fclose(f);
  fprintf(stderr, "  (a trailing-bytes error is expected below)\n");
  CHECK(graph_build(&g, two_feed_program(), "mem") == 0);
  CHECK(params_load_combined(&g, path) == -1);
  remove(path);
}
