/* generate_proposals_v2 and distribute_fpn_proposals (Paddle 2.6's CPU
 * kernels, phi generate_proposals_kernel.cc and
 * distribute_fpn_proposals_kernel.cc) for compiler/ops/generate_proposals.c:
 * RPN proposals from the anchors' scores and box deltas, per image, and
 * their spread over the levels of a feature pyramid. */
#ifndef PADDLEC_RT_PROPOSALS_H
#define PADDLEC_RT_PROPOSALS_H

#include <stdint.h>

typedef struct RtProposals {
  int64_t n, a, h, w;            /* images, anchors per cell, the feature map's height and width */
  int pre_nms_top_n;             /* candidates kept by score before NMS; <= 0 or >= a*h*w: all */
  int post_nms_top_n;            /* proposals kept after NMS; <= 0: all */
  float nms_thresh, min_size, eta;
  int pixel_offset;              /* 1: boxes in pixels, widths counting one more */
} RtProposals;

/* Bytes of the work buffer for m = a*h*w anchors per image and elements of
 * tsize bytes: m (score, position) pairs to sort, 2m NMS items, the
 * candidates' scores and boxes (5m elements) and two int32 lists. */
#define RT_PROPOSALS_WORK_BYTES(m, tsize) ((m) * (16 + 32 + 8) + (m) * 5 * (tsize))

/* The most proposals one image can give: the candidates (pre_nms_top_n or
 * all), at most post_nms_top_n when NMS runs (nms_thresh > 0), and one
 * (a zero box) when no candidate is left. */
static inline int64_t rt_proposals_per_image(int64_t m, int pre_nms_top_n, int post_nms_top_n, float nms_thresh) {
  int64_t k = pre_nms_top_n <= 0 || pre_nms_top_n >= m ? m : pre_nms_top_n;
  if (nms_thresh > 0 && post_nms_top_n > 0 && post_nms_top_n < k) k = post_nms_top_n;
  return k > 0 ? k : 1;
}

/* For each image i in order, with scores [n, a, h, w], deltas [n, 4a, h,
 * w], im_shape [n, 2] (height, width), anchors and variances [h, w, a, 4]
 * (xmin, ymin, xmax, ymax), the anchors taken in (h, w, a) order:
 *   1. the candidates: all anchors sorted by score, descending
 *      (std::sort), or the pre_nms_top_n best in std::nth_element's order
 *      (libstdc++'s steps: rt_sort.h);
 *   2. each decoded from its deltas and variances (BoxCoder: widths
 *      exp(min(v * d, log(1000 / 16))) times the anchor's), clipped to the
 *      image, and kept when at least max(min_size, 1) wide and high (and
 *      with pixel_offset, its center inside the image);
 *   3. none kept: one zero box of score 0; nms_thresh <= 0: the kept ones
 *      in order; else greedy NMS (phi::funcs::NMS: best score first, equal
 *      scores the later candidate first; IoU <= threshold to every box kept
 *      before, the threshold times eta after each kept box while above 0.5
 *      and eta < 1), the first post_nms_top_n.
 * rois [rows, 4] and probs [rows, 1] get the image's proposals after the
 * ones before, rois_num (NULL: none) each image's count.  Returns the rows
 * written.  The arithmetic is the kernel's in T; NaN scores sort as
 * rt_sort.h's RT_SORT_DESC puts them (first), where Paddle's comparator,
 * no strict weak order then, has no defined result. */
int64_t rt_generate_proposals_f32(const RtProposals *p, const float *scores, const float *deltas,
                                  const float *im_shape, const float *anchors, const float *variances, float *rois,
                                  float *probs, int32_t *rois_num, void *work);
int64_t rt_generate_proposals_f64(const RtProposals *p, const double *scores, const double *deltas,
                                  const double *im_shape, const double *anchors, const double *variances,
                                  double *rois, double *probs, int32_t *rois_num, void *work);

/* The most levels distribute_fpn_proposals spreads RoIs over. */
#define RT_FPN_MAX_LEVELS 16

/* distribute_fpn_proposals' attributes and sizes. */
typedef struct RtFpnLevels {
  int64_t n, rows;               /* images (RoisNum's elements), RoIs */
  int min_level, max_level;      /* the levels: max_level - min_level + 1 (<= RT_FPN_MAX_LEVELS) outputs */
  int refer_level, refer_scale;  /* a RoI of refer_scale pixels (square root of its area) goes to refer_level */
  int pixel_offset;              /* 1: widths and heights count one more */
} RtFpnLevels;

/* Each RoI of rois [rows, 4] (its image from the counts rois_num) goes to
 * level floor(log2(sqrt(area) /
 * refer_scale + 1e-6) + refer_level), clamped to [min_level, max_level] (in
 * T; a level no int holds, as from an infinite area, is min_level, as the
 * x86 conversion Paddle's build makes gives INT_MIN).  multi_rois[l] gets
 * level l's RoIs image by image, multi_num[l] (multi_num NULL: none) their
 * count per image, level_rows[l] how many; restore[r] is RoI r's row in
 * the levels' concatenation.  work: rows int32.  Returns 1 (nothing
 * written) when the counts are negative or do not add up to rows, else 0. */
int rt_distribute_fpn_proposals_f32(const RtFpnLevels *p, const float *rois, const int32_t *rois_num,
                                    float *const *multi_rois, int32_t *const *multi_num,
                                    int64_t *level_rows, int32_t *restore, int32_t *work);
int rt_distribute_fpn_proposals_f64(const RtFpnLevels *p, const double *rois, const int32_t *rois_num,
                                    double *const *multi_rois, int32_t *const *multi_num,
                                    int64_t *level_rows, int32_t *restore, int32_t *work);

/* collect_fpn_proposals: the RoIs of `levels` levels (each [rows[l], 4]
 * with scores [rows[l], 1] and its counts per image nums[l] [n]) merged:
 * every RoI with its image as Paddle's kernel assigns it (walking the
 * counts one step per RoI, so an image with no RoI hands its id to the
 * next one's first RoI), stably sorted by score, descending, with >= as
 * Paddle's comparator (libstdc++'s std::stable_sort step for step: the
 * order among equal scores is that algorithm's), the first post_nms_top_n
 * kept, stably sorted by image.  out [post, 4] gets their boxes, out_num
 * (NULL: none) [n] the images' counts as Paddle computes them, from the
 * changes of image along the sorted RoIs (an image left without RoIs after
 * the first makes Paddle's later counts shift and read past its list:
 * those paddlec writes as 0).  work: RT_FPN_COLLECT_WORK_BYTES.  Returns
 * the rows written (min(post_nms_top_n, all RoIs)), or -1 (nothing
 * written) when a level's counts are negative or do not add up to its
 * rows. */
typedef struct RtFpnCollect {
  int64_t n, levels;             /* images, levels */
  int64_t post_nms_top_n;        /* RoIs kept (>= 0) */
} RtFpnCollect;
#define RT_FPN_COLLECT_WORK_BYTES(rois) ((rois) * 48)
int64_t rt_collect_fpn_proposals_f32(const RtFpnCollect *p, const float *const *rois, const float *const *scores,
                                     const int64_t *rows, const int32_t *const *nums, float *out, int32_t *out_num,
                                     void *work);
int64_t rt_collect_fpn_proposals_f64(const RtFpnCollect *p, const double *const *rois,
                                     const double *const *scores, const int64_t *rows, const int32_t *const *nums,
                                     double *out, int32_t *out_num, void *work);

#endif
