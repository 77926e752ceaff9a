/* roi_align, roi_pool and psroi_pool for compiler/ops/roi.c: X [n,
 * channels, height, width], ROIs [rois, 4] (xmin, ymin, xmax, ymax in
 * X's image coordinates before spatial_scale) and RoisNum [n] (how many
 * RoIs each image has, in order). */
#ifndef PADDLEC_RT_ROI_H
#define PADDLEC_RT_ROI_H

#include <stdint.h>

typedef struct RtRoi {
  int64_t n, channels, height, width; /* X */
  int64_t rois;                       /* ROIs' rows */
  int pooled_height, pooled_width;    /* Out's last two dims */
  float spatial_scale;
  int sampling_ratio; /* roi_align: samples per bin and dim, or <= 0: ceil(RoI size / pooled size) */
  int aligned;        /* roi_align: RoIs shifted by -0.5 and not widened to 1 */
  int output_channels; /* psroi_pool: Out's channels (X's = output_channels * pooled_height * pooled_width) */
} RtRoi;

/* Each RoI's image from RoisNum (n counts): ids[r] for r < rois.  Returns
 * -1 when a count is negative or they do not add up to rois (Paddle's
 * kernels then read or write past their buffers), else 0. */
int rt_roi_images(const RtRoi *g, const int32_t *num, int32_t *ids);

/* phi RoiAlignKernel: per RoI and bin, the mean of sampling_ratio^2 (or
 * the adaptive count of) bilinear samples, out-of-map samples counting 0,
 * in Paddle's order of operations.  acc holds `channels` elements.
 * Returns -1 for a RoI whose adaptive sample count is negative (aligned,
 * xmax < xmin: Paddle's kernel then reserves an impossible vector), else 0. */
int rt_roi_align_f32(const RtRoi *g, const float *x, const float *rois, const int32_t *ids, float *out, float *acc);
int rt_roi_align_f64(const RtRoi *g, const double *x, const double *rois, const int32_t *ids, double *out,
                     double *acc);

/* phi RoiPoolKernel: per RoI and bin, the max over the bin's pixels
 * (rounded RoI corners, bins floor/ceil), argmax its index in the plane (or
 * -1); an empty bin gives 0, a bin of NaN only -max. */
void rt_roi_pool_f32(const RtRoi *g, const float *x, const float *rois, const int32_t *ids, float *out,
                     int64_t *argmax);
void rt_roi_pool_f64(const RtRoi *g, const double *x, const double *rois, const int32_t *ids, double *out,
                     int64_t *argmax);
void rt_roi_pool_i32(const RtRoi *g, const int32_t *x, const int32_t *rois, const int32_t *ids, int32_t *out,
                     int64_t *argmax);

/* phi PsroiPoolKernel: per RoI, output channel and bin, the mean of the
 * bin's pixels in X's channel (c * pooled_height + ph) * pooled_width + pw;
 * an empty bin gives 0. */
void rt_psroi_pool_f32(const RtRoi *g, const float *x, const float *rois, const int32_t *ids, float *out);
void rt_psroi_pool_f64(const RtRoi *g, const double *x, const double *rois, const int32_t *ids, double *out);

#endif
