/* The C printer of the fake quantization ops' scale kernels
 * (quant_call.h). */
#include "quant_call.h"

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
  }
}
