/* searchsorted (paddle.searchsorted): SortedSequence, Values -> Out;
 * out_int32:BOOLEAN=false, right:BOOLEAN=false.
 * Shape rule (phi SearchsortedInferMeta): SortedSequence is 1-D, or has
 * Values' rank with the same dims but the last; Out has Values' dims,
 * int32 with out_int32, else int64.
 * Emission (float32/64, int32/64, each input its own type): phi
 * SearchSortedFunctor per element of Values: its row of SortedSequence (the
 * only row when that is 1-D), then std::lower_bound (right: upper_bound)
 * by binary search, comparing in C's usual arithmetic conversions as the
 * C++ kernel does; an infinite or NaN value gives the row length. */
#include "../util.h"
#include "ops.h"
#include "sort_call.h"
#include "tensor_util.h"

static int infer_searchsorted(OpCtx *c) {
  Var *seq = ctx_need(c, "SortedSequence", 0), *val = ctx_need(c, "Values", 0);
  if (!seq || !val) return -1;
  const Shape *ss = &seq->shape, *vs = &val->shape;
  if (ss->rank == 0) return ctx_fail(c, "SortedSequence must not be 0-D");
  if (ss->rank != 1) {
    int match = ss->rank == vs->rank;
    for (int i = 0; match && i < ss->rank - 1; i++) match = ss->d[i] == vs->d[i];
    if (!match)
      return ctx_fail(c, "SortedSequence %s and Values %s must match in all dims but the last", shape_str(ss),
                      shape_str(vs));
  }
  ctx_set(c, "Out", 0, vs, attr_bool(c->op, "out_int32", 0) ? RT_DT_INT32 : RT_DT_INT64);
  return 0;
}

static int emit_searchsorted(EmitCtx *e) {
  Var *seq = tu_in(e, "SortedSequence", 0), *val = tu_in(e, "Values", 0), *out = tu_out(e, "Out", 0);
  if (!seq || !val || !out) return -1;
  static const int ok[] = {RT_DT_FP32, RT_DT_FP64, RT_DT_INT32, RT_DT_INT64};
  int seq_ok = 0, val_ok = 0;
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    seq_ok |= seq->dtype == ok[i];
    val_ok |= val->dtype == ok[i];
  }
  if (!seq_ok || !val_ok)
    return em_fail(e, "searchsorted of %s in %s is not supported", rt_dtype_name(val->dtype),
                   rt_dtype_name(seq->dtype));
  int want = attr_bool(e->op, "out_int32", 0) ? RT_DT_INT32 : RT_DT_INT64;
  if (out->dtype != want) return em_fail(e, "Out is %s but out_int32 asks for %s", rt_dtype_name(out->dtype),
                                         rt_dtype_name(want));
  int rs = tu_rank(e, seq), rv = tu_rank(e, val);
  SortCall call = {.kind = SORT_SEARCH, .dtype = val->dtype, .seq_dtype = seq->dtype, .idx_dtype = out->dtype,
                   .one_row = rs == 1, .right = attr_bool(e->op, "right", 0)};
  call.seq = em_ptr(e, seq, 1);
  call.x = em_ptr(e, val, 1);
  call.indices = em_ptr(e, out, 0);
  call.n = em_dim(e, seq, rs - 1);
  call.x_row = rv ? em_dim(e, val, rv - 1) : "1";
  call.numel = em_numel(e, val);
  sort_print_c(e->p, &call);
  return 0;
}

const OpDef op_searchsorted = {.type = "searchsorted", .infer = infer_searchsorted, .emit_c = emit_searchsorted};
