/* The C printer of collective calls (coll_call.h). */
#include "coll_call.h"

#include "rt_collective.h"

void coll_print_c(Printer *p, const CollCall *c) {
  static const char *const ops[] = {[RT_COLL_SUM] = "RT_COLL_SUM", [RT_COLL_MAX] = "RT_COLL_MAX",
                                    [RT_COLL_MIN] = "RT_COLL_MIN", [RT_COLL_PROD] = "RT_COLL_PROD"};
  switch (c->kind) {
    case COLL_REDUCE:
      pr_line(p, "rt_coll_reduce(%s, %s, %s, %s, %d);", c->data, c->count, em_dtype_enum(c->dtype), ops[c->op],
              c->root);
      break;
    case COLL_BROADCAST:
      pr_line(p, "rt_coll_broadcast(%s, (size_t)%s * sizeof(%s), %d);", c->data, c->count, em_ctype(c->dtype),
              c->root);
      break;
    case COLL_ALLGATHER:
      pr_line(p, "/* nranks %lld: the trainer checks that so many processes run it */", c->nranks);
      pr_line(p, "rt_coll_allgather(%s, (size_t)%s * sizeof(%s), %s);", c->data, c->count, em_ctype(c->dtype),
              c->out);
      break;
    case COLL_NONE:
      pr_line(p, "/* %s: MPI's world is the communicator */", c->op_type);
      break;
  }
}
