/* Detection kernels with outputs of static size, each as Paddle 2.6's CPU
 * kernel computes it (the file named beside each), for
 * compiler/ops/prior_box.c, box_coder.c, yolo_box.c and iou_similarity.c.
 * Each routine has a float32 form and a float64 one (the _f64 namesake,
 * Paddle's double kernel: same geometry record, double tensors).
 * Arithmetic follows the kernels' types: T (float or double) where they
 * use T, float where they keep a float (the attributes: the geometry
 * records hold them as floats for both), double where a double literal
 * promotes an expression. */
#ifndef PADDLEC_RT_DETECTION_H
#define PADDLEC_RT_DETECTION_H

#include <stdint.h>

/* prior_box (phi prior_box_kernel.cc) and density_prior_box (fluid
 * density_prior_box_op.h): the geometry both share. */
typedef struct RtPriorGeo {
  int64_t feat_h, feat_w; /* Input dims 2 and 3 */
  int64_t img_h, img_w;   /* Image dims 2 and 3 */
  float step_w, step_h;   /* either 0: the image size over the feature map size */
  float offset;           /* center of a cell, in cells */
  int clip;               /* clamp every coordinate to [0, 1] */
  int nvar;               /* variances (4) */
  const float *variances; /* written for every box */
} RtPriorGeo;

/* prior_box: boxes and vars [feat_h, feat_w, num_priors, 4]; ars are the
 * expanded aspect ratios (1, then each new ratio and, with flip, its
 * inverse); max_sizes is empty or has nmin entries. */
typedef struct RtPriorBox {
  RtPriorGeo geo;
  int nmin;               /* min_sizes */
  const float *min_sizes;
  int nmax;               /* max_sizes (0 or nmin) */
  const float *max_sizes;
  int nar;                /* expanded aspect ratios */
  const float *ars;
  int min_max_order;      /* min_max_aspect_ratios_order: min, max, then the other ratios */
} RtPriorBox;
void rt_prior_box(const RtPriorBox *p, float *boxes, float *vars);
void rt_prior_box_f64(const RtPriorBox *p, double *boxes, double *vars);

/* density_prior_box: per cell, for each fixed size s (with density d_s)
 * and fixed ratio, a d_s x d_s grid of boxes; boxes and vars [feat_h,
 * feat_w, num_priors, 4] (or the same flattened). */
typedef struct RtDensityPriorBox {
  RtPriorGeo geo;
  int nsizes;               /* fixed_sizes, and as many densities */
  const float *fixed_sizes;
  const int32_t *densities;
  int nratios;              /* fixed_ratios */
  const float *fixed_ratios;
} RtDensityPriorBox;
void rt_density_prior_box(const RtDensityPriorBox *p, float *boxes, float *vars);
void rt_density_prior_box_f64(const RtDensityPriorBox *p, double *boxes, double *vars);

/* anchor_generator (fluid anchor_generator_op.h): anchors and vars
 * [feat_h, feat_w, nratios * nsizes, 4], ratios outer, sizes inner. */
typedef struct RtAnchorGenerator {
  int64_t feat_h, feat_w;    /* Input dims 2 and 3 */
  int nsizes;                /* anchor_sizes */
  const float *anchor_sizes;
  int nratios;               /* aspect_ratios */
  const float *aspect_ratios;
  float stride_w, stride_h;  /* stride[0], stride[1] */
  float offset;
  const float *variances;    /* 4 */
} RtAnchorGenerator;
void rt_anchor_generator(const RtAnchorGenerator *p, float *anchors, float *vars);
void rt_anchor_generator_f64(const RtAnchorGenerator *p, double *anchors, double *vars);

/* box_coder (phi box_coder_kernel.cc).  encode_center_size: target [row,
 * 4] against prior [col, 4] -> out [row, col, 4]; decode_center_size:
 * target [row, col, 4] -> out [row, col, 4] with the prior of column j
 * (axis 0) or of row i (axis 1).  Variances come from prior_var (shaped
 * like prior), else from var4 (the attribute), else are 1. */
typedef struct RtBoxCoder {
  int decode;            /* decode_center_size, else encode_center_size */
  int normalized;        /* box_normalized: no +1 on widths and heights */
  int axis;              /* decode: 0 or 1 */
  int64_t row, col;      /* as above */
  const float *var4;     /* the variance attribute (4), or NULL; cast to T (encode; a float64 decode is
                            refused: Paddle's double kernel reads these floats as doubles) */
} RtBoxCoder;
void rt_box_coder(const RtBoxCoder *p, const float *prior, const float *prior_var, const float *target, float *out);
void rt_box_coder_f64(const RtBoxCoder *p, const double *prior, const double *prior_var, const double *target,
                      double *out);

/* yolo_box (phi yolo_box_kernel.cc, funcs/yolo_box_util.h): x [n, an_num *
 * (5 + cls) (6 + cls with iou_aware), h, w], img_size [n, 2] (height,
 * width; int32) -> boxes [n, an_num * h * w, 4], scores [n, an_num * h *
 * w, cls], zero where the confidence is below conf_thresh. */
typedef struct RtYoloBox {
  int h, w;                 /* grid */
  int an_num;               /* anchors: an_num (width, height) pairs */
  const int32_t *anchors;
  int class_num;
  float conf_thresh;
  int downsample_ratio;
  int clip_bbox;
  float scale_x_y;
  int iou_aware;
  float iou_aware_factor;
} RtYoloBox;
void rt_yolo_box(const RtYoloBox *p, int64_t n, const float *x, const int32_t *img_size, float *boxes, float *scores);
void rt_yolo_box_f64(const RtYoloBox *p, int64_t n, const double *x, const int32_t *img_size, double *boxes,
                     double *scores);

/* iou_similarity (fluid iou_similarity_op.h): out [nx, ny], the IoU of
 * each box of x [nx, 4] with each of y [ny, 4] ((xmin, ymin, xmax, ymax);
 * not normalized: +1 on every width and height), union + 1e-10. */
void rt_iou_similarity(const float *x, int64_t nx, const float *y, int64_t ny, int normalized, float *out);
void rt_iou_similarity_f64(const double *x, int64_t nx, const double *y, int64_t ny, int normalized, double *out);

#endif
