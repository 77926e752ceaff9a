/* Paddle's pickled checkpoints: the .pdparams and .pdopt files that
 * paddle.static.save (protocol 4 by default; 2, 3 or 4 on request) and
 * Paddle 1.x fluid.save / fluid.io.save (protocol 2) write, each a Python
 * pickle of one dict {str var name: numpy.ndarray}.
 *
 * The reader is a small pickle stack machine that accepts exactly what builds
 * such a dict: numpy arrays made by numpy.core.multiarray._reconstruct and
 * ndarray.__setstate__, dtypes by numpy.dtype, raw data as bytes, as
 * _codecs.encode(str, 'latin1') (Python 3, protocol 2) or as a Python 2 str,
 * and Paddle's split of big arrays ("UnpackBigParamInfor@@", protocols 2 and
 * 3), which it joins back as paddle.static.load does.  Anything else (another
 * global, object, opcode or dtype) is an error naming it and its byte
 * offset; malformed bytes are errors too, never a crash or an unbounded
 * allocation.  Little-endian hosts only, as the rest of the runtime.
 *
 * The writer writes such a dict with protocol 2 or 4; Python's pickle.load
 * and paddle.static.load read it back. */
#ifndef PADDLEC_RT_PICKLE_H
#define PADDLEC_RT_PICKLE_H

#include "rt.h"

/* One array of the dict. */
typedef struct RtPickleEntry {
  char *name;                /* the dict key (NUL-terminated UTF-8) */
  int dtype;                 /* Paddle dtype number (RT_DT_*) */
  int rank;                  /* number of dims (0 = 0-D) */
  int64_t dims[RT_MAX_RANK]; /* shape */
  void *data;                /* C-order elements, `bytes` of them */
  size_t bytes;              /* numel x rt_dtype_size(dtype) */
} RtPickleEntry;

/* The numpy dtypes read and written, as Paddle dtype numbers: float32,
 * float64, float16 (raw bits), int64, int32, int16, int8, uint8, bool, and
 * uint16 as bfloat16 (how numpy holds a Paddle bfloat16 tensor). */

/* Parses the pickle in bytes[0..len) into *out, *count arrays in the dict's
 * order (arrays joined from "@@." slices last, as paddle.static.load has
 * them).  Fortran-order arrays are converted to C order.  Names and data are
 * copies from rt_alloc (data never NULL, even when bytes is 0); free them
 * with rt_pickle_free.  On failure returns a status, leaves *out NULL and
 * *count 0, and writes "pickle byte N: what" into err. */
RtStatus rt_pickle_read_arrays(const void *bytes, size_t len, RtPickleEntry **out, int *count, char *err,
                               size_t errlen);
/* rt_pickle_read_arrays of the file at path (errors start with the path). */
RtStatus rt_pickle_load(const char *path, RtPickleEntry **out, int *count, char *err, size_t errlen);
/* Frees what the readers returned (NULL is fine). */
void rt_pickle_free(RtPickleEntry *entries, int count);

/* Writes the `count` entries (name, dtype, rank, dims, data; bytes must
 * match dims and dtype) as a pickled dict with `protocol` 2 or 4 into a
 * buffer from rt_alloc (*out, *len; free with rt_free). */
RtStatus rt_pickle_dump_arrays(const RtPickleEntry *entries, int count, int protocol, unsigned char **out,
                               size_t *len, char *err, size_t errlen);
/* The same into the file at path: written to "PATH.tmp", then renamed over
 * path, so that a failed save leaves an older file whole. */
RtStatus rt_pickle_write_arrays(const char *path, const RtPickleEntry *entries, int count, int protocol,
                                char *err, size_t errlen);

#endif
