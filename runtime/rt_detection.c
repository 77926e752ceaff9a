/* Detection kernels (see rt_detection.h), each the named Paddle 2.6 CPU
 * kernel's loop in its order and types, written once in
 * rt_detection_body.h and instantiated here for float and for double. */
#include <math.h>

#include "rt_kernels.h"

/* funcs::GetEntryIndex */
static int yolo_entry(const RtYoloBox *p, int batch, int an_idx, int hw_idx, int entry) {
  const int stride = p->h * p->w, an_stride = (p->class_num + 5) * stride;
  if (p->iou_aware)
    return (batch * p->an_num + an_idx) * an_stride + (batch * p->an_num + p->an_num + entry) * stride + hw_idx;
  return (batch * p->an_num + an_idx) * an_stride + entry * stride + hw_idx;
}

#define DET_T float
#define DET_NAME(n) n
#define DET_EXP expf
#define DET_LOG logf
#define DET_FABS fabsf
#define DET_POW powf
#include "rt_detection_body.h"

#define DET_T double
#define DET_NAME(n) n##_f64
#define DET_EXP exp
#define DET_LOG log
#define DET_FABS fabs
#define DET_POW pow
#include "rt_detection_body.h"
