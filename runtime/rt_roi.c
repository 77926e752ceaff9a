/* roi_align, roi_pool and psroi_pool (see rt_roi.h), written once in
 * rt_roi_body.h and instantiated here per element type. */
#include "rt_roi.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

int rt_roi_images(const RtRoi *g, const int32_t *num, int32_t *ids) {
  int64_t r = 0;
  for (int64_t i = 0; i < g->n; i++) {
    if (num[i] < 0 || num[i] > g->rois - r) return -1;
    for (int32_t k = 0; k < num[i]; k++) ids[r++] = (int32_t)i;
  }
  return r == g->rois ? 0 : -1;
}

#define ROI_T float
#define ROI_NAME(n) n##_f32
#define ROI_ROUND roundf
#define ROI_FLOOR floorf
#define ROI_CEIL ceilf
#define ROI_MAX FLT_MAX
#define ROI_FLOAT 1
#include "rt_roi_body.h"

#define ROI_T double
#define ROI_NAME(n) n##_f64
#define ROI_ROUND round
#define ROI_FLOOR floor
#define ROI_CEIL ceil
#define ROI_MAX DBL_MAX
#define ROI_FLOAT 1
#include "rt_roi_body.h"

#define ROI_T int32_t
#define ROI_NAME(n) n##_i32
#define ROI_MAX INT32_MAX
#define ROI_FLOAT 0
#include "rt_roi_body.h"
