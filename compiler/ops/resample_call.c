/* The C printer of resampling calls (resample_call.h). */
#include "resample_call.h"

void resample_print_c(Printer *p, const ResampleCall *c) {
  const char *t = c->int_suffix ? c->int_suffix : c->f64 ? "_f64" : "";
  switch (c->kind) {
    case RESAMPLE_INTERP2D:
      pr_line(p, "rt_interp2d%s(&%s, %s, %s, %s);", t, c->geo, c->batch, c->x, c->out);
      break;
    case RESAMPLE_RESIZE:
      pr_line(p, "rt_resize%s(&%s, %s, %s, %s);", t, c->geo, c->batch, c->x, c->out);
      break;
    case RESAMPLE_RESIZE_GRAD:
      pr_line(p, "rt_resize_grad%s(&%s, %s, %s, %s, %s);", t, c->geo, c->lo, c->hi, c->dout, c->dx);
      break;
    case RESAMPLE_GRID:
      pr_line(p, "rt_grid_sample%s(&%s, %s, %s, %s, %s);", t, c->geo, c->batch, c->x, c->grid, c->out);
      break;
    case RESAMPLE_GRID_GRAD:
      pr_line(p, "rt_grid_sample_grad%s(&%s, %s, %s, %s, %s, %s, %s);", t, c->geo, c->batch, c->x, c->grid, c->dout,
              c->dx ? c->dx : "NULL", c->dgrid ? c->dgrid : "NULL");
      break;
  }
}
