/* Paddle's tensor-record format (spec section 5.1):
 *   u32 lod_version (0) | u64 lod_levels | per level: u64 nbytes + bytes
 *   u32 tensor_version (0) | i32 desc_size | TensorDesc protobuf | raw data
 * All integers little-endian.  The TensorDesc is decoded here with a tiny
 * varint reader so the runtime does not depend on protobuf-c. */
#include <stdio.h>
#include <string.h>

#include "rt.h"

typedef struct Cursor {
  const uint8_t *p;   /* next byte */
  const uint8_t *end; /* one past the last byte */
} Cursor;

static int take(Cursor *c, void *out, size_t n) {
  if ((size_t)(c->end - c->p) < n) return 0;
  memcpy(out, c->p, n);
  c->p += n;
  return 1;
}

static uint64_t le64(const uint8_t b[8]) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | b[i];
  return v;
}

static uint32_t le32(const uint8_t b[4]) {
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
         (uint32_t)b[3] << 24;
}

static int varint(Cursor *c, uint64_t *v) {
  *v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (c->p >= c->end) return 0;
    uint8_t b = *c->p++;
    *v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) return 1;
  }
  return 0;
}

static int add_dim(RtTensorHdr *h, uint64_t v) {
  if (h->rank >= RT_MAX_RANK) return 0;
  h->dims[h->rank++] = (int64_t)v;
  return 1;
}

/* Decodes TensorDesc {1: data_type varint, 2: repeated int64 dims}. */
static int parse_desc(Cursor c, RtTensorHdr *h, const char **why) {
  h->dtype = -1;
  h->rank = 0;
  while (c.p < c.end) {
    uint64_t key, v;
    if (!varint(&c, &key)) return *why = "bad TensorDesc tag", 0;
    unsigned field = (unsigned)(key >> 3), wt = (unsigned)(key & 7);
    if (wt == 0) {
      if (!varint(&c, &v)) return *why = "bad TensorDesc varint", 0;
      if (field == 1) h->dtype = (int)(int64_t)v;
      if (field == 2 && !add_dim(h, v)) return *why = "too many dims", 0;
    } else if (wt == 2) {
      if (!varint(&c, &v) || v > (uint64_t)(c.end - c.p))
        return *why = "bad TensorDesc length", 0;
      Cursor sub = {c.p, c.p + v};
      c.p += v;
      if (field == 2)
        while (sub.p < sub.end)
          if (!varint(&sub, &v) || !add_dim(h, v))
            return *why = "bad packed dims", 0;
    } else if (wt == 5) {
      if (c.end - c.p < 4) return *why = "bad TensorDesc field", 0;
      c.p += 4;
    } else if (wt == 1) {
      if (c.end - c.p < 8) return *why = "bad TensorDesc field", 0;
      c.p += 8;
    } else {
      return *why = "bad TensorDesc wire type", 0;
    }
  }
  if (h->dtype < 0) return *why = "TensorDesc has no data_type", 0;
  return 1;
}

RtStatus rt_tensor_parse(const uint8_t *buf, size_t len, RtTensorHdr *h,
                         char *err, size_t errlen) {
  Cursor c = {buf, buf + len};
  uint8_t b4[4], b8[8];
  memset(h, 0, sizeof *h);
  if (len == 0) {
    snprintf(err, errlen, "no tensor record (end of data)");
    return RT_ERR_TRUNCATED;
  }
  if (!take(&c, b4, 4)) goto truncated;
  if (le32(b4) != 0) {
    snprintf(err, errlen, "LoD version %u, expected 0 (not a tensor record)",
             (unsigned)le32(b4));
    return RT_ERR_FORMAT;
  }
  if (!take(&c, b8, 8)) goto truncated;
  h->lod_levels = le64(b8);
  if (h->lod_levels > 64) {
    snprintf(err, errlen, "implausible LoD level count %llu",
             (unsigned long long)h->lod_levels);
    return RT_ERR_FORMAT;
  }
  for (uint64_t l = 0; l < h->lod_levels; l++) {
    if (!take(&c, b8, 8)) goto truncated;
    uint64_t n = le64(b8);
    if (n > (uint64_t)(c.end - c.p)) goto truncated;
    c.p += n;
  }
  if (!take(&c, b4, 4)) goto truncated;
  if (le32(b4) != 0) {
    snprintf(err, errlen, "tensor version %u, expected 0", (unsigned)le32(b4));
    return RT_ERR_FORMAT;
  }
  if (!take(&c, b4, 4)) goto truncated;
  int32_t desc = (int32_t)le32(b4);
  if (desc < 0) {
    snprintf(err, errlen, "negative TensorDesc size %d", (int)desc);
    return RT_ERR_FORMAT;
  }
  if ((size_t)(c.end - c.p) < (size_t)desc) goto truncated;
  const char *why = 0;
  if (!parse_desc((Cursor){c.p, c.p + desc}, h, &why)) {
    snprintf(err, errlen, "%s", why);
    return RT_ERR_FORMAT;
  }
  c.p += desc;
  size_t es = rt_dtype_size(h->dtype);
  if (es == 0) {
    snprintf(err, errlen, "unknown dtype number %d", h->dtype);
    return RT_ERR_DTYPE;
  }
  for (int i = 0; i < h->rank; i++) {
    if (h->dims[i] < 0) {
      snprintf(err, errlen, "negative dim %lld in stored tensor",
               (long long)h->dims[i]);
      return RT_ERR_FORMAT;
    }
  }
  int64_t numel, bound, bytes;
  if (rt_size_numel(h->dims, h->rank, &numel, &bound) ||
      rt_size_mul(bound, (int64_t)es, &bytes)) {
    snprintf(err, errlen, "tensor size overflows");
    return RT_ERR_FORMAT;
  }
  h->numel = (uint64_t)numel;
  h->data_offset = (uint64_t)(c.p - buf);
  h->data_bytes = h->numel * es; /* <= bound * es */
  if (h->data_bytes > (uint64_t)(c.end - c.p)) {
    snprintf(err, errlen, "data truncated: %llu bytes expected, %llu present",
             (unsigned long long)h->data_bytes,
             (unsigned long long)(c.end - c.p));
    return RT_ERR_TRUNCATED;
  }
  h->record_bytes = h->data_offset + h->data_bytes;
  return RT_OK;
truncated:
  snprintf(err, errlen, "record header truncated at byte %zu",
           (size_t)(c.p - buf));
  return RT_ERR_TRUNCATED;
}
