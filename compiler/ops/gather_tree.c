/* gather_tree: Ids, Parents [max_time, batch, beam] (int32 or int64, one
 * dtype) -> Out (Ids' dims and dtype); no attributes.  The full beams of a
 * beam search, backtracked from the last step (phi GatherTreeKernel): for
 * each batch b and beam k, Out[T-1][b][k] = Ids[T-1][b][k] and, with
 * parent = Parents[T-1][b][k], for step t = T-2 down to 0:
 * Out[t][b][k] = Ids[t][b][parent], parent = Parents[t][b][parent].
 * Shape rule (phi GatherTreeMeta): Ids and Parents have the same dims.
 * The time dim may be a run-time extent (the stacked steps of a
 * dynamic_decode loop that stops when every beam has ended); then Ids' and
 * Parents' are compared when the op runs.
 * Emission: the loops above; a parent outside [0, beam) stops the run
 * (Paddle raises for one >= beam and reads outside the tensor for a
 * negative one). */
#include "ops.h"
#include "tensor_util.h"

static int infer_gather_tree(OpCtx *c) {
  Var *ids = ctx_need(c, "Ids", 0), *parents = ctx_need(c, "Parents", 0);
  if (!ids || !parents) return -1;
  if (ids->shape.rank != 3) return ctx_fail(c, "Ids %s must be 3-D [max_time, batch, beam]", shape_str(&ids->shape));
  if (!shape_equal(&ids->shape, &parents->shape))
    return ctx_fail(c, "Ids %s and Parents %s must have the same dims", shape_str(&ids->shape),
                    shape_str(&parents->shape));
  if (ids->dtype != parents->dtype)
    return ctx_fail(c, "Ids and Parents must have one dtype, not %s and %s", rt_dtype_name(ids->dtype),
                    rt_dtype_name(parents->dtype));
  const int ra = var_runtime_axis(ids), rb = var_runtime_axis(parents);
  if ((ra >= 0 || rb >= 0) && (ra != 0 || rb != 0))
    return ctx_fail(c, "only the time dim (dim 0) of Ids ('%s') and Parents ('%s') may be known only at run time, "
                    "and then of both", ids->name, parents->name);
  ctx_set(c, "Out", 0, &ids->shape, ids->dtype);
  ctx_pass_runtime_extent(c, ids, "Out", 0);
  return 0;
}

static int emit_gather_tree(EmitCtx *e) {
  Var *ids = tu_in(e, "Ids", 0), *parents = tu_in(e, "Parents", 0), *out = tu_out(e, "Out", 0);
  if (!ids || !parents || !out) return -1;
  if (ids->dtype != RT_DT_INT32 && ids->dtype != RT_DT_INT64)
    return em_fail(e, "Ids ('%s') is %s; Paddle's kernel takes int32 and int64", ids->name,
                   rt_dtype_name(ids->dtype));
  if (parents->dtype != ids->dtype || out->dtype != ids->dtype)
    return em_fail(e, "Ids, Parents and Out must have one dtype");
  if (out == ids || out == parents) return em_fail(e, "Out is an input (an in-place gather_tree), which is not supported");
  em_fault(e, "a Parents value is outside [0, beam), or Ids and Parents differ in steps (Paddle's gather_tree "
              "refuses both)");
  const char *type = em_ctype(ids->dtype);
  Printer *p = e->p;
  pr_line(p, "/* gather_tree: each beam backtracked from the last step through its parents */");
  pr_line(p, "const int64_t steps = %s, rows = %s, beams = %s;", em_dim(e, ids, 0), em_dim(e, ids, 1),
          em_dim(e, ids, 2));
  pr_line(p, "const %s *ids = %s, *parents = %s;", type, em_ptr(e, ids, 1), em_ptr(e, parents, 1));
  pr_line(p, "%s *out = %s;", type, em_ptr(e, out, 0));
  if (em_spec(e, ids)->runtime_dim) { /* the steps a loop ran: the same in both */
    pr_line(p, "if (%s != steps) return 1;", em_dim(e, parents, 0));
  }
  pr_line(p, "for (int64_t b = 0; b < rows && steps > 0; b++) {");
  pr_line(p, "for (int64_t k = 0; k < beams; k++) {");
  pr_line(p, "int64_t at = ((steps - 1) * rows + b) * beams + k;");
  pr_line(p, "out[at] = ids[at];");
  pr_line(p, "int64_t parent = parents[at];");
  pr_line(p, "for (int64_t t = steps - 2; t >= 0; t--) {");
  pr_line(p, "if (parent < 0 || parent >= beams) return 1;");
  pr_line(p, "const int64_t row = (t * rows + b) * beams;");
  pr_line(p, "out[row + k] = ids[row + parent];");
  pr_line(p, "parent = parents[row + parent];");
  pr_line(p, "}");
  pr_line(p, "}");
  pr_line(p, "}");
  return 0;
}

const OpDef op_gather_tree = {.type = "gather_tree", .infer = infer_gather_tree, .emit_c = emit_gather_tree,
                              .runtime_extents = 1};
