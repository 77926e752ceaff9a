/* The C printer of RoI pooling kernels (roi_call.h). */
#include "roi_call.h"

#include "../util.h"

void roi_print_c(Printer *p, const RoiCall *c) {
  pr_line(p, "const RtRoi geo = {.n = %s, .channels = %lld, .height = %s, .width = %s, .rois = %s,", c->n,
          (long long)c->channels, c->height, c->width, c->rois);
  const char *tail = c->kind == ROI_ALIGN ? pool_printf(", .sampling_ratio = %lld, .aligned = %lld};",
                                                       (long long)c->sampling_ratio, (long long)c->aligned)
                     : c->kind == ROI_PSROI ? pool_printf(", .output_channels = %lld};", (long long)c->output_channels)
                                            : "};";
  pr_line(p, "                   .pooled_height = %lld, .pooled_width = %lld, .spatial_scale = %s%s",
          (long long)c->pooled_height, (long long)c->pooled_width, c->spatial_scale, tail);
  pr_line(p, "int32_t *ids = %s; /* each RoI's image */", c->ids);
  pr_line(p, "if (rt_roi_images(&geo, %s, ids)) return 1;", c->num);
  switch (c->kind) {
    case ROI_ALIGN:
      pr_line(p, "if (rt_roi_align_%s(&geo, %s, %s, ids, %s, %s)) return 1;", c->suffix, c->x, c->boxes, c->out,
              c->acc);
      break;
    case ROI_POOL:
      pr_line(p, "rt_roi_pool_%s(&geo, %s, %s, ids, %s, %s);", c->suffix, c->x, c->boxes, c->out, c->argmax);
      break;
    case ROI_PSROI:
      pr_line(p, "rt_psroi_pool_%s(&geo, %s, %s, ids, %s);", c->suffix, c->x, c->boxes, c->out);
      break;
  }
}
