/* Unit tests of the tensor-record reader (runtime/rt_tensor_io.c). */
#include <stdint.h>
#include <string.h>

#include "rt.h"
#include "unit.h"

void test_tensor_worked_example(void);
void test_tensor_packed_dims(void);
void test_tensor_every_truncation(void);
void test_tensor_bad_versions(void);
void test_tensor_lod_levels_skipped(void);
void test_tensor_unknown_dtype(void);
void test_dtype_sizes(void);

/* The worked example of spec section 5.1: FP32 [2,3], 50 bytes. */
static size_t worked_example(uint8_t *b) {
  static const uint8_t head[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                 6, 0, 0, 0, 0x08, 0x05, 0x10, 0x02, 0x10, 0x03};
  memcpy(b, head, sizeof head);
  for (int i = 0; i < 24; i++) b[sizeof head + (size_t)i] = (uint8_t)i;
  return sizeof head + 24;
}

void test_tensor_worked_example(void) {
  uint8_t b[64];
  size_t n = worked_example(b);
  RtTensorHdr h;
  char err[128];
  CHECK(n == 50);
  CHECK(rt_tensor_parse(b, n, &h, err, sizeof err) == RT_OK);
  CHECK(h.dtype == RT_DT_FP32 && h.rank == 2 && h.dims[0] == 2 && h.dims[1] == 3);
  CHECK(h.numel == 6 && h.data_bytes == 24 && h.data_offset == 26 && h.record_bytes == 50);
  /* with trailing bytes the record still ends at 50 */
  CHECK(rt_tensor_parse(b, n + 10, &h, err, sizeof err) == RT_OK && h.record_bytes == 50);
}

void test_tensor_packed_dims(void) {
  uint8_t b[64];
  size_t n = worked_example(b);
  /* TensorDesc 08 05 12 02 02 03: same desc with packed dims */
  const uint8_t packed[] = {0x08, 0x05, 0x12, 0x02, 0x02, 0x03};
  memcpy(b + 20, packed, sizeof packed);
  RtTensorHdr h;
  char err[128];
  CHECK(rt_tensor_parse(b, n, &h, err, sizeof err) == RT_OK);
  CHECK(h.rank == 2 && h.dims[0] == 2 && h.dims[1] == 3);
}

void test_tensor_every_truncation(void) {
  uint8_t b[64];
  size_t n = worked_example(b);
  for (size_t k = 0; k < n; k++) {
    RtTensorHdr h;
    char err[128] = "";
    RtStatus st = rt_tensor_parse(b, k, &h, err, sizeof err);
    CHECK(st == RT_ERR_TRUNCATED || st == RT_ERR_FORMAT);
    CHECK(err[0] != 0);
  }
}

void test_tensor_bad_versions(void) {
  uint8_t b[64];
  size_t n = worked_example(b);
  RtTensorHdr h;
  char err[128];
  b[0] = 1;
  CHECK(rt_tensor_parse(b, n, &h, err, sizeof err) == RT_ERR_FORMAT);
  b[0] = 0;
  b[12] = 2; /* tensor_version */
  CHECK(rt_tensor_parse(b, n, &h, err, sizeof err) == RT_ERR_FORMAT);
}

void test_tensor_lod_levels_skipped(void) {
  uint8_t b[96], base[64];
  size_t n = worked_example(base);
  /* lod_version, 1 level of 16 bytes (two size_t offsets), then the rest */
  memset(b, 0, sizeof b);
  b[4] = 1;
  b[12] = 16;
  memcpy(b + 36, base + 12, n - 12);
  RtTensorHdr h;
  char err[128];
  CHECK(rt_tensor_parse(b, 36 + n - 12, &h, err, sizeof err) == RT_OK);
  CHECK(h.lod_levels == 1 && h.data_offset == 26 + 24 && h.record_bytes == 74);
}

void test_tensor_unknown_dtype(void) {
  uint8_t b[64];
  size_t n = worked_example(b);
  RtTensorHdr h;
  char err[128];
  b[21] = 0x63; /* data_type 99 */
  CHECK(rt_tensor_parse(b, n, &h, err, sizeof err) == RT_ERR_DTYPE);
  CHECK(strstr(err, "99") != NULL);
}

void test_dtype_sizes(void) {
  /* element sizes from spec table 2.1 */
  static const int code[] = {0, 1, 2, 3, 4, 5, 6, 19, 20, 21, 22, 23, 24, 32, 33};
  static const size_t size[] = {1, 2, 4, 8, 2, 4, 8, 8, 1, 1, 2, 8, 16, 1, 1};
  for (size_t i = 0; i < sizeof code / sizeof code[0]; i++) {
    CHECK(rt_dtype_size(code[i]) == size[i]);
    CHECK(rt_dtype_name(code[i]) != NULL);
  }
  CHECK(rt_dtype_size(7) == 0 && rt_dtype_size(-1) == 0 && rt_dtype_name(99) == NULL);
}
