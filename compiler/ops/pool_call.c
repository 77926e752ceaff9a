/* The C printer of pooling calls (pool_call.h). */
#include "pool_call.h"

#include "../util.h"

static const char *pool_type(RtPoolType t) { return t == RT_POOL_MAX ? "RT_POOL_MAX" : "RT_POOL_AVG"; }

/* The geometry of c as a constant RtPool2d named geo (with run_sizes a
 * local whose sizes, and with k_in window, are the kernel's locals). */
static void print_pool2d(Printer *p, const PoolCall *c) {
  const RtPool2d *g = &c->geo2;
  if (c->run_sizes) {
    pr_line(p, "const RtPool2d geo = {");
    pr_line(p, ".type = %s, .c = %lld, .h_in = h_in, .w_in = w_in, .h_out = h_out, .w_out = w_out,",
            pool_type(g->type), (long long)g->c);
  } else {
    pr_line(p, "static const RtPool2d geo = {");
    pr_line(p, ".type = %s, .c = %lld, .h_in = %lld, .w_in = %lld, .h_out = %lld, .w_out = %lld,",
            pool_type(g->type), (long long)g->c, (long long)g->h_in, (long long)g->w_in, (long long)g->h_out,
            (long long)g->w_out);
  }
  const char *k_h = c->k_in ? "h_in" : pool_printf("%lld", (long long)g->k_h);
  const char *k_w = c->k_in ? "w_in" : pool_printf("%lld", (long long)g->k_w);
  pr_line(p, "%s", conv_window_fields(k_h, k_w, g->stride_h, g->stride_w, g->pad_t, g->pad_l, c->run_pads));
  pr_line(p, ".exclusive = %d, .adaptive = %d, .channel_last = %d,", g->exclusive, g->adaptive, g->channel_last);
  pr_line(p, "};");
}

/* The geometry of c as a constant RtPool3d named geo (with run_sizes a
 * local whose sizes, with k_in window and with run_pads padding, are the
 * kernel's locals). */
static void print_pool3d(Printer *p, const PoolCall *c) {
  const RtPool3d *g = &c->geo3;
  pr_line(p, "%sconst RtPool3d geo = {", c->run_sizes ? "" : "static ");
  pr_line(p, ".type = %s, .c = %lld,", pool_type(g->type), (long long)g->c);
  static const char *const names[] = {"in", "out", "k", "stride", "pad"};
  const int64_t *vals[] = {g->in, g->out, g->k, g->stride, g->pad};
  const int local[] = {c->run_sizes, c->run_sizes, c->k_in, 0, c->run_pads};
  for (int i = 0; i < 5; i++)
    if (i == 4 && local[i]) /* SAME over the run's sizes (conv_print_same_pads) */
      pr_line(p, ".pad = {pad_f, pad_t, pad_l},");
    else if (local[i]) /* run_hw_print's locals, the window the input's (global pooling) */
      pr_line(p, ".%s = {d_%s, h_%s, w_%s},", names[i], i == 1 ? "out" : "in", i == 1 ? "out" : "in",
              i == 1 ? "out" : "in");
    else
      pr_line(p, ".%s = {%lld, %lld, %lld},", names[i], (long long)vals[i][0], (long long)vals[i][1],
              (long long)vals[i][2]);
  pr_line(p, ".exclusive = %d, .adaptive = %d, .channel_last = %d,", g->exclusive, g->adaptive, g->channel_last);
  pr_line(p, "};");
}

/* max_pool3d_with_index_grad: dx zeroed, then each dout element added at
 * its mask index in its (n, c) volume, in order (an index outside adds
 * nothing). */
static void print_index_grad3d(Printer *p, const PoolCall *c) {
  pr_line(p, "const int32_t *mask = %s;", c->mask);
  pr_line(p, "const %s *dout = %s;", c->type, c->dout);
  pr_line(p, "%s *dx = %s;", c->type, c->dx);
  pr_line(p, "const int64_t planes = %s, in_size = %s, out_size = %s;", c->planes, c->in_size, c->out_size);
  pr_line(p, "for (int64_t q = 0; q < planes * in_size; q++) dx[q] = 0;");
  pr_line(p, "for (int64_t p = 0; p < planes; p++) {");
  pr_line(p, "for (int64_t o = 0; o < out_size; o++) {");
  pr_line(p, "const int64_t at = mask[p * out_size + o];");
  pr_line(p, "if (at >= 0 && at < in_size) dx[p * in_size + at] += dout[p * out_size + o];");
  pr_close(p, 2);
}

void pool_print_c(Printer *p, const PoolCall *c) {
  const char *d = c->dims == 3 ? "3d" : "2d", *t = c->f64 ? "_f64" : "";
  if (c->kind == POOL_INDEX_GRAD) {
    if (c->dims == 3) {
      print_index_grad3d(p, c);
      return;
    }
    const RtPool2d *g = &c->geo2;
    if (c->run_sizes) /* the kernel's locals (run_hw_print_known) */
      pr_line(p, "const RtPool2d geo = {.type = RT_POOL_MAX, .c = %lld, .h_in = h_in, .w_in = w_in, .h_out = h_out, "
              ".w_out = w_out};", (long long)g->c);
    else
      pr_line(p, "static const RtPool2d geo = {.type = RT_POOL_MAX, .c = %lld, .h_in = %lld, .w_in = %lld, .h_out = "
              "%lld, .w_out = %lld};", (long long)g->c, (long long)g->h_in, (long long)g->w_in, (long long)g->h_out,
              (long long)g->w_out);
  } else if (c->dims == 3) {
    print_pool3d(p, c);
  } else {
    print_pool2d(p, c);
  }
  switch (c->kind) {
    case POOL_FORWARD:
      pr_line(p, "rt_pool%s%s(&geo, %s, %s, %s);", d, t, c->batch, c->x, c->out);
      break;
    case POOL_GRAD:
      pr_line(p, "rt_pool%s_grad%s(&geo, %s, %s, %s, %s, %s);", d, t, c->batch, c->x, c->out, c->dout, c->dx);
      break;
    case POOL_INDEX:
      pr_line(p, "rt_max_pool%s_index%s(&geo, %s, %s, %s, %s);", d, t, c->batch, c->x, c->out, c->mask);
      break;
    case POOL_INDEX_GRAD:
      pr_line(p, "rt_max_pool%s_index_grad%s(&geo, %s, %s, %s, %s);", d, t, c->batch, c->mask, c->dout, c->dx);
      break;
  }
}
