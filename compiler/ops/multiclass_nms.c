/* multiclass_nms, multiclass_nms2, multiclass_nms3: BBoxes [N, M, 4+],
 *   Scores [N, C, M] (or LoD [M, C, 4] / [M, C]), RoisNum? (nms3) -> Out
 *   [-1, box_dim + 2] (LoD; dtype of BBoxes), Index [-1, 1] (int32; nms2,
 *   nms3), NmsRoisNum? [-1] (int32; nms3).  Before Paddle 2.3 (PR 40059)
 *   the first dim of Out and Index was M (BBoxes.dims[1]) when Scores has
 *   rank 3.  attrs: background_label=0, score_threshold, nms_top_k,
 *   nms_threshold=0.3, nms_eta=1, keep_top_k, normalized=true.  How many
 *   boxes survive is known only at run time.
 *
 * multiclass_nms3 compiles (float32, float64; phi multiclass_nms3_kernel.cc,
 * runtime/rt_nms.h) for Scores [N, C, M] and BBoxes [N, M, 4]: while
 * specializing, Out and Index are sized for the most rows the attributes
 * allow (per image: the classes but background_label, times nms_top_k or
 * M, at most keep_top_k) and their dim 0 is a run-time extent (graph.h
 * VAR_RUNTIME_EXTENT) the kernel writes: the rows it kept, 0 giving Paddle's
 * [0, 6] and [0, 1].  NmsRoisNum is [N].  Also a two-stage detector's
 * Scores [M, C] with BBoxes [M, C, 4] (a box per class) and RoisNum [N]
 * (each image's RoIs; M may be the run's): per image and class the
 * class's boxes, NMS, the kept ones sorted by RoI; Index = RoI * C + label
 * (runtime/rt_nms.h rt_multiclass_nms_rois).  Refused: Scores of rank 2
 * with the LoD of BBoxes (no RoisNum), polygon boxes (8 to 32 coordinates:
 * Paddle clips polygons), and a program without Index (Paddle then writes
 * a [1, 1] Out holding -1 when nothing is kept).  Paddle 2.6's phi kernel
 * gives Out, Index and NmsRoisNum no LoD (it sets none, with or without
 * RoisNum, unlike fluid's multiclass_nms and multiclass_nms2 below: the
 * per-image counts are NmsRoisNum), and paddlec makes none either.
 * Boxes per image the run gives (priors over an image of the run's size)
 * are read at run time, the outputs sized for the bound's; Scores' and
 * BBoxes' counts are checked to agree.
 *
 * multiclass_nms (Out) and multiclass_nms2 (Out, Index) run the same kernel
 * in Paddle 2.6 (fluid multiclass_nms_op.cc, float and double) and give Out
 * and Index a level-1 LoD: the images' offsets (batch_starts).  paddlec
 * compiles them as multiclass_nms3 (the same forms, the same refusals, the
 * same Index: image * M + box), each image's count in scratch, the LoD made
 * by the kernel (OpDef.lod_made).  Nothing kept at all: multiclass_nms2
 * gives Out [0, 6], Index [0, 1] and the LoD all zeros, as Paddle does;
 * multiclass_nms (no Index) has Paddle write Out [1, 1] = {-1} with the LoD
 * {0, 1}, a shape the plan cannot give Out [rows, 6]: the run stops there
 * with an error saying so. */
#include <string.h>

#include "../util.h"
#include "detection_call.h"
#include "ops.h"
#include "rt_nms.h"
#include "tensor_util.h"

/* 1 for programs written before Paddle 2.3: a version in [1, 2003000), or no
 * version and no sign of 2.5's 0-D tensors. */
static int nms_before_2_3(const OpCtx *c) {
  int64_t v = c->g->version;
  return v > 0 ? v < 2003000 : !c->g->zero_d;
}

/* The most rows one image can keep: the classes but the background, each
 * keeping at most nms_top_k (or all m) boxes, and keep_top_k overall. */
static int64_t rows_per_image(const OpCtx *c, int64_t classes, int64_t m) {
  const int64_t bg = attr_int(c->op, "background_label", 0), top = attr_int(c->op, "nms_top_k", -1);
  const int64_t keep = attr_int(c->op, "keep_top_k", -1);
  int64_t rows = (classes - (bg >= 0 && bg < classes)) * (top > -1 && top < m ? top : m);
  return keep > -1 && keep < rows ? keep : rows;
}

/* The NMS ops' outputs: Out [rows, cols] of the boxes' dtype, Index [rows,
 * 1] and the per-image counts (slot `num`: [images]) int32; with
 * `bounded`, rows is a bound and the kernel writes the rows it keeps. */
static int nms_outputs(OpCtx *c, int dtype, int64_t rows, int64_t cols, const char *num, int64_t images,
                       int bounded) {
  Shape o = {2, {rows, cols}}, idx = {2, {rows, 1}}, n = {1, {images}};
  ctx_set(c, "Out", 0, &o, dtype);
  ctx_set(c, "Index", 0, &idx, RT_DT_INT32);
  ctx_set(c, num, 0, &n, RT_DT_INT32);
  if (bounded) {
    ctx_set_runtime_extent(c, "Out", 0, 0, "scores (how many boxes it keeps)");
    ctx_set_runtime_extent(c, "Index", 0, 0, "scores (how many boxes it keeps)");
  }
  return 0;
}

/* Scores [M, C] and BBoxes [M, C, 4] of a two-stage detector's RoIs, each
 * image's count in RoisNum [N]: compiled for multiclass_nms3 with
 * RoisNum (M may be the run's: the proposals' count), Out and Index sized
 * for every RoI kept in every class but the background. */
static int infer_nms_rois(OpCtx *c, Var *boxes, Var *scores) {
  const Shape *bs = &boxes->shape, *ss = &scores->shape;
  Var *num = ctx_in(c, "RoisNum", 0);
  const int compiled = c->g->specializing;
  if (compiled && (strcmp(c->op->type, "multiclass_nms3") != 0 || !num))
    return ctx_fail(c, "Scores %s of rank 2 (the boxes of each RoI) with the LoD of BBoxes is not supported; "
                    "multiclass_nms3 with RoisNum is", shape_str(ss));
  if (compiled && (ss->d[0] != bs->d[0] || ss->d[1] != bs->d[1]))
    return ctx_fail(c, "Scores %s does not fit BBoxes %s (Scores [M, C], BBoxes [M, C, 4])", shape_str(ss),
                    shape_str(bs));
  if (num && num->shape.rank != 1) return ctx_fail(c, "RoisNum %s must have rank 1", shape_str(&num->shape));
  if ((var_runtime_mask(scores) & ~1u) || (var_runtime_mask(boxes) & ~1u) || var_runtime_mask(num))
    return ctx_fail(c, "Scores ('%s') or BBoxes ('%s') has dims only the run knows besides the RoIs; %s takes them "
                    "there only", scores->name, boxes->name, c->op->type);
  const int64_t bg = attr_int(c->op, "background_label", 0);
  const int64_t rows = compiled && ss->d[0] >= 0 && ss->d[1] >= 0 ? (ss->d[1] - (bg >= 0 && bg < ss->d[1])) * ss->d[0]
                                                                  : DIM_UNKNOWN;
  return nms_outputs(c, boxes->dtype, rows, bs->d[2] + 2, "NmsRoisNum", num ? num->shape.d[0] : DIM_UNKNOWN,
                     compiled && rows >= 0);
}

static int infer_nms(OpCtx *c) {
  Var *boxes = ctx_need(c, "BBoxes", 0);
  Var *scores = ctx_need(c, "Scores", 0);
  if (!boxes || !scores) return -1;
  const Shape *bs = &boxes->shape, *ss = &scores->shape;
  if (bs->rank != 3) return ctx_fail(c, "BBoxes %s must have rank 3", shape_str(bs));
  if (ss->rank == 2) return infer_nms_rois(c, boxes, scores);
  int64_t rows = DIM_UNKNOWN;
  if (ss->rank == 3 && nms_before_2_3(c)) rows = bs->d[1];
  const int compiled = c->g->specializing; /* all three emit C (nms and nms2 with their LoD) */
  if (compiled && ss->rank != 3)
    return ctx_fail(c, "Scores %s of rank %d is not supported; Scores [N, C, M] with BBoxes [N, M, 4] is, or [M, C] "
                    "with [M, C, 4] and RoisNum", shape_str(ss), ss->rank);
  if (compiled && (ss->d[0] != bs->d[0] || ss->d[2] != bs->d[1]))
    return ctx_fail(c, "Scores %s does not fit BBoxes %s (Scores [N, C, M], BBoxes [N, M, 4])", shape_str(ss),
                    shape_str(bs));
  if ((var_runtime_mask(scores) & ~4u) || (var_runtime_mask(boxes) & ~2u))
    return ctx_fail(c, "Scores ('%s') or BBoxes ('%s') has dims only the run knows besides the boxes per image; %s "
                    "takes them there only", scores->name, boxes->name, c->op->type);
  if (compiled && ss->d[0] >= 0 && ss->d[1] >= 0 && ss->d[2] >= 0)
    rows = ss->d[0] * rows_per_image(c, ss->d[1], ss->d[2]);
  return nms_outputs(c, boxes->dtype, rows, bs->d[2] + 2, "NmsRoisNum", compiled ? ss->d[0] : DIM_UNKNOWN,
                     compiled && rows >= 0);
}

/* The NMS kernels' record but its geometry: the batch, the work buffer of
 * `work` bytes (a * batch + c) and the operands v = {BBoxes, Scores, Out, Index, the
 * per-image counts or NULL}, named in this order. */
static DetectionCall nms_record(EmitCtx *e, DetectionKind kind, int dt, Var *const *v, SymDim work) {
  DetectionCall c = {.kind = kind, .f64 = dt == RT_DT_FP64};
  c.n = em_dim(e, v[1], 0);
  c.work = em_scratch_named(e, "unsigned char", "work", work);
  c.boxes = em_ptr(e, v[0], 1);
  c.scores = em_ptr(e, v[1], 1);
  c.out = em_ptr(e, v[2], 0);
  c.index = v[3] ? em_ptr(e, v[3], 0) : NULL;
  c.rois_num = v[4] ? em_ptr(e, v[4], 0) : "NULL";
  c.rows = v[3] ? pool_printf("%s = %s", em_dim(e, v[2], 0), em_dim(e, v[3], 0)) : em_dim(e, v[2], 0);
  return c;
}

/* multiclass_nms's (and nms2's, nms3's) checks of the boxes and scores and
 * their classes and boxes per image into *classes, *m: 0, or -1 after
 * em_fail. */
static int nms_geometry(EmitCtx *e, Var *boxes, Var *scores, int64_t *classes, int64_t *m) {
  const int64_t coords = em_const_dim(e, boxes, 2);
  if (coords != 4)
    return em_fail(e, "boxes of %lld coordinates are not supported (4: xmin, ymin, xmax, ymax; Paddle clips polygons "
                   "of 8 to 32)", (long long)coords);
  *classes = em_const_dim(e, scores, 1), *m = em_bound_dim(e, scores, 2); /* the run's: its bound */
  if (*classes < 0 || *m < 0) return em_fail(e, "the classes and boxes per image must not depend on the batch");
  if (*classes * *m > INT32_MAX) return em_fail(e, "classes x boxes does not fit Paddle's int indexing");
  return 0;
}

/* multiclass_nms's attributes for RtNms (m: the boxes per image, a C
 * expression). */
static DetectionNms nms_attrs(const Op *op, int64_t classes, const char *m) {
  return (DetectionNms){.classes = classes, .boxes = m,
                        .score_threshold = (float)attr_float(op, "score_threshold", 0),
                        .nms_threshold = (float)attr_float(op, "nms_threshold", 0.3),
                        .nms_eta = (float)attr_float(op, "nms_eta", 1),
                        .nms_top_k = attr_int(op, "nms_top_k", -1),
                        .keep_top_k = attr_int(op, "keep_top_k", -1),
                        .background_label = attr_int(op, "background_label", 0),
                        .normalized = attr_bool(op, "normalized", 1)};
}

/* multiclass_nms3 of Scores [M, C], BBoxes [M, C, 4] and RoisNum (infer_nms_rois). */
static int emit_nms_rois(EmitCtx *e, Var *boxes, Var *scores, Var *out, Var *index, Var *num, int dt) {
  Var *in = tu_in(e, "RoisNum", 0);
  if (!in) return -1;
  if (in->dtype != RT_DT_INT32) return em_fail(e, "RoisNum '%s' is %s: Paddle reads it as int32", in->name,
                                                rt_dtype_name(in->dtype));
  const int64_t coords = em_const_dim(e, boxes, 2), classes = em_const_dim(e, scores, 1);
  const SymDim m = em_spec(e, scores)->d[0]; /* the RoIs (the run's: their bound), a * batch + c */
  if (coords != 4)
    return em_fail(e, "boxes of %lld coordinates are not supported (4: xmin, ymin, xmax, ymax; Paddle clips polygons "
                   "of 8 to 32)", (long long)coords);
  if (classes < 0) return em_fail(e, "the classes must not depend on the batch");
  /* RT_NMS_ROIS_WORK_BYTES(classes, m, tsize), affine in m */
  const int64_t per = RT_NMS_ROIS_WORK_BYTES(classes, 1, dt == RT_DT_FP64 ? 8 : 4) - classes * 8;
  DetectionCall call = nms_record(e, DETECTION_MULTICLASS_NMS, dt, (Var *const[]){boxes, scores, out, index, num},
                                  (SymDim){m.a * per, m.c * per + classes * 8});
  call.n = em_numel(e, in);
  call.rois_in = em_ptr(e, in, 1);
  call.nms = nms_attrs(e->op, classes, em_dim(e, scores, 0));
  pr_line(e->p, "if (%s != %s) return 1;", em_dim(e, scores, 0), em_dim(e, boxes, 0));
  detection_print_c(e->p, &call);
  em_fault(e, pool_printf("RoisNum ('%s') does not add up to the RoIs of Scores ('%s'), or BBoxes ('%s') holds "
                          "another number of them (Paddle reads past its tensors), or RoIs x classes pass Paddle's "
                          "int indexing", in->name, scores->name, boxes->name));
  return 0;
}

static int emit_multiclass_nms3(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *boxes = tu_in(e, "BBoxes", 0), *scores = tu_in(e, "Scores", 0), *out = tu_out(e, "Out", 0);
  Var *index = ctx_out(&c, "Index", 0), *num = ctx_out(&c, "NmsRoisNum", 0);
  if (!boxes || !scores || !out) return -1;
  if (ctx_in(&c, "RoisNum", 0) && scores->shape.rank != 2)
    return em_fail(e, "RoisNum beside Scores [N, C, M] is not supported");
  if (!index)
    return em_fail(e, "a multiclass_nms3 without Index is not supported (Paddle then writes Out [1, 1] holding -1 "
                      "when it keeps no box)");
  const int dt = tu_float_dtype(e, (Var *const[]){boxes, scores, out}, 3);
  if (dt < 0) return -1;
  if (index->dtype != RT_DT_INT32 || (num && num->dtype != RT_DT_INT32))
    return em_fail(e, "Index and NmsRoisNum must be int32");
  if (scores->shape.rank == 2) return emit_nms_rois(e, boxes, scores, out, index, num, dt);
  int64_t classes, m;
  if (nms_geometry(e, boxes, scores, &classes, &m)) return -1;
  DetectionCall call = nms_record(e, DETECTION_MULTICLASS_NMS, dt, (Var *const[]){boxes, scores, out, index, num},
                                  (SymDim){0, RT_NMS_WORK_BYTES(classes, m)});
  call.nms = nms_attrs(e->op, classes, em_dim(e, scores, 2)); /* the run's count, where it gives it */
  if (em_spec(e, scores)->runtime_mask || em_spec(e, boxes)->runtime_mask) { /* infer_nms: the same count */
    em_fault(e, "Scores and BBoxes hold different numbers of boxes in this run (Paddle raises an error)");
    pr_line(e->p, "if (%s != %s) return 1;", em_dim(e, scores, 2), em_dim(e, boxes, 1));
  }
  detection_print_c(e->p, &call);
  return 0;
}

/* multiclass_nms (Out) and multiclass_nms2 (Out, Index): multiclass_nms3's
 * kernel with each image's row count in scratch (and Index's rows too for
 * multiclass_nms), then the LoD of Out and Index: the images' offsets. */
static int emit_multiclass_nms_lod(EmitCtx *e) {
  Var *boxes = tu_in(e, "BBoxes", 0), *scores = tu_in(e, "Scores", 0), *out = tu_out(e, "Out", 0);
  const int v2 = !strcmp(e->op->type, "multiclass_nms2");
  Var *index = v2 ? tu_out(e, "Index", 0) : NULL;
  if (!boxes || !scores || !out || (v2 && !index)) return -1;
  const int dt = tu_float_dtype(e, (Var *const[]){boxes, scores, out}, 3);
  if (dt < 0) return -1;
  if (index && index->dtype != RT_DT_INT32) return em_fail(e, "Index must be int32");
  if (var_runtime_axis(out) != 0) return em_fail(e, "Out ('%s') must have rows known at run time", out->name);
  int64_t classes, m;
  if (nms_geometry(e, boxes, scores, &classes, &m)) return -1;
  DetectionCall call = nms_record(e, DETECTION_MULTICLASS_NMS, dt, (Var *const[]){boxes, scores, out, index, NULL},
                                  (SymDim){0, RT_NMS_WORK_BYTES(classes, m)});
  call.nms = nms_attrs(e->op, classes, pool_printf("%lld", (long long)m));
  const SymDim n = em_spec(e, scores)->d[0], rows = em_spec(e, out)->d[0];
  call.rois_num = em_scratch_named(e, "int32_t", "counts", (SymDim){n.a * 4, n.c * 4});
  if (!index) call.index = em_scratch_named(e, "int32_t", "index", (SymDim){rows.a * 4, rows.c * 4});
  const int k = op_lod_input(e->g, e->spec, out, NULL), ki = index ? op_lod_input(e->g, e->spec, index, NULL) : -1;
  const SymDim bound = {n.a, n.c + 1 > 2 ? n.c + 1 : 2}; /* N + 1 offsets; {0, 1} when nothing is kept */
  const char *store = em_makes_lod(e, k, bound), *istore = index ? em_makes_lod(e, ki, bound) : NULL;
  if (!index)
    em_fault(e, "multiclass_nms kept no box (Paddle then writes Out [1, 1] = {-1} with the LoD {0, 1}, which "
                "paddlec does not make)");
  Printer *p = e->p;
  detection_print_c(p, &call);
  if (!index) pr_line(p, "if (%s == 0) return 1;", em_dim(e, out, 0));
  pr_line(p, "/* the LoD of Out%s: each image's rows after those of the images before it */", index ? " and Index" : "");
  pr_line(p, "int64_t *out_lod = %s;", store);
  pr_line(p, "out_lod[0] = 0;");
  pr_line(p, "for (int64_t i = 0; i < %s; i++) out_lod[i + 1] = out_lod[i] + %s[i];", call.n, call.rois_num);
  pr_line(p, "m->lod_count[%d] = %s + 1;", k, call.n);
  if (index) {
    pr_line(p, "memcpy(%s, out_lod, (size_t)(%s + 1) * sizeof *out_lod);", istore, call.n);
    pr_line(p, "m->lod_count[%d] = %s + 1;", ki, call.n);
  }
  return 0;
}

/* multiclass_nms's Out and multiclass_nms2's Out and Index: their LoD is
 * the kernel's (the images' offsets). */
static int nms_lod_made(const Graph *g, const Op *op, int var) {
  (void)g;
  return slot_first(op->out, op->nout, "Out") == var || slot_first(op->out, op->nout, "Index") == var;
}

/* matrix_nms: BBoxes [N, M, 4], Scores [N, C, M] -> Out [R, 6], Index
 * [R, 1], RoisNum [N] (runtime/rt_nms.h rt_matrix_nms).  Boxes per image
 * the run gives (yolo_box over a map of the run's size): read at run time,
 * the outputs and the work buffer sized for the bound's (every part of the
 * buffer grows with the boxes), Scores' and BBoxes' counts checked to agree. */
static int infer_matrix_nms(OpCtx *c) {
  Var *boxes = ctx_need(c, "BBoxes", 0);
  Var *scores = ctx_need(c, "Scores", 0);
  if (!boxes || !scores) return -1;
  const Shape *bs = &boxes->shape, *ss = &scores->shape;
  if (bs->rank != 3 || ss->rank != 3 || bs->d[2] != 4)
    return ctx_fail(c, "BBoxes %s and Scores %s must be [N, M, 4] and [N, C, M]", shape_str(bs), shape_str(ss));
  if ((ss->d[2] >= 0 && bs->d[1] >= 0 && ss->d[2] != bs->d[1]) || (c->g->specializing && ss->d[0] != bs->d[0]))
    return ctx_fail(c, "Scores %s does not fit BBoxes %s (Scores [N, C, M], BBoxes [N, M, 4])", shape_str(ss),
                    shape_str(bs));
  if ((var_runtime_mask(scores) & ~4u) || (var_runtime_mask(boxes) & ~2u))
    return ctx_fail(c, "Scores ('%s') or BBoxes ('%s') has dims only the run knows besides the boxes per image; "
                    "matrix_nms takes them there only", scores->name, boxes->name);
  int64_t rows = bs->d[1]; /* Paddle's rule; the bound while specializing */
  const int bounded = c->g->specializing && ss->d[0] >= 0 && ss->d[1] >= 0 && ss->d[2] >= 0;
  if (bounded) rows = ss->d[0] * rows_per_image(c, ss->d[1], ss->d[2]);
  return nms_outputs(c, boxes->dtype, rows, 6, "RoisNum", c->g->specializing ? ss->d[0] : DIM_UNKNOWN, bounded);
}

static int emit_matrix_nms(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *boxes = tu_in(e, "BBoxes", 0), *scores = tu_in(e, "Scores", 0), *out = tu_out(e, "Out", 0);
  Var *index = tu_out(e, "Index", 0), *num = ctx_out(&c, "RoisNum", 0);
  if (!boxes || !scores || !out || !index) return -1;
  const int dt = tu_float_dtype(e, (Var *const[]){boxes, scores, out}, 3);
  if (dt < 0) return -1;
  if (index->dtype != RT_DT_INT32 || (num && num->dtype != RT_DT_INT32))
    return em_fail(e, "Index and RoisNum must be int32");
  const int run = em_spec(e, scores)->runtime_mask || em_spec(e, boxes)->runtime_mask; /* the run's box count */
  const int64_t classes = em_const_dim(e, scores, 1), m = run ? em_bound_dim(e, scores, 2) : em_const_dim(e, scores, 2);
  if (classes < 0 || m < 0) return em_fail(e, "the classes and boxes per image must not depend on the batch");
  if (classes * m > INT32_MAX) return em_fail(e, "classes x boxes does not fit Paddle's int indexing");
  const int64_t top = attr_int(e->op, "nms_top_k", -1), bg = attr_int(e->op, "background_label", 0);
  if (top == 0) return em_fail(e, "nms_top_k 0 is not supported (Paddle's kernel writes through an empty vector)");
  /* the work buffer for the bound's boxes: the run's count takes no more */
  const int64_t pre = top > -1 && top < m ? top : m, dets = (classes - (bg >= 0 && bg < classes)) * pre;
  DetectionCall call = nms_record(e, DETECTION_MATRIX_NMS, dt, (Var *const[]){boxes, scores, out, index, num},
                                  (SymDim){0, RT_MATRIX_NMS_WORK_BYTES(m, pre, dets, dt == RT_DT_FP64 ? 8 : 4)});
  tu_run_equal(e, scores, boxes, em_dim(e, scores, 2), em_dim(e, boxes, 1),
               "Scores and BBoxes hold different numbers of boxes in this run (Paddle raises an error)");
  call.nms = (DetectionNms){.classes = classes, .boxes = run ? em_dim(e, scores, 2) : pool_printf("%lld", (long long)m),
                            .score_threshold = (float)attr_float(e->op, "score_threshold", 0),
                            .post_threshold = (float)attr_float(e->op, "post_threshold", 0),
                            .gaussian_sigma = (float)attr_float(e->op, "gaussian_sigma", 2),
                            .nms_top_k = top, .keep_top_k = attr_int(e->op, "keep_top_k", -1),
                            .background_label = bg, .use_gaussian = attr_bool(e->op, "use_gaussian", 0),
                            .normalized = attr_bool(e->op, "normalized", 1)};
  detection_print_c(e->p, &call);
  return 0;
}

const OpDef op_matrix_nms = {.type = "matrix_nms", .infer = infer_matrix_nms, .emit_c = emit_matrix_nms,
                             .runtime_extents = 1};
const OpDef op_multiclass_nms = {.type = "multiclass_nms", .infer = infer_nms, .emit_c = emit_multiclass_nms_lod,
                                   .lod_made = nms_lod_made};
const OpDef op_multiclass_nms2 = {.type = "multiclass_nms2", .infer = infer_nms, .emit_c = emit_multiclass_nms_lod,
                                    .lod_made = nms_lod_made};
const OpDef op_multiclass_nms3 = {.type = "multiclass_nms3", .infer = infer_nms, .emit_c = emit_multiclass_nms3,
                                  .runtime_extents = 2};
