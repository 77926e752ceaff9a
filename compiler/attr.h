/* Op attribute access with Paddle's defaults.  Files often omit attributes
 * (clip_extra, old versions), and one attribute's type changed over the years
 * (INT vs LONG, INTS vs LONGS, FLOAT vs FLOAT64 vs SCALAR): every getter takes
 * a default and accepts each encoding (spec sections 3.4, 10.6). */
#ifndef PADDLEC_ATTR_H
#define PADDLEC_ATTR_H

#include <stdint.h>

#include "graph.h"

/* AttrType numbers (spec table 2.1). */
enum {
  AT_INT = 0, AT_FLOAT = 1, AT_STRING = 2, AT_INTS = 3, AT_FLOATS = 4,
  AT_STRINGS = 5, AT_BOOLEAN = 6, AT_BOOLEANS = 7, AT_BLOCK = 8, AT_LONG = 9,
  AT_BLOCKS = 10, AT_LONGS = 11, AT_FLOAT64S = 12, AT_VAR = 13, AT_VARS = 14,
  AT_FLOAT64 = 15, AT_SCALAR = 16, AT_SCALARS = 17,
};

/* The attribute named `name`, or NULL.  Every look-up (and so every getter
 * below) marks the attribute as read in the op's AttrMarks: an attribute no
 * code reads is one paddlec ignores, refused unless it holds Paddle's
 * default (op_check_attrs).  The value getters (attr_int ... attr_strs) do
 * not mark an attribute bound to a tensor (VAR/VARS: a Variable passed as
 * the attribute, its value the run's): they return their default for it,
 * and only code that takes the tensor (attr_find, attr_is_var) marks it. */
const OpAttr *attr_find(const Op *op, const char *name);

/* 1 for the attributes Paddle puts on every op for its own bookkeeping
 * (op_role, op_role_var, op_namescope, op_callstack, op_device: which part
 * of training made the op, where in Python, which device; with_quant_attr:
 * that the op carries quantization annotations).  No kernel reads them. */
int attr_is_bookkeeping(const char *name);

/* The set of attributes some code looked up, one per graph, shared by its
 * ops (Op.marks).  By the attribute's object: a pass that copies an
 * attribute to the op it makes shares it, and a read through either op
 * counts. */
AttrMarks *attr_marks_new(void);
/* Marks attribute `name` as handled where Paddle's kernel does not read it
 * in this case (clip's `min` when a Min tensor is bound, batch_norm's
 * `momentum` in inference): say why at the call. */
void attr_superseded(const Op *op, const char *name);
/* 1 when code looked attribute `a` of `op` up. */
int attr_marked(const Op *op, const OpAttr *a);
int attr_has(const Op *op, const char *name);
/* 1 if the attribute holds a run-time tensor (VAR/VARS) rather than a value. */
int attr_is_var(const Op *op, const char *name);

int64_t attr_int(const Op *op, const char *name, int64_t dflt);
/* Paddle's OpRole bits (op_proto_maker.h). */
enum {
  OP_ROLE_FORWARD = 0x0000,
  OP_ROLE_BACKWARD = 0x0001,
  OP_ROLE_OPTIMIZE = 0x0002,
  OP_ROLE_RPC = 0x0004,
  OP_ROLE_DIST = 0x0008,
  OP_ROLE_LRSCHED = 0x0010,
  OP_ROLE_LOSS = 0x0100,
};
/* The op's op_role attribute (0, forward, when it has none). */
int op_role(const Op *op);
/* 1 when an op of block 0 (removed ones too) has a backward or optimizer
 * role: a training program. */
int graph_has_training_ops(const Graph *g);
double attr_float(const Op *op, const char *name, double dflt);
int attr_bool(const Op *op, const char *name, int dflt);
const char *attr_str(const Op *op, const char *name, const char *dflt);
/* List attributes: returns the count (0 if absent) and a pool array. */
int attr_ints(const Op *op, const char *name, int64_t **out);
int attr_floats(const Op *op, const char *name, double **out);
/* STRINGS attribute: the count (0 if absent or of another type) and the
 * strings in *out. */
int attr_strs(const Op *op, const char *name, char *const **out);
/* BLOCK attribute value, or -1. */
int attr_block(const Op *op, const char *name);

#endif
