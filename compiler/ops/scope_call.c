/* The C printer of a kernel step's own block (scope_call.h). */
#include "scope_call.h"

void scope_print_c(Printer *p, const ScopeCall *c) {
  switch (c->kind) {
    case SCOPE_OPEN:
      pr_line(p, "{");
      break;
    case SCOPE_CLOSE:
      pr_line(p, "}");
      break;
  }
}
