/* Paddle dtype numbers: element sizes and names (spec section 2.1). */
#include "rt.h"

typedef struct DtypeInfo {
  int code;          /* VarType.Type number */
  size_t size;       /* bytes per element */
  const char *name;  /* numpy-style name as Paddle prints it */
} DtypeInfo;

static const DtypeInfo dtypes[] = {
    {RT_DT_BOOL, 1, "bool"},          {RT_DT_INT16, 2, "int16"},
    {RT_DT_INT32, 4, "int32"},        {RT_DT_INT64, 8, "int64"},
    {RT_DT_FP16, 2, "float16"},       {RT_DT_FP32, 4, "float32"},
    {RT_DT_FP64, 8, "float64"},       {RT_DT_SIZE_T, 8, "size_t"},
    {RT_DT_UINT8, 1, "uint8"},        {RT_DT_INT8, 1, "int8"},
    {RT_DT_BF16, 2, "bfloat16"},      {RT_DT_COMPLEX64, 8, "complex64"},
    {RT_DT_COMPLEX128, 16, "complex128"},
    {RT_DT_FP8_E4M3FN, 1, "float8_e4m3fn"},
    {RT_DT_FP8_E5M2, 1, "float8_e5m2"},
};

static const DtypeInfo *find(int code) {
  for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
    if (dtypes[i].code == code) return &dtypes[i];
  return 0;
}

size_t rt_dtype_size(int dtype) {
  const DtypeInfo *d = find(dtype);
  return d ? d->size : 0;
}

const char *rt_dtype_name(int dtype) {
  const DtypeInfo *d = find(dtype);
  return d ? d->name : 0;
}
