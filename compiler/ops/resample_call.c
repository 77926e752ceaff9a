/* The C printer of resampling calls (resample_call.h). */
#include "resample_call.h"

static const char *const method_names[] = {"RT_INTERP_NEAREST", "RT_INTERP_BILINEAR", "RT_INTERP_BICUBIC"};

/* The h and w of r as a constant RtInterp2d named `name`. */
static void print_interp2d(Printer *p, const char *name, const RtResize *r) {
  pr_line(p, "static const RtInterp2d %s = {", name);
  pr_line(p, ".method = %s, .h_in = %lld, .w_in = %lld, .h_out = %lld, .w_out = %lld,", method_names[r->method],
          (long long)r->in[1], (long long)r->in[2], (long long)r->out[1], (long long)r->out[2]);
  pr_line(p, ".ratio_h = %s, .ratio_w = %s, .align_corners = %d, .align_mode = %d,", em_float(r->ratio[1]),
          em_float(r->ratio[2]), r->align_corners, r->align_mode);
  pr_line(p, "};");
}

/* r as a constant RtResize named `name`. */
static void print_resize(Printer *p, const char *name, const RtResize *r) {
  pr_line(p, "static const RtResize %s = {", name);
  pr_line(p, ".method = %s, .nsp = %d, .c = %lld, .channel_last = %d,", method_names[r->method], r->nsp,
          (long long)r->c, r->channel_last);
  pr_line(p, ".in = {%lld, %lld, %lld}, .out = {%lld, %lld, %lld},", (long long)r->in[0], (long long)r->in[1],
          (long long)r->in[2], (long long)r->out[0], (long long)r->out[1], (long long)r->out[2]);
  pr_line(p, ".ratio = {%s, %s, %s},", em_float(r->ratio[0]), em_float(r->ratio[1]), em_float(r->ratio[2]));
  pr_line(p, ".align_corners = %d, .align_mode = %d,", r->align_corners, r->align_mode);
  if (r->float_coord) pr_line(p, ".float_coord = 1,");
  pr_line(p, "};");
}

/* g as a constant RtGridSample named `name`. */
static void print_grid_sample(Printer *p, const char *name, const RtGridSample *g) {
  static const char *const pads[] = {"RT_GRID_ZEROS", "RT_GRID_BORDER", "RT_GRID_REFLECTION"};
  pr_line(p, "static const RtGridSample %s = {", name);
  pr_line(p, ".nsp = %d, .nearest = %d, .padding = %s, .align_corners = %d, .c = %lld,", g->nsp, g->nearest,
          pads[g->padding], g->align_corners, (long long)g->c);
  pr_line(p, ".in = {%lld, %lld, %lld}, .out = {%lld, %lld, %lld},", (long long)g->in[0], (long long)g->in[1],
          (long long)g->in[2], (long long)g->out[0], (long long)g->out[1], (long long)g->out[2]);
  pr_line(p, "};");
}

void resample_print_c(Printer *p, const ResampleCall *c) {
  const char *t = c->int_suffix ? c->int_suffix : c->f64 ? "_f64" : "";
  if (c->kind == RESAMPLE_INTERP2D) print_interp2d(p, c->geo, &c->resize);
  else if (c->kind == RESAMPLE_GRID || c->kind == RESAMPLE_GRID_GRAD) print_grid_sample(p, c->geo, &c->sample);
  else print_resize(p, c->geo, &c->resize);
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
