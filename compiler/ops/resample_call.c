/* The C printer of resampling calls (resample_call.h). */
#include "resample_call.h"

#include "../util.h"

static const char *const method_names[] = {"RT_INTERP_NEAREST", "RT_INTERP_BILINEAR", "RT_INTERP_BICUBIC"};

/* Output dim i of c's resize and its ratio, as C: the run's expressions when
 * it gives them, else the constants. */
static const char *out_dim(const ResampleCall *c, int i) {
  return c->run_out[i] ? c->run_out[i] : pool_printf("%lld", (long long)c->resize.out[i]);
}
static const char *ratio(const ResampleCall *c, int i) {
  return c->run_ratio[i] ? c->run_ratio[i] : em_float(c->resize.ratio[i]);
}

static const char *in_dim(const ResampleCall *c, int i) {
  return c->run_in[i] ? c->run_in[i] : pool_printf("%lld", (long long)c->resize.in[i]);
}

/* How the geometry is declared: a constant, or a local the run fills in. */
static const char *storage(const ResampleCall *c) { return c->run_out[0] ? "" : "static const "; }

/* The h and w of c's resize as an RtInterp2d named c->geo. */
static void print_interp2d(Printer *p, const ResampleCall *c) {
  const RtResize *r = &c->resize;
  pr_line(p, "%sRtInterp2d %s = {", storage(c), c->geo);
  pr_line(p, ".method = %s, .h_in = %s, .w_in = %s, .h_out = %s, .w_out = %s,", method_names[r->method],
          in_dim(c, 1), in_dim(c, 2), out_dim(c, 1), out_dim(c, 2));
  pr_line(p, ".ratio_h = %s, .ratio_w = %s, .align_corners = %d, .align_mode = %d,", ratio(c, 1), ratio(c, 2),
          r->align_corners, r->align_mode);
  pr_line(p, "};");
}

/* c's resize as an RtResize named c->geo. */
static void print_resize(Printer *p, const ResampleCall *c) {
  const RtResize *r = &c->resize;
  pr_line(p, "%sRtResize %s = {", storage(c), c->geo);
  pr_line(p, ".method = %s, .nsp = %d, .c = %lld, .channel_last = %d,", method_names[r->method], r->nsp,
          (long long)r->c, r->channel_last);
  pr_line(p, ".in = {%s, %s, %s}, .out = {%s, %s, %s},", in_dim(c, 0), in_dim(c, 1), in_dim(c, 2), out_dim(c, 0),
          out_dim(c, 1), out_dim(c, 2));
  pr_line(p, ".ratio = {%s, %s, %s},", ratio(c, 0), ratio(c, 1), ratio(c, 2));
  pr_line(p, ".align_corners = %d, .align_mode = %d,", r->align_corners, r->align_mode);
  if (r->float_coord) pr_line(p, ".float_coord = 1,");
  pr_line(p, "};");
}

/* c's RtGridSample named `name`: a constant, or a local of the sizes the
 * run gives. */
static void print_grid_sample(Printer *p, const char *name, const ResampleCall *c) {
  static const char *const pads[] = {"RT_GRID_ZEROS", "RT_GRID_BORDER", "RT_GRID_REFLECTION"};
  const RtGridSample *g = &c->sample;
  const char *in[3], *out[3];
  int run = 0;
  for (int i = 0; i < 3; i++) {
    in[i] = c->run_grid_in[i] ? c->run_grid_in[i] : pool_printf("%lld", (long long)g->in[i]);
    out[i] = c->run_grid_out[i] ? c->run_grid_out[i] : pool_printf("%lld", (long long)g->out[i]);
    run |= c->run_grid_in[i] || c->run_grid_out[i];
  }
  pr_line(p, "%s RtGridSample %s = {", run ? "const" : "static const", name);
  pr_line(p, ".nsp = %d, .nearest = %d, .padding = %s, .align_corners = %d, .c = %lld,", g->nsp, g->nearest,
          pads[g->padding], g->align_corners, (long long)g->c);
  pr_line(p, ".in = {%s, %s, %s}, .out = {%s, %s, %s},", in[0], in[1], in[2], out[0], out[1], out[2]);
  pr_line(p, "};");
}

void resample_print_c(Printer *p, const ResampleCall *c) {
  const char *t = c->int_suffix ? c->int_suffix : c->f64 ? "_f64" : "";
  if (c->kind == RESAMPLE_INTERP2D) print_interp2d(p, c);
  else if (c->kind == RESAMPLE_GRID || c->kind == RESAMPLE_GRID_GRAD) print_grid_sample(p, c->geo, c);
  else print_resize(p, c);
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

const char *resample_scaled_c(const char *in, const char *scale) {
  return pool_printf("rt_resize_scaled(%s, %s)", in, scale);
}

const char *resample_ratio_c(const char *in, const char *out, int align_corners, const char *scale) {
  return pool_printf("rt_resize_ratio(%s, %s, %d, %s)", in, out, align_corners, scale);
}
