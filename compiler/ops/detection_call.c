/* The C printer of detection calls (detection_call.h). */
#include "detection_call.h"

void detection_print_c(Printer *p, const DetectionCall *c) {
  const char *f64 = c->f64 ? "_f64" : "";
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
      pr_line(p, "rt_bipartite_match_%s(%s, %s, %s, %d, %s, %s, %s, %s);", c->f64 ? "f64" : "f32", c->dist, c->row,
              c->col, c->per_prediction, c->threshold, c->match_indices, c->match_dist, c->work);
      break;
    case DETECTION_MULTICLASS_NMS:
      pr_line(p, "%s = rt_multiclass_nms_%s(&geo, %s, %s, %s, %s, %s, %s);", c->rows, c->f64 ? "f64" : "f32", c->boxes,
              c->scores, c->out, c->index, c->rois_num, c->work);
      break;
    case DETECTION_MATRIX_NMS:
      pr_line(p, "%s = rt_matrix_nms_%s(&geo, %s, %s, %s, %s, %s, %s);", c->rows, c->f64 ? "f64" : "f32", c->boxes,
              c->scores, c->out, c->index, c->rois_num, c->work);
      break;
  }
}
