/* The IR (DESIGN.md section 4): flat arrays of vars, ops and blocks with
 * integer ids.  Every op keeps where it came from (block, op index, type);
 * every var keeps its Paddle name, declared and inferred shape, and flags. */
#ifndef PADDLEC_GRAPH_H
#define PADDLEC_GRAPH_H

#include <stdarg.h>
#include <stdint.h>

#include "framework.pb-c.h"
#include "rt.h"

typedef Paddlec__Fw__ProgramDesc ProgramDesc;
typedef Paddlec__Fw__OpDesc OpDesc;
typedef Paddlec__Fw__OpDesc__Attr OpAttr;

#define DIM_UNKNOWN (-1) /* a dim not known before run time (the batch) */

/* A tensor shape; dims are >= 0 or DIM_UNKNOWN. */
typedef struct Shape {
  int rank;                  /* number of dims; -1 = no shape known */
  int64_t d[RT_MAX_RANK];    /* the dims */
} Shape;

/* VarType.Type numbers for the kind of a variable (spec table 2.1). */
enum {
  VT_LOD_TENSOR = 7,
  VT_SELECTED_ROWS = 8,
  VT_FEED_MINIBATCH = 9,
  VT_FETCH_LIST = 10,
  VT_STEP_SCOPES = 11,
  VT_LOD_RANK_TABLE = 12,
  VT_LOD_TENSOR_ARRAY = 13,
  VT_READER = 15,
  VT_RAW = 17,
};

/* Var flags. */
enum {
  VAR_PERSISTABLE = 1 << 0, /* VarDesc.persistable */
  VAR_PARAM = 1 << 1,       /* persistable tensor stored in the parameter file */
  VAR_FEED = 1 << 2,        /* written by a feed op */
  VAR_FETCH = 1 << 3,       /* read by a fetch op */
  VAR_GRAD = 1 << 4,        /* name contains @GRAD */
  VAR_NEED_CHECK_FEED = 1 << 5, /* VarDesc.need_check_feed */
  VAR_INFERRED = 1 << 6,    /* `shape` was computed by an op's rule */
  VAR_LOADED = 1 << 7,      /* parameter found and checked in the file */
  VAR_IS_PARAMETER = 1 << 8, /* VarDesc.is_parameter: a Parameter of Python's
                              * program (paddle.static.save puts it in .pdparams,
                              * other persistables in .pdopt) */
  VAR_KEEP = 1 << 9,        /* a parameter no op reads that stays one: a
                             * trainer's state var (Paddle saves it all the
                             * same; train.c) */
  VAR_RUNTIME_EXTENT = 1 << 10, /* dim `runtime_axis` of `shape` is a bound: the
                                 * extent is only known when the producer runs
                                 * (top_k with K from a tensor); only ops whose
                                 * OpDef sets runtime_extents may read it */
  VAR_MAX_SHAPED = 1 << 11,     /* every dim a run-time extent within a bound an op took
                                 * (--max-shape, or one it proved: ctx_max_shape,
                                 * ctx_proven_shape), the kernel setting them all */
};

typedef struct Var {
  const char *name;    /* Paddle variable name */
  int block;           /* index of the declaring block */
  int vtype;           /* VarType.type: VT_LOD_TENSOR, ... */
  int decl_dtype;      /* dtype from the VarDesc, -1 if none */
  Shape decl;          /* dims from the VarDesc (rank -1 if none) */
  int dtype;           /* dtype after inference (starts as decl_dtype) */
  Shape shape;         /* shape after inference (starts as decl) */
  int lod_level;       /* LoD level from the VarDesc */
  unsigned flags;      /* VAR_* */
  int producer;        /* last op (id) writing it in program order, -1 */
  int nusers;          /* ops reading it (in a slot, or as an attribute: op_each_attr_var) */
  int *users;          /* their ids */
  int users_cap;       /* capacity of users */
  int feed_col;        /* feed column when VAR_FEED */
  int fetch_col;       /* fetch column when VAR_FETCH */
  const uint8_t *param_data; /* the parameter's raw data when loaded (pool) */
  int nvals;           /* compile-time integer values tracked (see consteval.h), -1 none */
  int64_t *vals;       /* those values, row-major */
  uint64_t vmask;      /* bit i set: vals[i] is known (a shape's batch entry is not) */
  const char *param_file; /* file the parameter was read from */
  int runtime_axis;    /* with VAR_RUNTIME_EXTENT: the dim known at run time, */
  unsigned runtime_more; /* and more such dims (bit d: dim d), besides runtime_axis:
                        * only ops whose OpDef.runtime_extents is 2 read such a
                        * var (a slice by bounds fed at run time, then fetch) */
  const char *runtime_from; /* and what sets it ("input K ('k')") */
  int runtime_root;    /* 1 + the var whose producer made that extent: ops that pass
                        * an extent on (ctx_pass_runtime_extent) keep it, so two
                        * vars with one root have the same extent at run time
                        * (same_runtime_extent); a producer whose extent is
                        * provably another's may give it that one's root.  Vars
                        * of one root that are not runtime_same have its
                        * extents in one order (ctx_inherit_root): a transpose
                        * of H and W, a slice dropping H, takes a root of its own */
  int runtime_same;    /* 1: every run-time dim of it is the one extent of its root
                        * (a single dim; the two length dims of attention scores),
                        * so that ops may pair dims at different places of two
                        * vars of one root (same_runtime_dims) */
  const char *runtime_rule; /* with VAR_RUNTIME_EXTENT set by a rule of its input's
                        * (run_hw.h: the input's root and the rule), the rule:
                        * a var with the same one shares its root */
  int64_t arr_len;     /* a tensor array (VT_LOD_TENSOR_ARRAY, whose `shape` is its
                        * elements'): the length the compiler proves it has
                        * after the program ran (array_len.h), -1 when it
                        * cannot, */
  int arr_bounded;     /* 1: arr_len is only a bound: a loop the data may end
                        * sooner writes it (`while not done and i < n`); the
                        * run's length may be less, */
  const char *arr_why; /* and without a length, why */
  int arr_rows;        /* 1: its elements' rows vary (a write's X has a
                        * lod_level or rows only the run knows): each keeps
                        * its rows (and LoD: arr_lod) in a slot beside it,
                        * and its dim 0 is the most rows a write may bring;
                        * 0: plain tensors of one shape */
  int arr_lod;         /* with arr_rows: the levels (1 or 2) of its
                        * elements' LoD, 0 for elements without one */
} Var;

/* The axis of v whose extent is known only at run time, or -1. */
static inline int var_runtime_axis(const Var *v) {
  return v && (v->flags & VAR_RUNTIME_EXTENT) ? v->runtime_axis : -1;
}

/* Every dim of v known only at run time (bit d: dim d), 0 when none. */
static inline unsigned var_runtime_mask(const Var *v) {
  return var_runtime_axis(v) >= 0 ? 1u << v->runtime_axis | v->runtime_more : 0;
}

/* Marks dims `dims` (bit d: dim d; not 0) of v, the var of id `id`, as
 * known only at run time, set by `from` ("fed array ..."), v their root
 * (ctx_set_runtime_extents, and feeds no feed op writes: spec.c). */
static inline void var_set_runtime_extents(Var *v, int id, unsigned dims, const char *from) {
  int first = 0;
  while (first < 31 && !(dims >> first & 1)) first++;
  v->flags |= VAR_RUNTIME_EXTENT;
  v->runtime_axis = first;
  v->runtime_more = dims & ~(1u << first);
  v->runtime_from = from;
  v->runtime_root = id + 1;
  v->runtime_rule = NULL;
  v->runtime_same = !v->runtime_more;
}

/* An op's decision to have the model bind one of its parameters prepared
 * for rt_pp_gemm (rt_prepack: RtWeightSpec's pack_rows, pack_wino,
 * pack_panel) instead of as saved.  Made by OpDef.decide for a parameter
 * the op alone reads (em_packable_weight). */
typedef struct WeightPack {
  int var;       /* the parameter's id, when rows > 0 */
  int64_t rows;  /* the rows rt_prepack arranges; 0: the op prepares none */
  int wino;      /* Winograd's m, or 0 */
  int panel;     /* the panel height (rt_blocking.h) */
} WeightPack;

/* One slot of an op: the slot name and the vars bound to it, in order. */
typedef struct Slot {
  const char *name; /* "X", "Filter", ... */
  int n;            /* number of arguments */
  int *vars;        /* var ids; -1 for "@EMPTY@" */
  int seen;         /* 1 once the op's shape rule, its C emitter or a pass
                     * looked the slot up: an input no code looks up is one
                     * it ignores, refused rather than dropped (op_check_slots) */
} Slot;

/* The slot `name` among the n slots of one side of an op, or NULL: the one
 * look-up of slots.  slot_find only reads; slot_use also marks the slot as
 * looked up (Slot.seen), as shape rules, emitters and passes do.  Slots
 * live in the graph's pool, which passes modify: slot_use may be handed
 * the slots of a const Graph. */
const Slot *slot_find(const Slot *slots, int n, const char *name);
Slot *slot_use(const Slot *slots, int n, const char *name);
/* The first var bound to slot `name`, or -1 (none, or "@EMPTY@"). */
int slot_first(const Slot *slots, int n, const char *name);

struct OpDef;
typedef struct AttrMarks AttrMarks; /* attr.h */

/* A run-time extent an op's shape rule passed to an output (from an input,
 * or a var before the op; ctx_pass_runtime_extent and its kin): the op's
 * kernel copies it before it runs (tu_pass_recorded_extents), so that no
 * emitter repeats the rule. */
typedef struct ExtentMove {
  int src, dst;                /* var ids: where from, the output */
  signed char to[RT_MAX_RANK]; /* src's dim d is dst's dim to[d] (-1: not passed) */
} ExtentMove;

typedef struct Op {
  const char *type;          /* Paddle op type */
  int block;                 /* block index: the list (Block.ops) holding it */
  int index;                 /* op index inside its block, as in the file */
  int file_block;            /* the block it is in in the file (messages):
                              * `block` unless cond_inline.c moved it */
  int nin, nout;             /* slot counts */
  Slot *in, *out;            /* slots */
  const OpDesc *desc;        /* attributes live here */
  AttrMarks *marks;          /* the graph's attributes that code looked up
                              * (attr_find); NULL: not recorded */
  int from_pass;             /* made by a pass: its attributes are paddlec's */
  const struct OpDef *def;   /* op definition, NULL when unknown */
  int sub_block;             /* sub_block attr (control flow), -1 if none */
  int removed;               /* taken out of its block by a pass */
  int nfused;                /* ops a pass merged into this one (0: none) */
  int *fused;                /* their ids, in program order (removed ops) */
  void *decision;            /* what OpDef.decide decided for the op's C
                              * emitter (ops.h; a record its op's file
                              * defines, in the pool), NULL: none */
  WeightPack pack;           /* OpDef.decide: a parameter bound prepared */
  int nattr_vars;            /* the vars its attributes are bound to (VAR, */
  int *attr_vars;            /* VARS), found when the graph is linked */
  const char **attr_var_names; /* (graph_relink), and their attributes' names */
  int nmoves, moves_cap;     /* the run-time extents its shape rule passed */
  ExtentMove *moves;         /* on, from its last run (ExtentMove) */
} Op;

/* Before an op's shape rule runs: the extents it passes are its run's alone
 * (a fresh list: an op a pass copied shares the old one's). */
static inline void op_clear_moves(Op *op) {
  op->moves = NULL;
  op->nmoves = op->moves_cap = 0;
}

typedef struct Block {
  int idx;        /* BlockDesc.idx */
  int parent;     /* parent block index, -1 for block 0 */
  int forward;    /* forward_block_idx (backward blocks), -1 if none */
  int nops;       /* ops in this block */
  int *ops;       /* their ids, in program order */
  int nvars;      /* vars declared in this block */
  int *vars;      /* their ids */
  int vars_cap;   /* capacity of vars */
  /* name -> var id hash (open addressing) */
  int hcap;       /* slots in the table (power of two) */
  int *htab;      /* var id + 1, 0 = empty */
} Block;

/* A --shape or --max-shape name=d0,d1,... option (spec.h). */
typedef struct ShapeArg {
  const char *name; /* var name: a feed's (--shape), a var's (--max-shape) */
  int rank;         /* number of dims given */
  int64_t d[RT_MAX_RANK];
} ShapeArg;

typedef struct Graph {
  const char *file;        /* the program file, for messages */
  const char *params_file; /* the combined parameter file, or NULL */
  const char *params_dir;  /* directory of per-variable files, or NULL */
  const char *params_status; /* what happened to the parameters, one line */
  int64_t version;         /* ProgramDesc.version (-1 if absent) */
  uint64_t file_hash;      /* FNV-1a 64 of the program file's bytes */
  ProgramDesc *pd;         /* the decoded protobuf, owned */
  int nvars, nops, nblocks;
  int vars_cap;            /* capacity of vars */
  int ops_cap;             /* capacity of ops */
  Var *vars;
  Op *ops;
  Block *blocks;
  int nfeeds, nfetches;
  int *feeds;              /* var ids ordered by col */
  int *fetches;            /* var ids ordered by col */
  int nparams;             /* parameters (VAR_PARAM) */
  int *params;             /* their ids, byte-wise sorted by name */
  uint64_t param_bytes;    /* total data bytes of the parameters */
  int zero_d;              /* scalar results are 0-D ([]) rather than [1] */
  int specializing;        /* inference runs for code generation (consteval.h) */
  const char *dp_why;      /* a trainer: why it cannot run on several places
                            * (data_parallel.h), NULL when it can */
  const char *dp_reduce_why; /* and why not under reduce_strategy Reduce */
  uint64_t coll_rings;     /* collective rings over every process besides 0,
                            * bit r for ring r (data_parallel.h dp_rings) */
  int coll_nranks;         /* the processes they span (0: not said) */
  const ShapeArg *max_shapes; /* --max-shape: bounds of tensors whose dims the
                               * run gives (shape tensors fed), for the rules
                               * of ops that take one (OpDef.max_shape), */
  int nmax_shapes;
  int *max_shape_used;     /* and for each, 1 once it bounded an op's output */
  int nclass_shapes;       /* the last of them: the bounds of feeds no option
                            * bounds, a size class's (size_class.h) */
  int64_t max_iterations;  /* --max-iterations: the trips a loop the compiler
                            * cannot count may run (array_len.h), 0: none */
} Graph;

/* Builds the IR from a decoded ProgramDesc; returns 0 or -1 (errors printed). */
int graph_build(Graph *g, ProgramDesc *pd, const char *file);
/* A new var named `name` (unique in the program: the caller checks), with no
 * type, declared in block `block`; returns its id.  g->vars may move. */
int graph_new_var(Graph *g, int block, const char *name);
/* Recomputes every var's producer and users from the ops in the blocks'
 * lists, and the parameter list: the parameters some op still reads, sorted
 * byte-wise by name (what the weights file holds).  Run after rewriting. */
void graph_relink(Graph *g);
/* Var lookup from block b upward through parents; -1 when not found. */
int graph_find_var(const Graph *g, int block, const char *name);
/* The vars op's attributes are bound to (VAR, VARS: a tensor passed as an
 * attribute, read when the op runs, `paddle.full_like(x, x.mean())`): calls
 * fn(ctx, var, attribute's name) for each one found when the graph was last
 * linked.  Inline: the files that walk reads (plan, deps, sub-blocks) call
 * into no graph code for it. */
static inline void op_each_attr_var(const Graph *g, const Op *op, void (*fn)(void *ctx, int var, const char *attr),
                                    void *ctx) {
  (void)g;
  for (int k = 0; k < op->nattr_vars; k++) fn(ctx, op->attr_vars[k], op->attr_var_names[k]);
}
/* "block 0 op 17 (conv2d -> conv2d_3.tmp_0)" for messages, in pool memory. */
const char *graph_op_where(const Graph *g, const Op *op);
void graph_free(Graph *g);
/* Prints "<file>: <graph_op_where>: <message>" as an error; returns -1.  The
 * one way shape rules and emitters report a problem with an op. */
int graph_op_verror(const Graph *g, const Op *op, const char *fmt, va_list ap);

/* Shape helpers.  Sizes go through rt_size_mul (rt.h), never a bare `*`. */
/* Element count; -1 if the rank or a dim is unknown, or (only for a shape
 * no check has seen: every var's is checked, see shape_size_problem) if the
 * count does not fit in int64_t. */
int64_t shape_numel(const Shape *s);
/* Bytes of a tensor of that shape and dtype; -1 when a dim is unknown, the
 * dtype has no element size, or the bytes do not fit in int64_t. */
int64_t shape_bytes(const Shape *s, int dtype);
/* NULL when every product of the shape's dims (unknown dims counted as 1),
 * times the element size of `dtype` when it has one, fits in int64_t, and
 * for `declared` dims (a file's, of a persistable var) each is >= 0 or
 * DIM_UNKNOWN; else what is wrong, for a message.  (Other vars' VarDescs
 * may hold Paddle's compile-time products of an unknown batch, such as
 * instance_norm's SavedMean [-8] for N = -1, C = 8.) */
const char *shape_size_problem(const Shape *s, int dtype, int declared);
int shape_equal(const Shape *a, const Shape *b);
/* Same rank, and equal dims wherever both are known (>= 0). */
int shape_agrees(const Shape *a, const Shape *b);
/* "[-1, 3, 224, 224]" in pool memory. */
const char *shape_str(const Shape *s);

#endif
