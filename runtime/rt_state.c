/* Training state: zero slots and combined-file writing (rt_state.h). */
#include "rt_state.h"

#include <stdio.h>
#include <string.h>

static size_t numel(const RtWeightSpec *s) {
  size_t n = 1;
  for (int d = 0; d < s->rank; d++) n *= (size_t)s->dims[d];
  return n;
}

void rt_state_zero(const RtWeightSpec *specs, int count, unsigned char *store, const void **ptrs) {
  for (int i = 0; i < count; i++) {
    const size_t bytes = numel(&specs[i]) * rt_dtype_size(specs[i].dtype);
    memset(store, 0, bytes);
    ptrs[i] = store;
    store += (bytes + 63) / 64 * 64;
  }
}

static void put_le(FILE *f, uint64_t v, int n) {
  for (int i = 0; i < n; i++) fputc((int)(v >> (8 * i)) & 0xff, f);
}

static int varint_len(uint64_t v) {
  int n = 1;
  while (v >= 0x80) v >>= 7, n++;
  return n;
}

static void put_varint(FILE *f, uint64_t v) {
  do {
    const int b = (int)(v & 0x7f);
    v >>= 7;
    fputc(b | (v ? 0x80 : 0), f);
  } while (v);
}

RtStatus rt_state_save(const char *path, const RtWeightSpec *specs, int count, const void *const *ptrs, char *err,
                       size_t errlen) {
  FILE *f = fopen(path, "wb");
  if (!f) {
    snprintf(err, errlen, "%s: cannot write", path);
    return RT_ERR_IO;
  }
  for (int i = 0; i < count; i++) {
    const RtWeightSpec *s = &specs[i];
    int desc = 1 + varint_len((uint64_t)s->dtype);
    for (int d = 0; d < s->rank; d++) desc += 1 + varint_len((uint64_t)s->dims[d]);
    put_le(f, 0, 4); /* LoD version */
    put_le(f, 0, 8); /* no LoD levels */
    put_le(f, 0, 4); /* tensor version */
    put_le(f, (uint64_t)desc, 4);
    fputc(0x08, f); /* TensorDesc.data_type */
    put_varint(f, (uint64_t)s->dtype);
    for (int d = 0; d < s->rank; d++) {
      fputc(0x10, f); /* TensorDesc.dims */
      put_varint(f, (uint64_t)s->dims[d]);
    }
    const size_t bytes = numel(s) * rt_dtype_size(s->dtype);
    if (bytes && fwrite(ptrs[i], 1, bytes, f) != bytes) break;
  }
  const int bad = ferror(f);
  if (fclose(f) || bad) {
    snprintf(err, errlen, "%s: write failed", path);
    return RT_ERR_IO;
  }
  return RT_OK;
}
