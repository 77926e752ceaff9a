/* One RoI pooling kernel as the lowering decided it, and its C printer.
 *
 * roi_align, roi_pool and psroi_pool read X [n, channels, height, width]
 * at the RoIs of ROIs [rois, 4], each RoI's image given by RoisNum.  The
 * emitters (roi.c) check the op and fill one record: the kind, the
 * geometry (X's dims, the RoIs' count and the attributes; the batch and
 * the count as C expressions), the buffers and the scratch; roi_print_c
 * prints the geometry (a constant RtRoi named `geo`: runtime/rt_roi.h),
 * the images of the RoIs from RoisNum and the routine's call, returning 1
 * when RoisNum does not fit the RoIs (or roi_align finds a RoI of negative
 * size).  Another backend prints the same records. */
#ifndef PADDLEC_OPS_ROI_CALL_H
#define PADDLEC_OPS_ROI_CALL_H

#include "ops.h"

typedef enum RoiKind {
  ROI_ALIGN, /* rt_roi_align: out, acc (channels elements) */
  ROI_POOL,  /* rt_roi_pool: out, argmax */
  ROI_PSROI, /* rt_psroi_pool: out */
} RoiKind;

typedef struct RoiCall {
  RoiKind kind;
  const char *suffix;                  /* the routines' type suffix: "f32", "f64", "i32" */
  const char *n, *rois;                /* images and RoIs, C expressions */
  int64_t channels;                    /* X's channels */
  const char *height, *width;          /* X's map, C expressions (the run's sizes or constants) */
  int64_t pooled_height, pooled_width; /* Out's last two dims */
  const char *spatial_scale;           /* a float literal */
  int64_t sampling_ratio, aligned;     /* ALIGN */
  int64_t output_channels;             /* PSROI */
  const char *x, *boxes;               /* X and ROIs, read */
  const char *num;                     /* RoisNum (int32), read */
  const char *ids;                     /* scratch: rois int32, each RoI's image */
  const char *out, *argmax, *acc;      /* written; argmax: POOL; acc: ALIGN scratch */
} RoiCall;

void roi_print_c(Printer *p, const RoiCall *c);

#endif
