/* multiclass_nms3 and matrix_nms on Scores [n, classes, boxes] and BBoxes
 * [n, boxes, 4] (no LoD), for compiler/ops/multiclass_nms.c. */
#ifndef PADDLEC_RT_NMS_H
#define PADDLEC_RT_NMS_H

#include <stdint.h>

typedef struct RtNms {
  int64_t n, classes, boxes; /* images, classes, boxes per image */
  float score_threshold, nms_threshold, nms_eta;
  int nms_top_k, keep_top_k; /* -1: no limit */
  int background_label;      /* a class left out, or -1 */
  int normalized;            /* 0: box widths and heights count one more (pixel boxes) */
} RtNms;

/* Bytes of the work buffer: each class's kept count (int64), the
 * candidates of a class or the detections of an image as (score, label,
 * box) items of 16 bytes with a merge buffer as large, and the boxes kept
 * per class (classes * boxes int32). */
#define RT_NMS_WORK_BYTES(classes, boxes) ((classes) * 8 + (classes) * (boxes) * 36)

/* Paddle 2.6's CPU multiclass_nms3 (phi multiclass_nms3_kernel.cc) for
 * each image in order: per class but background_label, the boxes scoring
 * above score_threshold sorted by score, descending (std::stable_sort), the
 * first nms_top_k of them, then greedy NMS keeping a box when its IoU with
 * every box kept before is <= the threshold (adaptive: times nms_eta after
 * each kept box while above 0.5, when nms_eta < 1); with keep_top_k and
 * more detections than it, the keep_top_k best by score (as float; stable
 * over class then selection order).  out gets, label by label, rows
 * (label, score, xmin, ymin, xmax, ymax), index the row's box as image *
 * boxes + box, rois_num each image's row count.  Returns the rows written
 * (0: out and index are empty, as Paddle's are [0, 6] and [0, 1]). */
int64_t rt_multiclass_nms_f32(const RtNms *p, const float *bboxes, const float *scores, float *out,
                              int32_t *index, int32_t *rois_num, void *work);
/* The same in double (Paddle's double kernel: scores, boxes and the
 * thresholds as doubles; keep_top_k still compares float scores). */
int64_t rt_multiclass_nms_f64(const RtNms *p, const double *bboxes, const double *scores, double *out,
                              int32_t *index, int32_t *rois_num, void *work);

/* Bytes of the work buffer of the RoIs' form below (boxes: the RoIs of all
 * images, tsize: the element's bytes): RT_NMS_WORK_BYTES's, and one
 * class's scores and boxes of an image gathered. */
#define RT_NMS_ROIS_WORK_BYTES(classes, boxes, tsize) (RT_NMS_WORK_BYTES(classes, boxes) + (boxes) * 5 * (tsize))

/* multiclass_nms3 on the RoIs of a two-stage detector (phi's Scores of
 * rank 2): Scores [boxes, classes] and BBoxes [boxes, classes, 4] (a box
 * per class), rois_in [n] the RoIs of each image in order (p->boxes their
 * sum).  Per image and class but background_label: the class's boxes and
 * scores, NMSFast as above, the boxes kept then in ascending order; with
 * keep_top_k, the best by score (as float, stable) and each class's kept
 * ones again in ascending order.  out's rows label by label (label, score,
 * the class's box), index the row's element of Scores (RoI * classes +
 * label), rois_num each image's row count.  Returns the rows written, or
 * -1 when rois_in does not add up to p->boxes or holds a negative count
 * (Paddle reads past its tensors), or boxes x classes pass INT32_MAX. */
int64_t rt_multiclass_nms_rois_f32(const RtNms *p, const float *bboxes, const float *scores, const int32_t *rois_in,
                                   float *out, int32_t *index, int32_t *rois_num, void *work);
int64_t rt_multiclass_nms_rois_f64(const RtNms *p, const double *bboxes, const double *scores, const int32_t *rois_in,
                                   double *out, int32_t *index, int32_t *rois_num, void *work);

/* matrix_nms's attributes (Paddle's names) and sizes. */
typedef struct RtMatrixNms {
  int64_t n, classes, boxes; /* images, classes, boxes per image */
  float score_threshold, post_threshold, gaussian_sigma;
  int nms_top_k, keep_top_k; /* -1 (any negative): no limit; nms_top_k is not 0 */
  int background_label;      /* a class left out, or -1 */
  int use_gaussian;          /* decay exp((max_iou^2 - iou^2) * sigma); 0: (1 - iou) / (1 - max_iou) */
  int normalized;            /* 0: box widths and heights count one more (pixel boxes) */
} RtMatrixNms;

/* Bytes of matrix_nms's work buffer for `boxes` boxes per image, at most
 * `pre` candidates per class (nms_top_k or boxes), `dets` detections per
 * image (the classes but background times pre) and elements of `tsize`
 * bytes: candidates and detections as 16-byte (value, position) pairs, the
 * IoU triangle and column maxima and the detections' decayed scores in T,
 * their boxes and classes in int32. */
#define RT_MATRIX_NMS_WORK_BYTES(boxes, pre, dets, tsize) \
  ((boxes) * 16 + (dets) * 16 + ((pre) * ((pre) - 1) / 2 + (pre) + (dets)) * (tsize) + (dets) * 8)

/* Paddle 2.6's CPU matrix_nms (phi matrix_nms_kernel.cc) for each image in
 * order: per class but background_label, the boxes scoring above
 * score_threshold (NaN included), the first nms_top_k of them by score
 * (std::partial_sort, libstdc++'s heap order among equal scores: rt_sort.h),
 * each decayed by its IoU with every better box against that box's own
 * largest IoU (gaussian or linear); the best box kept with its score when
 * above post_threshold, the others with their decayed score when above it.
 * Then the keep_top_k best of the image by decayed score (std::partial_sort
 * again, over the detections class by class) give out's rows (label,
 * score, xmin, ymin, xmax, ymax), index the row's box as image * boxes +
 * box, rois_num each image's row count.  Returns the rows written. */
int64_t rt_matrix_nms_f32(const RtMatrixNms *p, const float *bboxes, const float *scores, float *out,
                          int32_t *index, int32_t *rois_num, void *work);
/* The same in double (Paddle's double kernel; the thresholds are doubles of
 * the float attributes, sigma stays float). */
int64_t rt_matrix_nms_f64(const RtMatrixNms *p, const double *bboxes, const double *scores, double *out,
                          int32_t *index, int32_t *rois_num, void *work);

#endif
