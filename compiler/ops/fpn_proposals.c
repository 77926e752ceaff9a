/* The RoIs of a feature pyramid (FPN): distribute_fpn_proposals and
 * collect_fpn_proposals, with RoisNum (runtime/rt_proposals.h).
 *
 * distribute_fpn_proposals: FpnRois [R, 4], RoisNum? [N] (int32)
 *   -> MultiFpnRois[L] [-1, 4] (FpnRois' dtype), RestoreIndex [R, 1]
 *   (int32), MultiLevelRoIsNum?[L] [N] (int32), L = max_level - min_level +
 *   1.  attrs: min_level, max_level, refer_level, refer_scale, pixel_offset.
 * Compiled (float32, float64; phi distribute_fpn_proposals_kernel.cc): each
 * level sized for all R RoIs, its dim 0 a run-time extent; R may itself be
 * one (the RoIs generate_proposals_v2 keeps).  Counts in RoisNum that do not
 * add up to R stop the run with an error (Paddle then reads past FpnRois, or
 * distributes only the first RoIs).  Refused: FpnRois without RoisNum (the
 * images are then its LoD), an int64 RoisNum (2.6.2 raises: it reads it as
 * int32), more than RT_FPN_MAX_LEVELS levels, a refer_scale that is not
 * positive.
 *
 * collect_fpn_proposals: MultiLevelRois[L] [Ri, 4], MultiLevelScores[L]
 *   [Ri, 1], MultiLevelRoIsNum?[L] [N] (int32) -> FpnRois [-1, 4], RoisNum?
 *   [N] (int32).  attrs: post_nms_topN.
 * Compiled (float32, float64; phi collect_fpn_proposals_kernel_impl.h):
 * FpnRois sized for all the levels' rows (min(post_nms_topN, rows) would
 * not be an affine function of the batch), its dim 0 a run-time extent; each level's rows may be one (generate_proposals_v2's
 * RoIs, say).  A level's counts that do not add up to its rows stop the
 * run, and so does a level whose Scores' rows the run gives and are not its
 * RoIs' (Paddle reads past them).  Refused: no MultiLevelRoIsNum (the images are then the levels'
 * LoD), a negative post_nms_topN (Paddle then resizes its list to a huge
 * size and throws). */
#include "../util.h"
#include "detection_call.h"
#include "ops.h"
#include "rt_proposals.h"
#include "tensor_util.h"

static int infer_distribute_fpn(OpCtx *c) {
  Var *rois = ctx_need(c, "FpnRois", 0), *num = ctx_in(c, "RoisNum", 0);
  if (!rois) return -1;
  const Shape *rs = &rois->shape;
  if (rs->rank != 2 || (rs->d[1] >= 0 && rs->d[1] != 4)) return ctx_fail(c, "FpnRois %s must be [R, 4]", shape_str(rs));
  if (num && num->shape.rank != 1) return ctx_fail(c, "RoisNum %s must have rank 1", shape_str(&num->shape));
  if (var_runtime_axis(num) >= 0) return ctx_refuse_runtime_extents(c);
  const int64_t lo = attr_int(c->op, "min_level", 0), hi = attr_int(c->op, "max_level", 0);
  const int64_t levels = hi - lo + 1, scale = attr_int(c->op, "refer_scale", 0);
  if (levels < 1 || levels > RT_FPN_MAX_LEVELS)
    return ctx_fail(c, "min_level %lld and max_level %lld give %lld levels (1 to %d are supported)", (long long)lo,
                    (long long)hi, (long long)levels, RT_FPN_MAX_LEVELS);
  if (scale <= 0) return ctx_fail(c, "refer_scale %lld must be positive", (long long)scale);
  if (ctx_nout(c, "MultiFpnRois") != levels)
    return ctx_fail(c, "%d MultiFpnRois for %lld levels (one per level from min_level to max_level)",
                    ctx_nout(c, "MultiFpnRois"), (long long)levels);
  const int counts = ctx_nout(c, "MultiLevelRoIsNum");
  if (counts && counts != levels)
    return ctx_fail(c, "%d MultiLevelRoIsNum for %lld levels", counts, (long long)levels);
  const int bounded = c->g->specializing && rs->d[0] >= 0;
  for (int l = 0; l < levels; l++) {
    Shape o = {2, {bounded ? rs->d[0] : DIM_UNKNOWN, 4}}, n = {1, {num ? num->shape.d[0] : DIM_UNKNOWN}};
    ctx_set(c, "MultiFpnRois", l, &o, rois->dtype);
    if (bounded) ctx_set_runtime_extent(c, "MultiFpnRois", l, 0, "FpnRois (how many RoIs each level gets)");
    if (counts) ctx_set(c, "MultiLevelRoIsNum", l, &n, RT_DT_INT32);
  }
  Shape r = {2, {rs->d[0], 1}};
  ctx_set(c, "RestoreIndex", 0, &r, RT_DT_INT32);
  ctx_pass_runtime_extent(c, rois, "RestoreIndex", 0);
  return 0;
}

static int emit_distribute_fpn(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *rois = tu_in(e, "FpnRois", 0), *num = ctx_in(&c, "RoisNum", 0), *restore = tu_out(e, "RestoreIndex", 0);
  if (!rois || !restore) return -1;
  const int dt = rois->dtype;
  if (dt != RT_DT_FP32 && dt != RT_DT_FP64)
    return em_fail(e, "FpnRois '%s' is %s: float32 or float64 is supported", rois->name, rt_dtype_name(dt));
  if (!num)
    return em_fail(e, "FpnRois without RoisNum is not supported (the RoIs' images are then the LoD of '%s')",
                   rois->name);
  if (num->dtype != RT_DT_INT32) /* measured: 2.6.2 raises for int64, though the kernel has a branch for it */
    return em_fail(e, "RoisNum '%s' is %s: Paddle reads it as int32", num->name, rt_dtype_name(num->dtype));
  if (restore->dtype != RT_DT_INT32) return em_fail(e, "RestoreIndex must be int32");
  const int levels = ctx_nout(&c, "MultiFpnRois"), counts = ctx_nout(&c, "MultiLevelRoIsNum");
  const char **outs = pool_alloc(sizeof(char *) * (size_t)levels), **rows = pool_alloc(sizeof(char *) * (size_t)levels);
  const char **nums = counts ? pool_alloc(sizeof(char *) * (size_t)levels) : NULL;
  DetectionCall call = {.kind = DETECTION_DISTRIBUTE_FPN, .f64 = dt == RT_DT_FP64};
  call.n = em_numel(e, num);
  call.nrows = em_dim(e, rois, 0);
  const SymDim r = em_spec(e, rois)->d[0];
  call.work = em_scratch_named(e, "int32_t", "level", (SymDim){r.a * 4, r.c * 4});
  call.boxes = em_ptr(e, rois, 1);
  call.fpn = (DetectionFpn){.min_level = (int)attr_int(e->op, "min_level", 0),
                            .max_level = (int)attr_int(e->op, "max_level", 0),
                            .refer_level = (int)attr_int(e->op, "refer_level", 0),
                            .refer_scale = (int)attr_int(e->op, "refer_scale", 0),
                            .pixel_offset = attr_bool(e->op, "pixel_offset", 1),
                            .num = em_ptr(e, num, 1)};
  for (int l = 0; l < levels; l++) {
    Var *o = ctx_out(&c, "MultiFpnRois", l);
    if (!o || o->dtype != dt) return em_fail(e, "MultiFpnRois must be %s like FpnRois", rt_dtype_name(dt));
    outs[l] = em_ptr(e, o, 0);
    rows[l] = em_dim(e, o, 0);
    if (nums) {
      Var *k = ctx_out(&c, "MultiLevelRoIsNum", l);
      if (!k || k->dtype != RT_DT_INT32) return em_fail(e, "MultiLevelRoIsNum must be int32");
      nums[l] = em_ptr(e, k, 0);
    }
  }
  call.fpn.rois = outs, call.fpn.nums = nums, call.fpn.rows = rows;
  call.fpn.restore = em_ptr(e, restore, 0);
  em_fault(e, pool_printf("RoisNum ('%s') does not add up to the rows of FpnRois ('%s')", num->name, rois->name));
  detection_print_c(e->p, &call);
  return 0;
}

const OpDef op_distribute_fpn_proposals = {.type = "distribute_fpn_proposals", .infer = infer_distribute_fpn,
                                           .emit_c = emit_distribute_fpn, .runtime_extents = 1};

static int infer_collect_fpn(OpCtx *c) {
  const int levels = ctx_nin(c, "MultiLevelRois"), nums = ctx_nin(c, "MultiLevelRoIsNum");
  if (levels < 1 || ctx_nin(c, "MultiLevelScores") != levels || (nums && nums != levels))
    return ctx_fail(c, "%d MultiLevelRois, %d MultiLevelScores and %d MultiLevelRoIsNum (one of each per level)",
                    levels, ctx_nin(c, "MultiLevelScores"), nums);
  const int64_t post = attr_int(c->op, "post_nms_topN", 0);
  if (post < 0) return ctx_fail(c, "post_nms_topN %lld must not be negative", (long long)post);
  int64_t rows = 0, images = DIM_UNKNOWN;
  int dtype = -1;
  for (int l = 0; l < levels; l++) {
    Var *r = ctx_need(c, "MultiLevelRois", l), *s = ctx_need(c, "MultiLevelScores", l);
    Var *n = nums ? ctx_need(c, "MultiLevelRoIsNum", l) : NULL;
    if (!r || !s || (nums && !n)) return -1;
    const Shape *rs = &r->shape, *ss = &s->shape;
    if (rs->rank != 2 || (rs->d[1] >= 0 && rs->d[1] != 4) || ss->rank != 2 || (ss->d[1] >= 0 && ss->d[1] != 1) ||
        (rs->d[0] >= 0 && ss->d[0] >= 0 && rs->d[0] != ss->d[0]))
      return ctx_fail(c, "level %d: MultiLevelRois %s and MultiLevelScores %s must be [R, 4] and [R, 1]", l,
                      shape_str(rs), shape_str(ss));
    if (var_runtime_axis(r) != var_runtime_axis(s) || var_runtime_axis(n) >= 0)
      return ctx_refuse_runtime_extents(c);
    if (n && n->shape.rank != 1) return ctx_fail(c, "MultiLevelRoIsNum %s must have rank 1", shape_str(&n->shape));
    if (n) images = n->shape.d[0];
    rows = rows >= 0 && rs->d[0] >= 0 ? rows + rs->d[0] : DIM_UNKNOWN;
    if (dtype < 0) dtype = r->dtype;
  }
  const int bounded = c->g->specializing && rows >= 0;
  /* the bound: all the levels' rows (min(post_nms_topN, rows) is no affine function of the batch) */
  Shape o = {2, {bounded ? rows : DIM_UNKNOWN, 4}}, n = {1, {images}};
  ctx_set(c, "FpnRois", 0, &o, dtype);
  if (bounded) ctx_set_runtime_extent(c, "FpnRois", 0, 0, "MultiLevelScores (the best post_nms_topN RoIs)");
  if (ctx_out(c, "RoisNum", 0)) ctx_set(c, "RoisNum", 0, &n, RT_DT_INT32);
  return 0;
}

static int emit_collect_fpn(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *out = tu_out(e, "FpnRois", 0), *num = ctx_out(&c, "RoisNum", 0);
  if (!out) return -1;
  const int levels = ctx_nin(&c, "MultiLevelRois");
  if (!ctx_nin(&c, "MultiLevelRoIsNum"))
    return em_fail(e, "MultiLevelRois without MultiLevelRoIsNum is not supported (the RoIs' images are then the "
                      "levels' LoD)");
  const int dt = out->dtype;
  if (dt != RT_DT_FP32 && dt != RT_DT_FP64)
    return em_fail(e, "FpnRois '%s' is %s: float32 or float64 is supported", out->name, rt_dtype_name(dt));
  if (num && num->dtype != RT_DT_INT32) return em_fail(e, "RoisNum must be int32");
  const char **rois = pool_alloc(sizeof(char *) * (size_t)levels), **scores = pool_alloc(sizeof(char *) * (size_t)levels);
  const char **rows = pool_alloc(sizeof(char *) * (size_t)levels), **nums = pool_alloc(sizeof(char *) * (size_t)levels);
  SymDim all = {0, 0};
  for (int l = 0; l < levels; l++) {
    Var *r = ctx_in(&c, "MultiLevelRois", l), *s = ctx_in(&c, "MultiLevelScores", l);
    Var *n = ctx_in(&c, "MultiLevelRoIsNum", l);
    if (r->dtype != dt || s->dtype != dt)
      return em_fail(e, "level %d: '%s' is %s and '%s' %s: all float32 or all float64 like FpnRois", l, r->name,
                     rt_dtype_name(r->dtype), s->name, rt_dtype_name(s->dtype));
    if (n->dtype != RT_DT_INT32) /* as the other ops' RoisNum: Paddle reads it as int32 */
      return em_fail(e, "MultiLevelRoIsNum '%s' is %s: Paddle reads it as int32", n->name, rt_dtype_name(n->dtype));
    const SymDim d = em_spec(e, r)->d[0];
    all.a += d.a, all.c += d.c;
  }
  DetectionCall call = {.kind = DETECTION_COLLECT_FPN, .f64 = dt == RT_DT_FP64};
  call.n = em_numel(e, ctx_in(&c, "MultiLevelRoIsNum", 0));
  call.work = em_scratch_named(e, "unsigned char", "work",
                               (SymDim){RT_FPN_COLLECT_WORK_BYTES(all.a), RT_FPN_COLLECT_WORK_BYTES(all.c)});
  for (int l = 0; l < levels; l++) {
    rois[l] = em_ptr(e, ctx_in(&c, "MultiLevelRois", l), 1);
    scores[l] = em_ptr(e, ctx_in(&c, "MultiLevelScores", l), 1);
    rows[l] = em_dim(e, ctx_in(&c, "MultiLevelRois", l), 0);
    nums[l] = em_ptr(e, ctx_in(&c, "MultiLevelRoIsNum", l), 1);
  }
  call.collect = (DetectionCollect){.levels = levels, .post_nms_top_n = attr_int(e->op, "post_nms_topN", 0),
                                    .rois = rois, .scores = scores, .rows = rows, .nums = nums};
  call.out = em_ptr(e, out, 0);
  call.rois_num = num ? em_ptr(e, num, 0) : "NULL";
  call.rows = em_dim(e, out, 0);
  const char *fault = "a level's MultiLevelRoIsNum does not add up to its rows of MultiLevelRois, or its "
                      "MultiLevelScores has other rows than its RoIs (Paddle reads past them)";
  for (int l = 0; l < levels; l++) {
    Var *r = ctx_in(&c, "MultiLevelRois", l), *s = ctx_in(&c, "MultiLevelScores", l);
    tu_run_equal(e, s, r, em_dim(e, s, 0), rows[l], fault);
  }
  em_fault(e, fault);
  detection_print_c(e->p, &call);
  return 0;
}

const OpDef op_collect_fpn_proposals = {.type = "collect_fpn_proposals", .infer = infer_collect_fpn,
                                        .emit_c = emit_collect_fpn, .runtime_extents = 1};
