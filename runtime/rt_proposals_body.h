/* The body of generate_proposals_v2 (rt_proposals.h) for one element type,
 * included by rt_nms.c after rt_nms_body.h, whose JaccardOverlap
 * (NMS_NAME(overlap)) and stable sort (sort_items) phi::funcs::NMS shares;
 * NMS_SORT and NMS_NTH_ELEMENT are rt_sort.h's std::sort and
 * std::nth_element of NMS_PAIR, NMS_SQRT, NMS_LOG2 and NMS_FLOOR std::sqrt,
 * std::log2 and std::floor of T.  Included last, it undefines all of
 * rt_nms.c's NMS_ macros at its end.  Each multiply and add is its own statement,
 * as the kernel's expressions in T, so that no compiler contracts them. */

/* BoxCoder, ClipTiledBoxes and FilterBoxes for one candidate: its box from
 * anchor a, deltas d (stride ds between coordinates) and variances v into
 * box[4]; 1 when it is kept.  im: the image's (height, width). */
static int NMS_NAME(proposal_box)(const RtProposals *p, const NMS_T *a, const NMS_T *d, int64_t ds, const NMS_T *v,
                                  const NMS_T *im, NMS_T *box) {
  const NMS_T off = p->pixel_offset ? (NMS_T)1.0 : (NMS_T)0, clip = (NMS_T)log(1000.0 / 16.0);
  const NMS_T aw = a[2] - a[0] + off, ah = a[3] - a[1] + off;
  const NMS_T acx = (NMS_T)(a[0] + 0.5 * aw), acy = (NMS_T)(a[1] + 0.5 * ah);
  NMS_T cx = v[0] * d[0], cy = v[1] * d[ds];
  cx = cx * aw, cy = cy * ah;
  cx = cx + acx, cy = cy + acy;
  NMS_T tw = v[2] * d[2 * ds], th = v[3] * d[3 * ds];
  tw = clip < tw ? clip : tw, th = clip < th ? clip : th; /* std::min<T> */
  const NMS_T bw = NMS_EXP(tw) * aw, bh = NMS_EXP(th) * ah;
  box[0] = cx - bw / 2;
  box[1] = cy - bh / 2;
  box[2] = cx + bw / 2 - off;
  box[3] = cy + bh / 2 - off;
  for (int k = 0; k < 4; k++) { /* std::max(std::min(b, limit - off), 0) */
    const NMS_T limit = (k % 2 == 0 ? im[1] : im[0]) - off, m = limit < box[k] ? limit : box[k];
    box[k] = m < 0 ? (NMS_T)0 : m;
  }
  const float min_size = p->min_size < 1.0f ? 1.0f : p->min_size;
  const NMS_T ws = box[2] - box[0] + off, hs = box[3] - box[1] + off;
  if (!p->pixel_offset) return ws >= min_size && hs >= min_size;
  const NMS_T xc = box[0] + ws / 2, yc = box[1] + hs / 2;
  return ws >= min_size && hs >= min_size && xc <= im[1] && yc <= im[0];
}

/* phi::funcs::NMS over the k boxes box[] with scores sc[]: the positions
 * kept, in selection order, into kept; returns how many. */
static int64_t NMS_NAME(proposal_nms)(const RtProposals *p, const NMS_T *box, const NMS_T *sc, int64_t k,
                                      NmsItem *items, NmsItem *tmp, int32_t *kept) {
  for (int64_t j = 0; j < k; j++) /* backwards: equal scores come out the later first */
    items[j] = (NmsItem){(double)sc[k - 1 - j], 0, (int32_t)(k - 1 - j)};
  sort_items(items, tmp, k);
  NMS_T threshold = (NMS_T)p->nms_thresh;
  int64_t nkept = 0;
  for (int64_t i = 0; i < k; i++) {
    const NMS_T *b = box + (int64_t)items[i].box * 4;
    int keep = 1;
    for (int64_t j = 0; j < nkept && keep; j++)
      keep = NMS_NAME(overlap)(b, box + (int64_t)kept[j] * 4, !p->pixel_offset) <= threshold;
    if (!keep) continue;
    kept[nkept++] = items[i].box;
    if (p->eta < 1 && threshold > 0.5) threshold *= p->eta;
  }
  return nkept;
}

int64_t NMS_NAME(rt_generate_proposals)(const RtProposals *p, const NMS_T *scores, const NMS_T *deltas,
                                        const NMS_T *im_shape, const NMS_T *anchors, const NMS_T *variances,
                                        NMS_T *rois, NMS_T *probs, int32_t *rois_num, void *work) {
  const int64_t an = p->a, hw = p->h * p->w, m = an * hw;
  NMS_PAIR *cand = work;
  NmsItem *items = (NmsItem *)(cand + m), *tmp = items + m;
  NMS_T *sc = (NMS_T *)(tmp + m), *box = sc + m;
  int32_t *keep = (int32_t *)(void *)(box + 4 * m), *kept = keep + m;
  int64_t rows = 0;
  for (int64_t i = 0; i < p->n; i++) {
    const NMS_T *s = scores + i * m, *d = deltas + i * 4 * m, *im = im_shape + i * 2;
    for (int64_t j = 0; j < m; j++) /* anchor j = (cell, anchor) of the [h, w, a] order */
      cand[j] = (NMS_PAIR){s[(j % an) * hw + j / an], j};
    int64_t k = m;
    if (p->pre_nms_top_n <= 0 || p->pre_nms_top_n >= m) {
      NMS_SORT(cand, m, RT_SORT_DESC);
    } else {
      NMS_NTH_ELEMENT(cand, p->pre_nms_top_n, m, RT_SORT_DESC);
      k = p->pre_nms_top_n;
    }
    int64_t nkeep = 0;
    for (int64_t j = 0; j < k; j++) {
      const int64_t c = cand[j].i, cell = c / an, a = c % an;
      sc[j] = cand[j].v;
      const NMS_T *dj = d + (4 * a) * hw + cell;
      if (NMS_NAME(proposal_box)(p, anchors + c * 4, dj, hw, variances + c * 4, im, box + j * 4))
        keep[nkeep++] = (int32_t)j;
    }
    int64_t count;
    if (nkeep == 0) { /* one zero box of score 0 */
      for (int c = 0; c < 4; c++) rois[rows * 4 + c] = 0;
      probs[rows] = 0;
      count = 1;
    } else {
      for (int64_t j = 0; j < nkeep; j++) { /* the kept candidates, packed */
        for (int c = 0; c < 4; c++) box[j * 4 + c] = box[(int64_t)keep[j] * 4 + c];
        sc[j] = sc[keep[j]];
      }
      count = nkeep;
      if (p->nms_thresh > 0) {
        count = NMS_NAME(proposal_nms)(p, box, sc, nkeep, items, tmp, kept);
        if (p->post_nms_top_n > 0 && p->post_nms_top_n < count) count = p->post_nms_top_n;
      }
      for (int64_t j = 0; j < count; j++) {
        const int64_t b = p->nms_thresh > 0 ? kept[j] : j;
        for (int c = 0; c < 4; c++) rois[(rows + j) * 4 + c] = box[b * 4 + c];
        probs[rows + j] = sc[b];
      }
    }
    rows += count;
    if (rois_num) rois_num[i] = (int32_t)count;
  }
  return rows;
}

/* BBoxArea of distribute_fpn_proposals_functor.h. */
static NMS_T NMS_NAME(fpn_area)(const NMS_T *b, int pixel_offset) {
  if (b[2] < b[0] || b[3] < b[1]) return (NMS_T)0.;
  const NMS_T w = b[2] - b[0], h = b[3] - b[1];
  return pixel_offset ? (w + 1) * (h + 1) : w * h;
}

int NMS_NAME(rt_distribute_fpn_proposals)(const RtFpnLevels *p, const NMS_T *rois, const int32_t *rois_num,
                                          NMS_T *const *multi_rois,
                                          int32_t *const *multi_num, int64_t *level_rows, int32_t *restore,
                                          int32_t *work) {
  const int levels = p->max_level - p->min_level + 1;
  int64_t total = 0;
  for (int64_t i = 0; i < p->n; i++) {
    const int64_t c = rois_num[i];
    if (c < 0 || c > p->rows - total) return 1;
    total += c;
  }
  if (total != p->rows) return 1;
  for (int l = 0; l < levels; l++) level_rows[l] = 0;
  for (int64_t r = 0; r < p->rows; r++) { /* each RoI's level, and the RoIs per level */
    const NMS_T scale = NMS_SQRT(NMS_NAME(fpn_area)(rois + r * 4, p->pixel_offset));
    NMS_T t = scale / (NMS_T)p->refer_scale;
    t = t + (NMS_T)1e-6;
    const NMS_T f = NMS_FLOOR(NMS_LOG2(t) + (NMS_T)p->refer_level);
    int lvl = f >= -2147483648.0 && f < 2147483648.0 ? (int)f : INT32_MIN;
    lvl = lvl < p->min_level ? p->min_level : lvl > p->max_level ? p->max_level : lvl;
    work[r] = lvl - p->min_level;
    level_rows[work[r]]++;
  }
  int64_t start[RT_FPN_MAX_LEVELS + 1];
  start[0] = 0;
  for (int l = 0; l < levels; l++) start[l + 1] = start[l] + level_rows[l], level_rows[l] = 0;
  int64_t r = 0;
  for (int64_t i = 0; i < p->n; i++) { /* image by image, each level's RoIs in order */
    const int64_t c = rois_num[i];
    if (multi_num)
      for (int l = 0; l < levels; l++) multi_num[l][i] = 0;
    for (int64_t j = 0; j < c; j++, r++) {
      const int l = work[r];
      for (int k = 0; k < 4; k++) multi_rois[l][level_rows[l] * 4 + k] = rois[r * 4 + k];
      restore[r] = (int32_t)(start[l] + level_rows[l]++);
      if (multi_num) multi_num[l][i]++;
    }
  }
  return 0;
}

int64_t NMS_NAME(rt_collect_fpn_proposals)(const RtFpnCollect *p, const NMS_T *const *rois,
                                           const NMS_T *const *scores, const int64_t *rows,
                                           const int32_t *const *nums, NMS_T *out, int32_t *out_num, void *work) {
  int64_t total = 0;
  for (int64_t l = 0; l < p->levels; l++) {
    int64_t sum = 0;
    for (int64_t i = 0; i < p->n; i++) {
      if (nums[l][i] < 0) return -1;
      sum += nums[l][i];
    }
    if (sum != rows[l]) return -1;
    total += sum;
  }
  FpnItem *items = work, *buf = items + total;
  int64_t k = 0;
  for (int64_t l = 0; l < p->levels; l++) {
    int32_t batch = 0;
    int64_t pre = 0;
    for (int64_t j = 0; j < rows[l]; j++, k++) {
      if (j >= pre + nums[l][batch]) pre += nums[l][batch], batch++; /* one step per RoI, as Paddle's */
      items[k] = (FpnItem){(double)scores[l][j], batch, (int32_t)j, (int32_t)l};
    }
  }
  const int64_t post = p->post_nms_top_n < total ? p->post_nms_top_n : total;
  if (total > 0) fpn_stable_sort(items, items + total, buf, fpn_by_score);
  if (post > 0) fpn_stable_sort(items, items + post, buf, fpn_by_batch);
  int32_t cur = 0;
  int64_t start = 0, counted = 0;
  for (int64_t i = 0; i < post; i++) {
    for (int c = 0; c < 4; c++) out[i * 4 + c] = rois[items[i].level][(int64_t)items[i].index * 4 + c];
    if (items[i].batch_id != cur) { /* num_per_batch's entries */
      cur = items[i].batch_id;
      if (out_num && counted < p->n) out_num[counted] = (int32_t)(i - start);
      counted++, start = i;
    }
  }
  if (out_num) {
    if (counted < p->n) out_num[counted] = (int32_t)(post - start);
    for (int64_t i = counted + 1; i < p->n; i++) out_num[i] = 0;
  }
  return post;
}

#undef NMS_T
#undef NMS_NAME
#undef NMS_PAIR
#undef NMS_PARTIAL_SORT
#undef NMS_SORT
#undef NMS_NTH_ELEMENT
#undef NMS_EXP
#undef NMS_SQRT
#undef NMS_LOG2
#undef NMS_FLOOR
