/* Unit tests of the pickle reader and writer (runtime/rt_pickle.c,
 * rt_pickle_write.c); tests/test_pickle.py checks both against Python. */
#include <string.h>

#include "rt.h"
#include "rt_alloc.h"
#include "rt_pickle.h"
#include "unit.h"

void test_pickle_python_bytes(void);
void test_pickle_roundtrip(void);
void test_pickle_every_truncation(void);
void test_pickle_writer_rejects(void);

/* pickle.dumps({'w': np.array([[1.5, -2], [0.25, 3]], np.float32).T},
 * protocol=2): a Fortran-order array whose data is _codecs.encode text with
 * characters past 0x7f. */
static const char py2[] =
    "\x80\x02\x7d\x71\x00\x58\x01\x00\x00\x00\x77\x71\x01\x63\x6e\x75\x6d\x70\x79\x2e\x63\x6f\x72\x65"
    "\x2e\x6d\x75\x6c\x74\x69\x61\x72\x72\x61\x79\x0a\x5f\x72\x65\x63\x6f\x6e\x73\x74\x72\x75\x63\x74"
    "\x0a\x71\x02\x63\x6e\x75\x6d\x70\x79\x0a\x6e\x64\x61\x72\x72\x61\x79\x0a\x71\x03\x4b\x00\x85\x71"
    "\x04\x63\x5f\x63\x6f\x64\x65\x63\x73\x0a\x65\x6e\x63\x6f\x64\x65\x0a\x71\x05\x58\x01\x00\x00\x00"
    "\x62\x71\x06\x58\x06\x00\x00\x00\x6c\x61\x74\x69\x6e\x31\x71\x07\x86\x71\x08\x52\x71\x09\x87\x71"
    "\x0a\x52\x71\x0b\x28\x4b\x01\x4b\x02\x4b\x02\x86\x71\x0c\x63\x6e\x75\x6d\x70\x79\x0a\x64\x74\x79"
    "\x70\x65\x0a\x71\x0d\x58\x02\x00\x00\x00\x66\x34\x71\x0e\x89\x88\x87\x71\x0f\x52\x71\x10\x28\x4b"
    "\x03\x58\x01\x00\x00\x00\x3c\x71\x11\x4e\x4e\x4e\x4a\xff\xff\xff\xff\x4a\xff\xff\xff\xff\x4b\x00"
    "\x74\x71\x12\x62\x88\x68\x05\x58\x13\x00\x00\x00\x00\x00\xc3\x80\x3f\x00\x00\x00\xc3\x80\x00\x00"
    "\xc2\x80\x3e\x00\x00\x40\x40\x71\x13\x68\x07\x86\x71\x14\x52\x71\x15\x74\x71\x16\x62\x73\x2e";

void test_pickle_python_bytes(void) {
  RtPickleEntry *e;
  int n;
  char err[256];
  CHECK(rt_pickle_read_arrays(py2, sizeof py2 - 1, &e, &n, err, sizeof err) == RT_OK);
  if (!e) return;
  CHECK(n == 1 && !strcmp(e[0].name, "w") && e[0].dtype == RT_DT_FP32 && e[0].rank == 2);
  CHECK(e[0].dims[0] == 2 && e[0].dims[1] == 2 && e[0].bytes == 16);
  const float want[4] = {1.5f, 0.25f, -2.0f, 3.0f}; /* C order of the transpose */
  CHECK(memcmp(e[0].data, want, sizeof want) == 0);
  rt_pickle_free(e, n);
}

/* A few entries of every dtype and shape kind (data in `store`). */
static int make_entries(RtPickleEntry *e, unsigned char *store) {
  static const int dts[] = {RT_DT_FP32, RT_DT_FP64, RT_DT_FP16, RT_DT_INT64, RT_DT_INT32,
                            RT_DT_INT16, RT_DT_INT8, RT_DT_UINT8, RT_DT_BOOL, RT_DT_BF16};
  static char names[40][24];
  int n = 0;
  size_t off = 0;
  for (size_t t = 0; t < sizeof dts / sizeof dts[0]; t++)
    for (int shape = 0; shape < 4; shape++) {
      RtPickleEntry *x = &e[n];
      memset(x, 0, sizeof *x);
      snprintf(names[n], sizeof names[n], "%s_%d", rt_dtype_name(dts[t]), shape);
      x->name = names[n];
      x->dtype = dts[t];
      /* 0-D, empty, 2 x 3, 10 dims */
      x->rank = shape == 0 ? 0 : shape == 1 ? 2 : shape == 2 ? 2 : RT_MAX_RANK;
      int64_t numel = 1;
      for (int d = 0; d < x->rank; d++) {
        x->dims[d] = shape == 1 ? d : shape == 2 ? 2 + d : 1 + (d == 3);
        numel *= x->dims[d];
      }
      x->bytes = (size_t)numel * rt_dtype_size(dts[t]);
      x->data = store + off;
      for (size_t b = 0; b < x->bytes; b++) store[off + b] = (unsigned char)(b * 37 + t + (dts[t] == RT_DT_BOOL ? 0 : 0x80));
      if (dts[t] == RT_DT_BOOL)
        for (size_t b = 0; b < x->bytes; b++) store[off + b] &= 1;
      off += x->bytes;
      n++;
    }
  return n;
}

void test_pickle_roundtrip(void) {
  RtPickleEntry in[40];
  unsigned char store[4096];
  int n = make_entries(in, store);
  for (int proto = 2; proto <= 4; proto += 2) {
    unsigned char *buf;
    size_t len;
    char err[256];
    CHECK(rt_pickle_dump_arrays(in, n, proto, &buf, &len, err, sizeof err) == RT_OK);
    if (!buf) continue;
    CHECK(buf[0] == 0x80 && buf[1] == proto && buf[len - 1] == '.');
    RtPickleEntry *out;
    int m;
    CHECK(rt_pickle_read_arrays(buf, len, &out, &m, err, sizeof err) == RT_OK);
    CHECK(m == n);
    for (int i = 0; out && i < n && i < m; i++) {
      CHECK(!strcmp(out[i].name, in[i].name) && out[i].dtype == in[i].dtype && out[i].rank == in[i].rank);
      CHECK(!memcmp(out[i].dims, in[i].dims, (size_t)in[i].rank * sizeof(int64_t)));
      CHECK(out[i].bytes == in[i].bytes && out[i].data && !memcmp(out[i].data, in[i].data, in[i].bytes));
    }
    rt_pickle_free(out, m);
    rt_free(buf);
  }
  /* an empty dict */
  unsigned char *buf;
  size_t len;
  char err[256];
  CHECK(rt_pickle_dump_arrays(NULL, 0, 4, &buf, &len, err, sizeof err) == RT_OK);
  RtPickleEntry *out;
  int m = -1;
  CHECK(rt_pickle_read_arrays(buf, len, &out, &m, err, sizeof err) == RT_OK && m == 0);
  rt_pickle_free(out, m);
  rt_free(buf);
}

void test_pickle_every_truncation(void) {
  RtPickleEntry in[40];
  unsigned char store[4096];
  int n = make_entries(in, store);
  for (int proto = 2; proto <= 4; proto += 2) {
    unsigned char *buf;
    size_t len;
    char err[256];
    CHECK(rt_pickle_dump_arrays(in, 8, proto, &buf, &len, err, sizeof err) == RT_OK);
    for (size_t k = 0; buf && k < len; k++) {
      RtPickleEntry *out = (RtPickleEntry *)1;
      int m = -1;
      RtStatus st = rt_pickle_read_arrays(buf, k, &out, &m, err, sizeof err);
      CHECK((st == RT_ERR_TRUNCATED || st == RT_ERR_FORMAT) && !out && m == 0 && !strncmp(err, "pickle byte ", 12));
    }
    rt_free(buf);
  }
  (void)n;
}

void test_pickle_writer_rejects(void) {
  float v[2] = {1, 2};
  RtPickleEntry e[2] = {{.name = "a", .dtype = RT_DT_FP32, .rank = 1, .dims = {2}, .data = v, .bytes = 8},
                        {.name = "a", .dtype = RT_DT_FP32, .rank = 1, .dims = {2}, .data = v, .bytes = 8}};
  unsigned char *buf = (unsigned char *)1;
  size_t len = 1;
  char err[256];
  CHECK(rt_pickle_dump_arrays(e, 2, 4, &buf, &len, err, sizeof err) == RT_ERR_FORMAT && strstr(err, "two entries"));
  CHECK(!buf && !len);
  CHECK(rt_pickle_dump_arrays(e, 1, 3, &buf, &len, err, sizeof err) == RT_ERR_FORMAT && strstr(err, "protocol 3"));
  e[1].name = "b";
  e[1].bytes = 4;
  CHECK(rt_pickle_dump_arrays(e, 2, 2, &buf, &len, err, sizeof err) == RT_ERR_FORMAT && strstr(err, "b: 4 bytes"));
  e[1].bytes = 8;
  e[1].dtype = RT_DT_COMPLEX64;
  e[1].bytes = 16;
  CHECK(rt_pickle_dump_arrays(e, 2, 2, &buf, &len, err, sizeof err) == RT_ERR_DTYPE && strstr(err, "complex64"));
  e[1].dtype = RT_DT_FP32;
  e[1].bytes = 8;
  e[1].name = "bad\xff";
  CHECK(rt_pickle_dump_arrays(e, 2, 2, &buf, &len, err, sizeof err) == RT_ERR_FORMAT && strstr(err, "UTF-8"));
  e[1].name = "b";
  e[1].rank = RT_MAX_RANK + 1;
  CHECK(rt_pickle_dump_arrays(e, 2, 2, &buf, &len, err, sizeof err) == RT_ERR_FORMAT && strstr(err, "dims"));
  e[1].rank = 1;
  CHECK(rt_pickle_write_arrays("/nonexistent/dir/x.pdparams", e, 2, 4, err, sizeof err) == RT_ERR_IO);
  CHECK(rt_pickle_dump_arrays(e, 2, 2, &buf, &len, err, sizeof err) == RT_OK);
  rt_free(buf);
  /* not pickles */
  RtPickleEntry *out;
  int m;
  CHECK(rt_pickle_read_arrays("", 0, &out, &m, err, sizeof err) == RT_ERR_TRUNCATED);
  CHECK(rt_pickle_read_arrays("(dp0\n.", 6, &out, &m, err, sizeof err) == RT_ERR_FORMAT && strstr(err, "binary pickle"));
  CHECK(rt_pickle_load("/nonexistent/x.pdparams", &out, &m, err, sizeof err) == RT_ERR_IO && !out);
}
