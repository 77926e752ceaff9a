/* Op attribute access (see attr.h). */
#include "attr.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "paddle_attrs.h"
#include "util.h"

int attr_is_bookkeeping(const char *name) {
  static const char *const names[] = {"op_callstack", "op_namescope", "op_role", "op_role_var", "op_device",
                                      "with_quant_attr", NULL};
  return str_in(name, names);
}

struct AttrMarks {
  size_t cap, n;       /* table size (a power of two), entries */
  const OpAttr **slot; /* open addressing; NULL = empty */
};

AttrMarks *attr_marks_new(void) {
  AttrMarks *m = pool_alloc(sizeof *m);
  m->cap = 64;
  m->slot = pool_alloc(sizeof *m->slot * m->cap);
  return m;
}

static size_t mark_hash(const OpAttr *a, size_t cap) {
  return (size_t)(((uintptr_t)a >> 4) * 0x9E3779B97F4A7C15ull) & (cap - 1);
}

/* The slot holding `a`, or the empty one where it would go. */
static const OpAttr **mark_slot(const AttrMarks *m, const OpAttr *a) {
  size_t h = mark_hash(a, m->cap);
  while (m->slot[h] && m->slot[h] != a) h = (h + 1) & (m->cap - 1);
  return &m->slot[h];
}

static void mark(AttrMarks *m, const OpAttr *a) {
  const OpAttr **s = mark_slot(m, a);
  if (*s) return;
  *s = a;
  if (++m->n * 2 <= m->cap) return;
  const OpAttr **old = m->slot;
  size_t cap = m->cap;
  m->cap *= 2;
  m->slot = pool_alloc(sizeof *m->slot * m->cap);
  for (size_t i = 0; i < cap; i++)
    if (old[i]) *mark_slot(m, old[i]) = old[i];
}

int attr_marked(const Op *op, const OpAttr *a) { return op->marks && *mark_slot(op->marks, a) != NULL; }

const OpAttr *attr_find(const Op *op, const char *name) {
  for (size_t i = 0; i < op->desc->n_attrs; i++) {
    const OpAttr *a = op->desc->attrs[i];
    if (a->name && strcmp(a->name, name) == 0) {
      if (op->marks) mark(op->marks, a);
      return a;
    }
  }
  return NULL;
}

void attr_superseded(const Op *op, const char *name) { (void)attr_find(op, name); }

int attr_has(const Op *op, const char *name) { return attr_find(op, name) != NULL; }

/* The attribute a value getter reads: like attr_find, but an attribute
 * bound to a tensor (VAR/VARS) is not marked as read: the getters return
 * their default for it, which does not implement it, so op_check_attrs
 * refuses it unless the op's own code looked it up (attr_find,
 * attr_is_var) to take the tensor. */
static const OpAttr *value_attr(const Op *op, const char *name) {
  Op quiet = *op;
  quiet.marks = NULL;
  const OpAttr *a = attr_find(&quiet, name);
  if (a && a->type != AT_VAR && a->type != AT_VARS) (void)attr_find(op, name);
  return a;
}

int attr_is_var(const Op *op, const char *name) {
  const OpAttr *a = attr_find(op, name);
  return a && (a->type == AT_VAR || a->type == AT_VARS);
}

static double scalar_value(const Paddlec__Fw__Scalar *s) {
  switch (s->type) {
    case 1: return s->b;
    case 2: return (double)s->i;
    case 3: return s->r;
    case 4: return s->c ? s->c->r : 0;
    default: return 0;
  }
}

int op_role(const Op *op) { return (int)attr_int(op, "op_role", OP_ROLE_FORWARD); }

int graph_has_training_ops(const Graph *g) {
  const Block *b = &g->blocks[0];
  for (int k = 0; k < b->nops; k++)
    if (op_role(&g->ops[b->ops[k]]) & (OP_ROLE_BACKWARD | OP_ROLE_OPTIMIZE)) return 1;
  return 0;
}

int64_t attr_int(const Op *op, const char *name, int64_t dflt) {
  const OpAttr *a = value_attr(op, name);
  if (!a) return dflt;
  switch (a->type) {
    case AT_INT: return a->i;
    case AT_LONG: return a->l;
    case AT_BOOLEAN: return a->b;
    case AT_FLOAT: return (int64_t)a->f;
    case AT_FLOAT64: return (int64_t)a->float64;
    case AT_SCALAR: return a->scalar ? (int64_t)scalar_value(a->scalar) : dflt;
    case AT_INTS: return a->n_ints ? a->ints[0] : dflt;
    case AT_LONGS: return a->n_longs ? a->longs[0] : dflt;
    default: return dflt;
  }
}

double attr_float(const Op *op, const char *name, double dflt) {
  const OpAttr *a = value_attr(op, name);
  if (!a) return dflt;
  switch (a->type) {
    case AT_FLOAT: return a->f;
    case AT_FLOAT64: return a->float64;
    case AT_INT: return a->i;
    case AT_LONG: return (double)a->l;
    case AT_BOOLEAN: return a->b;
    case AT_SCALAR: return a->scalar ? scalar_value(a->scalar) : dflt;
    default: return dflt;
  }
}

int attr_bool(const Op *op, const char *name, int dflt) {
  const OpAttr *a = value_attr(op, name);
  if (!a) return dflt;
  switch (a->type) {
    case AT_BOOLEAN: return a->b != 0;
    case AT_INT: return a->i != 0;
    case AT_LONG: return a->l != 0;
    case AT_SCALAR: return a->scalar ? scalar_value(a->scalar) != 0 : dflt;
    default: return dflt;
  }
}

const char *attr_str(const Op *op, const char *name, const char *dflt) {
  const OpAttr *a = value_attr(op, name);
  if (!a || a->type != AT_STRING || !a->s) return dflt;
  return a->s;
}

int attr_strs(const Op *op, const char *name, char *const **out) {
  const OpAttr *a = value_attr(op, name);
  *out = NULL;
  if (!a || a->type != AT_STRINGS || !a->n_strings) return 0;
  *out = a->strings;
  return (int)a->n_strings;
}

int attr_ints(const Op *op, const char *name, int64_t **out) {
  const OpAttr *a = value_attr(op, name);
  *out = NULL;
  if (!a) return 0;
  size_t n = 0;
  if (a->type == AT_INTS) n = a->n_ints;
  else if (a->type == AT_LONGS) n = a->n_longs;
  else if (a->type == AT_BOOLEANS) n = a->n_bools;
  else if (a->type == AT_SCALARS) n = a->n_scalars;
  else if (a->type == AT_INT || a->type == AT_LONG) n = 1;
  if (!n) return 0;
  int64_t *v = pool_alloc(n * sizeof *v);
  for (size_t i = 0; i < n; i++) {
    if (a->type == AT_INTS) v[i] = a->ints[i];
    else if (a->type == AT_LONGS) v[i] = a->longs[i];
    else if (a->type == AT_BOOLEANS) v[i] = a->bools[i];
    else if (a->type == AT_SCALARS) v[i] = (int64_t)scalar_value(a->scalars[i]);
    else if (a->type == AT_INT) v[i] = a->i;
    else v[i] = a->l;
  }
  *out = v;
  return (int)n;
}

int attr_floats(const Op *op, const char *name, double **out) {
  const OpAttr *a = value_attr(op, name);
  *out = NULL;
  if (!a) return 0;
  size_t n = 0;
  if (a->type == AT_FLOATS) n = a->n_floats;
  else if (a->type == AT_FLOAT64S) n = a->n_float64s;
  else if (a->type == AT_SCALARS) n = a->n_scalars;
  else if (a->type == AT_FLOAT || a->type == AT_FLOAT64) n = 1;
  if (!n) return 0;
  double *v = pool_alloc(n * sizeof *v);
  for (size_t i = 0; i < n; i++) {
    if (a->type == AT_FLOATS) v[i] = a->floats[i];
    else if (a->type == AT_FLOAT64S) v[i] = a->float64s[i];
    else if (a->type == AT_SCALARS) v[i] = scalar_value(a->scalars[i]);
    else if (a->type == AT_FLOAT) v[i] = a->f;
    else v[i] = a->float64;
  }
  *out = v;
  return (int)n;
}

int attr_block(const Op *op, const char *name) {
  const OpAttr *a = attr_find(op, name);
  if (!a || a->type != AT_BLOCK) return -1;
  return a->block_idx;
}

static int cmp_paddle_attr(const void *key, const void *elem) {
  const PaddleAttr *k = key, *e = elem;
  int c = strcmp(k->op, e->op);
  return c ? c : strcmp(k->name, e->name);
}

const PaddleAttr *paddle_attr_find(const char *op, const char *name) {
  PaddleAttr key = {.op = op, .name = name};
  return bsearch(&key, paddle_attrs, (size_t)paddle_nattrs, sizeof paddle_attrs[0], cmp_paddle_attr);
}

static int cmp_op_name(const void *key, const void *elem) { return strcmp(key, *(const char *const *)elem); }

int paddle_knows_op(const char *op) {
  return bsearch(op, paddle_ops, (size_t)paddle_nops, sizeof paddle_ops[0], cmp_op_name) != NULL;
}
