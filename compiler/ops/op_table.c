/* The one table of op definitions, built from op_list.h. */
#include <string.h>

#include "../attr.h"
#include "ops.h"

#define OP(name) extern const OpDef op_##name;
#include "op_list.h"
#undef OP

/* table, names and OP_LIST_COUNT come from the one X-macro list, and so
 * agree by construction (a _Static_assert comparing them could not fail);
 * op_table_check() checks what can go wrong: the order and the names. */
static const OpDef *const table[] = {
#define OP(name) &op_##name,
#include "op_list.h"
#undef OP
};

static const char *const names[] = {
#define OP(name) #name,
#include "op_list.h"
#undef OP
};

enum {
  OP_LIST_COUNT = 0
#define OP(name) +1
#include "op_list.h"
#undef OP
};

const OpDef *op_def_find(const char *type) {
  int lo = 0, hi = OP_LIST_COUNT - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2, c = strcmp(type, names[mid]);
    if (c == 0) return table[mid];
    if (c < 0) hi = mid - 1;
    else lo = mid + 1;
  }
  return NULL;
}

int op_def_count(void) { return OP_LIST_COUNT; }

const OpDef *op_def_at(int i) { return i >= 0 && i < OP_LIST_COUNT ? table[i] : NULL; }

/* Used by the unit tests: the list must be sorted (binary search) and each
 * descriptor must carry the name it is listed under. Returns the index of
 * the first bad entry, or -1. */
int op_table_check(void) {
  for (int i = 0; i < OP_LIST_COUNT; i++) {
    if (strcmp(table[i]->type, names[i]) != 0) return i;
    if (i && strcmp(names[i - 1], names[i]) >= 0) return i;
    if (!table[i]->infer) return i;
  }
  return -1;
}

int op_global_rng(const Graph *g, const Op *op) {
  return op->def && op->def->global_rng && op->def->global_rng(g, op);
}

/* 1 when an op of the program as loaded reads var `name`: a pass that
 * removes the reader (dead code elimination of an unfetched grad op) does
 * not turn a training op into an inference one. */
static int program_reads(const Graph *g, const char *name) {
  if (!g->pd) return 0;
  for (size_t b = 0; b < g->pd->n_blocks; b++)
    for (size_t k = 0; k < g->pd->blocks[b]->n_ops; k++) {
      const OpDesc *od = g->pd->blocks[b]->ops[k];
      for (size_t s = 0; s < od->n_inputs; s++)
        for (size_t a = 0; a < od->inputs[s]->n_arguments; a++)
          if (!strcmp(od->inputs[s]->arguments[a], name)) return 1;
    }
  return 0;
}

int op_trains(const Graph *g, const Op *op, const char *slot) {
  if (attr_bool(op, "is_test", 0)) return 0;
  if (graph_has_training_ops(g)) return 1; /* the Executor runs a training program's ops as they say */
  int v = slot_first(op->out, op->nout, slot);
  return v >= 0 && (g->vars[v].nusers || (g->vars[v].flags & VAR_FETCH) || program_reads(g, g->vars[v].name));
}
