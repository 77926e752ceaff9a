/* Weights bound in a prepared layout (RtWeightSpec.pack_rows, pack_wino):
 * the size of the prepared copy and how it is made from the weight's float
 * data (any alignment: a .pdiparams record, or the compiler's copy for
 * --embed-weights).  pack_wino 0: the [rows, numel / rows] matrix packed for
 * rt_pp_gemm.  pack_wino m (2 or 4): the 3x3 filters [rows, c_in, 3, 3]
 * transformed for Winograd F(m x m, 3x3) (rt_wino2_filter, rt_wino4_filter),
 * the (m + 2)^2 planes U[e] [rows, c_in] each packed for rt_pp_gemm, one
 * after the other.  Panels of `panel` rows (rt_blocking.h). */
#include <string.h>

#include "rt.h"
#include "rt_kernels.h"

static int64_t planes(int wino) { return wino ? (int64_t)(wino + 2) * (wino + 2) : 1; }
static int64_t cols(int64_t rows, int wino, int64_t numel) { return numel / rows / (wino ? 9 : 1); }

int64_t rt_prepack_floats(int64_t rows, int wino, int64_t numel) {
  return planes(wino) * RT_PP_FLOATS(rows, cols(rows, wino, numel));
}

void rt_prepack(const void *src, int64_t rows, int wino, int panel, int64_t numel, float *out) {
  const int64_t k = cols(rows, wino, numel), plane = RT_PP_FLOATS(rows, k);
  if (!wino) {
    rt_pp_pack(src, rows, k, panel, out);
    return;
  }
  memset(out, 0, sizeof(float) * (size_t)(planes(wino) * plane)); /* the padding rows */
  for (int64_t oc = 0; oc < rows; oc++)
    for (int64_t ic = 0; ic < k; ic++) {
      float g[9], u[36];
      memcpy(g, (const unsigned char *)src + sizeof(float) * (size_t)((oc * k + ic) * 9), sizeof g);
      if (wino == 2) rt_wino2_filter(g, u);
      else rt_wino4_filter(g, u);
      const int64_t at = rt_pp_index(rows, k, panel, oc, ic);
      for (int64_t e = 0; e < planes(wino); e++) out[e * plane + at] = u[e];
    }
}
