/* libFuzzer harness: the .npy reader of the generated binaries
 * (rt_npy_read, runtime/rt_npy.c), on a per-process file.  Oracle beyond the
 * sanitizers: an accepted array holds exactly dtype size x product of its
 * dims bytes, all readable. */
#include "fuzz_util.h"

#include "rt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  RtNpy a;
  char err[256];
  const char *path = fuzz_write_tmp(data, size, ".npy");
  if (rt_npy_read(path, &a, err, sizeof err)) {
    if (a.data) abort(); /* a failed read leaves nothing to free */
    return 0;
  }
  uint64_t n = rt_dtype_size(a.dtype);
  if (!n || a.rank < 0 || a.rank > RT_MAX_RANK) abort();
  for (int i = 0; i < a.rank; i++) {
    if (a.dims[i] < 0) abort();
    if (a.dims[i] && n > UINT64_MAX / (uint64_t)a.dims[i]) {
      fprintf(stderr, "fuzz_npy: accepted dims whose byte count overflows\n");
      abort();
    }
    n *= (uint64_t)a.dims[i];
  }
  if (n != a.bytes) {
    fprintf(stderr, "fuzz_npy: %zu bytes read for dims holding %llu\n", a.bytes, (unsigned long long)n);
    abort();
  }
  unsigned sum = 0;
  for (size_t i = 0; i < a.bytes; i++) sum += ((const unsigned char *)a.data)[i];
  (void)sum;
  rt_npy_free(&a);
  return 0;
}
