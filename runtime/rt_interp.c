/* Resampling (nearest / bilinear / bicubic resize of channel-first planes,
 * with the coordinate rules of rt_resample.h; float and double, the kernels
 * in rt_interp2d_body.h) and border padding (pad2d, pad3d; float and double,
 * rt_pad3d_body.h). */
#include <math.h>
#include <string.h>

#include "rt_kernels.h"
#include "rt_resample.h"

#define RESAMPLE_T float
#define RESAMPLE_NAME(n) n
#include "rt_interp2d_body.h"

#define RESAMPLE_T double
#define RESAMPLE_NAME(n) n##_f64
#include "rt_interp2d_body.h"

/* Source index of padded position o along a dim of n elements with
 * `before` padding; -1 for a constant-filled position. */
static int64_t pad_src(RtPadMode mode, int64_t o, int64_t before, int64_t n) {
  int64_t i = o - before;
  switch (mode) {
    case RT_PAD_REFLECT:
      i = i < 0 ? -i : i;
      return i < 2 * n - i - 2 ? i : 2 * n - i - 2;
    case RT_PAD_REPLICATE: return i < 0 ? 0 : (i >= n ? n - 1 : i);
    case RT_PAD_CIRCULAR: return ((i % n) + n) % n;
    default: return i >= 0 && i < n ? i : -1;
  }
}

#define PAD_T float
#define PAD_NAME(n) n
#include "rt_pad3d_body.h"

#define PAD_T double
#define PAD_NAME(n) n##_f64
#include "rt_pad3d_body.h"
