/* The pickle reader and writer (runtime/rt_pickle.c, rt_pickle_write.c)
 * from the command line, for tests/test_pickle.py:
 *   pickle_tool info FILE              one line per array: name, Paddle dtype, dims
 *   pickle_tool copy FILE OUT PROTO    read FILE, write its arrays to OUT with
 *                                      protocol PROTO (rt_pickle_write_arrays;
 *                                      rt_pickle_dump_arrays must give the same bytes)
 *   pickle_tool nomem FILE PROTO       read and dump with the k-th allocation
 *                                      failing, k = 0, 1, ...: each must fail with
 *                                      RT_ERR_NOMEM and free everything, until one
 *                                      succeeds
 * A failed read prints the reader's message on stderr and exits 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_alloc.h"
#include "rt_pickle.h"

static void print(const RtPickleEntry *e, int n) {
  for (int i = 0; i < n; i++) {
    printf("%s\t%d\t", e[i].name, e[i].dtype);
    for (int d = 0; d < e[i].rank; d++) printf("%s%lld", d ? "," : "", (long long)e[i].dims[d]);
    printf("\n");
  }
}

/* An allocator whose allocation number `fail_at` (0-based) and every later
 * one fail; counts what is live. */
static long allocs, live, fail_at = -1;
static void *test_alloc(void *ctx, size_t bytes, size_t align) {
  (void)ctx;
  if (fail_at >= 0 && allocs >= fail_at) return NULL;
  allocs++;
  void *p = NULL;
  if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, bytes)) return NULL;
  live++;
  return p;
}
static void test_release(void *ctx, void *p) {
  (void)ctx;
  live--;
  free(p);
}

static int nomem(const char *path, int proto) {
  unsigned char *data;
  size_t len;
  char err[512];
  if (rt_read_file(path, &data, &len, err, sizeof err)) return fprintf(stderr, "%s\n", err), 1;
  RtAllocator a = {test_alloc, test_release, NULL};
  rt_set_allocator(&a);
  for (long k = 0;; k++) {
    allocs = 0;
    live = 0;
    fail_at = k;
    RtPickleEntry *e;
    int n;
    RtStatus st = rt_pickle_read_arrays(data, len, &e, &n, err, sizeof err);
    unsigned char *out = NULL;
    size_t olen = 0;
    if (!st) {
      st = rt_pickle_dump_arrays(e, n, proto, &out, &olen, err, sizeof err);
      rt_pickle_free(e, n);
      rt_free(out);
    } else if (e || n) {
      fprintf(stderr, "failed read (k=%ld) left entries\n", k);
      return 1;
    }
    if (live) {
      fprintf(stderr, "k=%ld: %ld allocations live after status %d (%s)\n", k, live, st, err);
      return 1;
    }
    if (st == RT_OK) {
      printf("ok after %ld failing allocations\n", k);
      break;
    }
    if (st != RT_ERR_NOMEM) {
      fprintf(stderr, "k=%ld: status %d, not RT_ERR_NOMEM: %s\n", k, st, err);
      return 1;
    }
  }
  rt_set_allocator(NULL);
  rt_free(data);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3) return fprintf(stderr, "usage: pickle_tool info|copy|nomem FILE [OUT PROTO | PROTO]\n"), 2;
  if (!strcmp(argv[1], "nomem") && argc == 4) return nomem(argv[2], atoi(argv[3]));
  RtPickleEntry *e;
  int n;
  char err[512];
  if (rt_pickle_load(argv[2], &e, &n, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  int rc = 0;
  if (!strcmp(argv[1], "info")) {
    print(e, n);
  } else if (!strcmp(argv[1], "copy") && argc == 5) {
    int proto = atoi(argv[4]);
    unsigned char *mem, *file;
    size_t mlen, flen;
    if (rt_pickle_write_arrays(argv[3], e, n, proto, err, sizeof err) ||
        rt_pickle_dump_arrays(e, n, proto, &mem, &mlen, err, sizeof err)) {
      fprintf(stderr, "%s\n", err);
      rc = 1;
    } else {
      if (rt_read_file(argv[3], &file, &flen, err, sizeof err) || flen != mlen || memcmp(file, mem, mlen)) {
        fprintf(stderr, "rt_pickle_write_arrays and rt_pickle_dump_arrays differ\n");
        rc = 1;
      }
      rt_free(file);
      rt_free(mem);
      print(e, n);
    }
  } else {
    fprintf(stderr, "unknown command %s\n", argv[1]);
    rc = 2;
  }
  rt_pickle_free(e, n);
  return rc;
}
