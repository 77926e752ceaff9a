/* box_clip (fluid.layers.box_clip; Paddle's BoxClipKernel and bbox_util.h's
 * ClipTiledBoxes): Input [..., 4] (a LoD tensor: image i's boxes are the
 * rows its level-1 LoD gives sequence i), ImInfo [N, 3] (height, width,
 * scale of each image) -> Output (Input's dims and dtype, and its LoD).
 * Each image's width and height are round(ImInfo[i][1] / ImInfo[i][2]) and
 * round(ImInfo[i][0] / ImInfo[i][2]), computed in the boxes' type; each
 * coordinate k (its index mod 4) is clipped as std::max(std::min(v, bound
 * - 1), 0): x (k 0, 2) by the width, y (k 1, 3) by the height (a NaN stays
 * NaN, as std::min/std::max pass it on).
 * Emission: float32 and float64 (Paddle's CPU kernels) over an Input that
 * carries a level-1 LoD (a feed's or one an op makes: op_lod_input);
 * without one Paddle's kernel reads an empty LoD and stops, and so is
 * refused.  An image without boxes (an empty sequence) or more sequences
 * than ImInfo rows stop the run, as Paddle's Slice refuses both. */
#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_box_clip(OpCtx *c) {
  Var *in = ctx_need(c, "Input", 0), *info = ctx_need(c, "ImInfo", 0);
  if (!in || !info) return -1;
  if (in->shape.rank < 1 || in->shape.d[in->shape.rank - 1] != 4)
    return ctx_fail(c, "Input %s must end in 4 (xmin, ymin, xmax, ymax)", shape_str(&in->shape));
  if (info->shape.rank != 2 || info->shape.d[1] != 3)
    return ctx_fail(c, "ImInfo %s must be [N, 3] (height, width, scale)", shape_str(&info->shape));
  ctx_set(c, "Output", 0, &in->shape, in->dtype);
  return 0;
}

static int emit_box_clip(EmitCtx *e) {
  Var *in = tu_in(e, "Input", 0), *info = tu_in(e, "ImInfo", 0), *out = tu_out(e, "Output", 0);
  if (!in || !info || !out) return -1;
  if ((in->dtype != RT_DT_FP32 && in->dtype != RT_DT_FP64) || info->dtype != in->dtype)
    return em_fail(e, "box_clip of %s boxes and %s ImInfo is not supported (both float32 or both float64)",
                   rt_dtype_name(in->dtype), rt_dtype_name(info->dtype));
  const char *why;
  const int k = op_lod_input(e->g, e->spec, in, &why);
  if (k < 0)
    return em_fail(e, "Input ('%s') must carry a level-1 LoD (a feed's or one an op makes; Paddle's kernel needs one): %s",
                   in->name, why);
  em_reads_lod(e, k);
  em_fault(e, "Input's LoD has an image without boxes or more images than ImInfo has rows (Paddle's Slice refuses "
              "both)");
  const int f64 = in->dtype == RT_DT_FP64;
  const char *t = em_ctype(in->dtype), *round = f64 ? "round" : "roundf";
  Printer *p = e->p;
  pr_line(p, "/* the boxes of image i (sequence i of the LoD of '%s') clipped to its size */", op_lod_name(e->g, k));
  pr_line(p, "const %s *in = %s, *info = %s;", t, em_ptr(e, in, 1), em_ptr(e, info, 1));
  pr_line(p, "%s *out = %s;", t, em_ptr(e, out, 0));
  pr_line(p, "const int64_t *lod = m->lod[%d], N = m->lod_count[%d] - 1, row = %s;", k, k,
          em_prod(e, in, 1, tu_rank(e, in)));
  pr_line(p, "if (N > %s) return 1;", em_dim(e, info, 0));
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  pr_line(p, "if (lod[i] == lod[i + 1]) return 1;");
  pr_line(p, "const %s w = %s(info[i * 3 + 1] / info[i * 3 + 2]) - 1, h = %s(info[i * 3] / info[i * 3 + 2]) - 1;", t,
          round, round);
  pr_line(p, "for (int64_t j = lod[i] * row; j < lod[i + 1] * row; j++) {");
  pr_line(p, "const %s hi = j %% 2 ? h : w, v = hi < in[j] ? hi : in[j];", t);
  pr_line(p, "out[j] = v < 0 ? 0 : v;");
  pr_line(p, "}");
  pr_line(p, "}");
  return 0;
}

const OpDef op_box_clip = {.type = "box_clip", .infer = infer_box_clip, .emit_c = emit_box_clip,
                           .lod_slot = "Input"};
