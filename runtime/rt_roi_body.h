/* The body of rt_roi.c's kernels for one element type, included once per
 * type by rt_roi.c, which defines ROI_T (Paddle's T), ROI_NAME(n) (n's
 * name for that type), ROI_MAX (std::numeric_limits<T>::max()) and
 * ROI_FLOAT (1 for float and double, which also get roi_align and
 * psroi_pool, with ROI_ROUND, ROI_FLOOR and ROI_CEIL: std::round, floor,
 * ceil of T).  Each expression keeps the types of Paddle's: C converts
 * the operands of size_t, int, float and double as C++ does.  Undefines
 * the macros at its end. */

#if ROI_FLOAT
/* One coordinate v >= 0 of a bilinear sample along a dim of `size` pixels:
 * its two neighbours (the last pixel twice past the end, v moved onto it)
 * and the weight of the lower one, high - v, as Paddle's
 * GetIndexesAndRatios computes them. */
static ROI_T ROI_NAME(neighbours)(ROI_T v, size_t size, size_t *low, size_t *high) {
  *low = (size_t)v;
  if (*low >= size - 1) {
    *high = *low = size - 1;
    v = (ROI_T)*low;
  } else {
    *high = *low + 1;
  }
  return *high - v;
}

/* phi RoiAlignKernel.  The samples of a bin are computed once for all
 * channels and summed into acc in Paddle's order (row of samples, then
 * column), so each channel's sum is Paddle's std::accumulate. */
int ROI_NAME(rt_roi_align)(const RtRoi *g, const ROI_T *x, const ROI_T *rois, const int32_t *ids, ROI_T *out,
                           ROI_T *acc) {
  const size_t width = (size_t)g->width, height = (size_t)g->height;
  const size_t pooled_width = (size_t)g->pooled_width, pooled_height = (size_t)g->pooled_height;
  const int64_t plane = g->height * g->width, bins = g->pooled_height * g->pooled_width;
  const ROI_T roi_offset = g->aligned ? (ROI_T)0.5 : 0;
  for (int64_t n = 0; n < g->rois; n++) {
    const ROI_T *box = rois + n * 4, *image = x + (int64_t)ids[n] * g->channels * plane;
    const ROI_T roi_xmin = box[0] * g->spatial_scale - roi_offset, roi_ymin = box[1] * g->spatial_scale - roi_offset;
    const ROI_T roi_xmax = box[2] * g->spatial_scale - roi_offset, roi_ymax = box[3] * g->spatial_scale - roi_offset;
    ROI_T roi_width = roi_xmax - roi_xmin, roi_height = roi_ymax - roi_ymin;
    if (!g->aligned) {
      roi_width = roi_width < (ROI_T)1. ? (ROI_T)1. : roi_width;
      roi_height = roi_height < (ROI_T)1. ? (ROI_T)1. : roi_height;
    }
    const int grid_h = g->sampling_ratio > 0 ? g->sampling_ratio : (int)ROI_CEIL(roi_height / g->pooled_height);
    const int grid_w = g->sampling_ratio > 0 ? g->sampling_ratio : (int)ROI_CEIL(roi_width / g->pooled_width);
    if (grid_h < 0 || grid_w < 0) return -1;
    const size_t roi_bin_grid_h = (size_t)grid_h, roi_bin_grid_w = (size_t)grid_w;
    const ROI_T bin_w = roi_width / pooled_width, bin_h = roi_height / pooled_height;
    const ROI_T count = 1.0 / (grid_w * grid_h);
    for (size_t py = 0; py < pooled_height; py++)
      for (size_t px = 0; px < pooled_width; px++) {
        for (int64_t c = 0; c < g->channels; c++) acc[c] = 0.0;
        for (size_t iy = 0; iy < roi_bin_grid_h; iy++) {
          const ROI_T yc = roi_ymin + bin_h * (py + (ROI_T)(iy + .5f) / (ROI_T)roi_bin_grid_h);
          for (size_t ix = 0; ix < roi_bin_grid_w; ix++) {
            ROI_T y = yc, xx = roi_xmin + bin_w * (px + (ROI_T)(ix + .5f) / (ROI_T)roi_bin_grid_w);
            size_t o_xy = 0, o_xY = 0, o_Xy = 0, o_XY = 0;
            ROI_T r_xy = 0, r_xY = 0, r_Xy = 0, r_XY = 0; /* an out-of-map sample: 0 times X's first pixel */
            if (!(y < -1.0 || y > height || xx < -1.0 || xx > width)) {
              y = y <= 0 ? 0 : y;
              xx = xx <= 0 ? 0 : xx;
              size_t x_low, x_high, y_low, y_high;
              const ROI_T x_ratio = ROI_NAME(neighbours)(xx, width, &x_low, &x_high);
              const ROI_T y_ratio = ROI_NAME(neighbours)(y, height, &y_low, &y_high);
              o_xy = y_low * width + x_low, o_xY = y_high * width + x_low;
              o_Xy = y_low * width + x_high, o_XY = y_high * width + x_high;
              r_xy = x_ratio * y_ratio, r_xY = x_ratio * (1 - y_ratio);
              r_Xy = (1 - x_ratio) * y_ratio, r_XY = (1 - x_ratio) * (1 - y_ratio);
            }
            for (int64_t c = 0; c < g->channels; c++) {
              const ROI_T *d = image + c * plane;
              acc[c] += r_xy * d[o_xy] + r_Xy * d[o_Xy] + r_xY * d[o_xY] + r_XY * d[o_XY];
            }
          }
        }
        for (int64_t c = 0; c < g->channels; c++) out[(n * g->channels + c) * bins + (int64_t)(py * pooled_width + px)] = acc[c] * count;
      }
  }
  return 0;
}

/* phi PsroiPoolKernel. */
void ROI_NAME(rt_psroi_pool)(const RtRoi *g, const ROI_T *x, const ROI_T *rois, const int32_t *ids, ROI_T *out) {
  const int height = (int)g->height, width = (int)g->width, ph_n = g->pooled_height, pw_n = g->pooled_width;
  const int64_t plane = g->height * g->width;
  for (int64_t n = 0; n < g->rois; n++) {
    const ROI_T *r = rois + n * 4;
    const ROI_T roi_start_w = (ROI_T)ROI_ROUND(r[0]) * g->spatial_scale;
    const ROI_T roi_start_h = (ROI_T)ROI_ROUND(r[1]) * g->spatial_scale;
    const ROI_T roi_end_w = (ROI_T)(ROI_ROUND(r[2]) + 1.) * g->spatial_scale;
    const ROI_T roi_end_h = (ROI_T)(ROI_ROUND(r[3]) + 1.) * g->spatial_scale;
    const ROI_T roi_height = roi_end_h - roi_start_h < (ROI_T)0.1 ? (ROI_T)0.1 : roi_end_h - roi_start_h;
    const ROI_T roi_width = roi_end_w - roi_start_w < (ROI_T)0.1 ? (ROI_T)0.1 : roi_end_w - roi_start_w;
    const ROI_T bin_size_h = roi_height / (ROI_T)ph_n, bin_size_w = roi_width / (ROI_T)pw_n;
    for (int c = 0; c < g->output_channels; c++)
      for (int ph = 0; ph < ph_n; ph++)
        for (int pw = 0; pw < pw_n; pw++) {
          int hstart = (int)ROI_FLOOR((ROI_T)ph * bin_size_h + roi_start_h);
          int wstart = (int)ROI_FLOOR((ROI_T)pw * bin_size_w + roi_start_w);
          int hend = (int)ROI_CEIL((ROI_T)(ph + 1) * bin_size_h + roi_start_h);
          int wend = (int)ROI_CEIL((ROI_T)(pw + 1) * bin_size_w + roi_start_w);
          hstart = hstart < 0 ? 0 : hstart > height ? height : hstart;
          wstart = wstart < 0 ? 0 : wstart > width ? width : wstart;
          hend = hend < 0 ? 0 : hend > height ? height : hend;
          wend = wend < 0 ? 0 : wend > width ? width : wend;
          const int64_t channel = ((int64_t)c * ph_n + ph) * pw_n + pw;
          const ROI_T *d = x + ((int64_t)ids[n] * g->channels + channel) * plane;
          ROI_T sum = 0.;
          for (int ih = hstart; ih < hend; ih++)
            for (int iw = wstart; iw < wend; iw++) sum += d[(int64_t)ih * width + iw];
          const ROI_T area = (ROI_T)((hend - hstart) * (wend - wstart));
          const int empty = hend <= hstart || wend <= wstart;
          out[((n * g->output_channels + c) * ph_n + ph) * pw_n + pw] = empty ? 0. : sum / area;
        }
  }
}
#endif

/* phi RoiPoolKernel: the corners rounded after scaling (T * float: float
 * for float and int, double for double). */
void ROI_NAME(rt_roi_pool)(const RtRoi *g, const ROI_T *x, const ROI_T *rois, const int32_t *ids, ROI_T *out,
                           int64_t *argmax) {
  const int height = (int)g->height, width = (int)g->width, ph_n = g->pooled_height, pw_n = g->pooled_width;
  const int64_t plane = g->height * g->width;
  for (int64_t n = 0; n < g->rois; n++) {
    const ROI_T *r = rois + n * 4;
#if ROI_FLOAT
#define ROI_SCALED_ROUND(v) ROI_ROUND((v) * g->spatial_scale)
#else
#define ROI_SCALED_ROUND(v) roundf((v) * g->spatial_scale)
#endif
    const int start_w = (int)ROI_SCALED_ROUND(r[0]), start_h = (int)ROI_SCALED_ROUND(r[1]);
    const int end_w = (int)ROI_SCALED_ROUND(r[2]), end_h = (int)ROI_SCALED_ROUND(r[3]);
#undef ROI_SCALED_ROUND
    const int box_height = end_h - start_h + 1 < 1 ? 1 : end_h - start_h + 1;
    const int box_width = end_w - start_w + 1 < 1 ? 1 : end_w - start_w + 1;
    const float bin_size_h = (float)box_height / (float)ph_n, bin_size_w = (float)box_width / (float)pw_n;
    for (int64_t c = 0; c < g->channels; c++) {
      const ROI_T *d = x + ((int64_t)ids[n] * g->channels + c) * plane;
      ROI_T *o = out + (n * g->channels + c) * ph_n * pw_n;
      int64_t *a = argmax + (n * g->channels + c) * ph_n * pw_n;
      for (int ph = 0; ph < ph_n; ph++)
        for (int pw = 0; pw < pw_n; pw++) {
          int hstart = (int)floorf((float)ph * bin_size_h), wstart = (int)floorf((float)pw * bin_size_w);
          int hend = (int)ceilf((float)(ph + 1) * bin_size_h), wend = (int)ceilf((float)(pw + 1) * bin_size_w);
          hstart += start_h, hend += start_h, wstart += start_w, wend += start_w;
          hstart = hstart < 0 ? 0 : hstart > height ? height : hstart;
          hend = hend < 0 ? 0 : hend > height ? height : hend;
          wstart = wstart < 0 ? 0 : wstart > width ? width : wstart;
          wend = wend < 0 ? 0 : wend > width ? width : wend;
          const int i = ph * pw_n + pw;
          o[i] = hend <= hstart || wend <= wstart ? 0 : -ROI_MAX;
          a[i] = -1;
          for (int h = hstart; h < hend; h++)
            for (int w = wstart; w < wend; w++)
              if (d[h * width + w] > o[i]) o[i] = d[h * width + w], a[i] = h * width + w;
        }
    }
  }
}

#undef ROI_T
#undef ROI_NAME
#undef ROI_MAX
#undef ROI_FLOAT
#undef ROI_ROUND
#undef ROI_FLOOR
#undef ROI_CEIL
