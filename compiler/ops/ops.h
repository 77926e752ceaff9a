/* Op definitions: everything paddlec knows about one Paddle op type lives in
 * that op's file under compiler/ops/ and is exported as one OpDef descriptor,
 * listed once in op_list.h (STYLE.md habit 1).  Families of ops that differ
 * only by a scalar function (unary activations, elementwise binaries,
 * comparisons, reductions) share one file with a table.
 *
 * This header is also the API a shape rule uses: slot access, setting an
 * output's shape and dtype, and errors that name the file and the op. */
#ifndef PADDLEC_OPS_H
#define PADDLEC_OPS_H

#include "../attr.h"
#include "../emit.h"
#include "../graph.h"

typedef struct OpCtx {
  Graph *g; /* the program */
  Op *op;   /* the op being processed */
} OpCtx;

/* Shape and dtype rule: reads input shapes and attributes, sets every output
 * it defines with ctx_set().  Returns 0, or -1 after ctx_fail(). */
typedef int (*OpInferFn)(OpCtx *c);
/* Constant folding: records the compile-time values of the op's small
 * integer outputs from its inputs' (compiler/consteval.h), when it can;
 * called after the shape rule while specializing.  Never fails. */
typedef void (*OpFoldFn)(OpCtx *c);

/* C emitter: writes the body of the op's kernel (see emit.h).  NULL when
 * paddlec cannot compile the op yet. */
typedef int (*OpEmitFn)(EmitCtx *e);

typedef struct OpDef {
  const char *type;  /* Paddle op type */
  OpInferFn infer;   /* shape and dtype rule */
  OpEmitFn emit_c;   /* C emitter, or NULL */
  OpFoldFn fold;     /* constant folding, or NULL (the op's values stay unknown) */
  /* For an op that runs a sub-block: the shapes of the sub-block's vars
   * the op itself sets before the sub-block's rules run (recurrent's step
   * inputs and ex-states); -1 after ctx_fail.  NULL = none. */
  OpInferFn infer_entry;
  /* What the op's kernel decides before any kernel is printed, recorded in
   * the IR for the tables codegen prints besides the kernels (a weight's
   * prepared layout); run with EmitCtx.deciding set: em_fail is silent (the
   * emitter reports the same error) and nothing is printed.  What the
   * emitter needs of it (e.g. a convolution's geometry) decide leaves in
   * Op.decision, a record the op's file defines, allocated from the pool,
   * set on every call (NULL where decide failed): model_emit runs every
   * block-0 op's decide right before the kernels, and the emitter reads
   * the record instead of deciding again, mutating nothing.  An emitter
   * whose op has no record (NULL) decides itself, reporting the error.
   * NULL = none. */
  OpEmitFn decide;
  /* Input slots bound to objects that Paddle's executor keeps in its scope
   * and the program never declares (e.g. create_py_reader's blocking_queue,
   * made by the Python DataLoader).  NULL-terminated; NULL = none.  Any other
   * undeclared variable is an error. */
  const char *const *scope_inputs;
  /* "X:Out": output Out may be written into input X's buffer when X dies at
   * this op (enable_inplace); the emitter must read each element of X
   * before writing the same element of Out.  NULL = never. */
  const char *inplace;
  /* Input slots Paddle declares that cannot change what the op computes
   * where paddlec compiles it, each with its reason in the op's file (e.g. a
   * training-only input of an inference op).  NULL-terminated; NULL = none.
   * Any other bound input that neither the shape rule nor the C emitter
   * looks up is refused (op_check_slots). */
  const char *const *ignores;
  /* Attributes Paddle declares that cannot change what the op computes
   * where paddlec compiles it, each with its reason in the op's file.
   * NULL-terminated; NULL = none.  Any other attribute that no code looks
   * up (attr_find) is refused unless it holds Paddle's default
   * (paddle_attrs.h; op_check_slots). */
  const char *const *attr_ignores;
  /* 1 when this op (instance) draws from Paddle's global CPU generator
   * (random ops with seed 0): the model then holds the generator (m->rng,
   * runtime/rt_random.h), such ops run in program order, and dead code
   * elimination keeps them.  NULL = never. */
  int (*global_rng)(const Graph *g, const Op *op);
  /* 1: the op talks to the other processes (compiler/ops/collective.c):
   * such ops run one at a time, in program order, as every process must
   * call them in the same order (deps.c). */
  int collective;
  /* 1: the vars the op reads and writes are communicator handles (the RAW
   * ncclUniqueId vars of c_gen_nccl_id and c_comm_init), which hold no
   * data in a CPU program: they get no storage (codegen.c check_tensors). */
  int comm_handles;
  /* 1: the op's rule and emitter take an input with a run-time extent
   * (VAR_RUNTIME_EXTENT: its dims say the bound, em_dim the extent); infer
   * refuses any other op given one, naming where the extent comes from.
   * 2: also an input with several such dims (Var.runtime_more). */
  int runtime_extents;
  /* 1: while specializing, an output whose dims come from tensors only the
   * run knows takes a bound from --max-shape (ctx_max_shape): it is sized
   * for the bound, its dims are run-time extents the kernel writes, and a
   * run whose sizes exceed the bound stops (fill_constant, range,
   * linspace).  spec.c's message suggests the option for such ops. */
  int max_shape;
  /* Which input's LoD the op's outputs carry, as Paddle's ShareLoD passes
   * it on (op_lod_input): NULL, any input with the output's rows (the
   * row-keeping ops: activations, lookup_table, mul, sequence_conv); a
   * slot name, that input only (element-wise: X, crf_decoding: Emission);
   * "", none — the op gives its outputs a LoD of its own or none
   * (sequence_pool, sequence_pad, ...). */
  const char *lod_slot;
  /* 1: the outputs carry lod_slot's LoD whatever its rows (lod_reset's Y:
   * the kernel checks that its last offset is X's rows); 0: only an input
   * with the output's rows passes its LoD on. */
  int lod_any_rows;
  /* 1: only the first var of lod_slot passes its LoD on (sum, concat:
   * Paddle's ShareLoD("X", "Out") shares X[0]'s, none when X[0] has none). */
  int lod_first;
  /* The number of levels (1 or 2) of the LoD the op's kernel makes for its
   * output var `var`, 0 for none: im2sequence's one sequence per image,
   * ctc_align's what each sequence keeps (level 1), beam_search's sources
   * and prefixes (2); the kernel writes the offsets at run time
   * (em_makes_lod); op_lod_input's walk stops there.  NULL = never. */
  int (*lod_made)(const Graph *g, const Op *op, int var);
} OpDef;

/* 1 when op `op` of `g` draws from the global generator (OpDef.global_rng). */
int op_global_rng(const Graph *g, const Op *op);
/* 1 when op (dropout, rrelu) runs as in training: its is_test is false
 * and the program trains (it has backward or optimizer ops: even an op
 * whose grad is not needed, on a feed, draws), or its output `slot` (Mask,
 * Noise), which only the grad needs, is read (now, or by an op of the
 * program as loaded) or fetched.  Otherwise it computes what it does at
 * inference, as Paddle Inference's is_test_pass makes every op with an
 * is_test attribute do. */
int op_trains(const Graph *g, const Op *op, const char *slot);

/* The definition for an op type, or NULL when paddlec does not know it. */
const OpDef *op_def_find(const char *type);
/* Number of op types known, and the i-th (sorted by type) — for listings. */
int op_def_count(void);
const OpDef *op_def_at(int i);
/* Self-check of the table (sorted, names match, every rule present): index of
 * the first bad entry, or -1.  Run by the unit tests. */
int op_table_check(void);

/* ---- what an op's code uses ---- */
/* Every slot look-up below (and rewrite.h's rw_in/rw_out) marks the slot
 * as seen (Slot.seen). */
/* After the op's kernel is emitted: an input of the op, or of an op a pass
 * merged into it, bound to a var that neither its rule nor its emitter
 * looked up (and its OpDef does not list in `ignores`) is an error naming
 * the op and the slot; so is an attribute no code looked up that holds a
 * value other than Paddle's default (unless a bookkeeping or backend
 * attribute, or in `attr_ignores`).  (Outputs: codegen_model.c's check_outputs, by the
 * pointers the emitter wrote through.)  0, or -1 after errors. */
int op_check_slots(Graph *g, Op *op);
/* 1 when `slot` is in def->ignores; when attribute `name` is in
 * def->attr_ignores. */
int op_def_ignores(const OpDef *def, const char *slot);
int op_def_ignores_attr(const OpDef *def, const char *name);

/* 1 when batch_norm op `op` normalizes with its running statistics (Mean,
 * Variance) as Paddle decides it, 0 when with its batch's (training). */
int op_bn_running_stats(const Op *op);
/* batch_norm's shape rule and C emitter (norm.c) over the current op's
 * batch_norm slots and attributes: the fused batch norms run them.
 * op_batch_norm_grad_emit: batch_norm_grad's, reading Y@GRAD's elements
 * from `dy_ptr` (a float * C expression, Y@GRAD's shape) when not NULL. */
int op_batch_norm_infer(OpCtx *c);
int op_batch_norm_emit(EmitCtx *e);
int op_batch_norm_grad_emit(EmitCtx *e, const char *dy_ptr);

/* 1 when dropout op `op` leaves X unchanged at inference (upscale_in_train,
 * or a dropout_prob of 0). */
int op_dropout_identity(const Op *op);

/* The LoD (its index: a feed's among g's feeds, or g->nfeeds + j for the
 * j-th LoD an op makes, OpDef.lod_made) that var v carries when the program
 * runs, found as Paddle's ShareLoD passes it on: back from v through the ops
 * that keep the rows (an output with the dim 0 of one of their inputs, or
 * the same run-time extent: lookup_table, element-wise ops, activations,
 * mul, sequence_conv) to a feed of lod_level 1 or an op that makes a LoD.
 * -1 when there is none or it cannot be told, with *why saying why
 * (sequence.c).  s NULL: the rows compared are the current inference's (a
 * rule's, while specializing).  A LoD of two levels is refused (the
 * sequence ops read one level). */
int op_lod_input(const Graph *g, const Spec *s, const Var *v, const char **why);
/* op_lod_input that also takes a LoD of two levels (a feed of lod_level 2,
 * beam_search's): its levels in *levels (1 or 2). */
int op_lod_input_levels(const Graph *g, const Spec *s, const Var *v, int *levels, const char **why);
/* The levels of LoD k (a feed's lod_level, or OpDef.lod_made's count). */
int op_lod_levels(const Graph *g, int k);
/* The LoDs ops make (OpDef.lod_made), and the var of the j-th: in block
 * 0, or in a sub-block where no other op writes the var (a kernel in a
 * loop's body makes its LoD again each trip, into the same store). */
int op_lod_made_count(const Graph *g);
int op_lod_made_var(const Graph *g, int j);
/* LoD k's name for comments and messages: the feed's, or the var's whose
 * LoD an op makes. */
const char *op_lod_name(const Graph *g, int k);
/* While specializing, after ctx_set: dim 0 of the i-th output of `slot` is
 * the number of sequences of the LoD that input `lod_slot` carries (as
 * op_lod_input finds it; sequence_pool's Out, edit_distance's Out,
 * linear_chain_crf's LogLikelihood): a run-time extent bounded by the dim
 * set, whose root (Var.runtime_root) is that LoD's, so that every such
 * output over one feed's LoD has the same extent (sequence.c).  Nothing
 * otherwise. */
void ctx_set_lod_extent(OpCtx *c, const char *slot, int i, const char *lod_slot);

/* ---- helpers for rules ---- */
/* Number of vars bound to an input/output slot (0 if the slot is absent). */
int ctx_nin(const OpCtx *c, const char *slot);
int ctx_nout(const OpCtx *c, const char *slot);
/* The i-th var of a slot, or NULL when absent or "@EMPTY@". */
Var *ctx_in(const OpCtx *c, const char *slot, int i);
Var *ctx_out(const OpCtx *c, const char *slot, int i);
/* Like ctx_in, but a missing input or one without a known shape is an error. */
Var *ctx_need(OpCtx *c, const char *slot, int i);
/* Sets the i-th output of a slot (no-op when the slot is absent). */
void ctx_set(OpCtx *c, const char *slot, int i, const Shape *s, int dtype);
/* Sets every output of a slot to the same shape and dtype. */
void ctx_set_all(OpCtx *c, const char *slot, const Shape *s, int dtype);
/* After ctx_set: dim `axis` of the i-th output of `slot` holds only a bound,
 * its extent is known when the op runs (VAR_RUNTIME_EXTENT), set by `from`
 * ("input K ('k')", for messages). */
void ctx_set_runtime_extent(OpCtx *c, const char *slot, int i, int axis, const char *from);
/* The same for every dim d of bit d in `dims` (not 0). */
void ctx_set_runtime_extents(OpCtx *c, const char *slot, int i, unsigned dims, const char *from);
/* For an op whose OpDef.runtime_extents is below 2: -1 after ctx_fail
 * naming the first input with several run-time extents, else 0 (infer.c,
 * while specializing). */
int ctx_refuse_runtime_more(OpCtx *c);
/* For an op that does not take run-time extents (OpDef.runtime_extents):
 * -1 after ctx_fail naming the first input with one and the op it comes
 * from, else 0.  infer.c asks it of every such op while specializing
 * (producers mark their outputs then; `inspect` keeps Paddle's view), and
 * fusion_group of each op it fuses. */
int ctx_refuse_runtime_extents(OpCtx *c);
/* 1 in specialization's runs, where every feed dim is fixed: values that
 * are not known then are known only at run time.  (constant_folding also
 * runs the rules while specializing, with the batch still unknown.) */
int ctx_feeds_fixed(const OpCtx *c);
/* While specializing, for an op whose OpDef.max_shape is set: when
 * --max-shape names the i-th output of `slot`, sets it to the bound
 * (dtype) with every dim a run-time extent set by `from`, and returns 1;
 * 0 when no option names it; -1 after ctx_fail when the bound's rank is
 * not `rank`. */
int ctx_max_shape(OpCtx *c, const char *slot, int i, int rank, int dtype, const char *from);
/* While specializing: sets the i-th output of `slot` to `bound`, a bound
 * the op proves for sizes only the run knows (the largest the run can
 * give), every dim a run-time extent set by `from` (as ctx_max_shape, with
 * no option needed); 1, or 0 when the output is absent or not
 * specializing. */
int ctx_proven_shape(OpCtx *c, const char *slot, int i, const Shape *bound, int dtype, const char *from);
/* Input `slot` holds square matrices ([..., n, n], rank 2 or more):
 * 0, or -1 after ctx_fail (the linear algebra ops' rules). */
int ctx_square_matrices(OpCtx *c, const char *slot, const Shape *s);
/* The tensor a VAR attribute `name` of the op names, or NULL (a plain
 * attribute, a VARS list, or a name the op's block does not hold). */
Var *ctx_attr_tensor(const OpCtx *c, const char *name);
/* The values of an attribute `name` held in tensors (VAR: one tensor of
 * them; VARS: one-element tensors) where the compiler knows them
 * (ctx_int_values: fill_constant, assign_value, shape arithmetic): their
 * count (at most max) in out; -1 when the attribute is not held in
 * tensors, or some value is the run's.  Paddle reads such an attribute
 * when the op runs; a value known here is the one it reads. */
int ctx_attr_values(const OpCtx *c, const char *name, int64_t *out, int max);
/* One integer attribute `name` (a Scalar Paddle lets a tensor give): the
 * attribute's value (dflt when absent), or the tensor's where the compiler
 * knows it (ctx_attr_values), into *v; -1 when only the run knows it. */
int ctx_attr_int(const OpCtx *c, const char *name, int64_t dflt, int64_t *v);
/* 1 when --max-shape names the i-th output of `slot` while specializing. */
/* Where each dim of a rank-r X goes in a reduction's Out (-1: reduced away
 * or kept as 1), given the reduced dims red[]: Out keeps the others in
 * order (reduce.c; for ctx_pass_runtime_extents_to / tu_pass_extents_to). */
void reduce_kept_dims_to(int r, const int *red, int keep, int *to);
int ctx_has_max_shape(const OpCtx *c, const char *slot, int i);
/* 1 when that bound is a size class's (a feed no option bounds, size_class.h). */
int ctx_class_bound(const OpCtx *c, const char *slot, int i);
/* After ctx_set: the i-th output of `slot` takes x's run-time extent, if it
 * has one (an element-wise op: same dims). */
void ctx_pass_runtime_extent(OpCtx *c, const Var *x, const char *slot, int i);
/* The same with the extent on dim `axis` of the output (a reshape that
 * keeps the dim, a broadcast that moves it). */
void ctx_pass_runtime_extent_at(OpCtx *c, const Var *x, const char *slot, int i, int axis);
/* The same for every run-time extent of x, its dim d going to the
 * output's dim to[d] (a transpose, a reduction dropping other dims);
 * to[d] < 0 for one of them is the caller's to refuse first. */
void ctx_pass_runtime_extents_to(OpCtx *c, const Var *x, const char *slot, int i, const int *to);
/* v (its run-time extents just set, its own root) made from x's: it takes
 * x's root where that keeps Var.runtime_root's rule, vars of one root list
 * their extents in one order: x's extents are all one (runtime_same), or v
 * keeps every run-time dim of x in its order (all_in_order); else it keeps
 * its own (a transpose swapping H and W, a slice dropping H), so that
 * meeting another of x's root is checked by the run.  NULL v: nothing. */
void ctx_inherit_root(Var *v, const Var *x, int all_in_order);
/* Value i of the small integer tensor t as the run gives it, when it is a
 * run-time extent of some var: *v and its dim *d (paddle.shape(y)[2:],
 * F.interpolate's size=y.shape[2:]: shape, then slice, cast, concat or
 * a reshape of the values); 0 when the compiler cannot tell. */
int ctx_run_dim_of(const Graph *g, const Var *t, int i, const Var **v, int *d);
/* The same for any dim of *v (its batch, a fixed one, a run-time one). */
int ctx_shape_dim_of(const Graph *g, const Var *t, int i, const Var **v, int *d);
/* ctx_run_dim_of where *v's run-time dims are all one extent
 * (Var.runtime_same), so that its root names that extent: an output of
 * that length may take the root (arange(L), ones([L, L])). */
int ctx_run_extent_of(const Graph *g, const Var *t, int i, const Var **v, int *d);
/* The value of a one-element integer tensor as a product of run-time
 * extents and a constant (paddle.full([h * w, 1], ...) with h and w an
 * image's sizes read by `shape`): k times dim d[i] of v[i] for the n
 * factors. */
enum { SIZE_EXPR_MAX = 4 };
typedef struct SizeExpr {
  int64_t k;
  int n;
  const Var *v[SIZE_EXPR_MAX];
  int d[SIZE_EXPR_MAX];
} SizeExpr;
/* Value i of the small integer tensor t as a SizeExpr, following cast,
 * assign, reshapes and products (elementwise_mul of tensors of one length
 * or of one value, scale by a whole non-negative number) down to `shape`
 * dims and values the compiler knows: 1 when it is one with at least one
 * run-time factor, else 0. */
int ctx_size_expr(const OpCtx *c, const Var *t, int i, SizeExpr *s);
/* The values element i of the small integer tensor t takes in every run
 * within the bounds planned, as an interval [lo, hi], with a key naming
 * how it is computed (one key, one value in a run): known values; dims
 * read by `shape` (a run-time one from 0 to its bound, keyed by its
 * extent); and the arithmetic Python writes on them, followed through
 * cast, assign, reshapes, slice, concat and stack of such scalars: scale
 * by whole numbers, elementwise_add / sub / mul, elementwise_floordiv and
 * elementwise_mod of a value not below 0 by a known positive one (Swin's
 * padding to its window, (w - W % w) % w, and Hp // w).  1 when found. */
typedef struct IntRange {
  int64_t lo, hi;
  const char *key;
} IntRange;
int ctx_int_range(const OpCtx *c, const Var *t, int i, IntRange *r);
/* 1 when a and b both have a run-time extent made by one producer and
 * passed on unchanged (Var.runtime_root): the same value at run time. */
int same_runtime_extent(const Var *a, const Var *b);
/* 1 when dim da of a and dim db of b are run-time extents that are one at
 * run time: the same root, each var's run-time dims all that one extent
 * (Var.runtime_same), or the very same dim. */
int same_runtime_dims(const Var *a, int da, const Var *b, int db);
/* Broadcasting into an Out of out_rank dims (Paddle's `axis`, -1: right-
 * aligned): where dim 0 of an operand of `rank` dims lies in Out. */
int bcast_shift(int rank, int out_rank, int64_t axis);
/* The dims of Out that v's run-time extents lie on, so broadcast. */
unsigned bcast_run_mask(const Var *v, int out_rank, int64_t axis);
/* 1 when run-time dim da of a and db of b, which meet on one dim of Out
 * (a_out, b_out: where each one's run-time dims lie there), are one
 * extent: same_runtime_dims, or one root on the same dims of Out (a
 * residual add of two feature maps).  Otherwise the run checks them
 * (tu_bcast_extents). */
int bcast_extents_one(const Var *a, int da, unsigned a_out, const Var *b, int db, unsigned b_out);
/* Prints "<file>: block B op I (type -> out): <msg>" and returns -1. */
int ctx_fail(OpCtx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* For clang's analyzer, which reads one file at a time: ctx_fail returns -1
 * (op_ctx.c defines it as (ctx_fail), out of the macro's reach). */
#ifdef __clang_analyzer__
#define ctx_fail(...) ((void)ctx_fail(__VA_ARGS__), -1)
#endif

/* Compile-time values of a small integer tensor input (count, *vals), known
 * only while specializing for code generation; -1 otherwise.  A rule that
 * reads a shape from a tensor (ShapeTensor, SizeTensor, ...) uses them when
 * known and keeps Paddle's compile-time -1 when not (see consteval.h). */
int ctx_values(const OpCtx *c, const Var *v, const int64_t **vals);
/* The integer values of tensor v when known at compile time (a loaded
 * int32/int64 parameter, or values consteval knows while specializing):
 * their count, at most `max`, in out; -1 when not known. */
int ctx_int_values(const OpCtx *c, const Var *v, int64_t *out, int max);
/* The values of a bounds input given as one tensor (`tensor`) or a list of
 * one-element tensors (`list`), as ctx_int_values knows them: their count,
 * 0 when neither input is there, -1 when they are not known. */
int ctx_bounds(const OpCtx *c, const char *tensor, const char *list, int64_t *out, int max);
/* 1 and *out when v is a loaded parameter holding one number (constant
 * folding turns Python-number tensors into such parameters). */
int ctx_param_scalar(const OpCtx *c, const Var *v, double *out);
/* Normalizes a possibly negative axis for `rank`; -1 when out of range. */
int axis_norm(int64_t axis, int rank);
/* Paddle's elementwise broadcast with `axis` (spec section 7.2). */
int shape_broadcast(OpCtx *c, const Shape *x, const Shape *y, int64_t axis, Shape *out);
/* Product of dims [from, to) with DIM_UNKNOWN propagation. */
int64_t dims_prod(const Shape *s, int from, int to);
/* Shape of rank n from a list of dims. */
Shape shape_make(int n, const int64_t *d);
/* The shape of a scalar result: [] for programs saved by Paddle >= 2.5 and
 * for version 0 (develop) files that use 0-D tensors, [1] before that. */
Shape shape_scalar(const OpCtx *c);
/* Writes XShape = [0] ++ X.dims with X's dtype (reshape2, transpose2,
 * squeeze2, ...; the grad ops read X's dims back from it).  No-op when the op
 * has no XShape output; -1 after ctx_fail() when X's rank is too large. */
int ctx_set_xshape(OpCtx *c, const Var *x);
/* Paddle's compile-time length of an IntArray held by `n` tensors whose first
 * has shape `first`: n for a list; for a lone tensor its element count, or
 * its rank when that count is unknown or 0 (phi CompatInferMetaContext).
 * `first` is read only when n == 1. */
int64_t tensor_list_len(const Shape *first, int n);
/* fluid's compile-time shape for a `shape` given by the 1-D int tensor in
 * input `slot` (fill_constant, random fills): numel(slot) unknown dims.
 * -1 after ctx_fail() when the input is missing, its shape or element count
 * is unknown, or the count exceeds RT_MAX_RANK. */
int ctx_shape_from_tensor(OpCtx *c, const char *slot, Shape *out);
/* 1 for a program written before Paddle release `version` (2003000 = 2.3):
 * ProgramDesc.version in [1, version), absent (-1, as in 1.x files), or 0
 * (1.x files and develop builds) in a program without 2.5's 0-D tensors. */
int ctx_version_before(const OpCtx *c, int64_t version);

/* The rule of ops that reduce one axis to a value and its index (mode,
 * kthvalue; mode.c): axis:INT=-1 in [-rank, rank) (0 or -1 for a 0-D X),
 * keepdim:BOOLEAN=false; sets Out (X's dtype) and Indices (int64 while
 * specializing, X's dtype in the VarDesc as Paddle 2.6 writes it) and the
 * normalized axis.  -1 after ctx_fail(). */
int infer_axis_value_index(OpCtx *c, const Var *x, int *axis);
/* The C emitter of mode_grad and kthvalue_grad (mode.c). */
int emit_value_index_grad(EmitCtx *e);

/* ---- gradient ops ---- */
/* The generic shape rule of a `<forward>_grad` op (grad.c): each output
 * `S@GRAD` takes the shape and dtype of the forward input bound to slot S
 * (argument by argument); an X@GRAD without an X input (relu_grad, ...:
 * inputs Out, Out@GRAD) takes Out's. */
int grad_infer(OpCtx *c);
/* X@GRAD = XShape[1:] with Out@GRAD's dtype (reshape2_grad, transpose2_grad,
 * squeeze2_grad, ...). */
int infer_grad_xshape(OpCtx *c);
/* The forward X of grad op `op`: its own X input, or the X of the forward
 * op that made its XShape (reshape2_grad, transpose2_grad, ...); NULL when
 * neither is there.  Its run-time extents are X@GRAD's. */
const Var *grad_forward_x(const Graph *g, const Op *op);

/* ---- unary element-wise ops (activation.c), also inside fused ops ---- */
/* The float C expression of unary op `type` on the element `v`, its
 * attributes (and clip/pow/scale tensor inputs) read from `op`: the op
 * itself, or a fused op that carries the attributes.  NULL when unknown. */
const char *unary_float_expr(EmitCtx *e, const Op *op, const char *type);
/* 1 when `<act>_grad` op `op` takes Out and Out@GRAD alone (relu_grad,
 * tanh_grad, sigmoid_grad, ...: Paddle's grad maker passes no X), with a
 * C gradient in activation.c: one a fusion pass may take in. */
int unary_grad_out_only(const Op *op);
/* The float C expression of the gradient of grad op type `grad_type` (as
 * unary_grad_out_only) on the elements y (Out) and dy (Out@GRAD), its
 * attributes read from `op`; *body gets the statements to run first (NULL:
 * none).  NULL when the grad is not one of those. */
const char *unary_grad_expr(EmitCtx *e, const Op *op, const char *grad_type, const char **body);
/* Emits dx = the gradient of activation grad op type `grad_type`
 * ("<act>_grad") as that op's own kernel computes it, from the elements of
 * dy (Out@GRAD), x (the activation's input) and y (its output), of which it
 * reads those the activation's grad takes (x or y may be NULL where it
 * takes none); the attributes are read from `op` (the grad op, or a fused op
 * that carries them).  dx may be dy (in place).  0, or -1 after em_fail. */
int unary_grad_emit(EmitCtx *e, const Op *op, const char *grad_type, const Var *dy, const Var *x, const Var *y,
                    const Var *dx);
/* 1 when op is a float32 unary op of activation.c whose parameters are all
 * attributes (no Min/Max, FactorTensor, ScaleTensor input): one
 * a fusion pass may take in. */
int unary_fusible(const Graph *g, const Op *op);
/* 1 when op is unary_fusible and a fused op's epilogue (rt_act.h) computes
 * it exactly: *name gets Paddle's fuse_activation name for it ("relu",
 * "leaky_relu", "relu6", "clip", "swish", "hard_swish", "hard_sigmoid",
 * "sigmoid", "tanh", "gelu", "gelu_tanh"), *alpha and *beta its fuse_alpha
 * and fuse_beta, from op's attributes (the table's epi column). */
int unary_epilogue(const Graph *g, const Op *op, const char **name, double *alpha, double *beta);
/* The epilogue activation named `name` with its parameters, as Paddle
 * 2.6's oneDNN fusion reads fuse_alpha / fuse_beta (checked against it,
 * tests/oracle/e2e_cnn.py conv_fused): relu and leaky_relu take the negative
 * slope in alpha, relu6 and clip are min(max(x, alpha), beta), swish's beta
 * is alpha, hard_swish and hard_sigmoid use alpha * x + beta as written;
 * gelu and gelu_tanh take none.  "" and "none" are no activation.  -1 after
 * em_fail for an unknown name or clip bounds out of order. */
int em_act(EmitCtx *e, const char *name, double alpha, double beta, RtAct *act, float *fa, float *fb);
/* The RtAct enumerator's name for generated code ("RT_ACT_RELU"). */
const char *em_act_name(RtAct act);

/* ---- optimizer ops (optimizer.c) ---- */
/* 1 when input `slot` of an optimizer op holds a value every parameter's
 * update reads alike (LearningRate, Beta1Tensor, Beta2Tensor,
 * EpsilonTensor, SkipUpdate): a merged optimizer op (fuse_all_optimizer_ops,
 * fuse_adamw) keeps one var there and one per parameter elsewhere. */
int optimizer_shared_slot(const char *slot);

/* ---- binary element-wise ops (elementwise.c) ---- */
/* The float C expression of elementwise op `type` on elements a and b, or
 * NULL. */
const char *binary_float_expr(const char *type);
/* 1 when op is a float32 elementwise op of elementwise.c. */
int binary_fusible(const Graph *g, const Op *op);
/* Out's run-time extents from X's and Y's, broadcast at `axis` (-1:
 * right-aligned): passed on where the other operand is broadcast along
 * them or has the same extents; anything else is refused (-1 after
 * ctx_fail).  Comparisons share it. */
int binary_pass_extents(OpCtx *c, const Var *x, const Var *y, int64_t axis);
/* The lines writing Out's run-time extents from X's and Y's (emit side of
 * binary_pass_extents). */
void binary_write_extents(EmitCtx *e, const Var *x, const Var *y, const Var *out, int64_t axis);

/* ---- sliding-window ops (conv_util.c) ---- */
/* The data input in `slot` of a conv or pool op, which must have rank 4 or 5
 * (N, C and 2 or 3 spatial dims); with `w` not NULL also the Filter, of the
 * same rank, into *w.  NULL after ctx_fail(). */
Var *conv_input(OpCtx *c, const char *slot, Var **w);
/* Reads the int list attribute `name` into out[n]; missing entries give dflt. */
void attr_ints_fill(const Op *op, const char *name, int n, int64_t dflt, int64_t *out);
/* Paddle's UpdatePaddingAndDilation / pool UpdatePadding: expands `paddings`
 * (nsp values, or a begin/end pair per spatial dim, or none) into pad[2*nsp]
 * and applies padding_algorithm: SAME pads so out = ceil(in / stride) and
 * forces dil[i] = 1, VALID zeroes the padding, EXPLICIT keeps it.  in, k,
 * stride and dil have nsp entries; dil is NULL for pooling (no dilation).  A
 * dim whose stride is <= 0 keeps its explicit padding (the caller rejects it).
 * Returns -1 after ctx_fail() on a malformed paddings list. */
int conv_padding(OpCtx *c, int nsp, const int64_t *in, const int64_t *k, const int64_t *stride,
                 int64_t *pad, int64_t *dil);
/* SAME padding over sizes the run gives (2-D): the rule's out = ceil(in /
 * stride) (RunHwRule add -1), and in the kernel, after run_hw_print's
 * locals, the locals pad_t and pad_l of the run's sizes as
 * conv_padding works them out (the geometry's, ConvCall / PoolCall
 * run_pads). */
int conv_is_same(const Op *op);
/* The window fields of a 2-D geometry (RtConv2d, RtPool2d): ".k_h = .., .k_w
 * = .., .stride_h = .., .stride_w = .., .pad_t = .., .pad_l = ..,", the
 * window's sizes as C text (constants, or a global pooling's h_in, w_in),
 * the padding the locals pad_t, pad_l with run_pads (SAME over the run's
 * sizes). */
const char *conv_window_fields(const char *k_h, const char *k_w, int64_t stride_h, int64_t stride_w, int64_t pad_t,
                               int64_t pad_l, int run_pads);
/* SAME padding over the run's sizes (run_hw_print's locals): the locals
 * pad_t, pad_l, with nsp 3 also pad_f (the front), for the window k and
 * the strides of nsp spatial dims (depth first). */
void conv_print_same_pads(EmitCtx *e, int nsp, const int64_t *k, const int64_t *stride);
/* C emission of 2-D convolutions (conv.c, conv_transpose.c): */
struct RtConv2d;
/* The compile-time dims of the rank-4 Input x and Output out (dims [1, 4)
 * into xd[1..3], od[1..3]) and of the Filter w (all four into wd); -1 after
 * em_fail() if any depends on the batch. */
int conv_const_dims(EmitCtx *e, const Var *x, const Var *out, const Var *w, int64_t xd[4], int64_t od[4],
                    int64_t wd[4]);
/* The portable GEMM's packing room (RT_SGEMM_WS_FLOATS) for the largest
 * product of rt_conv2d (transpose = 0) or rt_conv2d_transpose (1) with
 * geometry g, as a kernel-scratch expression, or "NULL" when none. */
const char *conv_gemm_ws(EmitCtx *e, const struct RtConv2d *g, int transpose);
/* Channel-last (NHWC) 2-D convolutions run as NCHW between two transposes
 * (conv_call.h); conv_nhwc_dims reorders dims [1, 4) read as H, W, C to C, H, W. */
void conv_nhwc_dims(int64_t d[4]);
/* The element type of a 2-D convolution (Input x, Filter w, and another
 * tensor the op reads, or NULL): 0 for float32, 1 for float64 (all of one
 * dtype, as Paddle's kernels take them); -1 after em_fail naming `what`
 * ("convolutions", ...) and the dtypes. */
int conv_dtype(EmitCtx *e, const char *what, const Var *x, const Var *w, const Var *other);
/* Kernel scratch of n doubles for the float64 routines' column matrix, as
 * a pointer expression ("NULL" when n is 0). */
const char *conv_ws_f64(EmitCtx *e, int64_t n);
/* The column buffer of n elements: float scratch, or conv_ws_f64 with f64. */
const char *conv_col_ws(EmitCtx *e, int f64, int64_t n);

/* The convolutions' record, ConvCall, and its printer: conv_call.h. */

#endif
