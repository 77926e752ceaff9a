/* The body of rt_detection.c's kernels for one element type, included once
 * per type by rt_detection.c, which defines:
 *   DET_T          the element type (float, double): Paddle's T;
 *   DET_NAME(n)    the name of n for that type (n itself for float, n_f64
 *                  for double);
 *   DET_EXP, DET_LOG, DET_FABS, DET_POW
 *                  std::exp, std::log, std::fabs, pow of a T.
 * Each kernel is the named Paddle 2.6 CPU kernel's loop in its order and
 * types: T where the kernel uses T, float where it keeps a float (the
 * float attributes and what is computed from them alone), double where a
 * double literal promotes an expression.  Undefines the macros at its end. */

/* ---- prior boxes ---- */

/* The step between cell centers: the attributes, or the image size over the
 * feature map size when either is 0. */
static void DET_NAME(prior_steps)(const RtPriorGeo *g, DET_T *sw, DET_T *sh) {
  if ((DET_T)g->step_w == 0 || (DET_T)g->step_h == 0) {
    *sw = (DET_T)g->img_w / (DET_T)g->feat_w;
    *sh = (DET_T)g->img_h / (DET_T)g->feat_h;
  } else {
    *sw = (DET_T)g->step_w;
    *sh = (DET_T)g->step_h;
  }
}

/* Clamps the boxes to [0, 1] when clip is set (std::min<T>(std::max<T>(v,
 * 0.), 1.)) and writes the variances of every box. */
static void DET_NAME(prior_finish)(const RtPriorGeo *g, int64_t nbox, DET_T *boxes, DET_T *vars) {
  if (g->clip)
    for (int64_t i = 0; i < nbox * 4; i++) {
      const DET_T v = boxes[i] < 0 ? (DET_T)0 : boxes[i];
      boxes[i] = 1 < v ? (DET_T)1 : v;
    }
  for (int64_t i = 0; i < nbox; i++)
    for (int j = 0; j < g->nvar; j++) vars[i * g->nvar + j] = (DET_T)g->variances[j];
}

/* One prior_box box of half-extents (bw, bh) around (cx, cy), in image
 * fractions. */
static DET_T *DET_NAME(put_box)(DET_T *b, const RtPriorGeo *g, DET_T cx, DET_T cy, DET_T bw, DET_T bh) {
  b[0] = (cx - bw) / (DET_T)g->img_w;
  b[1] = (cy - bh) / (DET_T)g->img_h;
  b[2] = (cx + bw) / (DET_T)g->img_w;
  b[3] = (cy + bh) / (DET_T)g->img_h;
  return b + 4;
}

/* The box sizes come from the float attributes: min_size * sqrt(ar) and the
 * like are float products, halved in double (`/ 2.`) into a T. */
void DET_NAME(rt_prior_box)(const RtPriorBox *p, DET_T *boxes, DET_T *vars) {
  const RtPriorGeo *g = &p->geo;
  DET_T sw, sh;
  DET_NAME(prior_steps)(g, &sw, &sh);
  DET_T *b = boxes;
  for (int64_t h = 0; h < g->feat_h; h++)
    for (int64_t w = 0; w < g->feat_w; w++) {
      const DET_T cx = ((DET_T)w + (DET_T)g->offset) * sw, cy = ((DET_T)h + (DET_T)g->offset) * sh;
      for (int s = 0; s < p->nmin; s++) {
        const float min_size = p->min_sizes[s];
        if (p->min_max_order) {
          b = DET_NAME(put_box)(b, g, cx, cy, (DET_T)(min_size / 2.), (DET_T)(min_size / 2.));
          if (p->nmax) {
            const DET_T m = (DET_T)(sqrtf(min_size * p->max_sizes[s]) / 2.);
            b = DET_NAME(put_box)(b, g, cx, cy, m, m);
          }
          for (int r = 0; r < p->nar; r++) {
            const float ar = p->ars[r];
            if (fabs(ar - 1.) < 1e-6) continue;
            b = DET_NAME(put_box)(b, g, cx, cy, (DET_T)(min_size * sqrtf(ar) / 2.),
                                  (DET_T)(min_size / sqrtf(ar) / 2.));
          }
        } else {
          for (int r = 0; r < p->nar; r++) {
            const float ar = p->ars[r];
            b = DET_NAME(put_box)(b, g, cx, cy, (DET_T)(min_size * sqrtf(ar) / 2.),
                                  (DET_T)(min_size / sqrtf(ar) / 2.));
          }
          if (p->nmax) {
            const DET_T m = (DET_T)(sqrtf(min_size * p->max_sizes[s]) / 2.);
            b = DET_NAME(put_box)(b, g, cx, cy, m, m);
          }
        }
      }
    }
  DET_NAME(prior_finish)(g, (b - boxes) / 4, boxes, vars);
}

/* The density grid's centers and box sizes are floats in Paddle's kernel
 * for every T; the coordinates are doubles stored into a T. */
void DET_NAME(rt_density_prior_box)(const RtDensityPriorBox *p, DET_T *boxes, DET_T *vars) {
  const RtPriorGeo *g = &p->geo;
  DET_T sw, sh;
  DET_NAME(prior_steps)(g, &sw, &sh);
  const int step_average = (int)((sw + sh) * 0.5);
  DET_T *b = boxes;
  for (int64_t h = 0; h < g->feat_h; h++)
    for (int64_t w = 0; w < g->feat_w; w++) {
      const DET_T cx = ((DET_T)w + (DET_T)g->offset) * sw, cy = ((DET_T)h + (DET_T)g->offset) * sh;
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
              b[0] = (DET_T)fmax((x - bw / 2.) / (double)g->img_w, 0.);
              b[1] = (DET_T)fmax((y - bh / 2.) / (double)g->img_h, 0.);
              b[2] = (DET_T)fmin((x + bw / 2.) / (double)g->img_w, 1.);
              b[3] = (DET_T)fmin((y + bh / 2.) / (double)g->img_h, 1.);
            }
        }
      }
    }
  DET_NAME(prior_finish)(g, (b - boxes) / 4, boxes, vars);
}

void DET_NAME(rt_anchor_generator)(const RtAnchorGenerator *p, DET_T *anchors, DET_T *vars) {
  const DET_T sw = (DET_T)p->stride_w, sh = (DET_T)p->stride_h, offset = (DET_T)p->offset;
  DET_T *a = anchors;
  for (int64_t h = 0; h < p->feat_h; h++)
    for (int64_t w = 0; w < p->feat_w; w++) {
      const DET_T x_ctr = ((DET_T)w * sw) + offset * (sw - 1);
      const DET_T y_ctr = ((DET_T)h * sh) + offset * (sh - 1);
      for (int r = 0; r < p->nratios; r++) {
        const float ar = p->aspect_ratios[r];
        for (int s = 0; s < p->nsizes; s++, a += 4) {
          const DET_T area = sw * sh, area_ratios = area / (DET_T)ar;
          const DET_T base_w = (DET_T)round(sqrt(area_ratios)), base_h = (DET_T)round(base_w * (DET_T)ar);
          const DET_T scale_w = (DET_T)p->anchor_sizes[s] / sw, scale_h = (DET_T)p->anchor_sizes[s] / sh;
          const DET_T aw = scale_w * base_w, ah = scale_h * base_h;
          a[0] = (DET_T)(x_ctr - 0.5 * (aw - 1));
          a[1] = (DET_T)(y_ctr - 0.5 * (ah - 1));
          a[2] = (DET_T)(x_ctr + 0.5 * (aw - 1));
          a[3] = (DET_T)(y_ctr + 0.5 * (ah - 1));
        }
      }
    }
  const int64_t n = (a - anchors) / 4;
  for (int64_t i = 0; i < n; i++)
    for (int j = 0; j < 4; j++) vars[i * 4 + j] = (DET_T)p->variances[j];
}

/* ---- box_coder ---- */

/* Width, height and center of box b; +1 on the extents unless normalized. */
static void DET_NAME(box_center)(const DET_T *b, int normalized, DET_T *w, DET_T *h, DET_T *cx, DET_T *cy) {
  *w = b[2] - b[0] + (DET_T)!normalized;
  *h = b[3] - b[1] + (DET_T)!normalized;
  *cx = b[0] + *w / 2;
  *cy = b[1] + *h / 2;
}

/* The variance attribute is a float list, each entry cast to T. */
void DET_NAME(rt_box_coder)(const RtBoxCoder *p, const DET_T *prior, const DET_T *prior_var, const DET_T *target,
                            DET_T *out) {
  const DET_T one = (DET_T)!p->normalized;
  for (int64_t i = 0; i < p->row; i++)
    for (int64_t j = 0; j < p->col; j++) {
      DET_T *o = out + (i * p->col + j) * 4;
      DET_T pw, ph, pcx, pcy;
      if (!p->decode) {
        const DET_T *t = target + i * 4;
        DET_NAME(box_center)(prior + j * 4, p->normalized, &pw, &ph, &pcx, &pcy);
        const DET_T tcx = (t[2] + t[0]) / 2, tcy = (t[3] + t[1]) / 2;
        const DET_T tw = t[2] - t[0] + one, th = t[3] - t[1] + one;
        o[0] = (tcx - pcx) / pw;
        o[1] = (tcy - pcy) / ph;
        o[2] = DET_LOG(DET_FABS(tw / pw));
        o[3] = DET_LOG(DET_FABS(th / ph));
        for (int k = 0; k < 4; k++) {
          if (prior_var) o[k] /= prior_var[j * 4 + k];
          else if (p->var4) o[k] /= (DET_T)p->var4[k];
        }
      } else {
        const int64_t at = p->axis == 0 ? j : i;
        const DET_T *t = target + (i * p->col + j) * 4;
        DET_T v[4] = {1, 1, 1, 1};
        for (int k = 0; k < 4; k++)
          if (prior_var) v[k] = prior_var[at * 4 + k];
          else if (p->var4) v[k] = (DET_T)p->var4[k];
        DET_NAME(box_center)(prior + at * 4, p->normalized, &pw, &ph, &pcx, &pcy);
        const DET_T tcx = v[0] * t[0] * pw + pcx, tcy = v[1] * t[1] * ph + pcy;
        const DET_T tw = DET_EXP(v[2] * t[2]) * pw, th = DET_EXP(v[3] * t[3]) * ph;
        o[0] = tcx - tw / 2;
        o[1] = tcy - th / 2;
        o[2] = tcx + tw / 2 - one;
        o[3] = tcy + th / 2 - one;
      }
    }
}

/* ---- yolo_box ---- */

/* funcs::sigmoid<T>: 1.0 / (1.0 + std::exp(-x)), exp in T, the rest in
 * double. */
static DET_T DET_NAME(yolo_sigmoid)(DET_T x) { return (DET_T)(1.0 / (1.0 + DET_EXP(-x))); }

/* scale and bias stay floats (the kernel's locals); conf_thresh and
 * iou_aware_factor are float attributes. */
void DET_NAME(rt_yolo_box)(const RtYoloBox *p, int64_t n, const DET_T *x, const int32_t *img_size, DET_T *boxes,
                           DET_T *scores) {
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
          DET_T conf = DET_NAME(yolo_sigmoid)(x[yolo_entry(p, i, j, hw, 4)]);
          if (p->iou_aware) { /* funcs::GetIoUIndex */
            const DET_T iou = DET_NAME(yolo_sigmoid)(x[i * p->an_num * an_stride + (i * p->an_num + j) * stride + hw]);
            conf = DET_POW(conf, (DET_T)(1. - p->iou_aware_factor)) * DET_POW(iou, (DET_T)p->iou_aware_factor);
          }
          if (conf < p->conf_thresh) continue;
          const int bi = yolo_entry(p, i, j, hw, 0);
          /* funcs::GetYoloBox */
          const DET_T bx =
              ((DET_T)l + DET_NAME(yolo_sigmoid)(x[bi]) * scale + bias) * (DET_T)img_w / (DET_T)p->w;
          const DET_T by =
              ((DET_T)k + DET_NAME(yolo_sigmoid)(x[bi + stride]) * scale + bias) * (DET_T)img_h / (DET_T)p->h;
          const DET_T bw = DET_EXP(x[bi + 2 * stride]) * (DET_T)p->anchors[2 * j] * (DET_T)img_w / (DET_T)input_w;
          const DET_T bh =
              DET_EXP(x[bi + 3 * stride]) * (DET_T)p->anchors[2 * j + 1] * (DET_T)img_h / (DET_T)input_h;
          /* funcs::CalcDetectionBox */
          DET_T *b = boxes + ((int64_t)i * box_num + j * stride + hw) * 4;
          b[0] = bx - bw / 2;
          b[1] = by - bh / 2;
          b[2] = bx + bw / 2;
          b[3] = by + bh / 2;
          if (p->clip_bbox) {
            b[0] = b[0] > 0 ? b[0] : (DET_T)0;
            b[1] = b[1] > 0 ? b[1] : (DET_T)0;
            b[2] = b[2] < (DET_T)(img_w - 1) ? b[2] : (DET_T)(img_w - 1);
            b[3] = b[3] < (DET_T)(img_h - 1) ? b[3] : (DET_T)(img_h - 1);
          }
          /* funcs::CalcLabelScore */
          const int label = yolo_entry(p, i, j, hw, 5);
          DET_T *s = scores + ((int64_t)i * box_num + j * stride + hw) * p->class_num;
          for (int c = 0; c < p->class_num; c++) s[c] = conf * DET_NAME(yolo_sigmoid)(x[label + c * stride]);
        }
  }
}

/* ---- iou_similarity ---- */

void DET_NAME(rt_iou_similarity)(const DET_T *x, int64_t nx, const DET_T *y, int64_t ny, int normalized, DET_T *out) {
  const DET_T one = (DET_T)!normalized, eps = (DET_T)1e-10;
  for (int64_t i = 0; i < nx; i++)
    for (int64_t j = 0; j < ny; j++) {
      const DET_T *a = x + i * 4, *b = y + j * 4;
      const DET_T area1 = (a[3] - a[1] + one) * (a[2] - a[0] + one);
      const DET_T area2 = (b[3] - b[1] + one) * (b[2] - b[0] + one);
      const DET_T ixmax = a[2] > b[2] ? b[2] : a[2], iymax = a[3] > b[3] ? b[3] : a[3];
      const DET_T ixmin = a[0] > b[0] ? a[0] : b[0], iymin = a[1] > b[1] ? a[1] : b[1];
      DET_T ih = iymax - iymin + one, iw = ixmax - ixmin + one;
      ih = ih > 0 ? ih : (DET_T)0;
      iw = iw > 0 ? iw : (DET_T)0;
      const DET_T inter = iw * ih;
      out[i * ny + j] = inter / (area1 + area2 - inter + eps);
    }
}

#undef DET_T
#undef DET_NAME
#undef DET_EXP
#undef DET_LOG
#undef DET_FABS
#undef DET_POW
