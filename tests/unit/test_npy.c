/* Unit tests of the .npy reader and writer (runtime/rt_npy.c). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt.h"
#include "unit.h"

void test_npy_roundtrip(void);
void test_npy_rejects_garbage(void);

void test_npy_roundtrip(void) {
  char path[] = "/tmp/paddlec_npy_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
  const int64_t dims[] = {2, 3};
  const float v[6] = {1, 2, 3, 4, 5, -6};
  char err[128];
  CHECK(rt_npy_write(path, RT_DT_FP32, 2, dims, v, err, sizeof err) == RT_OK);
  RtNpy a;
  CHECK(rt_npy_read(path, &a, err, sizeof err) == RT_OK);
  CHECK(a.dtype == RT_DT_FP32 && a.rank == 2 && a.dims[0] == 2 && a.dims[1] == 3);
  CHECK(a.bytes == sizeof v && memcmp(a.data, v, sizeof v) == 0);
  rt_npy_free(&a);
  const int64_t one[] = {5};
  const int64_t ids[5] = {0, 1, 2, 3, 4};
  CHECK(rt_npy_write(path, RT_DT_INT64, 1, one, ids, err, sizeof err) == RT_OK);
  CHECK(rt_npy_read(path, &a, err, sizeof err) == RT_OK);
  CHECK(a.dtype == RT_DT_INT64 && a.rank == 1 && a.dims[0] == 5);
  rt_npy_free(&a);
  CHECK(rt_npy_write(path, RT_DT_FP32, 0, NULL, v, err, sizeof err) == RT_OK); /* 0-D */
  CHECK(rt_npy_read(path, &a, err, sizeof err) == RT_OK && a.rank == 0 && a.bytes == 4);
  rt_npy_free(&a);
  remove(path);
}

void test_npy_rejects_garbage(void) {
  char path[] = "/tmp/paddlec_npy_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  CHECK(write(fd, "not numpy at all", 16) == 16);
  close(fd);
  RtNpy a;
  char err[128];
  CHECK(rt_npy_read(path, &a, err, sizeof err) == RT_ERR_FORMAT && a.data == NULL);
  remove(path);
  CHECK(rt_npy_read("/nonexistent/x.npy", &a, err, sizeof err) == RT_ERR_IO);
}
