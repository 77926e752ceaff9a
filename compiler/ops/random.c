/* Random fills: ShapeTensor†, ShapeTensorList†* -> Out.
 *   uniform_random: shape:LONGS, min:FLOAT=-1, max:FLOAT=1 (may be VAR),
 *     seed:INT=0, diag_num:INT=0, diag_step:INT=0, diag_val:FLOAT=1,
 *     dtype:INT=5
 *   gaussian_random: shape:LONGS, mean:FLOAT=0, std:FLOAT=1, seed:INT=0,
 *     dtype:INT=5; extra use_mkldnn
 *   truncated_gaussian_random: shape:LONGS, mean, std, seed, dtype:INT=5,
 *     a, b (no tensor inputs)
 *   randint: shape:LONGS, low:INT=0, high:INT=0, seed:INT=0, dtype:INT=3
 * Out = `shape` with dtype `dtype`, except at compile time:
 *   - ShapeTensorList: one -1 per tensor (uniform_random, randint); for
 *     gaussian_random only when `shape` is empty (else `shape`, which
 *     Python writes with -1 at the tensor entries);
 *   - ShapeTensor with an empty `shape`: numel(ShapeTensor) -1 dims. */
#include <string.h>

#include "ops.h"

static int infer_random(OpCtx *c) {
  int64_t *v;
  int n = attr_ints(c->op, "shape", &v);
  int dflt = strcmp(c->op->type, "randint") == 0 ? RT_DT_INT64 : RT_DT_FP32;
  int gaussian = strcmp(c->op->type, "gaussian_random") == 0;
  int nlist = ctx_in(c, "ShapeTensorList", 0) ? ctx_nin(c, "ShapeTensorList") : 0;
  Var *st = ctx_in(c, "ShapeTensor", 0);
  Shape s;
  if (nlist && !(gaussian && n)) {
    if (nlist > RT_MAX_RANK) return ctx_fail(c, "ShapeTensorList has %d tensors", nlist);
    s.rank = nlist;
    for (int i = 0; i < nlist; i++) s.d[i] = DIM_UNKNOWN;
  } else if (st && n == 0) {
    if (ctx_shape_from_tensor(c, "ShapeTensor", &s)) return -1;
  } else {
    if (n > RT_MAX_RANK) return ctx_fail(c, "attribute shape has %d dims", n);
    s = shape_make(n, v);
  }
  ctx_set(c, "Out", 0, &s, (int)attr_int(c->op, "dtype", dflt));
  return 0;
}

#define OP_RANDOM(name) const OpDef op_##name = {.type = #name, .infer = infer_random};
OP_RANDOM(gaussian_random)
OP_RANDOM(randint)
OP_RANDOM(truncated_gaussian_random)
OP_RANDOM(uniform_random)
