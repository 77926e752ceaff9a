/* The body of rt_nms.c's kernel for one element type, included once per
 * type by rt_nms.c, which defines NMS_T (Paddle's T: float, double) and
 * NMS_NAME(n) (n's name for that type).  The arithmetic is the phi
 * kernel's, in T, with std::max(a, b) as a < b ? b : a and std::min(a, b)
 * as b < a ? b : a (the same results with NaN).  Undefines the macros at
 * its end. */

/* BBoxArea: 0 for a box whose max is below its min. */
static NMS_T NMS_NAME(box_area)(const NMS_T *b, int normalized) {
  if (b[2] < b[0] || b[3] < b[1]) return (NMS_T)0.;
  const NMS_T w = b[2] - b[0], h = b[3] - b[1];
  return normalized ? w * h : (w + 1) * (h + 1);
}

/* JaccardOverlap(box1, box2): their IoU, 0 when they do not meet. */
static NMS_T NMS_NAME(overlap)(const NMS_T *b1, const NMS_T *b2, int normalized) {
  if (b2[0] > b1[2] || b2[2] < b1[0] || b2[1] > b1[3] || b2[3] < b1[1]) return (NMS_T)0.;
  const NMS_T xmin = b1[0] < b2[0] ? b2[0] : b1[0], ymin = b1[1] < b2[1] ? b2[1] : b1[1];
  const NMS_T xmax = b2[2] < b1[2] ? b2[2] : b1[2], ymax = b2[3] < b1[3] ? b2[3] : b1[3];
  const NMS_T norm = normalized ? (NMS_T)0. : (NMS_T)1.;
  const NMS_T w = xmax - xmin + norm, h = ymax - ymin + norm;
  const NMS_T inter = w * h;
  const NMS_T a1 = NMS_NAME(box_area)(b1, normalized), a2 = NMS_NAME(box_area)(b2, normalized);
  return inter / (a1 + a2 - inter);
}

/* NMSFast for class c of one image: its boxes kept, in selection order,
 * into kept; returns how many. */
static int64_t NMS_NAME(nms_class)(const RtNms *p, const NMS_T *bx, const NMS_T *sc, NmsItem *items, NmsItem *tmp,
                                   int32_t *kept) {
  const NMS_T threshold = (NMS_T)p->score_threshold, eta = (NMS_T)p->nms_eta;
  int64_t n = 0, nkept = 0;
  for (int64_t b = 0; b < p->boxes; b++)
    if (sc[b] > threshold) items[n++] = (NmsItem){(double)sc[b], 0, (int32_t)b};
  sort_items(items, tmp, n);
  if (p->nms_top_k > -1 && p->nms_top_k < n) n = p->nms_top_k;
  NMS_T adaptive = (NMS_T)p->nms_threshold;
  for (int64_t i = 0; i < n; i++) {
    const NMS_T *box = bx + (int64_t)items[i].box * 4;
    int keep = 1;
    for (int64_t j = 0; j < nkept && keep; j++)
      keep = NMS_NAME(overlap)(box, bx + (int64_t)kept[j] * 4, p->normalized) <= adaptive;
    if (!keep) continue;
    kept[nkept++] = items[i].box;
    if (eta < 1 && adaptive > 0.5) adaptive *= eta;
  }
  return nkept;
}

int64_t NMS_NAME(rt_multiclass_nms)(const RtNms *p, const NMS_T *bboxes, const NMS_T *scores, NMS_T *out,
                                    int32_t *index, int32_t *rois_num, void *work) {
  const int64_t cn = p->classes, bn = p->boxes;
  int64_t *count = work;
  NmsItem *items = (NmsItem *)(count + cn), *tmp = items + cn * bn;
  int32_t *kept = (int32_t *)(tmp + cn * bn);
  int64_t rows = 0;
  for (int64_t i = 0; i < p->n; i++) {
    const NMS_T *sc = scores + i * cn * bn, *bx = bboxes + i * bn * 4;
    int64_t ndet = 0;
    for (int64_t c = 0; c < cn; c++) {
      count[c] = c == p->background_label ? 0 : NMS_NAME(nms_class)(p, bx, sc + c * bn, items, tmp, kept + c * bn);
      ndet += count[c];
    }
    if (p->keep_top_k > -1 && ndet > p->keep_top_k) { /* the best keep_top_k, scores as float */
      int64_t n = 0;
      for (int64_t c = 0; c < cn; c++)
        for (int64_t j = 0; j < count[c]; j++) {
          const int32_t b = kept[c * bn + j];
          items[n++] = (NmsItem){(double)(float)sc[c * bn + b], (int32_t)c, b};
        }
      sort_items(items, tmp, n);
      for (int64_t c = 0; c < cn; c++) count[c] = 0;
      for (int64_t k = 0; k < p->keep_top_k; k++) {
        const int64_t c = items[k].label;
        kept[c * bn + count[c]++] = items[k].box;
      }
      ndet = p->keep_top_k;
    }
    for (int64_t c = 0; c < cn; c++) /* label by label, in selection order */
      for (int64_t j = 0; j < count[c]; j++, rows++) {
        const int32_t b = kept[c * bn + j];
        NMS_T *row = out + rows * 6;
        row[0] = (NMS_T)c;
        row[1] = sc[c * bn + b];
        for (int k = 0; k < 4; k++) row[2 + k] = bx[(int64_t)b * 4 + k];
        index[rows] = (int32_t)(i * bn + b);
      }
    rois_num[i] = (int32_t)ndet;
  }
  return rows;
}

#undef NMS_T
#undef NMS_NAME
