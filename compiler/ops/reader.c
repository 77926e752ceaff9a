/* Reader ops of 1.x/2.x training programs (DataLoader.from_generator with
 * iterable=False, fluid.layers.py_reader).  A READER var carries a list of
 * tensor descriptions (VarType.ReaderDesc); paddlec's Var holds one shape, so
 * the `read` rule recovers the list by walking back the reader chain.
 *
 *   create_py_reader: blocking_queue (executor-scope queue, never declared)
 *     -> Out (READER).  shape_concat:INTS, ranks:INTS, lod_levels:INTS,
 *     dtypes:INTS=[] (VarType codes), need_check_feed:INTS=[],
 *     device_index:INT=0, device_count:INT=1.  Paddle's FileReaderInferShape:
 *     reader dims = shape_concat cut by ranks; Python sets the dtypes.
 *   create_double_buffer_reader: UnderlyingReader -> Out (READER).
 *     place:STRING="AUTO".  DecoratedReaderInferShape: dims, lod levels and
 *     dtypes of UnderlyingReader.
 *   read: Reader -> Out* (one tensor per reader slot).  throw_eof_exp:BOOL=true,
 *     infer_out:BOOL=true, drop_last:BOOL=true.  With infer_out, Out[i] gets
 *     the reader's i-th dims and dtype (ReadInferShape / ReadInferVarType);
 *     without it Paddle leaves the outputs as declared. */
#include <string.h>

#include "ops.h"

#define READER_MAX 64 /* tensors per reader */

typedef struct ReaderInfo {
  int n;                   /* tensors */
  Shape shape[READER_MAX]; /* their dims */
  int dtype[READER_MAX];   /* their dtypes, -1 when unknown */
} ReaderInfo;

/* The VarDesc of a var, from the program's protobuf. */
static const Paddlec__Fw__VarDesc *var_desc(const Graph *g, const Var *v) {
  const Paddlec__Fw__BlockDesc *bd = g->pd->blocks[v->block];
  for (size_t i = 0; i < bd->n_vars; i++)
    if (bd->vars[i]->name && strcmp(bd->vars[i]->name, v->name) == 0) return bd->vars[i];
  return NULL;
}

/* Dims and dtypes as declared by the reader var's ReaderDesc. */
static int reader_from_desc(OpCtx *c, const Var *v, ReaderInfo *ri) {
  const Paddlec__Fw__VarDesc *vd = var_desc(c->g, v);
  const Paddlec__Fw__VarType__ReaderDesc *rd = vd && vd->type ? vd->type->reader : NULL;
  if (!rd) return ctx_fail(c, "reader '%s' has no ReaderDesc and no creating op", v->name);
  if (rd->n_lod_tensor > READER_MAX)
    return ctx_fail(c, "reader '%s' has %zu tensors; at most %d are supported", v->name,
                    rd->n_lod_tensor, READER_MAX);
  ri->n = (int)rd->n_lod_tensor;
  for (int i = 0; i < ri->n; i++) {
    const Paddlec__Fw__VarType__TensorDesc *td = rd->lod_tensor[i]->tensor;
    if (!td || td->n_dims > RT_MAX_RANK)
      return ctx_fail(c, "reader '%s' tensor %d has no usable dims", v->name, i);
    ri->shape[i] = shape_make((int)td->n_dims, td->dims);
    ri->dtype[i] = td->data_type;
  }
  return 0;
}

/* Dims from shape_concat/ranks and dtypes from `dtypes` of a file reader;
 * dtypes missing from old ops come from the declared ReaderDesc. */
static int reader_from_attrs(OpCtx *c, const Op *op, const Var *out, ReaderInfo *ri) {
  int64_t *cat, *ranks, *lods, *dts;
  int ncat = attr_ints(op, "shape_concat", &cat), nr = attr_ints(op, "ranks", &ranks);
  int nl = attr_ints(op, "lod_levels", &lods), nd = attr_ints(op, "dtypes", &dts);
  if (nr > READER_MAX)
    return ctx_fail(c, "reader op has %d tensors; at most %d are supported", nr, READER_MAX);
  if (nl != nr) return ctx_fail(c, "reader op has %d lod_levels for %d ranks", nl, nr);
  ReaderInfo decl = {0};
  if (nd == 0 && reader_from_desc(c, out, &decl)) return -1;
  if (nd && nd != nr) return ctx_fail(c, "reader op has %d dtypes for %d ranks", nd, nr);
  if (nd == 0 && decl.n != nr)
    return ctx_fail(c, "reader '%s' declares %d tensors, ranks has %d", out->name, decl.n, nr);
  int at = 0;
  ri->n = nr;
  for (int i = 0; i < nr; i++) {
    if (ranks[i] < 0 || ranks[i] > RT_MAX_RANK || at + ranks[i] > ncat)
      return ctx_fail(c, "ranks[%d] = %lld does not fit shape_concat (%d values)", i,
                      (long long)ranks[i], ncat);
    ri->shape[i] = shape_make((int)ranks[i], cat + at);
    ri->dtype[i] = nd ? (int)dts[i] : decl.dtype[i];
    at += (int)ranks[i];
  }
  if (at != ncat) return ctx_fail(c, "ranks add up to %d, shape_concat has %d values", at, ncat);
  return 0;
}

/* The tensors a reader var yields: from the op that creates it (through
 * decorators), else from its declaration (a reader made by the startup
 * program and kept in the scope). */
static int reader_info(OpCtx *c, const Var *v, ReaderInfo *ri, int depth) {
  if (v->vtype != VT_READER) return ctx_fail(c, "'%s' is not a READER variable", v->name);
  const Op *p = v->producer >= 0 ? &c->g->ops[v->producer] : NULL;
  if (!p || depth > 32) return reader_from_desc(c, v, ri);
  if (strcmp(p->type, "create_py_reader") == 0) return reader_from_attrs(c, p, v, ri);
  if (strcmp(p->type, "create_double_buffer_reader") == 0) {
    OpCtx pc = {c->g, (Op *)p};
    Var *under = ctx_in(&pc, "UnderlyingReader", 0);
    if (!under) return ctx_fail(c, "'%s' has no UnderlyingReader", p->type);
    return reader_info(c, under, ri, depth + 1);
  }
  return reader_from_desc(c, v, ri);
}

/* Checks the computed tensors against the reader's declared ReaderDesc, the
 * one place a reader's inferred description can be compared. */
static int check_reader_decl(OpCtx *c, const Var *out, const ReaderInfo *ri) {
  const Paddlec__Fw__VarDesc *vd = var_desc(c->g, out);
  if (!vd || !vd->type || !vd->type->reader) return 0;
  ReaderInfo decl = {0};
  if (reader_from_desc(c, out, &decl)) return -1;
  if (decl.n != ri->n)
    return ctx_fail(c, "reader '%s' declares %d tensors, the op makes %d", out->name, decl.n,
                    ri->n);
  for (int i = 0; i < ri->n; i++)
    if (!shape_equal(&decl.shape[i], &ri->shape[i]) || decl.dtype[i] != ri->dtype[i])
      return ctx_fail(c, "reader '%s' tensor %d is declared %s dtype %d, the op makes %s dtype %d",
                      out->name, i, shape_str(&decl.shape[i]), decl.dtype[i],
                      shape_str(&ri->shape[i]), ri->dtype[i]);
  return 0;
}

static int infer_reader_create(OpCtx *c) {
  Var *out = ctx_out(c, "Out", 0);
  if (!out) return ctx_fail(c, "output Out is missing");
  ReaderInfo ri = {0};
  if (reader_info(c, out, &ri, 0)) return -1;
  return check_reader_decl(c, out, &ri);
}

static int infer_read(OpCtx *c) {
  Var *r = ctx_in(c, "Reader", 0);
  if (!r) return ctx_fail(c, "input Reader is missing");
  if (!attr_bool(c->op, "infer_out", 1)) return 0;
  ReaderInfo ri = {0};
  if (reader_info(c, r, &ri, 0)) return -1;
  if (ri.n != ctx_nout(c, "Out"))
    return ctx_fail(c, "reader '%s' yields %d tensors for %d outputs", r->name, ri.n,
                    ctx_nout(c, "Out"));
  for (int i = 0; i < ri.n; i++) ctx_set(c, "Out", i, &ri.shape[i], ri.dtype[i]);
  return 0;
}

const OpDef op_create_py_reader = {
    .type = "create_py_reader",
    .infer = infer_reader_create,
    .scope_inputs = (const char *const[]){"blocking_queue", NULL},
};
const OpDef op_create_double_buffer_reader = {.type = "create_double_buffer_reader",
                                              .infer = infer_reader_create};
const OpDef op_read = {.type = "read", .infer = infer_read};
