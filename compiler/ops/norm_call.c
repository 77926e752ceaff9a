/* The C printer of normalization calls (norm_call.h). */
#include "norm_call.h"

#include "../util.h"
#include "move_call.h"

/* An operand the kernel may go without. */
static const char *opt(const char *s) { return s ? s : "NULL"; }

/* The kernel name's suffix: "_f64" for float64 tensors, else nothing. */
static const char *sfx(const NormCall *c) { return c->f64 ? "_f64" : ""; }

/* rt_batch_norm_train[_synced], over two lines (three with the sums). */
static void print_batch_train(Printer *p, const NormCall *c) {
  pr_line(p, "rt_batch_norm_train%s%s(%s, %s, %s, %s, %s, %s, %s, %s, %s, %lld, %s,", c->sums ? "_synced" : "",
          sfx(c), c->x, c->y, opt(c->scale), opt(c->bias), c->mean, c->var, c->eps, c->momentum, c->outer,
          (long long)c->c, c->inner);
  if (c->sums) pr_line(p, "                    %s,", c->sums);
  pr_line(p, "                    %s, %s, %s, %s);", c->mean_out, c->var_out, c->saved_mean, c->saved_inv_std);
}

static void print_batch_grad(Printer *p, const NormCall *c) {
  if (c->sums)
    pr_line(p, "rt_batch_norm_grad_synced%s(%s, %s, %s, %s, %s, %s, %lld, %s, %s, %s, %s, %s, %s);", sfx(c), c->x,
            c->dy, opt(c->scale), c->mean, opt(c->inv_std), c->outer, (long long)c->c, c->inner, c->gsums, c->sums,
            opt(c->dx), opt(c->dscale), opt(c->dbias));
  else
    pr_line(p, "rt_batch_norm_grad%s(%s, %s, %s, %s, %s, %s, %s, %s, %lld, %s, %s, %s, %s);", sfx(c), c->x, c->dy,
            opt(c->scale), c->mean, opt(c->inv_std), opt(c->var), c->eps, c->outer, (long long)c->c, c->inner,
            opt(c->dx), opt(c->dscale), opt(c->dbias));
}

/* rt_group_norm[_f64]; channel last: x into the scratch `t` channel
 * first, normalized there in place, and back into y. */
static void print_group(Printer *p, const NormCall *c) {
  const char *t = c->f64 ? "double" : "float", *ch = pool_printf("%lld", (long long)c->c);
  const char *x = c->x, *y = c->y;
  if (c->nhwc) {
    pr_line(p, "%s *t = (%s *)%s;", t, t, c->nhwc);
    move_print_c(p, &(MoveCall){.kind = MOVE_NHWC_TO_NCHW, .src = c->x, .dst = "t", .outer = c->outer,
                                .inner = c->inner, .channels = ch, .f64 = c->f64});
    x = y = "t";
  }
  pr_line(p, "rt_group_norm%s(%s, %s, %s, %s, %s, %s, %lld, %lld, %s, %s, %s, %s);", sfx(c), x, y, opt(c->scale),
          opt(c->bias), c->eps, c->outer, (long long)c->c, (long long)c->groups, c->inner, opt(c->mean_out),
          opt(c->var_out), opt(c->saved_inv_std));
  if (c->nhwc)
    move_print_c(p, &(MoveCall){.kind = MOVE_NCHW_TO_NHWC, .src = "t", .dst = c->y, .outer = c->outer,
                                .channels = ch, .inner = c->inner, .f64 = c->f64});
}

static void print_batch(Printer *p, const NormCall *c) {
  switch (c->kind) {
    case NORM_BATCH:
      pr_line(p, "rt_batch_norm%s(%s, %s, %s, %s, %s, %s, %s, %s, %lld, %s);", sfx(c), c->x, c->y, opt(c->scale),
              opt(c->bias), c->mean, c->var, c->eps, c->outer, (long long)c->c, c->inner);
      for (int i = 0; i < 2; i++) {
        const char *z = i ? c->saved_inv_std : c->saved_mean;
        if (z) pr_line(p, "for (int64_t i = 0; i < %lld; i++) %s[i] = 0.0f;", (long long)c->c, z);
      }
      break;
    case NORM_BATCH_TRAIN: print_batch_train(p, c); break;
    case NORM_BATCH_GRAD: print_batch_grad(p, c); break;
    case NORM_BATCH_SUMS:
      pr_line(p, "rt_batch_norm_sums%s(%s, %s, %lld, %s, %s);", sfx(c), c->x, c->outer, (long long)c->c, c->inner,
              c->sums);
      break;
    case NORM_PLACE_SUM: pr_line(p, "/* summed over the places between kernels, by the trainer (places.c.in) */"); break;
    default: /* NORM_BATCH_GRAD_SUMS */
      pr_line(p, "rt_batch_norm_grad_sums%s(%s, %s, %s, %s, %s, %lld, %s, %s);", sfx(c), c->x, c->dy, c->mean,
              c->inv_std, c->outer, (long long)c->c, c->inner, c->gsums);
      break;
  }
}

void norm_print_c(Printer *p, const NormCall *c) {
  switch (c->kind) {
    case NORM_LAYER:
      pr_line(p, "rt_layer_norm%s(%s, %s, %s, %s, %s, %s, %s, %s, %s);", sfx(c), c->x, c->y, opt(c->scale),
              opt(c->bias), c->eps, c->rows, c->cols, opt(c->mean_out), opt(c->var_out));
      break;
    case NORM_LAYER_GRAD:
      pr_line(p, "rt_layer_norm_grad%s(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s);", sfx(c), c->x, c->dy, c->mean,
              c->var, opt(c->scale), c->eps, c->rows, c->cols, opt(c->dx), opt(c->dscale), opt(c->dbias));
      break;
    case NORM_GROUP: print_group(p, c); break;
    case NORM_GROUP_GRAD:
      pr_line(p, "rt_group_norm_grad%s(%s, %s, %s, %s, %s, %s, %s, %lld, %lld, %s, %d, %s, %s, %s);", sfx(c), c->y,
              c->dy, opt(c->scale), opt(c->bias), c->var, c->eps, c->outer, (long long)c->c, (long long)c->groups,
              c->inner, c->channel_last, opt(c->dx), opt(c->dscale), opt(c->dbias));
      break;
    case NORM_INSTANCE_GRAD:
      pr_line(p, "rt_instance_norm_grad%s(%s, %s, %s, %s, %s, %s, %lld, %s, %s, %s, %s);", sfx(c), c->x, c->dy,
              opt(c->scale), c->mean, c->inv_std, c->outer, (long long)c->c, c->inner, opt(c->dx), opt(c->dscale),
              opt(c->dbias));
      break;
    default: print_batch(p, c); break;
  }
}
