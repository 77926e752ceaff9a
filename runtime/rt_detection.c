/* Detection kernels (see rt_detection.h), each the named Paddle 2.6 CPU
 * kernel's loop in its order and types. */
#include <math.h>

#include "rt_kernels.h"

/* ---- prior boxes ---- */

/* The step between cell centers: the attributes, or the image size over the
 * feature map size when either is 0. */
static void prior_steps(const RtPriorGeo *g, float *sw, float *sh) {
  if (g->step_w == 0 || g->step_h == 0) {
    *sw = (float)g->img_w / (float)g->feat_w;
    *sh = (float)g->img_h / (float)g->feat_h;
  } else {
    *sw = g->step_w;
    *sh = g->step_h;
  }
}

/* Clamps the boxes to [0, 1] when clip is set and writes the variances of
 * every box. */
static void prior_finish(const RtPriorGeo *g, int64_t nbox, float *boxes, float *vars) {
  if (g->clip)
    for (int64_t i = 0; i < nbox * 4; i++) boxes[i] = fminf(fmaxf(boxes[i], 0.0f), 1.0f);
  for (int64_t i = 0; i < nbox; i++)
    for (int j = 0; j < g->nvar; j++) vars[i * g->nvar + j] = g->variances[j];
}

/* One prior_box box of half-extents (bw, bh) around (cx, cy), in image
 * fractions. */
static float *put_box(float *b, const RtPriorGeo *g, float cx, float cy, float bw, float bh) {
  b[0] = (cx - bw) / (float)g->img_w;
  b[1] = (cy - bh) / (float)g->img_h;
  b[2] = (cx + bw) / (float)g->img_w;
  b[3] = (cy + bh) / (float)g->img_h;
  return b + 4;
}

void rt_prior_box(const RtPriorBox *p, float *boxes, float *vars) {
  const RtPriorGeo *g = &p->geo;
  float sw, sh;
  prior_steps(g, &sw, &sh);
  float *b = boxes;
  for (int64_t h = 0; h < g->feat_h; h++)
    for (int64_t w = 0; w < g->feat_w; w++) {
      const float cx = ((float)w + g->offset) * sw, cy = ((float)h + g->offset) * sh;
      for (int s = 0; s < p->nmin; s++) {
        const float min_size = p->min_sizes[s];
        if (p->min_max_order) {
          b = put_box(b, g, cx, cy, min_size / 2.0f, min_size / 2.0f);
          if (p->nmax) {
            const float m = sqrtf(min_size * p->max_sizes[s]) / 2.0f;
            b = put_box(b, g, cx, cy, m, m);
          }
          for (int r = 0; r < p->nar; r++) {
            const float ar = p->ars[r];
            if (fabs(ar - 1.) < 1e-6) continue;
            b = put_box(b, g, cx, cy, min_size * sqrtf(ar) / 2.0f, min_size / sqrtf(ar) / 2.0f);
          }
        } else {
          for (int r = 0; r < p->nar; r++) {
            const float ar = p->ars[r];
            b = put_box(b, g, cx, cy, min_size * sqrtf(ar) / 2.0f, min_size / sqrtf(ar) / 2.0f);
          }
          if (p->nmax) {
            const float m = sqrtf(min_size * p->max_sizes[s]) / 2.0f;
            b = put_box(b, g, cx, cy, m, m);
          }
        }
      }
    }
  prior_finish(g, (b - boxes) / 4, boxes, vars);
}

void rt_density_prior_box(const RtDensityPriorBox *p, float *boxes, float *vars) {
  const RtPriorGeo *g = &p->geo;
  float sw, sh;
  prior_steps(g, &sw, &sh);
  const int step_average = (int)((sw + sh) * 0.5);
  float *b = boxes;
  for (int64_t h = 0; h < g->feat_h; h++)
    for (int64_t w = 0; w < g->feat_w; w++) {
      const float cx = ((float)w + g->offset) * sw, cy = ((float)h + g->offset) * sh;
      for (int s = 0; s < p->nsizes; s++) {
        const float fixed_size = p->fixed_sizes[s];
        const int density = p->densities[s], shift = step_average / density;
        for (int r = 0; r < p->nratios; r++) {
          const float sqrt_ratio = sqrtf(p->fixed_ratios[r]);
          const float bw = fixed_size * sqrt_ratio, bh = fixed_size / sqrt_ratio;
          const float dcx = (float)(cx - step_average / 2. + shift / 2.);
          const float dcy = (float)(cy - step_average / 2. + shift / 2.);
          for (int di = 0; di < density; di++)
            for (int dj = 0; dj < density; dj++, b += 4) {
              const float x = dcx + (float)(dj * shift), y = dcy + (float)(di * shift);
              b[0] = (float)fmax((x - bw / 2.) / (double)g->img_w, 0.);
              b[1] = (float)fmax((y - bh / 2.) / (double)g->img_h, 0.);
              b[2] = (float)fmin((x + bw / 2.) / (double)g->img_w, 1.);
              b[3] = (float)fmin((y + bh / 2.) / (double)g->img_h, 1.);
            }
        }
      }
    }
  prior_finish(g, (b - boxes) / 4, boxes, vars);
}

void rt_anchor_generator(const RtAnchorGenerator *p, float *anchors, float *vars) {
  const float sw = p->stride_w, sh = p->stride_h;
  float *a = anchors;
  for (int64_t h = 0; h < p->feat_h; h++)
    for (int64_t w = 0; w < p->feat_w; w++) {
      const float x_ctr = ((float)w * sw) + p->offset * (sw - 1);
      const float y_ctr = ((float)h * sh) + p->offset * (sh - 1);
      for (int r = 0; r < p->nratios; r++) {
        const float ar = p->aspect_ratios[r];
        for (int s = 0; s < p->nsizes; s++, a += 4) {
          const float area = sw * sh, area_ratios = area / ar;
          const float base_w = (float)round(sqrt(area_ratios)), base_h = (float)round(base_w * ar);
          const float scale_w = p->anchor_sizes[s] / sw, scale_h = p->anchor_sizes[s] / sh;
          const float aw = scale_w * base_w, ah = scale_h * base_h;
          a[0] = (float)(x_ctr - 0.5 * (aw - 1));
          a[1] = (float)(y_ctr - 0.5 * (ah - 1));
          a[2] = (float)(x_ctr + 0.5 * (aw - 1));
          a[3] = (float)(y_ctr + 0.5 * (ah - 1));
        }
      }
    }
  const int64_t n = (a - anchors) / 4;
  for (int64_t i = 0; i < n; i++)
    for (int j = 0; j < 4; j++) vars[i * 4 + j] = p->variances[j];
}

/* ---- box_coder ---- */

/* Width, height and center of box b; +1 on the extents unless normalized. */
static void box_center(const float *b, int normalized, float *w, float *h, float *cx, float *cy) {
  *w = b[2] - b[0] + (float)!normalized;
  *h = b[3] - b[1] + (float)!normalized;
  *cx = b[0] + *w / 2;
  *cy = b[1] + *h / 2;
}

void rt_box_coder(const RtBoxCoder *p, const float *prior, const float *prior_var, const float *target, float *out) {
  const float one = (float)!p->normalized;
  for (int64_t i = 0; i < p->row; i++)
    for (int64_t j = 0; j < p->col; j++) {
      float *o = out + (i * p->col + j) * 4;
      float pw, ph, pcx, pcy;
      if (!p->decode) {
        const float *t = target + i * 4;
        box_center(prior + j * 4, p->normalized, &pw, &ph, &pcx, &pcy);
        const float tcx = (t[2] + t[0]) / 2, tcy = (t[3] + t[1]) / 2;
        const float tw = t[2] - t[0] + one, th = t[3] - t[1] + one;
        o[0] = (tcx - pcx) / pw;
        o[1] = (tcy - pcy) / ph;
        o[2] = logf(fabsf(tw / pw));
        o[3] = logf(fabsf(th / ph));
        for (int k = 0; k < 4; k++) {
          if (prior_var) o[k] /= prior_var[j * 4 + k];
          else if (p->var4) o[k] /= p->var4[k];
        }
      } else {
        const int64_t at = p->axis == 0 ? j : i;
        const float *t = target + (i * p->col + j) * 4, ones[4] = {1, 1, 1, 1};
        const float *v = prior_var ? prior_var + at * 4 : p->var4 ? p->var4 : ones;
        box_center(prior + at * 4, p->normalized, &pw, &ph, &pcx, &pcy);
        const float tcx = v[0] * t[0] * pw + pcx, tcy = v[1] * t[1] * ph + pcy;
        const float tw = expf(v[2] * t[2]) * pw, th = expf(v[3] * t[3]) * ph;
        o[0] = tcx - tw / 2;
        o[1] = tcy - th / 2;
        o[2] = tcx + tw / 2 - one;
        o[3] = tcy + th / 2 - one;
      }
    }
}

/* ---- yolo_box ---- */

/* funcs::sigmoid<float>: exp in float, the rest in double. */
static float yolo_sigmoid(float x) { return (float)(1.0 / (1.0 + expf(-x))); }

/* funcs::GetEntryIndex */
static int yolo_entry(const RtYoloBox *p, int batch, int an_idx, int hw_idx, int entry) {
  const int stride = p->h * p->w, an_stride = (p->class_num + 5) * stride;
  if (p->iou_aware)
    return (batch * p->an_num + an_idx) * an_stride + (batch * p->an_num + p->an_num + entry) * stride + hw_idx;
  return (batch * p->an_num + an_idx) * an_stride + entry * stride + hw_idx;
}

void rt_yolo_box(const RtYoloBox *p, int64_t n, const float *x, const int32_t *img_size, float *boxes, float *scores) {
  const int stride = p->h * p->w, an_stride = (p->class_num + 5) * stride, box_num = p->an_num * stride;
  const int input_h = p->downsample_ratio * p->h, input_w = p->downsample_ratio * p->w;
  const float scale = p->scale_x_y, bias = -0.5f * (scale - 1.f);
  for (int64_t i = 0; i < n * box_num * 4; i++) boxes[i] = 0;
  for (int64_t i = 0; i < n * box_num * p->class_num; i++) scores[i] = 0;
  for (int i = 0; i < (int)n; i++) {
    const int img_h = img_size[2 * i], img_w = img_size[2 * i + 1];
    for (int j = 0; j < p->an_num; j++)
      for (int k = 0; k < p->h; k++)
        for (int l = 0; l < p->w; l++) {
          const int hw = k * p->w + l;
          float conf = yolo_sigmoid(x[yolo_entry(p, i, j, hw, 4)]);
          if (p->iou_aware) { /* funcs::GetIoUIndex */
            const float iou = yolo_sigmoid(x[i * p->an_num * an_stride + (i * p->an_num + j) * stride + hw]);
            conf = powf(conf, (float)(1. - p->iou_aware_factor)) * powf(iou, (float)p->iou_aware_factor);
          }
          if (conf < p->conf_thresh) continue;
          const int bi = yolo_entry(p, i, j, hw, 0);
          /* funcs::GetYoloBox */
          const float bx = ((float)l + yolo_sigmoid(x[bi]) * scale + bias) * (float)img_w / (float)p->w;
          const float by = ((float)k + yolo_sigmoid(x[bi + stride]) * scale + bias) * (float)img_h / (float)p->h;
          const float bw = expf(x[bi + 2 * stride]) * (float)p->anchors[2 * j] * (float)img_w / (float)input_w;
          const float bh = expf(x[bi + 3 * stride]) * (float)p->anchors[2 * j + 1] * (float)img_h / (float)input_h;
          /* funcs::CalcDetectionBox */
          float *b = boxes + ((int64_t)i * box_num + j * stride + hw) * 4;
          b[0] = bx - bw / 2;
          b[1] = by - bh / 2;
          b[2] = bx + bw / 2;
          b[3] = by + bh / 2;
          if (p->clip_bbox) {
            b[0] = b[0] > 0 ? b[0] : 0.0f;
            b[1] = b[1] > 0 ? b[1] : 0.0f;
            b[2] = b[2] < (float)(img_w - 1) ? b[2] : (float)(img_w - 1);
            b[3] = b[3] < (float)(img_h - 1) ? b[3] : (float)(img_h - 1);
          }
          /* funcs::CalcLabelScore */
          const int label = yolo_entry(p, i, j, hw, 5);
          float *s = scores + ((int64_t)i * box_num + j * stride + hw) * p->class_num;
          for (int c = 0; c < p->class_num; c++) s[c] = conf * yolo_sigmoid(x[label + c * stride]);
        }
  }
}

/* ---- iou_similarity ---- */

void rt_iou_similarity(const float *x, int64_t nx, const float *y, int64_t ny, int normalized, float *out) {
  const float one = (float)!normalized;
  for (int64_t i = 0; i < nx; i++)
    for (int64_t j = 0; j < ny; j++) {
      const float *a = x + i * 4, *b = y + j * 4;
      const float area1 = (a[3] - a[1] + one) * (a[2] - a[0] + one);
      const float area2 = (b[3] - b[1] + one) * (b[2] - b[0] + one);
      const float ixmax = a[2] > b[2] ? b[2] : a[2], iymax = a[3] > b[3] ? b[3] : a[3];
      const float ixmin = a[0] > b[0] ? a[0] : b[0], iymin = a[1] > b[1] ? a[1] : b[1];
      float ih = iymax - iymin + one, iw = ixmax - ixmin + one;
      ih = ih > 0 ? ih : 0.0f;
      iw = iw > 0 ? iw : 0.0f;
      const float inter = iw * ih;
      out[i * ny + j] = inter / (area1 + area2 - inter + 1e-10f);
    }
}
