/* Graph rewriting, the toolkit of the passes (passes/): new ops and vars,
 * slots and attributes of new ops, removing ops, redirecting readers.
 *
 * Ops and vars live in flat arrays that grow: a pass holds ids, never
 * pointers, across calls that create ops or vars.  An op is in the program
 * while it is in its block's op list; a removed op stays in g->ops (fused
 * ops point at the ones they replaced, for the kernel comment).  A new op's
 * attributes live in an OpDesc of its own whose attribute list may share the
 * OpAttr records of the ops it came from (they are read-only).  After a
 * rewrite, graph_relink() brings producers, users and the parameter list up
 * to date; the helpers here that need them call it. */
#ifndef PADDLEC_REWRITE_H
#define PADDLEC_REWRITE_H

#include <stdint.h>

#include "graph.h"

/* A new op of `type` in the block of op `at`, placed just before it (after
 * it when `after` is set), carrying `at`'s block and index as provenance.
 * No slots and no attributes yet.  Returns its id. */
int rw_new_op(Graph *g, const char *type, int at, int after);
/* Takes op `id` out of its block (it stays in g->ops, marked removed). */
void rw_remove_op(Graph *g, int id);
/* Moves op `id` out of its block to right after op `after`, in after's
 * block (Op.file_block keeps where it came from). */
void rw_move_op(Graph *g, int id, int after);
/* Binds `n` vars to input (side 0) or output (side 1) slot `slot` of op
 * `id`, replacing the slot's vars when it exists. */
void rw_set_slot(Graph *g, int id, int side, const char *slot, const int *vars, int n);
/* The first var of a slot, or -1. */
int rw_in(const Graph *g, int id, const char *slot);
int rw_out(const Graph *g, int id, const char *slot);
/* Gives op `dst` every attribute of op `src` (shared records). */
void rw_copy_attrs(Graph *g, int dst, int src);
/* Sets (adds or replaces) one attribute of op `id`. */
void rw_attr_int(Graph *g, int id, const char *name, int64_t v);
void rw_attr_float(Graph *g, int id, const char *name, double v);
void rw_attr_bool(Graph *g, int id, const char *name, int v);
void rw_attr_str(Graph *g, int id, const char *name, const char *v);
void rw_attr_ints(Graph *g, int id, const char *name, const int64_t *v, int n);
void rw_attr_strs(Graph *g, int id, const char *name, const char *const *v, int n);
/* Records the ops (ids, program order) a fused op `id` replaces; an op of
 * the list that is itself fused contributes the ops it replaced. */
void rw_set_fused(Graph *g, int id, const int *ops, int n);
/* rw_set_fused, then takes those ops out of the program. */
void rw_fuse(Graph *g, int id, const int *ops, int n);

/* A new float32/int tensor var of block 0 with a unique name made from
 * `base`, of the given dtype and shape (treated as inferred). */
int rw_new_var(Graph *g, const char *base, int dtype, const Shape *s);
/* A new parameter of block 0 holding `data` (copied; numel * dtype size
 * bytes), named uniquely from `base`. */
int rw_new_param(Graph *g, const char *base, int dtype, const Shape *s, const void *data);

/* The common shape of a pass: calls fn on every op of block 0 (a snapshot
 * taken first, skipping ops removed meanwhile); each time fn rewrites
 * something (returns 1), counts it in *changes and brings producers and
 * users up to date for the next call. */
void rw_each_op(Graph *g, int *changes, int (*fn)(Graph *g, int op));

/* Every input slot of a live op that reads `from` reads `to` instead. */
void rw_replace_uses(Graph *g, int from, int to);

/* The op ids of block 0 in program order, and each op's position in it
 * (pos[id], -1 for ops not in block 0): refreshed by rw_positions. */
typedef struct RwOrder {
  int n;     /* ops in block 0 */
  int *ops;  /* their ids */
  int *pos;  /* per op id */
} RwOrder;
void rw_positions(const Graph *g, RwOrder *o);

/* The single live reader of var `v`, or -1 when it has none or several, or
 * is fetched (a fetched var's value must stay). */
int rw_sole_user(const Graph *g, int v);
/* 1 when var `v` is a parameter (its value known at compile time). */
int rw_is_param(const Graph *g, int v);
/* A copy (pool memory) of the float32 data of parameter `v`; NULL when `v`
 * is not a loaded float32 parameter. */
float *rw_param_f32(const Graph *g, int v);

#endif
