/* The C printer of control-flow kernels (branch_call.h). */
#include "branch_call.h"

#include "../util.h"

/* The branch the mask picks, copied whole unless it is out itself. */
static void print_select_input(Printer *p, const BranchCall *c) {
  const char *list = "";
  for (int i = 0; i < c->n; i++) list = pool_printf("%s%s%s", list, i ? ", " : "", c->x[i]);
  pr_line(p, "const %s *const x[%d] = {%s};", c->type, c->n, list);
  pr_line(p, "const int64_t k = (int64_t)%s[0];", c->mask);
  pr_line(p, "%s *out = %s;", c->type, c->out);
  pr_line(p, "if (k >= 0 && k < %d && x[k] != out) memcpy(out, x[k], (size_t)%s * sizeof(%s));", c->n, c->numel,
          c->type);
}

void branch_print_c(Printer *p, const BranchCall *c) {
  switch (c->kind) {
    case BRANCH_SELECT_INPUT:
      print_select_input(p, c);
      break;
  }
}
