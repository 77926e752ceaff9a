/* One detection kernel call as the lowering decided it, and its C printer.
 *
 * box_coder, prior_box, density_prior_box, anchor_generator, yolo_box,
 * multiclass_nms3 (and multiclass_nms, multiclass_nms2), matrix_nms,
 * generate_proposals_v2,
 * distribute_fpn_proposals and collect_fpn_proposals pass their routine a
 * constant geometry named `geo` (RtBoxCoder, RtPriorBox, RtDensityPriorBox,
 * RtAnchorGenerator, RtYoloBox, RtNms, RtMatrixNms, RtProposals,
 * RtFpnLevels, RtFpnCollect:
 * runtime/rt_detection.h, rt_nms.h, rt_proposals.h) with its attribute lists
 * as static arrays.  Their emitters, and
 * those of iou_similarity and bipartite_match, check the tensors and fill
 * one record: which routine, the geometry's values (attributes as numbers,
 * dims as numbers or C expressions) and the operands as C expressions.
 * detection_print_c prints the arrays, the geometry and the call, and is
 * the only code that spells the runtime's detection calls (rt_box_coder,
 * rt_prior_box, rt_density_prior_box, rt_anchor_generator, rt_yolo_box,
 * rt_iou_similarity, rt_bipartite_match_f32, rt_multiclass_nms_f32,
 * rt_matrix_nms_f32, rt_generate_proposals_f32,
 * rt_distribute_fpn_proposals_f32, rt_collect_fpn_proposals_f32, and for
 * float64 each one's
 * _f64 namesake: runtime/rt_detection.h, rt_bipartite_match.h, rt_nms.h,
 * rt_proposals.h); another backend
 * prints the same records. */
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
  DETECTION_GENERATE_PROPOSALS, /* out (RpnRois), probs, rois_num from scores, deltas, img_size, anchors, vars */
  DETECTION_DISTRIBUTE_FPN,    /* the levels' RoIs and counts, restore, from boxes (FpnRois) and its counts */
  DETECTION_COLLECT_FPN,       /* out (FpnRois) and rois_num from the levels' RoIs, scores and counts */
} DetectionKind;

/* PRIOR_BOX, DENSITY_PRIOR_BOX, ANCHOR_GENERATOR: the priors' geometry. */
typedef struct DetectionPriors {
  const char *feat_h, *feat_w; /* Input's dims 2 and 3 (C expressions: numbers, or the run's sizes) */
  const char *img_h, *img_w;   /* Image's dims 2 and 3 (not ANCHOR_GENERATOR) */
  int run;                     /* some of them are the run's: the geometry is a local */
  float step_w, step_h;       /* ANCHOR_GENERATOR: stride */
  float offset;               /* the center of a cell, in cells */
  int clip;                   /* not ANCHOR_GENERATOR */
  const double *variances;    /* the 4 variances */
  int nsizes;                 /* min_sizes (PRIOR_BOX), fixed_sizes (DENSITY), anchor_sizes (ANCHOR) */
  const double *sizes;
  const int64_t *densities;   /* DENSITY_PRIOR_BOX: one per fixed size */
  int nmax;                   /* PRIOR_BOX: max_sizes (0 or nsizes) */
  const double *max_sizes;
  int nratios;                /* PRIOR_BOX: the expanded ratios; DENSITY: fixed_ratios; ANCHOR: aspect_ratios */
  const double *ratios;
  int flip, min_max_order;    /* PRIOR_BOX: flip (for the comment), min_max_aspect_ratios_order */
} DetectionPriors;

/* YOLO_BOX: RtYoloBox's values. */
typedef struct DetectionYolo {
  int64_t h, w;               /* the grid */
  const char *run_h, *run_w;  /* the grid the run gives, as C expressions (NULL: h, w; the geometry a local) */
  int an_num;                 /* anchors: an_num (width, height) pairs */
  const int64_t *anchors;
  int64_t class_num, downsample_ratio;
  float conf_thresh, scale_x_y, iou_aware_factor;
  int clip_bbox, iou_aware;
} DetectionYolo;

/* MULTICLASS_NMS, MATRIX_NMS: RtNms's or RtMatrixNms's values but n. */
typedef struct DetectionNms {
  int64_t classes;            /* classes */
  const char *boxes;          /* boxes per image (C expression: a number, or the run's count) */
  float score_threshold;
  float nms_threshold, nms_eta;                /* MULTICLASS_NMS */
  float post_threshold, gaussian_sigma;        /* MATRIX_NMS */
  int64_t nms_top_k, keep_top_k, background_label;
  int use_gaussian;                            /* MATRIX_NMS */
  int normalized;
} DetectionNms;

/* GENERATE_PROPOSALS: RtProposals's values but n. */
typedef struct DetectionProposals {
  int64_t a;                  /* anchors per cell */
  const char *h, *w;          /* the feature map, C expressions (the run's sizes or constants) */
  int64_t pre_nms_top_n, post_nms_top_n;
  float nms_thresh, min_size, eta;
  int pixel_offset;
} DetectionProposals;

/* DISTRIBUTE_FPN: RtFpnLevels's values but n and rows, and each level's
 * operands: its RoIs, its counts per image (nums NULL: none) and the lvalue
 * its RoI count goes to. */
typedef struct DetectionFpn {
  int min_level, max_level, refer_level, refer_scale, pixel_offset;
  const char *const *rois, *const *nums, *const *rows;
  const char *num;            /* the counts of FpnRois' images */
  const char *restore;        /* RestoreIndex */
} DetectionFpn;

/* COLLECT_FPN: each level's RoIs, scores, rows and counts per image. */
typedef struct DetectionCollect {
  int levels;
  int64_t post_nms_top_n;
  const char *const *rois, *const *scores, *const *rows, *const *nums;
} DetectionCollect;

typedef struct DetectionCall {
  DetectionKind kind;
  int f64;                                /* float64 tensors: the routine's _f64 form */
  const char *prior, *prior_var, *target; /* BOX_CODER (prior_var "NULL": none) */
  const char *boxes, *anchors, *vars;     /* PRIOR_BOX, DENSITY_PRIOR_BOX, ANCHOR_GENERATOR; YOLO_BOX, NMS: boxes */
  const char *n, *img_size, *scores;      /* YOLO_BOX: images, their sizes, the scores; the NMS kinds: n, scores */
  const char *nrows;                      /* DISTRIBUTE_FPN: the rows of boxes */
  const char *x, *nx, *y, *ny;            /* IOU_SIMILARITY: x [nx, 4], y [ny, 4]; YOLO_BOX: x */
  int normalized;                         /* IOU_SIMILARITY, BOX_CODER: box_normalized */
  int decode, axis;                       /* BOX_CODER: decode_center_size, else encode; axis */
  const double *variance;                 /* BOX_CODER: the variance attribute (4), NULL: none */
  const char *out;                        /* BOX_CODER, IOU_SIMILARITY, the NMS kinds */
  const char *dist, *row, *col;           /* BIPARTITE_MATCH: dist [row, col]; BOX_CODER: geo's row, col */
  int per_prediction;                     /* BIPARTITE_MATCH: match_type per_prediction */
  const char *threshold;                  /* BIPARTITE_MATCH: dist_threshold, a float literal */
  const char *match_indices, *match_dist; /* BIPARTITE_MATCH: the outputs [row, col] */
  const char *work;                       /* BIPARTITE_MATCH, the NMS kinds: the routine's scratch */
  const char *index, *rois_num;           /* the NMS kinds: the outputs beside out (rois_num "NULL": none) */
  const char *rows;                       /* the NMS kinds: the lvalues the kept rows go to */
  const char *rois_in;                    /* MULTICLASS_NMS of a two-stage detector's RoIs (Scores [boxes,
                                           * classes]): each image's RoIs (RoisNum), else NULL */
  const char *deltas, *probs;             /* GENERATE_PROPOSALS: BboxDeltas, RpnRoiProbs (out: RpnRois) */
  DetectionPriors priors;                 /* PRIOR_BOX, DENSITY_PRIOR_BOX, ANCHOR_GENERATOR */
  DetectionYolo yolo;                     /* YOLO_BOX */
  DetectionNms nms;                       /* MULTICLASS_NMS, MATRIX_NMS */
  DetectionProposals proposals;           /* GENERATE_PROPOSALS */
  DetectionFpn fpn;                       /* DISTRIBUTE_FPN */
  DetectionCollect collect;               /* COLLECT_FPN */
} DetectionCall;

void detection_print_c(Printer *p, const DetectionCall *c);

#endif
