/* The C printer of detection calls (detection_call.h). */
#include "detection_call.h"

#include "../util.h"

/* Prints `static const float name[n] = {...};` and returns "name", or
 * returns "NULL" for an empty list. */
static const char *float_array(Printer *p, const char *name, int n, const double *v) {
  if (n == 0) return "NULL";
  const char *list = "";
  for (int i = 0; i < n; i++) list = pool_printf("%s%s%s", list, i ? ", " : "", em_float((float)v[i]));
  pr_line(p, "static const float %s[%d] = {%s};", name, n, list);
  return name;
}

/* Prints `static const int32_t name[n] = {...};` (n > 0). */
static void int_array(Printer *p, const char *name, int n, const int64_t *v) {
  const char *list = "";
  for (int i = 0; i < n; i++) list = pool_printf("%s%s%lld", list, i ? ", " : "", (long long)v[i]);
  pr_line(p, "static const int32_t %s[%d] = {%s};", name, n, list);
}

/* The shared RtPriorGeo member of the initializer. */
static void prior_geo(Printer *p, const DetectionPriors *g, const char *variances) {
  pr_line(p, ".geo = {.feat_h = %s, .feat_w = %s, .img_h = %s, .img_w = %s, .step_w = %s, .step_h = %s,", g->feat_h,
          g->feat_w, g->img_h, g->img_w, em_float(g->step_w), em_float(g->step_h));
  pr_line(p, "        .offset = %s, .clip = %d, .nvar = 4, .variances = %s},", em_float(g->offset), g->clip, variances);
}

/* A local array `type name[n]` of the n expressions e[]. */
static void pointer_array(Printer *p, const char *type, const char *name, int n, const char *const *e) {
  const char *list = "";
  for (int i = 0; i < n; i++) list = pool_printf("%s%s%s", list, i ? ", " : "", e[i]);
  pr_line(p, "%s %s[%d] = {%s};", type, name, n, list);
}

/* distribute_fpn_proposals: the levels' operands as arrays, the call, and
 * each level's RoI count into its lvalue. */
static void print_fpn_call(Printer *p, const DetectionCall *c) {
  const DetectionFpn *f = &c->fpn;
  const int n = f->max_level - f->min_level + 1;
  const char *t = c->f64 ? "double" : "float";
  pointer_array(p, pool_printf("%s *const", t), "level_rois", n, f->rois);
  if (f->nums) pointer_array(p, "int32_t *const", "level_nums", n, f->nums);
  pr_line(p, "int64_t level_rows[%d];", n);
  pr_line(p, "if (rt_distribute_fpn_proposals_%s(&geo, %s, %s, level_rois, %s, level_rows, %s, %s)) return 1;",
          c->f64 ? "f64" : "f32", c->boxes, f->num, f->nums ? "level_nums" : "NULL", f->restore, c->work);
  for (int i = 0; i < n; i++) pr_line(p, "%s = level_rows[%d];", f->rows[i], i);
}

/* The constant `geo` of the kinds that have one. */
static void print_geo(Printer *p, const DetectionCall *c) {
  const DetectionPriors *g = &c->priors;
  const DetectionYolo *y = &c->yolo;
  const DetectionNms *s = &c->nms;
  const DetectionProposals *r = &c->proposals;
  switch (c->kind) {
    case DETECTION_BOX_CODER: {
      const char *v4 = "NULL";
      if (c->variance) {
        const double *v = c->variance;
        pr_line(p, "static const float variance[4] = {%s, %s, %s, %s};", em_float((float)v[0]), em_float((float)v[1]),
                em_float((float)v[2]), em_float((float)v[3]));
        v4 = "variance";
      }
      pr_line(p, "const RtBoxCoder geo = {");
      pr_line(p, ".decode = %d, .normalized = %d, .axis = %d, .row = %s, .col = %s, .var4 = %s,", c->decode,
              c->normalized, c->axis, c->row, c->col, v4);
      break;
    }
    case DETECTION_PRIOR_BOX: {
      const char *var = float_array(p, "variances", 4, g->variances);
      const char *mn = float_array(p, "min_sizes", g->nsizes, g->sizes);
      const char *mx = float_array(p, "max_sizes", g->nmax, g->max_sizes);
      const char *ar = float_array(p, "ratios", g->nratios, g->ratios);
      pr_line(p, "/* aspect ratios as expanded (1, each new ratio%s) */", g->flip ? " and its inverse" : "");
      pr_line(p, "%s RtPriorBox geo = {", g->run ? "const" : "static const");
      prior_geo(p, g, var);
      pr_line(p, ".nmin = %d, .min_sizes = %s, .nmax = %d, .max_sizes = %s, .nar = %d, .ars = %s,", g->nsizes, mn,
              g->nmax, mx, g->nratios, ar);
      pr_line(p, ".min_max_order = %d,", g->min_max_order);
      break;
    }
    case DETECTION_DENSITY_PRIOR_BOX: {
      const char *var = float_array(p, "variances", 4, g->variances);
      const char *fs = float_array(p, "fixed_sizes", g->nsizes, g->sizes);
      const char *fr = float_array(p, "fixed_ratios", g->nratios, g->ratios);
      const char *dl = "NULL";
      if (g->nsizes) {
        int_array(p, "densities", g->nsizes, g->densities);
        dl = "densities";
      }
      pr_line(p, "%s RtDensityPriorBox geo = {", g->run ? "const" : "static const");
      prior_geo(p, g, var);
      pr_line(p, ".nsizes = %d, .fixed_sizes = %s, .densities = %s, .nratios = %d, .fixed_ratios = %s,", g->nsizes, fs,
              dl, g->nratios, fr);
      break;
    }
    case DETECTION_ANCHOR_GENERATOR: {
      const char *var = float_array(p, "variances", 4, g->variances);
      const char *sz = float_array(p, "anchor_sizes", g->nsizes, g->sizes);
      const char *ar = float_array(p, "aspect_ratios", g->nratios, g->ratios);
      pr_line(p, "%s RtAnchorGenerator geo = {", g->run ? "const" : "static const");
      pr_line(p, ".feat_h = %s, .feat_w = %s, .nsizes = %d, .anchor_sizes = %s, .nratios = %d, .aspect_ratios = %s,",
              g->feat_h, g->feat_w, g->nsizes, sz, g->nratios, ar);
      pr_line(p, ".stride_w = %s, .stride_h = %s, .offset = %s, .variances = %s,", em_float(g->step_w),
              em_float(g->step_h), em_float(g->offset), var);
      break;
    }
    case DETECTION_YOLO_BOX:
      int_array(p, "anchors", 2 * y->an_num, y->anchors);
      pr_line(p, "%s RtYoloBox geo = {", y->run_h ? "const" : "static const");
      pr_line(p, ".h = %s, .w = %s, .an_num = %d, .anchors = anchors, .class_num = %lld,",
              y->run_h ? y->run_h : pool_printf("%lld", (long long)y->h),
              y->run_w ? y->run_w : pool_printf("%lld", (long long)y->w), y->an_num, (long long)y->class_num);
      pr_line(p, ".conf_thresh = %s, .downsample_ratio = %lld, .clip_bbox = %d, .scale_x_y = %s,",
              em_float(y->conf_thresh), (long long)y->downsample_ratio, y->clip_bbox, em_float(y->scale_x_y));
      pr_line(p, ".iou_aware = %d, .iou_aware_factor = %s,", y->iou_aware, em_float(y->iou_aware_factor));
      break;
    case DETECTION_MULTICLASS_NMS:
      pr_line(p, "const RtNms geo = {");
      pr_line(p, ".n = %s, .classes = %lld, .boxes = %s,", c->n, (long long)s->classes, s->boxes);
      pr_line(p, ".score_threshold = %s, .nms_threshold = %s, .nms_eta = %s,", em_float(s->score_threshold),
              em_float(s->nms_threshold), em_float(s->nms_eta));
      pr_line(p, ".nms_top_k = %lld, .keep_top_k = %lld, .background_label = %lld, .normalized = %d,",
              (long long)s->nms_top_k, (long long)s->keep_top_k, (long long)s->background_label, s->normalized);
      break;
    case DETECTION_MATRIX_NMS:
      pr_line(p, "const RtMatrixNms geo = {");
      pr_line(p, ".n = %s, .classes = %lld, .boxes = %s,", c->n, (long long)s->classes, s->boxes);
      pr_line(p, ".score_threshold = %s, .post_threshold = %s, .gaussian_sigma = %s,", em_float(s->score_threshold),
              em_float(s->post_threshold), em_float(s->gaussian_sigma));
      pr_line(p, ".nms_top_k = %lld, .keep_top_k = %lld, .background_label = %lld,", (long long)s->nms_top_k,
              (long long)s->keep_top_k, (long long)s->background_label);
      pr_line(p, ".use_gaussian = %d, .normalized = %d,", s->use_gaussian, s->normalized);
      break;
    case DETECTION_GENERATE_PROPOSALS:
      pr_line(p, "const RtProposals geo = {");
      pr_line(p, ".n = %s, .a = %lld, .h = %s, .w = %s,", c->n, (long long)r->a, r->h, r->w);
      pr_line(p, ".pre_nms_top_n = %lld, .post_nms_top_n = %lld,", (long long)r->pre_nms_top_n,
              (long long)r->post_nms_top_n);
      pr_line(p, ".nms_thresh = %s, .min_size = %s, .eta = %s, .pixel_offset = %d,", em_float(r->nms_thresh),
              em_float(r->min_size), em_float(r->eta), r->pixel_offset);
      break;
    case DETECTION_DISTRIBUTE_FPN:
      pr_line(p, "const RtFpnLevels geo = {");
      pr_line(p, ".n = %s, .rows = %s, .min_level = %d, .max_level = %d, .refer_level = %d, .refer_scale = %d,", c->n,
              c->nrows, c->fpn.min_level, c->fpn.max_level, c->fpn.refer_level, c->fpn.refer_scale);
      pr_line(p, ".pixel_offset = %d,", c->fpn.pixel_offset);
      break;
    case DETECTION_COLLECT_FPN:
      pr_line(p, "const RtFpnCollect geo = {.n = %s, .levels = %d, .post_nms_top_n = %lld,", c->n, c->collect.levels,
              (long long)c->collect.post_nms_top_n);
      break;
    case DETECTION_IOU_SIMILARITY:
    case DETECTION_BIPARTITE_MATCH:
      return;
  }
  pr_line(p, "};");
}

void detection_print_c(Printer *p, const DetectionCall *c) {
  const char *f64 = c->f64 ? "_f64" : "";
  print_geo(p, c);
  switch (c->kind) {
    case DETECTION_BOX_CODER:
      pr_line(p, "rt_box_coder%s(&geo, %s, %s, %s, %s);", f64, c->prior, c->prior_var, c->target, c->out);
      break;
    case DETECTION_PRIOR_BOX:
      pr_line(p, "rt_prior_box%s(&geo, %s, %s);", f64, c->boxes, c->vars);
      break;
    case DETECTION_DENSITY_PRIOR_BOX:
      pr_line(p, "rt_density_prior_box%s(&geo, %s, %s);", f64, c->boxes, c->vars);
      break;
    case DETECTION_ANCHOR_GENERATOR:
      pr_line(p, "rt_anchor_generator%s(&geo, %s, %s);", f64, c->anchors, c->vars);
      break;
    case DETECTION_YOLO_BOX:
      pr_line(p, "rt_yolo_box%s(&geo, %s, %s, %s, %s, %s);", f64, c->n, c->x, c->img_size, c->boxes, c->scores);
      break;
    case DETECTION_IOU_SIMILARITY:
      pr_line(p, "rt_iou_similarity%s(%s, %s, %s, %s, %d, %s);", f64, c->x, c->nx, c->y, c->ny, c->normalized, c->out);
      break;
    case DETECTION_BIPARTITE_MATCH:
      pr_line(p, "/* %s matching of the whole DistMat (no LoD: one instance) */",
              c->per_prediction ? "per_prediction" : "bipartite");
      pr_line(p, "rt_bipartite_match_%s(%s, %s, %s, %d, %s, %s, %s, %s);", c->f64 ? "f64" : "f32", c->dist, c->row,
              c->col, c->per_prediction, c->threshold, c->match_indices, c->match_dist, c->work);
      break;
    case DETECTION_MULTICLASS_NMS:
      if (c->rois_in) { /* -1: RoisNum does not add up to the RoIs */
        pr_line(p, "const int64_t kept = rt_multiclass_nms_rois_%s(&geo, %s, %s, %s, %s, %s, %s, %s);",
                c->f64 ? "f64" : "f32", c->boxes, c->scores, c->rois_in, c->out, c->index, c->rois_num, c->work);
        pr_line(p, "if (kept < 0) return 1;");
        pr_line(p, "%s = kept;", c->rows);
        break;
      }
      pr_line(p, "%s = rt_multiclass_nms_%s(&geo, %s, %s, %s, %s, %s, %s);", c->rows, c->f64 ? "f64" : "f32", c->boxes,
              c->scores, c->out, c->index, c->rois_num, c->work);
      break;
    case DETECTION_MATRIX_NMS:
      pr_line(p, "%s = rt_matrix_nms_%s(&geo, %s, %s, %s, %s, %s, %s);", c->rows, c->f64 ? "f64" : "f32", c->boxes,
              c->scores, c->out, c->index, c->rois_num, c->work);
      break;
    case DETECTION_GENERATE_PROPOSALS:
      pr_line(p, "%s = rt_generate_proposals_%s(&geo, %s, %s, %s, %s, %s, %s, %s, %s, %s);", c->rows,
              c->f64 ? "f64" : "f32", c->scores, c->deltas, c->img_size, c->anchors, c->vars, c->out, c->probs,
              c->rois_num, c->work);
      break;
    case DETECTION_DISTRIBUTE_FPN:
      print_fpn_call(p, c);
      break;
    case DETECTION_COLLECT_FPN: {
      const DetectionCollect *k = &c->collect;
      const char *t = c->f64 ? "double" : "float";
      pointer_array(p, pool_printf("const %s *const", t), "level_rois", k->levels, k->rois);
      pointer_array(p, pool_printf("const %s *const", t), "level_scores", k->levels, k->scores);
      pointer_array(p, "const int64_t", "level_rows", k->levels, k->rows);
      pointer_array(p, "const int32_t *const", "level_nums", k->levels, k->nums);
      pr_line(p, "const int64_t rows = rt_collect_fpn_proposals_%s(&geo, level_rois, level_scores, level_rows, "
                 "level_nums, %s, %s, %s);", c->f64 ? "f64" : "f32", c->out, c->rois_num, c->work);
      pr_line(p, "if (rows < 0) return 1;");
      pr_line(p, "%s = rows;", c->rows);
      break;
    }
  }
}
