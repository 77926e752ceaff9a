/* Code printer and the context op emitters write kernels with.
 *
 * A kernel is one C function per op (or fused group) in the generated model
 * file: `static void P_kNNN_<type>(P_model *m, int64_t B, unsigned char *ws)`
 * (ws: the kernel's scratch slot).  Inside, the op's
 * emitter addresses tensors through em_ptr() (arena slot, feed, or
 * parameter) and sizes through em_dim()/em_numel(), which are C expressions
 * in the batch B, already simplified ("B", "3", "(64 * B)"). */
#ifndef PADDLEC_EMIT_H
#define PADDLEC_EMIT_H

#include <stdarg.h>
#include <stddef.h>

#include "graph.h"
#include "plan.h"
#include "rt_act.h"
#include "scratch.h"
#include "spec.h"

typedef struct Printer {
  char *buf;    /* text so far (NUL-terminated) */
  size_t len;   /* bytes used */
  size_t cap;   /* bytes allocated */
  int indent;   /* current indentation level (2 spaces each) */
} Printer;

void pr_init(Printer *p);
void pr_free(Printer *p);
/* One line at the current indentation; a trailing "{" indents the next
 * lines, a leading "}" outdents this one. */
void pr_line(Printer *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* n lines of "}": the blocks a printer opened. */
void pr_close(Printer *p, int n);
/* Text as is (no indentation, no newline). */
void pr_raw(Printer *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pr_vraw(Printer *p, const char *fmt, va_list ap);

/* A named operand of a kernel: a var, or a scratch region. */
typedef struct EmitLocal {
  int var;          /* the var's id, or -1 for scratch */
  int rw;           /* 1 where some use writes */
  const char *role; /* scratch: the name it is given (em_scratch_named), */
  const char *type; /* its element type */
  const char *at;   /* and its place ("(ws + 64)") */
} EmitLocal;

typedef struct EmitCtx {
  Graph *g;            /* the program */
  const Spec *spec;    /* concrete shapes */
  const Plan *plan;    /* where each var lives */
  const Op *op;        /* the op being emitted */
  int op_id;           /* its id */
  Printer *p;          /* the kernel body goes here */
  const char *prefix;  /* symbol prefix of the model */
  int blas;            /* 1: OpenBLAS build, 0: portable kernels only */
  int pp_panel;        /* panel height of prepared weights (CompileOpts) */
  ScratchPlan *scratch; /* the kernels' scratch (scratch.h): the current
                         * kernel's regions, the slot, the threads' */
  const char *kernel;  /* the current kernel's function name */
  Printer *tasks;      /* task functions of the current kernel (printed before it) */
  int ntask_fns;       /* how many it has */
  Printer *outer;      /* while a task function is open: the kernel body */
  unsigned char *written; /* per var: 1 once the current op's emitter took a
                           * writable pointer to it (em_ptr, is_const 0) or
                           * called em_wrote; NULL = not tracked */
  unsigned char *lod_read; /* per feed: 1 once a kernel reads its LoD
                            * (em_reads_lod); NULL = not tracked */
  SymDim *lod_bound;   /* per LoD an op makes (op_lod_made_count): the most
                        * offsets it has (em_makes_lod), a = -1 before */
  SymDim *array_lod_room; /* per tensor array: the offsets a level of its
                        * slots needs (em_array_lod), a = -1 when it keeps
                        * none (not an array of LoD tensors, or unwritten) */
  int *lod_bound_array; /* per LoD an op makes: the tensor array whose room
                        * bounds it too (em_makes_lod_of_array), or -1 */
  int naming;          /* 1 while a kernel is emitted: em_ptr names operands */
  int deciding;        /* 1 while OpDef.decide runs: em_fail prints nothing */
  struct EmitLocal *locals; /* the kernel's named operands (emit_names.c) */
  int nlocals, locals_cap;
  Printer *task_body;  /* while a task function is open: its body, */
  const char *task_fn, *task_work, *task_outer; /* its name and split */
  const char *fault;   /* em_fault: the kernel can fail at run time */
  int size_classes;    /* the model is planned for size classes (size_class.h):
                        * arena offsets and scratch places are the run's
                        * class's (m->off[], m->ws_off[]), and no comment
                        * prints a bound */
  const Spec *class_alt; /* size classes: another class's shapes (a dim
                          * that differs from it is the class's), or NULL */
  /* em_sub_kernel's work, given by the driver (codegen_model.c) */
  const char *(*sub_kernel)(struct EmitCtx *e, int id, const char *fn, const char **fault);
} EmitCtx;

/* A kernel of its own, named fn, for op `id` of a control-flow op's
 * sub-block (EmitCtx.sub_kernel, codegen_model.c): its comment and function are printed among
 * the current kernel's task functions; returns the call that runs it, or
 * NULL when the op cannot be emitted (the errors are printed).  *fault is
 * what em_fault said of it (the call then returns nonzero on that fault),
 * or NULL. */
const char *em_sub_kernel(EmitCtx *e, int id, const char *fn, const char **fault);
/* C type of a dtype ("float", "int64_t", ...), or NULL when unsupported. */
const char *em_ctype(int dtype);
/* The RT_DT_* enumerator of a dtype for generated code ("RT_DT_FP32"; the
 * number for one rt.h does not name). */
const char *em_dtype_enum(int dtype);
/* Pointer expression for a var, cast to its element type (const for inputs
 * when is_const).  In a kernel (e->naming) a placeholder for a local named
 * after the var, which em_locals declares and names. */
const char *em_ptr(EmitCtx *e, const Var *v, int is_const);
/* em_ptr in a kernel (emit_names.c). */
const char *em_ptr_named(EmitCtx *e, const Var *v, int is_const);
/* The body of one function of a kernel, printed while e->naming: its
 * placeholders replaced by names (after the vars' Paddle names, none an
 * identifier of `text` or of `taken`), and in *decls their declarations,
 * `indent` levels in, in order of first use (emit_names.c). */
const char *em_locals(EmitCtx *e, const char *text, const char *taken, int indent, const char **decls);
/* used[i] = 1 when identifier ids[i] occurs in C text (outside comments
 * and literals), for i < n: one scan of the text. */
void em_uses(const char *text, const char *const *ids, int n, int *used);
/* The same as the marks a generated function's signature puts after its
 * parameters ids[i]: marks[i] = "" where the body uses it, " RT_UNUSED"
 * where not. */
void em_unused_marks(const char *body, const char *const *ids, int n, const char **marks);
/* Records that the current op's kernel leaves var v computed without taking
 * a writable pointer to it (a copy into a shared buffer that needs no code).
 * The driver refuses an op output that is read or fetched but that its
 * emitter neither wrote (em_ptr with is_const 0) nor declared so. */
void em_wrote(EmitCtx *e, const Var *v);
/* Records that the current kernel reads the level-1 LoD of feed k (the
 * sequence ops): each run of the model then takes it (set_input_lod). */
void em_reads_lod(EmitCtx *e, int k);
/* The current kernel makes LoD k (g->nfeeds + j: the j-th an op makes,
 * OpDef.lod_made), at most `bound` offsets (a*B + c; the count of
 * sequences + 1): each run gives it that much room.  The kernel writes the
 * offsets into the returned lvalue (an int64_t *, "m->lod_store[j]") and
 * their count into m->lod_count[k]; readers find them at m->lod[k]. */
const char *em_makes_lod(EmitCtx *e, int k, SymDim bound);
/* For a LoD of two levels (OpDef.lod_made 2) that em_makes_lod gave room
 * for: the lvalue (an int64_t *) its level 0 goes to, as many offsets at
 * most as its level 1; the kernel writes their count into
 * m->lod_outer_count[k]; readers find them at m->lod_outer[k]. */
const char *em_makes_lod_outer(EmitCtx *e, int k);
/* The offsets each level of LoD k (made by the current kernel) has room
 * for at the run's batch, an int64_t ("m->lod_cap[j]"). */
const char *em_makes_lod_room(EmitCtx *e, int k);
/* The run-time length of tensor array v (ops/array_call.h): the int64_t
 * lvalue "m->array_len[j]", j its order among the program's arrays; the
 * model sets it to 0 at the start of every run. */
const char *em_array_len(EmitCtx *e, const Var *v);
/* Tensor array v of LoD tensors (Var.arr_lod): the slots that keep its
 * elements' rows and LoDs (runtime/rt_lod_array.h), "m->array_lod[j]",
 * and in *cap the offsets a level of a slot has room for at the run's
 * batch, "m->array_lod_cap[j]".  A write asks for `room` offsets (a*B + c):
 * the model reserves the most any write asks for; a reader passes
 * room.a = -1 and gets NULL when no write asked (nothing keeps slots). */
const char *em_array_lod(EmitCtx *e, const Var *v, SymDim room, const char **cap);
/* em_makes_lod for a LoD read back from array v of LoD tensors: bounded
 * by the room of v's slots, as every write of the model (a loop's body
 * writes after its reads) asks for it (codegen_model.c resolves it). */
const char *em_makes_lod_of_array(EmitCtx *e, int k, const Var *v);
/* The current kernel can fail at run time (a value the op cannot take, such
 * as a top_k K beyond its axis): it returns nonzero then ("return 1;", which
 * the emitter prints), and the run stops with <PREFIX>_ERR_SHAPE and
 * "<kernel>: <why>" as the last error. */
void em_fault(EmitCtx *e, const char *why);
/* A dim, the element count, or the product of dims [from, to) as C
 * expressions in B (a dim known only at run time reads the model's
 * runtime_dims[], spec.h). */
const char *em_dim(EmitCtx *e, const Var *v, int d);
const char *em_numel(EmitCtx *e, const Var *v);
const char *em_prod(EmitCtx *e, const Var *v, int from, int to);
/* A float literal that reads back exactly ("0.2f", "6.0f", "INFINITY"). */
const char *em_float(double v);
/* Product of dims [from, to) as a*B + c; {1, 0} stands for "grows with B"
 * when more than one factor does (only bounds use it then). */
SymDim em_sym_prod(EmitCtx *e, const Var *v, int from, int to);
/* SymDim as a C expression. */
const char *em_sym(SymDim d);
/* The concrete-at-compile-time value of a dim, or -1 if it depends on B. */
int64_t em_const_dim(EmitCtx *e, const Var *v, int d);
/* The same, a dim known only at run time giving its bound (spec.h). */
int64_t em_bound_dim(EmitCtx *e, const Var *v, int d);
const VarSpec *em_spec(EmitCtx *e, const Var *v);
/* 1 when vars a and b have the same specialized shape (both known). */
int em_same_shape(EmitCtx *e, const Var *a, const Var *b);
/* A scratch region of `bytes` (a*B + c) for the current kernel only, e.g. an
 * im2col buffer, placed by the scratch plan (scratch.h) inside the kernel's
 * scratch slot `ws`, 64-byte aligned: in a kernel (e->naming) a `type *`
 * local named after its role ("col", "gemm_ws"; a suffix where the name is
 * taken), declared at the top of the function that uses it; elsewhere the
 * cast expression. */
const char *em_scratch_named(EmitCtx *e, const char *type, const char *role, SymDim bytes);
/* A region as its place in the slot ("ws", "(ws + 4096)"), for a record
 * whose printer declares the local itself (`float *cnt = (float *)%s;`):
 * `role` is that local's name, which the plan records (inspect --memory). */
const char *em_scratch_at(EmitCtx *e, const char *role, SymDim bytes);
/* Workspace for rt_sgemm_ws on an m x n x k product: a `float *` expression
 * (scratch sized by RT_SGEMM_WS_FLOATS, with the blocking bounds standing in
 * for dims that grow with the batch). */
const char *em_gemm_ws(EmitCtx *e, SymDim m, SymDim n, SymDim k);
/* The same named after another role than "gemm_ws" (em_scratch_named). */
const char *em_gemm_ws_as(EmitCtx *e, const char *role, SymDim m, SymDim n, SymDim k);
/* 1 when weight w can be bound packed for rt_pp_gemm (sets nothing): a
 * float32 parameter that the current op alone reads, nobody fetches and no
 * op writes (an optimizer updates its parameters in place). */
int em_packable_weight(const EmitCtx *e, const Var *w);
/* Records that a worker thread running the current kernel's tasks needs
 * `floats` of private scratch (rt_parallel.h; the kernel's own thread uses
 * its scratch slot instead). */
void em_task_scratch(EmitCtx *e, int64_t floats);
/* 1 when a and b live in the same arena buffer (enable_inplace). */
int em_same_buffer(EmitCtx *e, const Var *a, const Var *b);
/* Splits the current kernel's loop over `outer` independent rows of `work`
 * elements in all (C expressions in B) into tasks on the model's threads
 * (rt_parallel.h): opens a task function, where the emitter prints the
 * loop for rows [lo, hi) (declared for it) with m and B in scope, until
 * em_task_end, which prints the call into the kernel.  The split depends on
 * the sizes only. */
void em_task_begin(EmitCtx *e, const char *work, const char *outer);
void em_task_end(EmitCtx *e);
/* Fails the emission with a message naming the op; returns -1. */
int em_fail(EmitCtx *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* For clang's analyzer, which reads one file at a time: em_fail returns -1
 * (emit.c defines it as (em_fail), out of the macro's reach). */
#ifdef __clang_analyzer__
#define em_fail(...) ((void)em_fail(__VA_ARGS__), -1)
#endif

#endif
