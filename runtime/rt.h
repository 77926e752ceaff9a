/* libpaddlec_rt: the small runtime shared by the compiler and generated code.
 *
 * This header holds what both sides need: status codes, Paddle's dtype
 * numbers, and the reader for Paddle's tensor-record format (the format of
 * .pdiparams files and 1.x per-variable parameter files; spec section 5).
 * Every exported name carries the rt_ prefix; nothing here keeps global state.
 */
#ifndef PADDLEC_RT_H
#define PADDLEC_RT_H

#include <stddef.h>
#include <stdint.h>

/* Status codes, grouped by category (0 = success). */
typedef enum RtStatus {
  RT_OK = 0,
  RT_ERR_FORMAT = 10,    /* malformed bytes in a parameter or .npy file */
  RT_ERR_TRUNCATED = 11, /* the data ends before the record does */
  RT_ERR_DTYPE = 12,     /* a dtype number this build does not know */
  RT_ERR_IO = 20,        /* open/read/write failed */
  RT_ERR_NOMEM = 30,     /* the allocation hook returned NULL */
} RtStatus;

/* VarType.Type numbers used as element dtypes (spec table 2.1). */
enum {
  RT_DT_BOOL = 0,
  RT_DT_INT16 = 1,
  RT_DT_INT32 = 2,
  RT_DT_INT64 = 3,
  RT_DT_FP16 = 4,
  RT_DT_FP32 = 5,
  RT_DT_FP64 = 6,
  RT_DT_SIZE_T = 19,
  RT_DT_UINT8 = 20,
  RT_DT_INT8 = 21,
  RT_DT_BF16 = 22,
  RT_DT_COMPLEX64 = 23,
  RT_DT_COMPLEX128 = 24,
  RT_DT_FP8_E4M3FN = 32,
  RT_DT_FP8_E5M2 = 33,
};

#define RT_MAX_RANK 10 /* Paddle allows 9 dims; XShape vars add one */

/* Marks a parameter a function may leave unused (an emitted kernel's m, B
 * or ws): no -Wunused-parameter for it. */
#if defined(__GNUC__) || defined(__clang__)
#define RT_UNUSED __attribute__((unused))
#else
#define RT_UNUSED
#endif

/* Checked sizes: the one way to multiply or add dims, element counts,
 * element sizes and byte counts that come from a file, the command line or
 * a batch.  *out = a * b (a + b) when a and b are >= 0 and the result fits
 * in int64_t; otherwise returns -1 and leaves *out alone.  Callers turn -1
 * into an error naming the file and the var (compiler) or a status. */
static inline int rt_size_mul(int64_t a, int64_t b, int64_t *out) {
  int64_t r;
  if (a < 0 || b < 0) return -1;
#if defined(__GNUC__) || defined(__clang__)
  if (__builtin_mul_overflow(a, b, &r)) return -1;
#else
  if (a && b > INT64_MAX / a) return -1;
  r = a * b;
#endif
  *out = r;
  return 0;
}
static inline int rt_size_add(int64_t a, int64_t b, int64_t *out) {
  if (a < 0 || b < 0 || a > INT64_MAX - b) return -1;
  *out = a + b;
  return 0;
}
/* n as a size_t into *out; -1 when it is negative or (32-bit targets) does
 * not fit. */
static inline int rt_size_to(int64_t n, size_t *out) {
  if (n < 0) return -1;
#if SIZE_MAX < INT64_MAX
  if ((uint64_t)n > SIZE_MAX) return -1;
#endif
  *out = (size_t)n;
  return 0;
}
/* The product of dims[0..rank) into *numel, and of the non-zero ones into
 * *bound when bound is not NULL (so that every partial product of the dims
 * fits as well); -1 when a dim is negative or a product overflows. */
static inline int rt_size_numel(const int64_t *dims, int rank, int64_t *numel, int64_t *bound) {
  int64_t n = 1, nz = 1;
  for (int i = 0; i < rank; i++) {
    if (dims[i] < 0) return -1;
    if (dims[i] == 0) n = 0;
    else if (rt_size_mul(nz, dims[i], &nz)) return -1;
  }
  *numel = n ? nz : 0;
  if (bound) *bound = nz;
  return 0;
}

/* Bytes per element of a dtype number, or 0 when it is not an element type. */
size_t rt_dtype_size(int dtype);
/* Paddle's lower-case name ("float32", "int64", ...), or NULL. */
const char *rt_dtype_name(int dtype);

/* The header of one tensor record, as found in the stream. */
typedef struct RtTensorHdr {
  int dtype;                  /* TensorDesc.data_type */
  int rank;                   /* number of dims (0 = 0-D tensor) */
  int64_t dims[RT_MAX_RANK];  /* TensorDesc.dims */
  uint64_t lod_levels;        /* LoD levels found (0 for parameters) */
  uint64_t numel;             /* product of dims */
  uint64_t data_offset;       /* offset of the raw data from the record start */
  uint64_t data_bytes;        /* numel * element size */
  uint64_t record_bytes;      /* the whole record, header and data */
} RtTensorHdr;

/* Parses the tensor record that starts at buf[0] (len bytes available).
 * On failure returns a status and writes a one-line reason into err. */
RtStatus rt_tensor_parse(const uint8_t *buf, size_t len, RtTensorHdr *hdr,
                         char *err, size_t errlen);

/* A .npy array read into memory (rt_npy_read allocates `data` with rt_alloc;
 * rt_npy_free frees it). */
typedef struct RtNpy {
  int dtype;                 /* Paddle dtype number */
  int rank;                  /* number of dims */
  int64_t dims[RT_MAX_RANK]; /* shape */
  void *data;                /* C-order elements */
  size_t bytes;              /* size of data */
} RtNpy;

RtStatus rt_npy_read(const char *path, RtNpy *a, char *err, size_t errlen);
void rt_npy_free(RtNpy *a);
RtStatus rt_npy_write(const char *path, int dtype, int rank, const int64_t *dims, const void *data,
                      char *err, size_t errlen);

/* What the compiled model expects of one weight. */
typedef struct RtWeightSpec {
  const char *name;          /* Paddle variable name */
  int dtype;                 /* Paddle dtype number */
  int rank;                  /* number of dims */
  int64_t dims[RT_MAX_RANK]; /* dims */
  int64_t pack_rows;         /* 0: kept as is; else the slot holds the float
                              * weight prepared for rt_pp_gemm (rt_prepack) */
  int pack_wino;             /* with pack_rows: 0, or Winograd's m (2, 4) */
  int pack_panel;            /* with pack_rows: the panel height (16, 64) */
} RtWeightSpec;

/* Floats of a weight of `numel` floats prepared with pack_rows `rows` and
 * pack_wino `wino`, and the preparation from its data `src` (any alignment)
 * into `out` in panels of `panel` rows (rt_prepack.c). */
int64_t rt_prepack_floats(int64_t rows, int wino, int64_t numel);
void rt_prepack(const void *src, int64_t rows, int wino, int panel, int64_t numel, float *out);

/* Bytes of the 64-byte aligned copies of `count` weights (packed ones in
 * their packed size). */
size_t rt_weights_bytes(const RtWeightSpec *specs, int count);
/* Checks the records in `blob` (a .pdiparams file's bytes) against the specs,
 * copies each into `store` (aligned slots), points ptrs[i] at them. */
RtStatus rt_weights_bind(const void *blob, size_t len, const RtWeightSpec *specs, int count,
                         unsigned char *store, const void **ptrs, char *err, size_t errlen);
/* Reads a whole file into memory from rt_alloc (free it with rt_free). */
RtStatus rt_read_file(const char *path, unsigned char **data, size_t *len, char *err, size_t errlen);

/* Allocation hook: every runtime allocation goes through it. */
typedef void *(*RtAllocFn)(void *user, size_t bytes);
typedef void (*RtFreeFn)(void *user, void *ptr);

#endif
