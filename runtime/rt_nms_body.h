/* The body of rt_nms.c's kernels for one element type, included once per
 * type by rt_nms.c, which defines NMS_T (Paddle's T: float, double),
 * NMS_NAME(n) (n's name for that type), NMS_PAIR and NMS_PARTIAL_SORT (the
 * rt_sort.h pair and std::partial_sort of T) and NMS_EXP (std::exp of T).  The arithmetic is the phi
 * kernel's, in T, with std::max(a, b) as a < b ? b : a and std::min(a, b)
 * as b < a ? b : a (the same results with NaN). */

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

/* The best keep_top_k of an image's kept boxes (kept: p->boxes slots per
 * class, count[c] used) by score as float, stable over class then
 * selection order, left in kept and count class by class in that order;
 * box b of class c scores sc[c * cstride + b * bstride].  Returns
 * keep_top_k. */
static int64_t NMS_NAME(keep_best)(const RtNms *p, const NMS_T *sc, int64_t cstride, int64_t bstride, int64_t *count,
                                   int32_t *kept, NmsItem *items, NmsItem *tmp) {
  const int64_t cn = p->classes, bn = p->boxes;
  int64_t n = 0;
  for (int64_t c = 0; c < cn; c++)
    for (int64_t j = 0; j < count[c]; j++) {
      const int32_t b = kept[c * bn + j];
      items[n++] = (NmsItem){(double)(float)sc[c * cstride + b * bstride], (int32_t)c, b};
    }
  sort_items(items, tmp, n);
  for (int64_t c = 0; c < cn; c++) count[c] = 0;
  for (int64_t k = 0; k < p->keep_top_k; k++) {
    const int64_t c = items[k].label;
    kept[c * bn + count[c]++] = items[k].box;
  }
  return p->keep_top_k;
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
    if (p->keep_top_k > -1 && ndet > p->keep_top_k) ndet = NMS_NAME(keep_best)(p, sc, bn, 1, count, kept, items, tmp);
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

/* Sorts the n box numbers a[] ascending (std::stable_sort of ints). */
static void NMS_NAME(sort_boxes)(int32_t *a, int64_t n) {
  for (int64_t i = 1; i < n; i++) {
    const int32_t v = a[i];
    int64_t j = i;
    for (; j > 0 && a[j - 1] > v; j--) a[j] = a[j - 1];
    a[j] = v;
  }
}

int64_t NMS_NAME(rt_multiclass_nms_rois)(const RtNms *p, const NMS_T *bboxes, const NMS_T *scores,
                                         const int32_t *rois_in, NMS_T *out, int32_t *index, int32_t *rois_num,
                                         void *work) {
  const int64_t cn = p->classes, bn = p->boxes;
  int64_t total = 0;
  for (int64_t i = 0; i < p->n; i++) {
    if (rois_in[i] < 0) return -1;
    total += rois_in[i];
  }
  if (total != bn || bn * cn > INT32_MAX) return -1;
  int64_t *count = work;
  NmsItem *items = (NmsItem *)(count + cn), *tmp = items + cn * bn;
  /* one class's scores and boxes of an image, then the kept boxes (T before int32: aligned) */
  NMS_T *sc = (NMS_T *)(void *)(tmp + cn * bn), *bx = sc + bn;
  int32_t *kept = (int32_t *)(void *)(bx + 4 * bn);
  int64_t rows = 0, start = 0;
  for (int64_t i = 0; i < p->n; start += rois_in[i], i++) {
    const int64_t nb = rois_in[i];
    const NMS_T *isc = scores + start * cn, *ibx = bboxes + start * cn * 4;
    RtNms q = *p;
    q.boxes = nb;
    int64_t ndet = 0;
    for (int64_t c = 0; c < cn; c++) {
      count[c] = 0;
      if (c == p->background_label || nb == 0) continue;
      for (int64_t b = 0; b < nb; b++) { /* SliceOneClass */
        sc[b] = isc[b * cn + c];
        for (int k = 0; k < 4; k++) bx[b * 4 + k] = ibx[(b * cn + c) * 4 + k];
      }
      count[c] = NMS_NAME(nms_class)(&q, bx, sc, items, tmp, kept + c * bn);
      NMS_NAME(sort_boxes)(kept + c * bn, count[c]);
      ndet += count[c];
    }
    if (p->keep_top_k > -1 && ndet > p->keep_top_k) {
      ndet = NMS_NAME(keep_best)(p, isc, 1, cn, count, kept, items, tmp);
      for (int64_t c = 0; c < cn; c++) NMS_NAME(sort_boxes)(kept + c * bn, count[c]);
    }
    for (int64_t c = 0; c < cn; c++) /* label by label, boxes ascending */
      for (int64_t j = 0; j < count[c]; j++, rows++) {
        const int64_t b = kept[c * bn + j];
        NMS_T *row = out + rows * 6;
        row[0] = (NMS_T)c;
        row[1] = isc[b * cn + c];
        for (int k = 0; k < 4; k++) row[2 + k] = ibx[(b * cn + c) * 4 + k];
        index[rows] = (int32_t)((start + b) * cn + c);
      }
    rois_num[i] = (int32_t)ndet;
  }
  return rows;
}

/* NMSMatrix for the scores sc of one class of one image: its kept boxes and
 * their decayed scores appended to box[] and score[]; returns how many.
 * cand holds p->boxes pairs; iou the triangle of IoUs between the first
 * nms_top_k candidates (row i, column j < i at i * (i - 1) / 2 + j) and
 * iou_max each candidate's largest IoU with a better one. */
static int64_t NMS_NAME(matrix_class)(const RtMatrixNms *p, const NMS_T *bx, const NMS_T *sc, NMS_PAIR *cand,
                                      NMS_T *iou, NMS_T *iou_max, int32_t *box, NMS_T *score) {
  const NMS_T threshold = (NMS_T)p->score_threshold, post = (NMS_T)p->post_threshold;
  int64_t n = 0, kept = 0;
  for (int64_t b = 0; b < p->boxes; b++) /* std::remove_if of the scores <= threshold */
    if (!(sc[b] <= threshold)) cand[n++] = (NMS_PAIR){sc[b], b};
  if (n <= 0) return 0;
  const int64_t pre = p->nms_top_k > -1 && n > p->nms_top_k ? p->nms_top_k : n;
  NMS_PARTIAL_SORT(cand, pre, n, RT_SORT_GT);
  iou_max[0] = 0.;
  for (int64_t i = 1; i < pre; i++) {
    NMS_T max_iou = 0.;
    for (int64_t j = 0; j < i; j++) {
      const NMS_T v = NMS_NAME(overlap)(bx + cand[i].i * 4, bx + cand[j].i * 4, p->normalized);
      max_iou = max_iou < v ? v : max_iou;
      iou[i * (i - 1) / 2 + j] = v;
    }
    iou_max[i] = max_iou;
  }
  if (sc[cand[0].i] > post) box[kept] = (int32_t)cand[0].i, score[kept++] = sc[cand[0].i];
  for (int64_t i = 1; i < pre; i++) {
    NMS_T min_decay = 1.;
    for (int64_t j = 0; j < i; j++) {
      const NMS_T m = iou_max[j], v = iou[i * (i - 1) / 2 + j];
      const NMS_T decay = p->use_gaussian ? NMS_EXP((m * m - v * v) * p->gaussian_sigma)
                                          : (NMS_T)((1. - v) / (1. - m)); /* in double, as Paddle's 1. makes it */
      min_decay = decay < min_decay ? decay : min_decay;
    }
    const NMS_T ds = min_decay * sc[cand[i].i];
    if (ds <= post) continue;
    box[kept] = (int32_t)cand[i].i, score[kept++] = ds;
  }
  return kept;
}

int64_t NMS_NAME(rt_matrix_nms)(const RtMatrixNms *p, const NMS_T *bboxes, const NMS_T *scores, NMS_T *out,
                                int32_t *index, int32_t *rois_num, void *work) {
  const int64_t cn = p->classes, bn = p->boxes;
  const int64_t pre = p->nms_top_k > -1 && p->nms_top_k < bn ? p->nms_top_k : bn;
  const int64_t dets = (cn - (p->background_label >= 0 && p->background_label < cn)) * pre;
  NMS_PAIR *cand = work, *order = cand + bn;
  NMS_T *iou = (NMS_T *)(order + dets), *iou_max = iou + pre * (pre - 1) / 2, *score = iou_max + pre;
  int32_t *box = (int32_t *)(void *)(score + dets), *label = box + dets;
  int64_t rows = 0;
  for (int64_t i = 0; i < p->n; i++) {
    const NMS_T *sc = scores + i * cn * bn, *bx = bboxes + i * bn * 4;
    int64_t ndet = 0;
    for (int64_t c = 0; c < cn; c++) {
      if (c == p->background_label) continue;
      const int64_t k = NMS_NAME(matrix_class)(p, bx, sc + c * bn, cand, iou, iou_max, box + ndet, score + ndet);
      for (int64_t j = 0; j < k; j++) label[ndet + j] = (int32_t)c;
      ndet += k;
    }
    const int64_t keep = p->keep_top_k > -1 && ndet > p->keep_top_k ? p->keep_top_k : ndet;
    for (int64_t j = 0; j < ndet; j++) order[j] = (NMS_PAIR){score[j], j};
    NMS_PARTIAL_SORT(order, keep, ndet, RT_SORT_GT);
    for (int64_t j = 0; j < keep; j++, rows++) {
      const int64_t d = order[j].i;
      NMS_T *row = out + rows * 6;
      row[0] = (NMS_T)label[d];
      row[1] = score[d];
      for (int k = 0; k < 4; k++) row[2 + k] = bx[(int64_t)box[d] * 4 + k];
      index[rows] = (int32_t)(i * bn + box[d]);
    }
    if (rois_num) rois_num[i] = (int32_t)keep;
  }
  return rows;
}
