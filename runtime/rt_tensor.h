/* Data-movement kernels: strided copies (transpose, slicing, broadcasting),
 * gathers and top-k.  Plain C11, no allocation, no global state; shapes come
 * from generated code, which validated them at compile time.
 *
 * Index kernels read the index tensor as int32 or int64 (`index_bytes` 4 or
 * 8).  An index outside [0, n) -- Paddle raises an error there -- gives a
 * row of zeros rather than a read out of bounds. */
#ifndef PADDLEC_RT_TENSOR_H
#define PADDLEC_RT_TENSOR_H

#include <stddef.h>
#include <stdint.h>

/* Float to integer as Paddle's static_cast behaves on x86 (cvttsd2si):
 * toward zero, and NaN or a value out of range gives the most negative
 * integer.  Narrower integer types take the low bits of the int32 result,
 * as compilers do there.  Written without undefined behaviour. */
static inline int32_t rt_f2i32(double v) {
  return v > -2147483649.0 && v < 2147483648.0 ? (int32_t)v : INT32_MIN;
}
static inline int64_t rt_f2i64(double v) {
  return v >= -9223372036854775808.0 && v < 9223372036854775808.0 ? (int64_t)v : INT64_MIN;
}

/* Eigen's pow of integers (pow_impl, as Paddle's pow kernel runs it on
 * int tensors): exponentiation by squaring, e >= 0, wrapping modulo 2^64
 * (an int32 result takes the low 32 bits: the same as wrapping in 32). */
static inline int64_t rt_ipow(int64_t x, int64_t e) {
  uint64_t r = 1, b = (uint64_t)x, y = (uint64_t)e;
  if (y & 1) r *= b;
  y >>= 1;
  while (y) {
    b *= b;
    if (y & 1) r *= b;
    y >>= 1;
  }
  return (int64_t)r;
}

/* The most dims rt_copy_strided takes (tile views each dim as two). */
#define RT_COPY_MAX_RANK 20

/* ---- rt_copy.c ---- */

/* dst (contiguous, row-major, dims[rank]) = the elements of src at offsets
 * sum(i[k] * strides[k]) (in elements of `esize` bytes; a stride may be 0,
 * which broadcasts, or negative, which walks backwards).  Transpose, slice,
 * strided_slice, expand and tile are all this copy.  Dims of size 1 are
 * dropped and dims that are contiguous in src merged first; then a
 * contiguous innermost dim copies whole rows, a transposed pair of inner
 * dims goes through cache-sized tiles, and anything else walks element by
 * element. */
void rt_copy_strided(const void *src, void *dst, size_t esize, int rank, const int64_t *dims,
                     const int64_t *strides);

/* ---- rt_gather.c ---- */

/* src viewed as [outer, n, inner_bytes]: dst[o, j, :] = src[o, index[j], :]
 * for j < nindex, zeros when index[j] is `pad` or outside [0, n).  Gather
 * along an axis, index_select and embedding lookups (pad = padding_idx;
 * INT64_MIN when there is none).  Returns 1 when some index other than pad
 * is outside [0, n) (Paddle raises an error: the caller stops the run), else
 * 0. */
int rt_gather(const void *src, int64_t outer, int64_t n, int64_t inner_bytes, const void *index,
               int index_bytes, int64_t nindex, int64_t pad, void *dst);

/* gather_nd: index holds rows of k coordinates into the first k dims of
 * src (dims[0..k)); row r of dst (slice_bytes bytes) is the slice of src
 * they address, zeros when a coordinate is outside [0, dims[i]); returns 1
 * when one is (Paddle raises an error), else 0. */
int rt_gather_nd(const void *src, const int64_t *dims, int k, int64_t slice_bytes, const void *index,
                  int index_bytes, int64_t nrows, void *dst);

/* ---- rt_topk.c ---- */

/* rt_topk_* flags: which kernel's steps to take, and its attributes. */
#define RT_TOPK_LARGEST 1 /* top_k_v2 largest: the k largest, NaN first (else the k smallest, NaN last) */
#define RT_TOPK_SORTED 2  /* top_k_v2 sorted: the first k - 1 in order (else as std::nth_element leaves them) */
#define RT_TOPK_V1 4      /* top_k (v1): the k largest by "a > b", sorted; the other flags are ignored */
/* Bytes of the work buffer rt_topk_* needs for lines of n elements: n
 * (value, position) pairs of 16 bytes. */
#define RT_TOPK_WORK_BYTES(n) ((n) * 16)

/* The k best values along the middle dim of x viewed as [outer, n, inner]
 * with their positions, in the order Paddle 2.6's CPU kernel gives them,
 * ties and NaN included (the libstdc++ steps it takes; see rt_topk.c).
 * vals and idx are [outer, k, inner]; `work` holds RT_TOPK_WORK_BYTES(n)
 * bytes, 8-byte aligned.  k > n (an error in Paddle) fills the last k - n
 * entries of each line with zeros. */
void rt_topk_f32(const float *x, int64_t outer, int64_t n, int64_t inner, int64_t k, int flags, float *vals,
                 int64_t *idx, void *work);
void rt_topk_f64(const double *x, int64_t outer, int64_t n, int64_t inner, int64_t k, int flags, double *vals,
                 int64_t *idx, void *work);
void rt_topk_i32(const int32_t *x, int64_t outer, int64_t n, int64_t inner, int64_t k, int flags, int32_t *vals,
                 int64_t *idx, void *work);
void rt_topk_i64(const int64_t *x, int64_t outer, int64_t n, int64_t inner, int64_t k, int flags, int64_t *vals,
                 int64_t *idx, void *work);

#endif
