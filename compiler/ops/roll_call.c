/* The C printer of the roll kernel (roll_call.h). */
#include "roll_call.h"

#include <string.h>

#include "../util.h"
#include "tensor_util.h"

void roll_print_c(Printer *p, const RollCall *c) {
  const char *t = c->type;
  pr_line(p, "const %s *x = %s;", t, c->x);
  pr_line(p, "%s *out = %s;", t, c->out);
  for (int d = 0; d < c->loops; d++) {
    if (!c->rolled[d]) continue;
    if (c->nrun[d]) { /* the run's shifts, each taken into [0, n) before they add up */
      pr_line(p, "const int64_t n%d = %s;", d, c->dims[d]);
      pr_line(p, "int64_t sh%d = 0;", d);
      const char *minus = c->negate ? pool_printf("n%d - ", d) : ""; /* the grad rolls back */
      for (int k = 0; k < c->nrun[d]; k++)
        pr_line(p, "sh%d = n%d ? (sh%d + %s((%s) %% n%d + n%d) %% n%d) %% n%d : 0;", d, d, d, minus, c->run[d][k], d, d,
                d, d);
      continue;
    }
    if (c->folded[d])
      pr_line(p, "const int64_t n%d = %s, sh%d = %lld;", d, c->dims[d], d, (long long)c->shift[d]);
    else
      pr_line(p, "const int64_t n%d = %s, sh%d = n%d ? (INT64_C(%lld) %% n%d + n%d) %% n%d : 0;", d, c->dims[d], d, d,
              (long long)c->shift[d], d, d, d);
  }
  pr_line(p, "int64_t o = 0;");
  const char *src = "0";
  for (int d = 0; d < c->loops; d++) {
    pr_line(p, "for (int64_t i%d = 0; i%d < %s; i%d++) {", d, d, c->rolled[d] ? pool_printf("n%d", d) : c->dims[d], d);
    const char *id = c->rolled[d] ? pool_printf("(i%d >= sh%d ? i%d - sh%d : i%d - sh%d + n%d)", d, d, d, d, d, d, d)
                                  : pool_printf("i%d", d);
    src = tu_add(src, tu_mul(id, c->strides[d]));
  }
  if (!strcmp(c->row, "1")) {
    pr_line(p, "out[o++] = x[%s];", src);
  } else {
    pr_line(p, "memcpy(out + o, x + %s, (size_t)%s * sizeof(%s));", src, c->row, t);
    pr_line(p, "o += %s;", c->row);
  }
  pr_close(p, c->loops);
}
