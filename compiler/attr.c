/* Op attribute access (see attr.h). */
#include "attr.h"

#include <string.h>

#include "util.h"

const OpAttr *attr_find(const Op *op, const char *name) {
  for (size_t i = 0; i < op->desc->n_attrs; i++) {
    const OpAttr *a = op->desc->attrs[i];
    if (a->name && strcmp(a->name, name) == 0) return a;
  }
  return NULL;
}

int attr_has(const Op *op, const char *name) { return attr_find(op, name) != NULL; }

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

int64_t attr_int(const Op *op, const char *name, int64_t dflt) {
  const OpAttr *a = attr_find(op, name);
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
  const OpAttr *a = attr_find(op, name);
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
  const OpAttr *a = attr_find(op, name);
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
  const OpAttr *a = attr_find(op, name);
  if (!a || a->type != AT_STRING || !a->s) return dflt;
  return a->s;
}

int attr_ints(const Op *op, const char *name, int64_t **out) {
  const OpAttr *a = attr_find(op, name);
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
  const OpAttr *a = attr_find(op, name);
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
