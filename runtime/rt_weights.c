/* Binding a model's weights: the bytes of a .pdiparams file (records in the
 * compiled order) are checked record by record against the compiled specs and
 * copied into 64-byte aligned slots (file data is not aligned). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"
#include "rt_alloc.h"

static size_t numel(const RtWeightSpec *s) {
  size_t n = 1;
  for (int d = 0; d < s->rank; d++) n *= (size_t)s->dims[d];
  return n;
}

static size_t slot_bytes(const RtWeightSpec *s) {
  size_t n = s->pack_rows ? (size_t)rt_prepack_floats(s->pack_rows, s->pack_wino, (int64_t)numel(s)) * sizeof(float)
                          : numel(s) * rt_dtype_size(s->dtype);
  return (n + 63) / 64 * 64;
}

size_t rt_weights_bytes(const RtWeightSpec *specs, int count) {
  size_t total = 0;
  for (int i = 0; i < count; i++) total += slot_bytes(&specs[i]);
  return total;
}

RtStatus rt_weights_bind(const void *blob, size_t len, const RtWeightSpec *specs, int count,
                         unsigned char *store, const void **ptrs, char *err, size_t errlen) {
  const unsigned char *b = blob;
  size_t off = 0;
  if (!b && count) {
    snprintf(err, errlen, "no weights given");
    return RT_ERR_FORMAT;
  }
  for (int i = 0; i < count; i++) {
    const RtWeightSpec *s = &specs[i];
    RtTensorHdr h;
    char why[128];
    RtStatus st = rt_tensor_parse(b + off, len - off, &h, why, sizeof why);
    if (st) {
      snprintf(err, errlen, "weight '%s' (record %d of %d): %s", s->name, i + 1, count, why);
      return st;
    }
    int same = h.dtype == s->dtype && h.rank == s->rank;
    for (int d = 0; same && d < s->rank; d++) same = h.dims[d] == s->dims[d];
    if (!same) {
      snprintf(err, errlen, "weight '%s' (record %d of %d) has another dtype or shape than the compiled model",
               s->name, i + 1, count);
      return RT_ERR_FORMAT;
    }
    if (s->pack_rows)
      /* cppcheck-suppress invalidPointerCast ; store is a 64-byte aligned slot that the packed floats fill */
      rt_prepack(b + off + h.data_offset, s->pack_rows, s->pack_wino, s->pack_panel, (int64_t)numel(s), (float *)store);
    else
      memcpy(store, b + off + h.data_offset, (size_t)h.data_bytes);
    ptrs[i] = store;
    store += slot_bytes(s);
    off += (size_t)h.record_bytes;
  }
  if (off != len) {
    snprintf(err, errlen, "%zu trailing bytes after the last weight", len - off);
    return RT_ERR_FORMAT;
  }
  return RT_OK;
}

RtStatus rt_read_file(const char *path, unsigned char **data, size_t *len, char *err, size_t errlen) {
  *data = NULL;
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "%s: cannot open", path);
    return RT_ERR_IO;
  }
  size_t cap = 1 << 16, n = 0;
  unsigned char *buf = rt_alloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    unsigned char *nb = cap <= SIZE_MAX / 2 ? rt_alloc(cap * 2) : NULL;
    if (nb) memcpy(nb, buf, n);
    rt_free(buf);
    buf = nb;
    cap *= 2;
  }
  int bad = ferror(f);
  fclose(f);
  if (!buf) {
    snprintf(err, errlen, "%s: out of memory", path);
    return RT_ERR_NOMEM;
  }
  if (bad) {
    rt_free(buf);
    snprintf(err, errlen, "%s: read error", path);
    return RT_ERR_IO;
  }
  *data = buf;
  *len = n;
  return RT_OK;
}
