/* NumPy .npy files (format versions 1.0, 2.0 and 3.0): little-endian,
 * C-order arrays of the dtypes paddlec handles. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"
#include "rt_alloc.h"

typedef struct NpyType {
  int dtype;          /* Paddle dtype number */
  const char *descr;  /* numpy descr string */
} NpyType;

static const NpyType types[] = {
    {RT_DT_FP32, "<f4"},  {RT_DT_FP64, "<f8"},  {RT_DT_FP16, "<f2"}, {RT_DT_INT64, "<i8"},
    {RT_DT_INT32, "<i4"}, {RT_DT_INT16, "<i2"}, {RT_DT_INT8, "|i1"}, {RT_DT_UINT8, "|u1"},
    {RT_DT_BOOL, "|b1"},  {RT_DT_BF16, "<u2"},
};

static int descr_dtype(const char *d) {
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
    const char *t = types[i].descr;
    if (!strcmp(d, t) || (d[0] == '|' && t[0] == '<' && !strcmp(d + 1, t + 1)) ||
        (d[0] == '<' && t[0] == '|' && !strcmp(d + 1, t + 1)))
      return types[i].dtype;
  }
  return -1;
}

static const char *dtype_descr(int dtype) {
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    if (types[i].dtype == dtype) return types[i].descr;
  return NULL;
}

/* Finds 'key': in the header dict and returns a pointer after the colon. */
static const char *dict_value(const char *h, const char *key) {
  const char *p = strstr(h, key);
  if (!p) return NULL;
  p = strchr(p + strlen(key), ':');
  if (!p) return NULL;
  p++;
  while (*p == ' ') p++;
  return p;
}

static RtStatus parse_header(const char *h, RtNpy *a, char *err, size_t errlen) {
  const char *d = dict_value(h, "'descr'"), *f = dict_value(h, "'fortran_order'"),
             *s = dict_value(h, "'shape'");
  if (!d || !f || !s || *d != '\'' || *s != '(') {
    snprintf(err, errlen, "malformed .npy header");
    return RT_ERR_FORMAT;
  }
  char descr[16] = {0};
  const char *e = strchr(d + 1, '\'');
  if (!e || e - d - 1 >= (long)sizeof descr) {
    snprintf(err, errlen, "malformed .npy descr");
    return RT_ERR_FORMAT;
  }
  memcpy(descr, d + 1, (size_t)(e - d - 1));
  a->dtype = descr_dtype(descr);
  if (a->dtype < 0) {
    snprintf(err, errlen, "unsupported .npy dtype '%s'", descr);
    return RT_ERR_DTYPE;
  }
  if (strncmp(f, "False", 5) != 0) {
    snprintf(err, errlen, "Fortran-order .npy arrays are not supported (save with np.ascontiguousarray)");
    return RT_ERR_FORMAT;
  }
  a->rank = 0;
  for (const char *p = s + 1; *p && *p != ')';) {
    while (*p == ' ' || *p == ',') p++;
    if (*p == ')') break;
    char *end;
    long long v = strtoll(p, &end, 10);
    if (end == p || v < 0 || a->rank >= RT_MAX_RANK) {
      snprintf(err, errlen, "malformed .npy shape");
      return RT_ERR_FORMAT;
    }
    a->dims[a->rank++] = v;
    p = end;
  }
  return RT_OK;
}

RtStatus rt_npy_read(const char *path, RtNpy *a, char *err, size_t errlen) {
  memset(a, 0, sizeof *a);
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "cannot open");
    return RT_ERR_IO;
  }
  unsigned char pre[12];
  RtStatus st = RT_ERR_FORMAT;
  char *h = NULL;
  if (fread(pre, 1, 10, f) != 10 || memcmp(pre, "\x93NUMPY", 6) != 0) {
    snprintf(err, errlen, "not a .npy file (no \\x93NUMPY magic)");
    goto done;
  }
  size_t hlen = (size_t)pre[8] | (size_t)pre[9] << 8;
  if (pre[6] >= 2) {
    if (fread(pre + 10, 1, 2, f) != 2) goto truncated;
    hlen |= (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
  }
  if (hlen > (1u << 20)) {
    snprintf(err, errlen, "implausible .npy header length");
    goto done;
  }
  h = rt_calloc(1, hlen + 1);
  if (!h) {
    st = RT_ERR_NOMEM;
    goto done;
  }
  if (fread(h, 1, hlen, f) != hlen) goto truncated;
  if ((st = parse_header(h, a, err, errlen))) goto done;
  size_t n = rt_dtype_size(a->dtype);
  for (int i = 0; i < a->rank; i++) {
    if (a->dims[i] && n > SIZE_MAX / (size_t)a->dims[i]) {
      snprintf(err, errlen, "malformed .npy shape (its size overflows)");
      st = RT_ERR_FORMAT;
      goto done;
    }
    n *= (size_t)a->dims[i];
  }
  /* the data must be in the file before it is allocated (when it can seek) */
  long here = ftell(f), end = -1;
  if (here >= 0 && fseek(f, 0, SEEK_END) == 0) {
    end = ftell(f);
    if (fseek(f, here, SEEK_SET)) goto truncated;
  }
  if (end >= here && here >= 0 && (unsigned long)(end - here) < n) goto truncated;
  a->bytes = n;
  a->data = rt_alloc(n ? n : 1);
  if (!a->data) {
    st = RT_ERR_NOMEM;
    goto done;
  }
  if (fread(a->data, 1, n, f) != n) goto truncated;
  st = RT_OK;
  goto done;
truncated:
  snprintf(err, errlen, "truncated .npy file");
  st = RT_ERR_TRUNCATED;
done:
  rt_free(h);
  fclose(f);
  if (st) rt_npy_free(a);
  return st;
}

void rt_npy_free(RtNpy *a) {
  rt_free(a->data);
  a->data = NULL;
}

RtStatus rt_npy_write(const char *path, int dtype, int rank, const int64_t *dims, const void *data,
                      char *err, size_t errlen) {
  const char *descr = dtype_descr(dtype);
  if (!descr) {
    snprintf(err, errlen, "dtype %d cannot be written as .npy", dtype);
    return RT_ERR_DTYPE;
  }
  char shape[RT_MAX_RANK * 24 + 4] = "", h[512];
  size_t n = rt_dtype_size(dtype), off = 0;
  for (int i = 0; i < rank; i++) {
    off += (size_t)snprintf(shape + off, sizeof shape - off, "%lld,%s", (long long)dims[i],
                            i + 1 < rank ? " " : "");
    n *= (size_t)dims[i];
  }
  if (rank > 1) shape[off - 1] = 0; /* "(2, 3)" not "(2, 3,)"; keep "(5,)" */
  int len = snprintf(h, sizeof h, "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, shape);
  int total = 10 + len + 1;
  int pad = (64 - total % 64) % 64;
  FILE *f = fopen(path, "wb");
  if (!f) {
    snprintf(err, errlen, "cannot create");
    return RT_ERR_IO;
  }
  unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0, 0};
  pre[8] = (unsigned char)((len + pad + 1) & 0xff);
  pre[9] = (unsigned char)((len + pad + 1) >> 8);
  int ok = fwrite(pre, 1, 10, f) == 10 && fwrite(h, 1, (size_t)len, f) == (size_t)len;
  for (int i = 0; ok && i < pad; i++) ok = fputc(' ', f) != EOF;
  ok = ok && fputc('\n', f) != EOF && fwrite(data, 1, n, f) == n;
  if (fclose(f) || !ok) {
    snprintf(err, errlen, "write failed");
    return RT_ERR_IO;
  }
  return RT_OK;
}
