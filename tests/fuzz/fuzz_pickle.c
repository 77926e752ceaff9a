/* libFuzzer harness: the reader of Paddle's pickled checkpoints
 * (rt_pickle_read_arrays, runtime/rt_pickle.c), on the input bytes.
 * Oracles beyond the sanitizers: a failed read returns nothing and says why
 * ("pickle byte N: ..."); an accepted dict's arrays hold exactly dtype size
 * x product of their dims bytes, all readable, and the writer's protocol 2
 * and 4 pickles of them read back the same. */
#include "fuzz_util.h"

#include "rt.h"
#include "rt_alloc.h"
#include "rt_pickle.h"

static void same_or_abort(const RtPickleEntry *a, int n, int proto) {
  unsigned char *buf;
  size_t len;
  char err[256];
  if (rt_pickle_dump_arrays(a, n, proto, &buf, &len, err, sizeof err)) {
    fprintf(stderr, "fuzz_pickle: the writer refused what the reader gave: %s\n", err);
    abort();
  }
  RtPickleEntry *b;
  int m;
  if (rt_pickle_read_arrays(buf, len, &b, &m, err, sizeof err) || m != n) {
    fprintf(stderr, "fuzz_pickle: protocol %d copy does not read back: %s\n", proto, err);
    abort();
  }
  for (int i = 0; i < n; i++)
    if (strcmp(a[i].name, b[i].name) || a[i].dtype != b[i].dtype || a[i].rank != b[i].rank ||
        memcmp(a[i].dims, b[i].dims, sizeof a[i].dims) || a[i].bytes != b[i].bytes ||
        memcmp(a[i].data, b[i].data, a[i].bytes)) {
      fprintf(stderr, "fuzz_pickle: entry %d differs after a protocol %d copy\n", i, proto);
      abort();
    }
  rt_pickle_free(b, m);
  rt_free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  RtPickleEntry *e;
  int n;
  char err[256];
  if (rt_pickle_read_arrays(data, size, &e, &n, err, sizeof err)) {
    if (e || n || strncmp(err, "pickle byte ", 12)) abort();
    return 0;
  }
  for (int i = 0; i < n; i++) {
    uint64_t bytes = rt_dtype_size(e[i].dtype);
    if (!bytes || e[i].rank < 0 || e[i].rank > RT_MAX_RANK || !e[i].name || !e[i].data) abort();
    for (int d = 0; d < e[i].rank; d++) {
      if (e[i].dims[d] < 0 || (e[i].dims[d] && bytes > UINT64_MAX / (uint64_t)e[i].dims[d])) abort();
      bytes *= (uint64_t)e[i].dims[d];
    }
    if (bytes != e[i].bytes) {
      fprintf(stderr, "fuzz_pickle: %zu bytes read for dims holding %llu\n", e[i].bytes, (unsigned long long)bytes);
      abort();
    }
    unsigned sum = 0;
    for (size_t b = 0; b < e[i].bytes; b++) sum += ((const unsigned char *)e[i].data)[b];
    (void)sum;
  }
  same_or_abort(e, n, 2);
  same_or_abort(e, n, 4);
  rt_pickle_free(e, n);
  return 0;
}
