/* Compiler-side helpers: one memory pool for the whole compilation (freed at
 * once, never piecemeal), growable arrays, small string utilities. */
#ifndef PADDLEC_UTIL_H
#define PADDLEC_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* Allocates zeroed memory from the compilation pool; exits 2 on OOM. */
void *pool_alloc(size_t bytes);
/* Grows a pool block (old contents kept); old may be NULL. */
void *pool_realloc(void *old, size_t old_bytes, size_t new_bytes);
char *pool_strdup(const char *s);
char *pool_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* pool_printf with the arguments as a va_list (which it consumes). */
char *pool_vprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* Frees everything allocated from the pool. */
void pool_release(void);

/* Appends an element to a pool-backed array (*arr, *n, *cap). */
#define VEC_PUSH(arr, n, cap, val)                                          \
  do {                                                                      \
    if ((n) == (cap)) {                                                     \
      size_t nc_ = (cap) ? (size_t)(cap) * 2 : 8;                           \
      (arr) = pool_realloc((arr), sizeof *(arr) * (size_t)(cap),            \
                           sizeof *(arr) * nc_);                            \
      (cap) = nc_;                                                          \
    }                                                                       \
    (arr)[(n)++] = (val);                                                   \
  } while (0)

/* Reads a whole file into pool memory. Returns 0 on success, -1 with errno. */
int read_file(const char *path, uint8_t **data, size_t *len);
int ends_with(const char *s, const char *suffix);
/* Byte-wise string order, as C++ std::sort / Python sorted() use. */
int cmp_bytes(const void *a, const void *b);
/* path1 + "/" + path2 in pool memory. */
char *path_join(const char *dir, const char *name);

/* 1 when `s` is one of the NULL-terminated `list` (NULL: none). */
int str_in(const char *s, const char *const *list);
/* s with a-z as A-Z, in pool memory (a C prefix's macro form). */
const char *str_upper(const char *s);
/* s as the inside of a C string literal (pool memory). */
const char *str_c_escape(const char *s);
/* s with every `from` (not empty) replaced by `to`, in pool memory. */
const char *str_replace_all(const char *s, const char *from, const char *to);

#endif
