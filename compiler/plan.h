/* Memory plan: where each tensor of the program lives at run time.
 *
 * Feeds point at the caller's input buffers; parameters at the weight
 * block loaded (or embedded) at create time; every other tensor has a slot in
 * one arena, at an offset that is affine in the batch B (for every batch, or,
 * in a plan in pieces, for the range of batches of one piece).
 *
 * BuildStrategy decides the sharing: memory_optimize places buffers whose
 * lifetimes do not intersect at the same offsets; enable_inplace lets an op
 * whose definition allows it (OpDef.inplace) write its output into the
 * buffer of an input that dies at that op (not a feed, a parameter or a
 * fetched var), so the two vars are one buffer. */
#ifndef PADDLEC_PLAN_H
#define PADDLEC_PLAN_H

#include <stdio.h>

#include "graph.h"
#include "spec.h"
#include "strategy.h"

typedef enum PlanKind {
  PLAN_NONE = 0,  /* not a runtime tensor (holders, unused vars) */
  PLAN_ARENA,     /* slot in the arena */
  PLAN_FEED,      /* m->in[index] */
  PLAN_PARAM,     /* m->w[index] */
} PlanKind;

typedef struct PlanVar {
  PlanKind kind;  /* where it lives */
  int index;      /* feed or parameter index; arena: its buffer */
  SymDim offset;  /* arena byte offset (a*B + c) */
  SymDim bytes;   /* size in bytes (a*B + c) */
} PlanVar;

/* One arena buffer: one var, or several that share it in place. */
typedef struct PlanBuf {
  int nvars;      /* vars in it */
  int *vars;      /* their ids, in the order they take it over */
  int first;      /* position of the op that first writes it */
  int last;       /* position of the last op that reads it (nops: fetched) */
  SymDim offset;  /* where it is (the last piece's offset) */
  SymDim bytes;   /* its size */
} PlanBuf;

/* The offsets for one range of batches.  One piece (lo 1, no upper end)
 * serves every batch; a plan in several pieces has one for each range
 * lo..hi, each packed for that range (the generated code picks the piece
 * of the batch it runs). */
typedef struct PlanPiece {
  int64_t lo, hi;  /* the batches it serves; hi 0: no upper end */
  SymDim arena;    /* arena bytes on that range (a*B + c) */
  SymDim *offset;  /* per buffer */
} PlanPiece;

typedef struct Plan {
  PlanVar *vars;  /* per var id (offset: the last piece's) */
  SymDim arena;   /* arena bytes (a*B + c) of the last piece */
  int npieces;    /* 1, or one for each range of batches */
  PlanPiece *pieces; /* them, lo ascending; arena(B) never shrinks as B grows */
  int nslots;     /* tensors in the arena */
  int nbufs;      /* buffers (fewer than nslots with enable_inplace) */
  PlanBuf *bufs;  /* them */
  int reuse;      /* memory_optimize was on */
  int inplace;    /* enable_inplace was on */
} Plan;

typedef struct PlanOpts {
  int reuse;      /* memory_optimize */
  int inplace;    /* enable_inplace */
  int program_order; /* buffers numbered in the order the program makes them
                      * (size classes: the same numbers in every class),
                      * not by size */
  int quick;      /* one packing, the legacy order's, for every batch (a
                   * skewed size class: size_class.c) */
} PlanOpts;

enum { PLAN_ALIGN = 64 }; /* every slot starts on a 64-byte boundary */

/* The plan options a BuildStrategy asks for (memory_optimize None = on). */
PlanOpts plan_options(const BuildStrategy *bs);
/* Plans every tensor that an op of block 0 reads or writes.  Returns 0, or
 * -1 when a fetched var gets no storage (error printed). */
int plan_build(Graph *g, const Spec *s, Plan *p, PlanOpts o);

/* At batch b: the arena bytes, the lower bound (the most bytes of buffers
 * alive at one time) and the naive total (every tensor its own slot). */
typedef struct PlanStats {
  int64_t arena, lower_bound, naive;
} PlanStats;
PlanStats plan_stats(const Plan *p, int64_t b);
/* The piece that serves batch b. */
const PlanPiece *plan_piece(const Plan *p, int64_t b);
/* 1 when buffers i and j may share bytes at some batch (i == j: always). */
int plan_overlap(const Plan *p, int i, int j);
/* One line for the banner: buffers, arena, lower bound, naive total. */
const char *plan_summary(const Graph *g, const Plan *p);
/* Every buffer: its vars, offset, size and lifetime (--dump-memplan). */
void plan_dump(const Graph *g, const Plan *p, FILE *f);

#endif
