/* The C printer of sorting calls (sort_call.h). */
#include "sort_call.h"

/* The runtime's suffix for an element type, NULL for one it lacks. */
static const char *suffix(int dtype) {
  switch (dtype) {
    case RT_DT_FP32: return "f32";
    case RT_DT_FP64: return "f64";
    case RT_DT_INT32: return "i32";
    case RT_DT_INT64: return "i64";
    default: return NULL;
  }
}

int sort_dtype_ok(int dtype) { return suffix(dtype) != NULL; }

void sort_print_c(Printer *p, const SortCall *c) {
  const char *s = suffix(c->dtype);
  switch (c->kind) {
    case SORT_ARGSORT:
      pr_line(p, "rt_argsort_%s(%s, %s, %s, %s, %d, %s, %s, %s);", s, c->x, c->outer, c->n, c->inner, c->descending,
              c->vals, c->idx, c->work);
      break;
    case SORT_TOPK:
      pr_line(p, "rt_topk_%s(%s, %s, %s, %s, %s, %s, %s, %s, %s);", s, c->x, c->outer, c->n, c->inner, c->k, c->flags,
              c->vals, c->idx, c->work);
      break;
    case SORT_KTHVALUE:
      pr_line(p, "rt_kthvalue_%s(%s, %s, %s, %s, %s, %s, %s, %s);", s, c->x, c->outer, c->n, c->inner, c->k, c->vals,
              c->idx, c->work);
      break;
  }
}
