/* im2sequence (fluid.layers.im2sequence; Paddle's Im2SequenceKernel): X
 * [N, C, H, W], Y† [N, 2] (float32: the images' real height and width) ->
 * Out, a LoD tensor (level 1) of image patches [rows, C*kh*kw], X's dtype:
 * each image's patches in row-major order of their places (oh, ow), a
 * patch its C x kh x kw values (im2col's OCF layout), zeros where it covers
 * the padding or lies past the image; one sequence per image.
 *   attrs: kernels [kh, kw], strides=[1,1], paddings=[0,0,0,0] (up, left,
 *          down, right), out_stride=[1,1] (read only with Y).
 * Without Y (and with Y for one image, which the kernel then ignores) every
 * image has OH x OW patches, OH = (H + up + down - kh) / stride_h + 1, OW
 * likewise (Im2SeqOutputSize).  With Y and more than one image, image i's
 * are sized from its real size: h = (int)Y[i][0], then ceil(h /
 * out_stride[0]), then Im2SeqOutputSize (C's truncating division, as
 * C++'s), and w likewise; the patches still read the whole image.
 * Shape rule: at compile time Paddle declares Out as [N, C*kh*kw] (the
 * rows are set by the kernel); this rule does the same, and while
 * specializing gives Out N*OH*OW rows, which with Y is the bound of a
 * run-time extent (VAR_RUNTIME_EXTENT).
 * Emission: float32 (the one CPU kernel Paddle registers); Out's LoD is
 * made by the kernel (OpDef.lod_made).  With Y, a real size that is
 * negative, not a number or too large to convert, one that makes no patch
 * (Paddle's Slice refuses the empty image), or real sizes that make more
 * rows than N*OH*OW (Paddle pads such patches with zeros), stop the run.
 *
 * im2sequence_grad: X, Out@GRAD -> X@GRAD (the generic grad rule; Paddle's
 * grad maker passes no Y), kernels, strides, paddings.  Paddle's
 * Im2SequenceGradKernel zeroes X@GRAD and adds each image's OH x OW rows
 * of Out@GRAD back where the patches were read (Col2Im, kOCF: patch by
 * patch, channel, kernel row, kernel column; what falls on the padding is
 * dropped), always with the geometry without Y.  C emission: float32 (the
 * one CPU kernel); X's channels, height and width known; Out@GRAD must
 * hold N*OH*OW rows of C*kh*kw, known while compiling: an Out@GRAD whose
 * rows are known only at run time (the forward had Y) is refused, as
 * Paddle would read OH x OW rows per image past the ones Y made. */
#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

typedef struct Im2Seq {
  int64_t kh, kw, sh, sw, up, left, oh, ow; /* the patches (oh, ow: -1 for an unknown H, W) */
} Im2Seq;

/* The geometry from X's dims and the attributes: NULL, or what is wrong. */
static const char *geometry(const Op *op, const Shape *xs, Im2Seq *g) {
  int64_t *k, *st, *pd;
  if (attr_ints(op, "kernels", &k) != 2 || k[0] < 1 || k[1] < 1) return "kernels must be two sizes >= 1";
  int ns = attr_ints(op, "strides", &st), np = attr_ints(op, "paddings", &pd);
  int64_t strides[2] = {1, 1}, pads[4] = {0, 0, 0, 0};
  if (ns >= 0 && ns != 2) return "strides must have 2 values";
  if (np >= 0 && np != 4) return "paddings must have 4 values (up, left, down, right)";
  for (int i = 0; i < ns; i++) strides[i] = st[i];
  for (int i = 0; i < np; i++) pads[i] = pd[i];
  if (strides[0] < 1 || strides[1] < 1) return "strides must be >= 1";
  if (pads[0] < 0 || pads[1] < 0 || pads[2] < 0 || pads[3] < 0) return "paddings must be >= 0";
  if ((xs->d[2] >= 0 && xs->d[2] + pads[0] + pads[2] < k[0]) || (xs->d[3] >= 0 && xs->d[3] + pads[1] + pads[3] < k[1]))
    return pool_printf("kernels [%lld, %lld] do not fit X %s with its paddings", (long long)k[0], (long long)k[1],
                       shape_str(xs));
  *g = (Im2Seq){k[0], k[1], strides[0], strides[1], pads[0], pads[1], -1, -1};
  if (xs->d[2] >= 0) g->oh = (xs->d[2] + pads[0] + pads[2] - k[0]) / strides[0] + 1;
  if (xs->d[3] >= 0) g->ow = (xs->d[3] + pads[1] + pads[3] - k[1]) / strides[1] + 1;
  return NULL;
}

static int infer_im2sequence(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0);
  if (!x) return -1;
  const Shape *xs = &x->shape;
  if (xs->rank != 4) return ctx_fail(c, "X %s must have rank 4", shape_str(xs));
  Im2Seq g;
  const char *why = geometry(c->op, xs, &g);
  if (why) return ctx_fail(c, "%s", why);
  Shape o = {2, {xs->d[0], xs->d[1] * g.kh * g.kw}}; /* Paddle's compile-time dims, taken literally */
  if (c->g->specializing) o.d[0] = xs->d[0] < 0 || g.oh < 0 || g.ow < 0 ? DIM_UNKNOWN : xs->d[0] * g.oh * g.ow;
  ctx_set(c, "Out", 0, &o, x->dtype);
  Var *y = ctx_in(c, "Y", 0);
  if (c->g->specializing && y && o.d[0] >= 0)
    ctx_set_runtime_extent(c, "Out", 0, 0, pool_printf("input Y ('%s', the images' real sizes)", y->name));
  return 0;
}

/* Image n's patches, `oh` x `ow` of them from row `at` on (C expressions). */
static void print_patches(Printer *p, const Im2Seq *g, int64_t C, int64_t H, int64_t W, const char *oh,
                          const char *ow, const char *at) {
  pr_line(p, "for (int64_t i = 0; i < %s; i++) {", oh);
  pr_line(p, "for (int64_t j = 0; j < %s; j++) {", ow);
  pr_line(p, "float *row = out + (%s + i * %s + j) * %lld;", at, ow, (long long)(C * g->kh * g->kw));
  pr_line(p, "for (int64_t c = 0; c < %lld; c++) {", (long long)C);
  pr_line(p, "for (int64_t u = 0; u < %lld; u++) {", (long long)g->kh);
  pr_line(p, "const int64_t h = i * %lld - %lld + u;", (long long)g->sh, (long long)g->up);
  pr_line(p, "for (int64_t v = 0; v < %lld; v++) {", (long long)g->kw);
  pr_line(p, "const int64_t w = j * %lld - %lld + v;", (long long)g->sw, (long long)g->left);
  pr_line(p, "*row++ = h >= 0 && h < %lld && w >= 0 && w < %lld ? x[((n * %lld + c) * %lld + h) * %lld + w] : 0.0f;",
          (long long)H, (long long)W, (long long)C, (long long)H, (long long)W);
  pr_close(p, 5);
}

/* Image n's real size along one axis (Y[n][axis]) as its patches count:
 * ceil((int)size / out_stride), then Im2SeqOutputSize. */
static void print_real_extent(Printer *p, const char *name, int axis, int64_t out_stride, int64_t pads, int64_t k,
                              int64_t stride) {
  pr_line(p, "const float r%s = y[n * 2 + %d];", name, axis);
  pr_line(p, "if (!(r%s >= 0.0f && r%s < 2147483648.0f)) return 1;", name, name);
  pr_line(p, "const int64_t s%s = (int64_t)(int32_t)r%s, t%s = s%s / %lld + (s%s %% %lld != 0);", name, name, name, name,
          (long long)out_stride, name, (long long)out_stride);
  pr_line(p, "const int64_t %s = (t%s + %lld - %lld) / %lld + 1;", name, name, (long long)pads, (long long)k,
          (long long)stride);
}

static int emit_im2sequence(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *out = tu_out(e, "Out", 0);
  if (!x || !out) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  Var *y = ctx_in(&c, "Y", 0);
  if (x->dtype != RT_DT_FP32) return em_fail(e, "im2sequence of %s is not supported (float32)", rt_dtype_name(x->dtype));
  if (y && y->dtype != RT_DT_FP32)
    return em_fail(e, "Y ('%s') is %s; Paddle's kernel reads float32", y->name, rt_dtype_name(y->dtype));
  Im2Seq g = {0};
  (void)geometry(e->op, &x->shape, &g); /* checked by the rule */
  const int64_t C = em_const_dim(e, x, 1), H = em_const_dim(e, x, 2), W = em_const_dim(e, x, 3);
  if (C < 0 || H < 0 || W < 0) return em_fail(e, "X's channels, height and width must be known (--shape)");
  const int k = op_lod_input(e->g, e->spec, out, NULL);
  SymDim n = em_spec(e, x)->d[0];
  const char *store = em_makes_lod(e, k, (SymDim){n.a, n.c + 1});
  Printer *p = e->p;
  pr_line(p, "const float *x = %s;", em_ptr(e, x, 1));
  pr_line(p, "float *out = %s;", em_ptr(e, out, 0));
  pr_line(p, "const int64_t N = %s;", em_dim(e, x, 0));
  const char *ohw = pool_printf("%lld", (long long)(g.oh * g.ow));
  if (!y) {
    pr_line(p, "/* each image's %lld x %lld patches of %lld x %lld x %lld (OCF), one sequence per image */",
            (long long)g.oh, (long long)g.ow, (long long)C, (long long)g.kh, (long long)g.kw);
    pr_line(p, "for (int64_t n = 0; n < N; n++) {");
    print_patches(p, &g, C, H, W, pool_printf("%lld", (long long)g.oh), pool_printf("%lld", (long long)g.ow),
                  pool_printf("n * %s", ohw));
    pr_line(p, "}");
    pr_line(p, "/* Out's LoD: image n's rows start at n * %s */", ohw);
    pr_line(p, "for (int64_t n = 0; n <= N; n++) %s[n] = n * %s;", store, ohw);
    pr_line(p, "m->lod_count[%d] = N + 1;", k);
    return 0;
  }
  int64_t *os;
  int64_t out_stride[2] = {1, 1};
  if (attr_ints(e->op, "out_stride", &os) == 2) out_stride[0] = os[0], out_stride[1] = os[1];
  if (out_stride[0] < 1 || out_stride[1] < 1) return em_fail(e, "out_stride must be two values >= 1");
  int64_t *pd;
  int64_t down = 0, right = 0;
  if (attr_ints(e->op, "paddings", &pd) == 4) down = pd[2], right = pd[3];
  em_fault(e, "Y holds a real size that is negative, not a number or too large, or that makes no patch (Paddle's Slice "
              "refuses it), or sizes whose patches outnumber the images' (N * OH * OW)");
  pr_line(p, "/* each image's patches of %lld x %lld x %lld (OCF), as many as its real size in Y makes (with one "
          "image, %lld x %lld), one sequence per image */", (long long)C, (long long)g.kh, (long long)g.kw,
          (long long)g.oh, (long long)g.ow);
  pr_line(p, "const float *y = %s;", em_ptr(e, y, 1));
  pr_line(p, "int64_t rows = 0;");
  pr_line(p, "%s[0] = 0;", store);
  pr_line(p, "for (int64_t n = 0; n < N; n++) {");
  pr_line(p, "int64_t oh = %lld, ow = %lld;", (long long)g.oh, (long long)g.ow);
  pr_line(p, "if (N > 1) {");
  print_real_extent(p, "h", 0, out_stride[0], g.up + down, g.kh, g.sh);
  print_real_extent(p, "w", 1, out_stride[1], g.left + right, g.kw, g.sw);
  pr_line(p, "if (h < 1 || w < 1 || rows + h * w > N * %s) return 1;", ohw);
  pr_line(p, "oh = h, ow = w;");
  pr_line(p, "}");
  print_patches(p, &g, C, H, W, "oh", "ow", "rows");
  pr_line(p, "rows += oh * ow;");
  pr_line(p, "%s[n + 1] = rows;", store);
  pr_line(p, "}");
  pr_line(p, "m->lod_count[%d] = N + 1;", k);
  pr_line(p, "%s = rows;", em_dim(e, out, 0));
  return 0;
}

static int emit_im2sequence_grad(EmitCtx *e) {
  Var *x = tu_in(e, "X", 0), *dout = tu_in(e, "Out@GRAD", 0), *dx = tu_out(e, "X@GRAD", 0);
  if (!x || !dout || !dx) return -1;
  const Var *const all[] = {x, dout, dx};
  for (int i = 0; i < 3; i++)
    if (all[i]->dtype != RT_DT_FP32)
      return em_fail(e, "im2sequence_grad of %s ('%s') is not supported (float32, the one CPU kernel)",
                     rt_dtype_name(all[i]->dtype), all[i]->name);
  if (x->shape.rank != 4) return em_fail(e, "X %s must have rank 4", shape_str(&x->shape));
  Im2Seq g = {0};
  const char *why = geometry(e->op, &x->shape, &g);
  if (why) return em_fail(e, "%s", why);
  const int64_t C = em_const_dim(e, x, 1), H = em_const_dim(e, x, 2), W = em_const_dim(e, x, 3);
  if (C < 0 || H < 0 || W < 0) return em_fail(e, "X's channels, height and width must be known (--shape)");
  const int64_t ckk = C * g.kh * g.kw, ohw = g.oh * g.ow;
  if (var_runtime_axis(dout) >= 0)
    return em_fail(e, "Out@GRAD ('%s') has rows known only at run time (im2sequence with Y); Paddle's kernel reads "
                   "N * %lld rows", dout->name, (long long)ohw);
  SymDim n = em_spec(e, x)->d[0], rows = em_sym_prod(e, dout, 0, 1);
  if (tu_rank(e, dout) != 2 || em_const_dim(e, dout, 1) != ckk || rows.a != n.a * ohw || rows.c != n.c * ohw)
    return em_fail(e, "Out@GRAD ('%s') must be [N * %lld, %lld] (X's patches)", dout->name, (long long)ohw,
                   (long long)ckk);
  Printer *p = e->p;
  pr_line(p, "const float *dout = %s;", em_ptr(e, dout, 1));
  pr_line(p, "float *dx = %s;", em_ptr(e, dx, 0));
  pr_line(p, "const int64_t N = %s;", em_dim(e, x, 0));
  pr_line(p, "/* each image's %lld x %lld patches of %lld x %lld x %lld (OCF) added back where they were read */",
          (long long)g.oh, (long long)g.ow, (long long)C, (long long)g.kh, (long long)g.kw);
  pr_line(p, "for (int64_t k = 0; k < N * %lld; k++) dx[k] = 0.0f;", (long long)(C * H * W));
  pr_line(p, "for (int64_t n = 0; n < N; n++) {");
  pr_line(p, "for (int64_t i = 0; i < %lld; i++) {", (long long)g.oh);
  pr_line(p, "for (int64_t j = 0; j < %lld; j++) {", (long long)g.ow);
  pr_line(p, "const float *row = dout + ((n * %lld + i) * %lld + j) * %lld;", (long long)g.oh, (long long)g.ow,
          (long long)ckk);
  pr_line(p, "for (int64_t c = 0; c < %lld; c++) {", (long long)C);
  pr_line(p, "for (int64_t u = 0; u < %lld; u++) {", (long long)g.kh);
  pr_line(p, "const int64_t h = i * %lld - %lld + u;", (long long)g.sh, (long long)g.up);
  pr_line(p, "for (int64_t v = 0; v < %lld; v++, row++) {", (long long)g.kw);
  pr_line(p, "const int64_t w = j * %lld - %lld + v;", (long long)g.sw, (long long)g.left);
  pr_line(p, "if (h >= 0 && h < %lld && w >= 0 && w < %lld) dx[((n * %lld + c) * %lld + h) * %lld + w] += *row;",
          (long long)H, (long long)W, (long long)C, (long long)H, (long long)W);
  pr_close(p, 6);
  return 0;
}

const OpDef op_im2sequence_grad = {.type = "im2sequence_grad", .infer = grad_infer, .emit_c = emit_im2sequence_grad};

/* Out's LoD is the kernel's (one sequence per image). */
static int im2sequence_lod_made(const Graph *g, const Op *op, int var) {
  (void)g;
  return slot_first(op->out, op->nout, "Out") == var;
}

/* out_stride: read only with Y. */
static const char *const im2sequence_attr_ignores[] = {"out_stride", NULL};

const OpDef op_im2sequence = {.type = "im2sequence", .infer = infer_im2sequence, .emit_c = emit_im2sequence,
                              .lod_made = im2sequence_lod_made,
                              .attr_ignores = im2sequence_attr_ignores};
