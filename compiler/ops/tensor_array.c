/* Tensor arrays (LOD_TENSOR_ARRAY vars; fluid tensor_array_read_write_op,
 * lod_array_length_op, tensor_array_to_tensor_op).
 *   write_to_array: X, I -> Out (the array).  Out[I] = X; I past the end
 *     grows the array to I + 1 (the elements between stay empty).  An X
 *     that holds no memory writes nothing.
 *   read_from_array: X (the array), I, X_W† -> Out.  Out = X[I]; I past the
 *     end leaves Out as it was, or with X_W fills Out with zeros of X_W's
 *     dims (write_to_array's grad).
 *   lod_array_length: X -> Out int64 [1], the array's length.
 *   tensor_array_to_tensor: X -> Out, OutIndex; axis:INT=0,
 *     use_stack:BOOL=false.  Out joins the elements at axis (concat, or
 *     stack with use_stack); OutIndex (int32, one per element) holds each
 *     element's dim at axis.  An empty array stops Paddle ("Input
 *     tensorarray size should > 0").
 *   tensor_array_to_tensor_grad: X, Out@GRAD (Out, OutIndex†) -> X@GRAD
 *     (an array); the forward's attributes.  X@GRAD has X's length and
 *     elements, Out@GRAD split back at axis (Paddle runs concat_grad or
 *     stack_grad into one tensor per element).
 * I is read as int64 whatever its dtype (ArrayOp::GetOffset): an I of
 * another dtype is refused.  Paddle's compile-time shapes: the array has its
 * elements' dims (write_to_array's X), read_from_array's Out the same;
 * tensor_array_to_tensor's Out has -1 at axis (concat) or a -1 inserted
 * there (stack).  A negative axis crashes Paddle 2.6's shape rule; the
 * stack axis may be the rank (a new last dim), where Paddle's OutIndex
 * reads past the element's dims: 1 here.
 * paddlec keeps an array as one buffer of L elements, L the length the
 * compiler proves (array_len.h); while specializing, Out has L at axis
 * (concat: L times the element's dim).  When L is only a bound (a loop the
 * data may end sooner wrote the array) Out's axis, and OutIndex, have a
 * run-time extent: the run's length (1 to L) times the element's dim.  Every element has the dtype and
 * dims of the first write (else refused).
 * An array of elements whose rows vary (Var.arr_rows: a write's X has a
 * lod_level, or rows only the run knows) keeps, beside each element, its
 * rows and its LoD (runtime/rt_lod_array.h); its elements may differ in
 * rows, dim 0 being the most a write brings (a plain element of fixed
 * rows among them: a decoder's first state), and every write's X must
 * carry a LoD of as many levels as the others' (Var.arr_lod), or none when
 * they carry none.  read_from_array gives Out the element's rows (a
 * run-time extent) and its LoD (Paddle: `out->set_lod(x[i].lod())`), a LoD
 * the kernel makes (OpDef.lod_made: the array's levels) with room for the
 * most offsets any write brings (em_makes_lod_of_array), in block 0 or in
 * a loop's body; lod_array_length and
 * beam_search_decode read such an array too; tensor_array_to_tensor (and
 * its grad) and a read with X_W (write_to_array's grad) refuse it.
 * Emission and run-time checks: array_call.h. */
#include <string.h>

#include "../array_len.h"
#include "../consteval.h"
#include "../diag.h"
#include "../util.h"
#include "array_call.h"
#include "ops.h"
#include "tensor_util.h"

enum { DT_INT32 = 2, DT_INT64 = 3 };

static Var *need_array(OpCtx *c, const char *slot) {
  Var *a = ctx_need(c, slot, 0);
  if (a && a->vtype != VT_LOD_TENSOR_ARRAY)
    return ctx_fail(c, "%s '%s' is a variable of kind %d, not a tensor array (13)", slot, a->name, a->vtype), NULL;
  return a;
}

/* I: one int64 element (Paddle reads 8 bytes whatever I's dtype). */
static Var *need_index(OpCtx *c) {
  Var *i = ctx_need(c, "I", 0);
  if (!i) return NULL;
  int64_t n = shape_numel(&i->shape);
  if (n >= 0 && n != 1) return ctx_fail(c, "I '%s' %s has %lld elements, not one", i->name, shape_str(&i->shape), (long long)n), NULL;
  if (i->dtype != DT_INT64)
    return ctx_fail(c, "I '%s' is %s: Paddle reads it as int64 whatever its dtype", i->name,
                    rt_dtype_name(i->dtype) ? rt_dtype_name(i->dtype) : "?"),
           NULL;
  return i;
}

/* The array's elements, once some op wrote it. */
static int written(OpCtx *c, const Var *a) {
  if (!(a->flags & VAR_INFERRED))
    return ctx_fail(c, "array '%s' is read before any op writes it (Paddle: an empty array)", a->name);
  return 0;
}

/* The dims of two elements agree where both are known (a dim only the run
 * knows is reported where it is made: spec.c names the tensor it comes
 * from), from dim `from` on. */
static int same_dims(const Shape *a, const Shape *b, int from) {
  if (a->rank != b->rank) return 0;
  for (int d = from; d < a->rank; d++)
    if (a->d[d] >= 0 && b->d[d] >= 0 && a->d[d] != b->d[d]) return 0;
  return 1;
}

/* Not an array of LoD tensors: tensor_array_to_tensor and its grad, a
 * read with X_W. */
static int no_lod_elements(OpCtx *c, const Var *a) {
  if (!a->arr_rows) return 0;
  return ctx_fail(c, "array '%s' holds LoD tensors (or elements whose rows only the run knows): paddlec reads such "
                  "an array with read_from_array (without X_W), beam_search_decode and lod_array_length only yet",
                  a->name);
}

/* The levels of the LoD an X whose rows vary carries into an array
 * (Var.arr_lod), as far as the walk can tell now: 0 for none, 1 for one
 * declared that the walk does not find (the emitter refuses it). */
static int written_levels(const Graph *g, const Var *x) {
  int levels = 0;
  const char *why;
  if (op_lod_input_levels(g, NULL, x, &levels, &why) >= 0 && levels > 0) return levels;
  return x->lod_level > 0;
}

static int infer_write_to_array(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *i = need_index(c), *a = ctx_out(c, "Out", 0);
  if (!x || !i) return -1;
  if (!a || a->vtype != VT_LOD_TENSOR_ARRAY)
    return ctx_fail(c, "Out %s%s is not a tensor array", a ? a->name : "", a ? "" : "is missing:");
  if (var_runtime_axis(x) > 0 || x->runtime_more)
    return ctx_fail(c, "X '%s' has a dim other than its rows (dim 0) that only the run knows (%s): arrays take "
                    "elements whose rows vary only", x->name, x->runtime_from ? x->runtime_from : "its producer");
  const int rows = x->lod_level > 0 || var_runtime_axis(x) == 0; /* rows that vary */
  const int lod = rows ? written_levels(c->g, x) : 0;
  if (!(a->flags & VAR_INFERRED)) {
    ctx_set(c, "Out", 0, &x->shape, x->dtype);
    a->arr_rows = rows;
    a->arr_lod = lod;
  } else if (c->g->specializing && a->arr_lod && lod && a->arr_lod != lod) {
    return ctx_fail(c, "writes X '%s', whose LoD has %d level%s, into array '%s', whose elements' have %d: paddlec "
                    "keeps the elements of an array of LoD tensors with LoDs of one depth", x->name, lod,
                    lod > 1 ? "s" : "", a->name, a->arr_lod);
  } else if (c->g->specializing && !a->arr_lod != !lod) {
    if (x->shape.d[0] >= 0 && a->shape.d[0] >= 0) /* (constant folding infers with the batch unknown) */
      return ctx_fail(c, "writes X '%s'%s into array '%s', whose elements are%s: paddlec keeps an array of LoD "
                      "tensors or of tensors without one (of rows the run gives, or of one shape)", x->name,
                      lod ? ", a LoD tensor," : "", a->name, lod ? " not" : " LoD tensors");
  } else if (c->g->specializing && (a->arr_rows || rows) && a->dtype == x->dtype && same_dims(&a->shape, &x->shape, 1)) {
    a->arr_rows = 1; /* elements of the rows they bring, a plain one among them (a decoder's first state) */
    if (a->shape.d[0] >= 0 && x->shape.d[0] > a->shape.d[0]) a->shape.d[0] = x->shape.d[0]; /* the most rows */
  } else if (c->g->specializing && (a->dtype != x->dtype || !same_dims(&a->shape, &x->shape, 0))) {
    /* (Paddle's own shapes, for inspect, let an array's elements differ) */
    return ctx_fail(c, "writes X '%s' %s%s into array '%s', whose elements are %s%s: paddlec keeps arrays of one "
                    "element shape and dtype",
                    x->name, rt_dtype_name(x->dtype) ? rt_dtype_name(x->dtype) : "?", shape_str(&x->shape), a->name,
                    rt_dtype_name(a->dtype) ? rt_dtype_name(a->dtype) : "?", shape_str(&a->shape));
  }
  array_len_write(c->g, c->op, a, i);
  return 0;
}

static int infer_read_from_array(OpCtx *c) {
  Var *a = need_array(c, "X"), *i = need_index(c), *xw = ctx_in(c, "X_W", 0);
  if (!a || !i || written(c, a) || (xw && no_lod_elements(c, a))) return -1;
  if (xw && (xw->dtype != a->dtype || shape_numel(&xw->shape) != shape_numel(&a->shape)))
    return ctx_fail(c, "X_W '%s' %s is not the size of the array's elements %s", xw->name, shape_str(&xw->shape),
                    shape_str(&a->shape));
  ctx_set(c, "Out", 0, &a->shape, a->dtype);
  if (a->arr_rows && c->g->specializing && a->shape.rank >= 1 && a->shape.d[0] >= 0) /* the element's rows */
    ctx_set_runtime_extent(c, "Out", 0, 0, pool_printf("X ('%s': the rows of the element read)", a->name));
  return 0;
}

static int infer_lod_array_length(OpCtx *c) {
  Var *a = need_array(c, "X");
  if (!a) return -1;
  Shape one = {1, {1}};
  ctx_set(c, "Out", 0, &one, DT_INT64);
  return 0;
}

/* In block 0 the length so far is what the run has there (array_len.h:
 * every write before is counted); not inside a loop's body. */
static void fold_lod_array_length(OpCtx *c) {
  Var *a = ctx_in(c, "X", 0);
  if (a && c->op->block == 0 && a->arr_len >= 0 && !a->arr_bounded) consteval_set(ctx_out(c, "Out", 0), &a->arr_len, 1, 1);
}

/* axis checked against the element's rank: [0, rank) for concat, [0, rank]
 * for stack. */
static int join_axis(OpCtx *c, const Var *a, int *axis) {
  const int stack = attr_bool(c->op, "use_stack", 0);
  const int64_t ax = attr_int(c->op, "axis", 0);
  if (ax < 0 || ax > a->shape.rank - !stack)
    return ctx_fail(c, "axis %lld is outside [0, %d] for elements of %s (Paddle 2.6 crashes on a negative one)",
                    (long long)ax, a->shape.rank - !stack, shape_str(&a->shape));
  *axis = (int)ax;
  return 0;
}

static int infer_tensor_array_to_tensor(OpCtx *c) {
  Var *a = need_array(c, "X");
  int axis = 0;
  if (!a || written(c, a) || no_lod_elements(c, a) || a->shape.rank < 0 || join_axis(c, a, &axis)) return -1;
  int64_t n = DIM_UNKNOWN;
  if (c->g->specializing) {
    if (a->arr_len < 0) return ctx_fail(c, "array '%s' has a length paddlec cannot know at compile time: %s", a->name, a->arr_why);
    if (!a->arr_len)
      return ctx_fail(c, "array '%s' is empty whenever this runs (Paddle stops too: \"Input tensorarray size should > "
                      "0\")", a->name);
    n = a->arr_len;
  }
  Shape s = a->shape;
  if (attr_bool(c->op, "use_stack", 0)) {
    if (s.rank >= RT_MAX_RANK) return ctx_fail(c, "stacking elements of rank %d gives more than %d dims", s.rank, RT_MAX_RANK);
    memmove(&s.d[axis + 1], &s.d[axis], sizeof s.d[0] * (size_t)(s.rank - axis));
    s.d[axis] = n;
    s.rank++;
  } else {
    s.d[axis] = n < 0 || s.d[axis] < 0 ? DIM_UNKNOWN : n * s.d[axis];
  }
  ctx_set(c, "Out", 0, &s, a->dtype);
  Shape idx = {1, {n}};
  ctx_set(c, "OutIndex", 0, &idx, DT_INT32);
  if (c->g->specializing && a->arr_bounded) { /* L is a bound: the run's length is the extent */
    const char *from = pool_printf("X (the run-time length of array '%s')", a->name);
    ctx_set_runtime_extent(c, "Out", 0, axis, from);
    if (ctx_out(c, "OutIndex", 0)) ctx_set_runtime_extent(c, "OutIndex", 0, 0, from);
  }
  return 0;
}

static int infer_tensor_array_to_tensor_grad(OpCtx *c) {
  Var *a = need_array(c, "X"), *dout = ctx_need(c, "Out@GRAD", 0), *dx = ctx_out(c, "X@GRAD", 0);
  int axis = 0;
  if (!a || !dout || written(c, a) || no_lod_elements(c, a) || a->shape.rank < 0 || join_axis(c, a, &axis)) return -1;
  if (!dx) return 0;
  if (dx->vtype != VT_LOD_TENSOR_ARRAY) return ctx_fail(c, "X@GRAD '%s' is not a tensor array", dx->name);
  if (dout->dtype != a->dtype) return ctx_fail(c, "Out@GRAD '%s' is not of X's dtype", dout->name);
  ctx_set(c, "X@GRAD", 0, &a->shape, a->dtype);
  dx->arr_len = a->arr_len, dx->arr_bounded = a->arr_bounded, dx->arr_why = a->arr_why;
  return 0;
}

static ArrayCall array_call(EmitCtx *e, ArrayKind kind, Var *a) {
  ArrayCall call = {.kind = kind, .type = em_ctype(a->dtype), .len = em_array_len(e, a)};
  call.cap = em_const_dim(e, a, 0);
  call.numel = em_prod(e, a, 1, tu_rank(e, a));
  return call;
}

/* The offsets each level of LoD k may have: a feed's rows + 1 (the run's
 * LoD check), a made one's bound (em_makes_lod, emitted before). */
static SymDim lod_room(EmitCtx *e, int k) {
  if (k < e->g->nfeeds) {
    const SymDim rows = em_spec(e, &e->g->vars[e->g->feeds[k]])->d[0];
    return (SymDim){rows.a, rows.c + 1};
  }
  return e->lod_bound ? e->lod_bound[k - e->g->nfeeds] : (SymDim){-1, 0};
}

/* X's rows and LoD into array a of elements whose rows vary: -1 after
 * em_fail. */
static int write_lod(EmitCtx *e, Var *x, Var *a, ArrayCall *call) {
  const char *why;
  int levels;
  const int k = op_lod_input_levels(e->g, e->spec, x, &levels, &why);
  if (k < 0 && a->arr_lod)
    return em_fail(e, "X ('%s') carries no LoD, but array '%s' holds LoD tensors: %s", x->name, a->name, why);
  if (k >= 0 && !a->arr_lod)
    return em_fail(e, "X ('%s') carries a LoD ('%s'), but array '%s' holds tensors without one", x->name,
                   op_lod_name(e->g, k), a->name);
  if (k >= 0 && k < e->g->nfeeds) em_reads_lod(e, k);
  /* dim 0 is the most rows of the writes at the probed batches: it must
   * cover X's at every batch (B rows beside 8 fixed ones are 8 up to B = 8) */
  const SymDim most = em_spec(e, a)->d[1], rows = em_spec(e, x)->d[0];
  if (most.a < rows.a || most.a + most.c < rows.a + rows.c)
    return em_fail(e, "X ('%s') has %s rows and array '%s' room for %s a element: its writes' rows grow apart with "
                   "the batch; fix the batch with --shape", x->name, em_sym(rows), a->name, em_sym(most));
  const SymDim room = k >= 0 ? lod_room(e, k) : (SymDim){0, 1}; /* (no offsets: the least room) */
  if (room.a < 0 && !e->deciding) diag_internal("the LoD of '%s' has no bound before write_to_array", x->name);
  call->slots = em_array_lod(e, a, room, &call->slot_cap);
  call->rows = em_dim(e, x, 0);
  call->elem_rows = em_dim(e, a, 1);
  call->row_numel = em_prod(e, x, 1, tu_rank(e, x));
  call->lod = k;
  call->lod_outer = levels == 2;
  return 0;
}

static int emit_write_to_array(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *i = tu_in(e, "I", 0), *a = tu_out(e, "Out", 0);
  if (!x || !i || !a) return -1;
  ArrayCall call = array_call(e, ARRAY_WRITE, a);
  call.arr = em_ptr(e, a, 0);
  call.x = em_ptr(e, x, 1);
  call.i = em_ptr(e, i, 1);
  if (a->arr_rows && write_lod(e, x, a, &call)) return -1;
  em_fault(e, a->arr_rows ? "write_to_array: index negative, past the array's end (a gap) or past the length "
                           "paddlec proved, or X with more rows or LoD offsets than paddlec planned for"
                         : "write_to_array: index negative, past the array's end (a gap) or past the length paddlec "
                           "proved");
  array_print_c(e->p, &call);
  return 0;
}

/* Out of a read of array a of elements whose rows vary: the element's
 * rows, and the LoD made from its slot; -1 after em_fail. */
static int read_lod(EmitCtx *e, Var *a, Var *out, ArrayCall *call) {
  if (var_runtime_axis(out) != 0) return em_fail(e, "Out ('%s') must have rows known at run time", out->name);
  call->slots = em_array_lod(e, a, (SymDim){-1, 0}, &call->slot_cap);
  if (!call->slots) call->slots = "NULL", call->slot_cap = "0"; /* (deciding) */
  call->rows = em_dim(e, out, 0);
  call->row_numel = em_prod(e, out, 1, tu_rank(e, out));
  if (!a->arr_lod) return 0; /* no LoD to make */
  const char *why;
  call->lod = op_lod_input_levels(e->g, e->spec, out, NULL, &why);
  if (call->lod < e->g->nfeeds)
    return em_fail(e, "Out ('%s') does not carry the LoD this read makes: %s", out->name, why);
  call->lod_outer = a->arr_lod == 2;
  call->made_rows = em_makes_lod_of_array(e, call->lod, a);
  call->made_outer = call->lod_outer ? em_makes_lod_outer(e, call->lod) : NULL;
  call->made_room = em_makes_lod_room(e, call->lod);
  return 0;
}

static int emit_read_from_array(EmitCtx *e) {
  Var *a = tu_in(e, "X", 0), *i = tu_in(e, "I", 0), *out = tu_out(e, "Out", 0);
  if (!a || !i || !out) return -1;
  ArrayCall call = array_call(e, ARRAY_READ, a);
  call.arr = em_ptr(e, a, 1);
  call.i = em_ptr(e, i, 1);
  call.out = em_ptr(e, out, 0);
  OpCtx c = {e->g, (Op *)e->op};
  call.zero_past = ctx_in(&c, "X_W", 0) != NULL;
  if (a->arr_rows && read_lod(e, a, out, &call)) return -1;
  if (!call.zero_past)
    em_fault(e, a->arr_rows ? "read_from_array: index outside the array's written elements, or an element with more "
                             "LoD offsets than paddlec planned for"
                           : "read_from_array: index outside the array's written elements");
  array_print_c(e->p, &call);
  return 0;
}

/* Out of a read of an array of LoD tensors carries the element's LoD, of
 * the array's levels. */
static int read_from_array_lod_made(const Graph *g, const Op *op, int var) {
  const int a = slot_first(op->in, op->nin, "X");
  const int with_xw = slot_first(op->in, op->nin, "X_W") >= 0;
  return a >= 0 && !with_xw && slot_first(op->out, op->nout, "Out") == var ? g->vars[a].arr_lod : 0;
}

static int emit_lod_array_length(EmitCtx *e) {
  Var *a = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!a || !out) return -1;
  ArrayCall call = array_call(e, ARRAY_LENGTH, a);
  call.out = em_ptr(e, out, 0);
  array_print_c(e->p, &call);
  return 0;
}

static int emit_tensor_array_to_tensor(EmitCtx *e) {
  Var *a = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0), *index = tu_out(e, "OutIndex", 0);
  if (!a || !out) return -1;
  const int axis = (int)attr_int(e->op, "axis", 0), rank = tu_rank(e, a);
  ArrayCall call = array_call(e, ARRAY_TO_TENSOR, a);
  call.arr = em_ptr(e, a, 1);
  call.out = em_ptr(e, out, 0);
  call.outer = em_prod(e, a, 1, 1 + axis);
  call.inner = em_prod(e, a, 1 + axis, rank);
  call.dim = 1 + axis < rank && !attr_bool(e->op, "use_stack", 0) ? em_dim(e, a, 1 + axis) : "1";
  if (index) {
    call.index = em_ptr(e, index, 0);
    call.index_dim = 1 + axis < rank ? em_dim(e, a, 1 + axis) : "1";
  }
  if (em_spec(e, out)->runtime_dim) { /* a bounded array: as long as the run made it */
    call.bounded = 1;
    call.extent = em_dim(e, out, axis);
    if (index && em_spec(e, index)->runtime_dim) call.index_extent = em_dim(e, index, 0);
  }
  em_fault(e, "tensor_array_to_tensor: the array does not hold the elements paddlec proved it does");
  array_print_c(e->p, &call);
  return 0;
}

static int emit_tensor_array_to_tensor_grad(EmitCtx *e) {
  Var *a = tu_in(e, "X", 0), *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!a || !dout) return -1;
  if (!dx) return 0;
  const int axis = (int)attr_int(e->op, "axis", 0), rank = tu_rank(e, a);
  if (strcmp(em_numel(e, dout), em_numel(e, dx)) && !em_spec(e, dout)->runtime_dim)
    return em_fail(e, "Out@GRAD '%s' does not hold the array's elements", dout->name);
  ArrayCall call = array_call(e, ARRAY_FROM_TENSOR, dx);
  call.arr = em_ptr(e, dx, 0);
  call.x = em_ptr(e, dout, 1);
  call.src_len = em_array_len(e, a);
  call.outer = em_prod(e, a, 1, 1 + axis);
  call.inner = em_prod(e, a, 1 + axis, rank);
  call.bounded = a->arr_bounded;
  em_fault(e, "tensor_array_to_tensor_grad: the array does not hold the elements paddlec proved it does");
  array_print_c(e->p, &call);
  return 0;
}

/* Out, OutIndex: the forward's results; the grad needs X's elements and
 * the attributes only. */
static const char *const to_tensor_grad_ignores[] = {"Out", "OutIndex", NULL};
const OpDef op_tensor_array_to_tensor_grad = {.type = "tensor_array_to_tensor_grad",
                                              .infer = infer_tensor_array_to_tensor_grad,
                                              .emit_c = emit_tensor_array_to_tensor_grad,
                                              .ignores = to_tensor_grad_ignores};
const OpDef op_write_to_array = {.type = "write_to_array", .infer = infer_write_to_array, .emit_c = emit_write_to_array,
                                 .runtime_extents = 1};
const OpDef op_read_from_array = {.type = "read_from_array", .infer = infer_read_from_array,
                                  .emit_c = emit_read_from_array, .lod_made = read_from_array_lod_made};
const OpDef op_lod_array_length = {.type = "lod_array_length", .infer = infer_lod_array_length,
                                   .emit_c = emit_lod_array_length, .fold = fold_lod_array_length};
const OpDef op_tensor_array_to_tensor = {.type = "tensor_array_to_tensor", .infer = infer_tensor_array_to_tensor,
                                         .emit_c = emit_tensor_array_to_tensor};
