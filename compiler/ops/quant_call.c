/* The C printer of the quantization ops' scale kernels, and one element's
 * quantization (quant_call.h). */
#include "quant_call.h"

#include <string.h>

#include "../util.h"
#include "move_call.h"

/* max |x| over the n elements, a float expression. */
static const char *largest_magnitude(const QuantCall *c) {
  return move_expr_c(&(MoveCall){.kind = MOVE_ABS_MAX, .src = c->x, .count = c->n});
}

/* The moving average in float, one operation a statement (no FMA). */
static void print_moving_average(Printer *p, const QuantCall *c) {
  pr_line(p, "{");
  pr_line(p, "const float rate = %s, cur = %s;", c->rate, largest_magnitude(c));
  pr_line(p, "float state = rate * %s[0];", c->in_state);
  pr_line(p, "state = state + 1.0f;");
  pr_line(p, "float accum = rate * %s[0];", c->in_accum);
  pr_line(p, "accum = accum + cur;");
  pr_line(p, "%s[0] = state;", c->out_state);
  pr_line(p, "%s[0] = accum;", c->out_accum);
  pr_line(p, "%s[0] = accum / state;", c->out_scale);
  pr_line(p, "}");
}

/* dst[0] = src[0] when both are given. */
static void print_copy(Printer *p, const char *src, const char *dst) {
  if (src && dst) pr_line(p, "%s[0] = %s[0];", dst, src);
}

/* Per channel: max |x| of each [inner] run, the largest over the outer
 * rows (FindChannelAbsMaxFunctor: along dim 0, |the element of largest
 * |.||, as rt_abs_max; along dim 1, the std::max of those from 0). */
static void print_channel_abs_max(Printer *p, const QuantCall *c) {
  pr_line(p, "{");
  pr_line(p, "const int64_t channels = %s, inner = %s;", c->channels, c->inner);
  if (!strcmp(c->outer, "1")) {
    const MoveCall m = {.kind = MOVE_ABS_MAX, .src = pool_printf("%s + c * inner", c->x), .count = "inner"};
    pr_line(p, "for (int64_t c = 0; c < channels; c++) %s[c] = %s;", c->out_scale, move_expr_c(&m));
  } else {
    pr_line(p, "for (int64_t c = 0; c < channels; c++) %s[c] = 0.0f;", c->out_scale);
    pr_line(p, "for (int64_t o = 0; o < %s; o++) {", c->outer);
    pr_line(p, "for (int64_t c = 0; c < channels; c++) {");
    const MoveCall m = {.kind = MOVE_ABS_MAX, .src = pool_printf("%s + (o * channels + c) * inner", c->x),
                        .count = "inner"};
    pr_line(p, "const float run_max = %s;", move_expr_c(&m));
    pr_line(p, "if (%s[c] < run_max) %s[c] = run_max;", c->out_scale, c->out_scale);
    pr_line(p, "}");
    pr_line(p, "}");
  }
  pr_line(p, "}");
}

void quant_print_c(Printer *p, const QuantCall *c) {
  switch (c->kind) {
    case QUANT_ABS_MAX:
      pr_line(p, "%s[0] = %s;", c->out_scale, largest_magnitude(c));
      break;
    case QUANT_MOVING_AVERAGE:
      print_moving_average(p, c);
      break;
    case QUANT_KEEP:
      print_copy(p, c->in_scale, c->out_scale);
      print_copy(p, c->in_state, c->out_state);
      print_copy(p, c->in_accum, c->out_accum);
      break;
    case QUANT_CHANNEL_ABS_MAX:
      print_channel_abs_max(p, c);
      break;
  }
}

const char *quant_round_c(int round_type) {
  return round_type == 0 ? "float q = rintf(k * v);\nq = q > bc ? bc : q;\nq = q < -bc - 1.0f ? -bc - 1.0f : q;"
                         : "const float q = roundf(k * (v < -s ? -s : (v > s ? s : v)));";
}
