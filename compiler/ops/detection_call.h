/* One detection kernel call as the lowering decided it, and its C printer.
 *
 * The emitters of box_coder, prior_box, density_prior_box,
 * anchor_generator, yolo_box, multiclass_nms3 and matrix_nms print the
 * geometry (a constant RtBoxCoder, RtPriorBox, ..., RtNms, RtMatrixNms
 * named `geo`: runtime/rt_detection.h, rt_nms.h); they, iou_similarity and
 * bipartite_match fill one record: which routine and its operands as C
 * expressions.  detection_print_c is the only code that spells the
 * runtime's detection calls (rt_box_coder, rt_prior_box,
 * rt_density_prior_box, rt_anchor_generator, rt_yolo_box,
 * rt_iou_similarity, rt_bipartite_match_f32, rt_multiclass_nms_f32,
 * rt_matrix_nms_f32, and for float64 each one's _f64 namesake: runtime/rt_detection.h,
 * rt_bipartite_match.h, rt_nms.h); another backend prints the same
 * records. */
#ifndef PADDLEC_OPS_DETECTION_CALL_H
#define PADDLEC_OPS_DETECTION_CALL_H

#include "ops.h"

typedef enum DetectionKind {
  DETECTION_BOX_CODER,         /* out: target encoded against, or decoded from, prior */
  DETECTION_PRIOR_BOX,         /* boxes, vars */
  DETECTION_DENSITY_PRIOR_BOX, /* boxes, vars */
  DETECTION_ANCHOR_GENERATOR,  /* anchors, vars */
  DETECTION_YOLO_BOX,          /* boxes, scores from x and img_size */
  DETECTION_IOU_SIMILARITY,    /* out [nx, ny]: the IoU of x's and y's boxes */
  DETECTION_BIPARTITE_MATCH,   /* match_indices, match_dist from dist */
  DETECTION_MULTICLASS_NMS,    /* out, index, rois_num from boxes and scores; the rows kept into `rows` */
  DETECTION_MATRIX_NMS,        /* the same by matrix NMS (geometry RtMatrixNms) */
} DetectionKind;

typedef struct DetectionCall {
  DetectionKind kind;
  int f64;                                /* float64 tensors: the routine's _f64 form */
  const char *prior, *prior_var, *target; /* BOX_CODER (prior_var "NULL": none) */
  const char *boxes, *anchors, *vars;     /* PRIOR_BOX, DENSITY_PRIOR_BOX, ANCHOR_GENERATOR; YOLO_BOX: boxes */
  const char *n, *img_size, *scores;      /* YOLO_BOX: images, their sizes, the scores */
  const char *x, *nx, *y, *ny;            /* IOU_SIMILARITY: x [nx, 4], y [ny, 4]; YOLO_BOX: x */
  int normalized;                         /* IOU_SIMILARITY: box_normalized */
  const char *out;                        /* BOX_CODER, IOU_SIMILARITY */
  const char *dist, *row, *col;           /* BIPARTITE_MATCH: dist [row, col] */
  int per_prediction;                     /* BIPARTITE_MATCH: match_type per_prediction */
  const char *threshold;                  /* BIPARTITE_MATCH: dist_threshold, a float literal */
  const char *match_indices, *match_dist; /* BIPARTITE_MATCH: the outputs [row, col] */
  const char *work;                       /* BIPARTITE_MATCH, the NMS kinds: the routine's scratch */
  const char *index, *rois_num;           /* the NMS kinds: the outputs beside out (rois_num "NULL": none) */
  const char *rows;                       /* the NMS kinds: the lvalues the kept rows go to */
} DetectionCall;

void detection_print_c(Printer *p, const DetectionCall *c);

#endif
