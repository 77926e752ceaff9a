/* The C printer of tensor-array kernels (array_call.h). */
#include "array_call.h"

#include <string.h>

#include "../util.h"

static void print_write(Printer *p, const ArrayCall *c) {
  pr_line(p, "const int64_t i = %s[0];", c->i);
  pr_line(p, "if (i < 0 || i > %s || i >= %lld) return 1; /* a gap, or past what paddlec planned */", c->len,
          (long long)c->cap);
  if (c->slots) { /* X's rows, then its rows and LoD into the element's slot */
    if (strcmp(c->rows, c->elem_rows))
      pr_line(p, "if (%s > %s) return 1; /* more rows than an element has room for */", c->rows, c->elem_rows);
    pr_line(p, "memcpy(%s + i * %s, %s, (size_t)(%s * %s) * sizeof(%s));", c->arr, c->numel, c->x, c->rows,
            c->row_numel, c->type);
    const char *outer = c->lod_outer ? pool_printf("m->lod_outer[%d], m->lod_outer_count[%d]", c->lod, c->lod)
                                     : "NULL, 0";
    const char *lod = c->lod >= 0 ? pool_printf("m->lod[%d], m->lod_count[%d]", c->lod, c->lod) : "NULL, 0";
    pr_line(p, "if (rt_lod_slot_put(%s + i * RT_LOD_SLOT_WORDS(%s), %s, %s, %s, %s))", c->slots, c->slot_cap,
            c->slot_cap, c->rows, lod, outer);
    pr_line(p, "  return 1; /* more offsets than the room paddlec planned */");
  } else {
    pr_line(p, "memcpy(%s + i * %s, %s, (size_t)%s * sizeof(%s));", c->arr, c->numel, c->x, c->numel, c->type);
  }
  pr_line(p, "if (i == %s) %s = i + 1;", c->len, c->len);
}

static void print_read(Printer *p, const ArrayCall *c) {
  pr_line(p, "const int64_t i = %s[0];", c->i);
  const char *copy = pool_printf("memcpy(%s, %s + i * %s, (size_t)%s * sizeof(%s));", c->out, c->arr, c->numel,
                                 c->numel, c->type);
  if (c->zero_past) {
    pr_line(p, "if (i < 0 || i >= %s) /* past the end: zeros of X_W's shape */", c->len);
    pr_line(p, "  memset(%s, 0, (size_t)%s * sizeof(%s));", c->out, c->numel, c->type);
    pr_line(p, "else");
    pr_line(p, "  %s", copy);
    return;
  }
  pr_line(p, "if (i < 0 || i >= %s) return 1; /* no such element */", c->len);
  if (c->slots) { /* the element's rows, and its LoD (if it has one) from its slot */
    pr_line(p, "const int64_t *slot = %s + i * RT_LOD_SLOT_WORDS(%s);", c->slots, c->slot_cap);
    if (c->made_rows) {
      pr_line(p, "if (rt_lod_slot_get(slot, %s, %s, &m->lod_count[%d], %s, %s, %s))", c->slot_cap, c->made_rows,
              c->lod, c->made_outer ? c->made_outer : "NULL",
              c->made_outer ? pool_printf("&m->lod_outer_count[%d]", c->lod) : "NULL", c->made_room);
      pr_line(p, "  return 1; /* more offsets than the room paddlec planned */");
    }
    pr_line(p, "%s = slot[0];", c->rows);
    pr_line(p, "memcpy(%s, %s + i * %s, (size_t)(slot[0] * %s) * sizeof(%s));", c->out, c->arr, c->numel,
            c->row_numel, c->type);
    return;
  }
  pr_line(p, "%s", copy);
}

static void print_to_tensor(Printer *p, const ArrayCall *c) {
  const char *n = pool_printf("%lld", (long long)c->cap);
  if (c->bounded) { /* the run's length: 1 to L elements (Paddle stops on an empty array) */
    pr_line(p, "const int64_t n = %s;", c->len);
    pr_line(p, "if (n < 1 || n > %s) return 1; /* empty, or past the bound paddlec proved */", n);
    pr_line(p, "%s = n * %s;", c->extent, c->dim);
    if (c->index_extent) pr_line(p, "%s = n;", c->index_extent);
    n = "n";
  } else {
    pr_line(p, "if (%s != %s) return 1; /* not the length paddlec proved */", c->len, n);
  }
  if (!strcmp(c->outer, "1")) {
    pr_line(p, "memcpy(%s, %s, (size_t)%s * %s * sizeof(%s));", c->out, c->arr, n, c->inner, c->type);
  } else {
    pr_line(p, "for (int64_t l = 0; l < %s; l++) {", n);
    pr_line(p, "for (int64_t o = 0; o < %s; o++) {", c->outer);
    pr_line(p, "memcpy(%s + (o * %s + l) * %s, %s + (l * %s + o) * %s, (size_t)%s * sizeof(%s));", c->out, n,
            c->inner, c->arr, c->outer, c->inner, c->inner, c->type);
    pr_close(p, 2);
  }
  if (c->index) pr_line(p, "for (int64_t l = 0; l < %s; l++) %s[l] = (int32_t)%s;", n, c->index, c->index_dim);
}

/* The joined tensor x back into elements (print_to_tensor's inverse), as
 * many as the joined array held. */
static void print_from_tensor(Printer *p, const ArrayCall *c) {
  pr_line(p, "const int64_t n = %s;", c->src_len);
  if (c->bounded)
    pr_line(p, "if (n < 1 || n > %lld) return 1; /* empty, or past the bound paddlec proved */", (long long)c->cap);
  else
    pr_line(p, "if (n != %lld) return 1; /* not the length paddlec proved */", (long long)c->cap);
  if (!strcmp(c->outer, "1")) {
    pr_line(p, "memcpy(%s, %s, (size_t)n * %s * sizeof(%s));", c->arr, c->x, c->inner, c->type);
  } else {
    pr_line(p, "for (int64_t l = 0; l < n; l++) {");
    pr_line(p, "for (int64_t o = 0; o < %s; o++) {", c->outer);
    pr_line(p, "memcpy(%s + (l * %s + o) * %s, %s + (o * n + l) * %s, (size_t)%s * sizeof(%s));", c->arr, c->outer,
            c->inner, c->x, c->inner, c->inner, c->type);
    pr_close(p, 2);
  }
  pr_line(p, "%s = n;", c->len);
}

void array_print_c(Printer *p, const ArrayCall *c) {
  switch (c->kind) {
    case ARRAY_WRITE:
      print_write(p, c);
      break;
    case ARRAY_READ:
      print_read(p, c);
      break;
    case ARRAY_LENGTH:
      pr_line(p, "%s[0] = %s;", c->out, c->len);
      break;
    case ARRAY_TO_TENSOR:
      print_to_tensor(p, c);
      break;
    case ARRAY_FROM_TENSOR:
      print_from_tensor(p, c);
      break;
  }
}
