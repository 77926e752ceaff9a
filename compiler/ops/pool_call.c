/* The C printer of pooling calls (pool_call.h). */
#include "pool_call.h"

void pool_print_c(Printer *p, const PoolCall *c) {
  const char *d = c->dims == 3 ? "3d" : "2d", *t = c->f64 ? "_f64" : "";
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
