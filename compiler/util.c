/* Compilation pool and small helpers (see util.h). */
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

typedef struct Chunk {
  struct Chunk *next; /* previously allocated chunk */
  max_align_t data[]; /* the caller's bytes */
} Chunk;

static Chunk *chunks; /* every live allocation, newest first */

void *pool_alloc(size_t bytes) {
  Chunk *c = calloc(1, sizeof(Chunk) + (bytes ? bytes : 1));
  if (!c) diag_internal("out of memory allocating %zu bytes", bytes);
  c->next = chunks;
  chunks = c;
  return c->data;
}

void *pool_realloc(void *old, size_t old_bytes, size_t new_bytes) {
  void *p = pool_alloc(new_bytes);
  if (old && old_bytes) memcpy(p, old, old_bytes < new_bytes ? old_bytes : new_bytes);
  /* the old block stays in the pool until pool_release */
  return p;
}

char *pool_strdup(const char *s) {
  size_t n = strlen(s);
  char *p = pool_alloc(n + 1);
  memcpy(p, s, n + 1);
  return p;
}

char *pool_vprintf(const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  char *p = pool_alloc((size_t)n + 1);
  vsnprintf(p, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  return p;
}

char *pool_printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *p = pool_vprintf(fmt, ap);
  va_end(ap);
  return p;
}

void pool_release(void) {
  while (chunks) {
    Chunk *n = chunks->next;
    free(chunks);
    chunks = n;
  }
}

int read_file(const char *path, uint8_t **data, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  size_t cap = 1 << 16, n = 0;
  uint8_t *buf = malloc(cap);
  if (!buf) diag_internal("out of memory reading %s", path);
  for (;;) {
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (n < cap) break;
    uint8_t *nb = realloc(buf, cap * 2);
    if (!nb) diag_internal("out of memory reading %s", path);
    buf = nb;
    cap *= 2;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(buf);
    errno = EIO;
    return -1;
  }
  *data = pool_alloc(n);
  memcpy(*data, buf, n);
  free(buf);
  *len = n;
  return 0;
}

int ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && memcmp(s + a - b, suffix, b) == 0;
}

int cmp_bytes(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char *path_join(const char *dir, const char *name) {
  size_t n = strlen(dir);
  if (n && dir[n - 1] == '/') return pool_printf("%s%s", dir, name);
  return pool_printf("%s/%s", dir, name);
}

const char *str_upper(const char *s) {
  char *u = pool_strdup(s);
  for (char *p = u; *p; p++)
    if (*p >= 'a' && *p <= 'z') *p = (char)(*p - 'a' + 'A');
  return u;
}

int str_in(const char *s, const char *const *list) {
  for (; list && *list; list++)
    if (!strcmp(s, *list)) return 1;
  return 0;
}

const char *str_c_escape(const char *s) {
  char *out = pool_alloc(2 * strlen(s) + 1), *o = out;
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') *o++ = '\\';
    *o++ = (char)(*s == '\n' ? ' ' : *s);
  }
  *o = 0;
  return out;
}

const char *str_replace_all(const char *s, const char *from, const char *to) {
  const size_t nf = strlen(from), nt = strlen(to);
  size_t n = 0, len = strlen(s);
  for (const char *at = strstr(s, from); at; at = strstr(at + nf, from)) n++;
  char *r = pool_alloc(len - n * nf + n * nt + 1), *w = r;
  for (const char *at = strstr(s, from); at; at = strstr(s, from)) {
    memcpy(w, s, (size_t)(at - s));
    w += at - s;
    memcpy(w, to, nt);
    w += nt;
    s = at + nf;
  }
  strcpy(w, s);
  return r;
}
