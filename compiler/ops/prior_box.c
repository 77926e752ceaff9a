/* Prior (anchor) box generators: outputs that depend on shapes and
 * attributes only, never on data.
 *   prior_box (phi PriorBoxInferMeta): Input [N,C,H,W], Image [N,C,IH,IW]
 *     -> Boxes, Variances [H, W, num_priors, 4] (Input's dtype).
 *     min_sizes:FLOATS (required), max_sizes=[], aspect_ratios=[],
 *     variances=[], flip=true, clip=true, step_w=0, step_h=0, offset=0.5,
 *     min_max_aspect_ratios_order=false.  The ratios are expanded as
 *     Paddle's ExpandAspectRatios does: 1.0, then each ratio not within
 *     1e-6 of one already there and, with flip, its inverse; num_priors =
 *     |expanded| * |min_sizes| + |max_sizes|; max_sizes is empty or as
 *     long as min_sizes, each larger than its min size.
 *   density_prior_box: Input, Image -> Boxes, Variances [H, W, num_priors,
 *     4], or [-1, 4] at compile time with flatten_to_2d (while specializing
 *     [H * W * num_priors, 4]); num_priors = sum(|fixed_ratios| *
 *     densities[i]^2).  variances (required), clip=true,
 *     flatten_to_2d=false, step_w=0, step_h=0, offset=0.5, fixed_sizes,
 *     fixed_ratios, densities (one per fixed size).
 *   anchor_generator: Input [N,C,H,W] -> Anchors, Variances [H, W,
 *     |aspect_ratios| * |anchor_sizes|, 4].  anchor_sizes, aspect_ratios,
 *     variances (4), stride (2; all required), offset=0.5.
 * Emission: one call each to runtime/rt_detection.c (the _f64 routine for
 * a float64 Input: Paddle's double kernels, which keep the float
 * attributes' own arithmetic in float) with the attributes as static float
 * arrays; variances must have 4 entries (Paddle would write past Variances
 * otherwise).  Image's dtype does not matter (only its dims are read).
 * Paddle 2.6 also registers prior_box for int8 and uint8 Inputs, in its
 * oneDNN kernels only: there Input's dtype just selects the kernel and the
 * boxes are float32 (float64 with a float64 Image fails in oneDNN), while
 * the shape rule declares the outputs with Input's dtype; the CPU executor,
 * which paddlec follows, has no kernel for them, and paddlec refuses them.
 * prior_box, density_prior_box and anchor_generator take a feature map
 * (and image) whose height and width the run gives (an image model
 * exported with InputSpec([None, 3, None, None])): the outputs' first two
 * dims are the feature map's (density_prior_box's flatten_to_2d rows the
 * run's H * W * priors), the geometry a local of the run's sizes. */
#include <math.h>
#include <string.h>

#include "../util.h"
#include "detection_call.h"
#include "move_call.h"
#include "ops.h"
#include "rt_detection.h"
#include "tensor_util.h"

enum { MAX_RATIOS = 256 }; /* expanded aspect ratios of one prior_box */

/* Paddle's ExpandAspectRatios into out[MAX_RATIOS]: the count, or -1 when
 * there would be more. */
static int expand_ratios(const Op *op, float *out) {
  double *ar;
  int nar = attr_floats(op, "aspect_ratios", &ar), flip = attr_bool(op, "flip", 1), n = 1;
  out[0] = 1.0f;
  for (int i = 0; i < nar; i++) {
    const float a = (float)ar[i];
    int seen = 0;
    for (int j = 0; j < n && !seen; j++) seen = fabs(a - out[j]) < 1e-6;
    if (seen) continue;
    if (n + 1 + flip > MAX_RATIOS) return -1;
    out[n++] = a;
    if (flip) out[n++] = 1.0f / a;
  }
  return n;
}

/* Input (and Image when `image`) of rank 4; NULL after ctx_fail. */
static Var *feature_map(OpCtx *c, int image) {
  Var *in = ctx_need(c, "Input", 0), *img = image ? ctx_need(c, "Image", 0) : NULL;
  if (!in || (image && !img)) return NULL;
  if (in->shape.rank != 4 || (img && img->shape.rank != 4)) {
    ctx_fail(c, "Input %s%s%s must have rank 4", shape_str(&in->shape), img ? " and Image " : "",
             img ? shape_str(&img->shape) : "");
    return NULL;
  }
  return in;
}

/* Where the feature map's dims go in the outputs [H, W, priors, 4]: its
 * height and width first, the rest nowhere. */
static void feature_dims_to(int *to) {
  for (int d = 0; d < RT_MAX_RANK; d++) to[d] = d == 2 || d == 3 ? d - 2 : -1;
}

/* The feature map's and image's run-time dims may be their height and
 * width only: -1 after ctx_fail naming the op otherwise. */
static int prior_run_dims(OpCtx *c, const Var *in) {
  const Var *img = ctx_in(c, "Image", 0);
  const unsigned hw = 3u << 2;
  if ((var_runtime_mask(in) & ~hw) || (img && (var_runtime_mask(img) & ~hw)))
    return ctx_fail(c, "Input ('%s')%s has dims only the run knows besides the height and width; %s takes them "
                    "there only", in->name, img ? " or Image" : "", c->op->type);
  return 0;
}

/* The feature map's height and width the run gives become the outputs'
 * first two dims (slot, and Variances); the image's may be the run's too.
 * Other run-time dims are refused. */
static int prior_extents(OpCtx *c, const Var *in, const char *slot) {
  if (prior_run_dims(c, in)) return -1;
  int to[RT_MAX_RANK];
  feature_dims_to(to);
  ctx_pass_runtime_extents_to(c, in, slot, 0, to);
  ctx_pass_runtime_extents_to(c, in, "Variances", 0, to);
  return 0;
}

static int infer_prior_box(OpCtx *c) {
  Var *in = feature_map(c, 1);
  if (!in) return -1;
  double *mins, *maxs;
  int nmin = attr_floats(c->op, "min_sizes", &mins), nmax = attr_floats(c->op, "max_sizes", &maxs);
  float ars[MAX_RATIOS];
  int nar = expand_ratios(c->op, ars);
  if (nar < 0) return ctx_fail(c, "aspect_ratios expand to more than %d ratios", MAX_RATIOS);
  if (nmax && nmax != nmin)
    return ctx_fail(c, "max_sizes has %d entries and min_sizes %d; they must be as many", nmax, nmin);
  for (int i = 0; i < nmax; i++)
    if (!(maxs[i] > mins[i]))
      return ctx_fail(c, "max_sizes[%d] = %g is not larger than min_sizes[%d] = %g", i, maxs[i], i, mins[i]);
  Shape o = {4, {in->shape.d[2], in->shape.d[3], (int64_t)nar * nmin + nmax, 4}};
  ctx_set(c, "Boxes", 0, &o, in->dtype);
  ctx_set(c, "Variances", 0, &o, in->dtype);
  return prior_extents(c, in, "Boxes");
}

static int64_t density_priors(const Op *op) {
  double *ratios;
  int64_t *dens, num = 0;
  int nratio = attr_floats(op, "fixed_ratios", &ratios), nden = attr_ints(op, "densities", &dens);
  for (int i = 0; i < nden; i++) num += nratio * dens[i] * dens[i];
  return num;
}

static int infer_density_prior_box(OpCtx *c) {
  Var *in = feature_map(c, 1);
  if (!in) return -1;
  int64_t num = density_priors(c->op), h = in->shape.d[2], w = in->shape.d[3];
  Shape o = {4, {h, w, num, 4}};
  if (!attr_bool(c->op, "flatten_to_2d", 0)) {
    ctx_set(c, "Boxes", 0, &o, in->dtype);
    ctx_set(c, "Variances", 0, &o, in->dtype);
    return prior_extents(c, in, "Boxes");
  }
  o = (Shape){2, {c->g->specializing && h >= 0 && w >= 0 ? h * w * num : DIM_UNKNOWN, 4}};
  ctx_set(c, "Boxes", 0, &o, in->dtype);
  ctx_set(c, "Variances", 0, &o, in->dtype);
  if (prior_run_dims(c, in)) return -1;
  if (var_runtime_mask(in)) { /* the rows: the run's H * W * priors */
    const char *from = pool_printf("the height and width of Input ('%s')", in->name);
    ctx_set_runtime_extent(c, "Boxes", 0, 0, from);
    ctx_set_runtime_extent(c, "Variances", 0, 0, from);
    ctx_inherit_root(ctx_out(c, "Variances", 0), ctx_out(c, "Boxes", 0), 1);
  }
  return 0;
}

static int infer_anchor_generator(OpCtx *c) {
  Var *in = feature_map(c, 0);
  if (!in) return -1;
  double *sizes, *ratios;
  int ns = attr_floats(c->op, "anchor_sizes", &sizes), nr = attr_floats(c->op, "aspect_ratios", &ratios);
  Shape o = {4, {in->shape.d[2], in->shape.d[3], (int64_t)ns * nr, 4}};
  ctx_set(c, "Anchors", 0, &o, in->dtype);
  ctx_set(c, "Variances", 0, &o, in->dtype);
  return prior_extents(c, in, "Anchors");
}

/* ---- emission ---- */

/* The two outputs, of Input's dtype, and their (constant) dims: 1 for
 * float64, 0 for float32, -1 after em_fail. */
static int outputs(EmitCtx *e, const char *slot, Var **boxes, Var **vars) {
  Var *in = tu_in(e, "Input", 0);
  *boxes = tu_out(e, slot, 0);
  *vars = tu_out(e, "Variances", 0);
  if (!in || !*boxes || !*vars) return -1;
  if (!strcmp(e->op->type, "prior_box") && (in->dtype == RT_DT_INT8 || in->dtype == RT_DT_UINT8))
    return em_fail(e, "%s of a%s %s Input is not supported: Paddle 2.6's CPU executor has no kernel for it (only "
                      "its oneDNN kernel, which writes float32 boxes though the outputs are declared %s)",
                   e->op->type, in->dtype == RT_DT_INT8 ? "n" : "", rt_dtype_name(in->dtype), rt_dtype_name(in->dtype));
  const int dt = tu_float_dtype(e, (Var *const[]){in, *boxes, *vars}, 3), f64 = dt == RT_DT_FP64;
  if (dt < 0) return -1;
  SymDim n = spec_numel(em_spec(e, *boxes));
  if (n.a != 0) return em_fail(e, "%s's size depends on the batch", slot);
  return f64;
}

/* The feature map's (and image's) height and width, which must not depend
 * on the batch: hw[0..1] from Input, hw[2..3] from Image when `image`
 * (their bounds where the run gives them); *run: some are the run's. */
static int spatial(EmitCtx *e, int image, int64_t *hw, int *run) {
  Var *in = tu_in(e, "Input", 0), *img = image ? tu_in(e, "Image", 0) : NULL;
  if (!in || (image && !img)) return -1;
  hw[0] = em_bound_dim(e, in, 2);
  hw[1] = em_bound_dim(e, in, 3);
  hw[2] = image ? em_bound_dim(e, img, 2) : 0;
  hw[3] = image ? em_bound_dim(e, img, 3) : 0;
  for (int i = 0; i < 4; i++)
    if (hw[i] < 0) return em_fail(e, "the spatial dims of Input and Image must not depend on the batch");
  *run = em_spec(e, in)->runtime_mask || (img && em_spec(e, img)->runtime_mask);
  return 0;
}

/* The run's sizes into g (prior_geo's numbers otherwise); the outputs'
 * extents are the shape rule's (feature_dims_to). */
static void run_geo(EmitCtx *e, int image, DetectionPriors *g) {
  Var *in = tu_in(e, "Input", 0), *img = image ? tu_in(e, "Image", 0) : NULL;
  g->run = 1, g->feat_h = em_dim(e, in, 2), g->feat_w = em_dim(e, in, 3);
  if (img) g->img_h = em_dim(e, img, 2), g->img_w = em_dim(e, img, 3);
}

/* The priors' geometry but their lists: the spatial dims hw (spatial), the
 * step, offset and clip attributes and the variances attribute, which must
 * have 4 entries; -1 after em_fail. */
static int prior_geo(EmitCtx *e, const int64_t *hw, DetectionPriors *g) {
  double *v;
  int n = attr_floats(e->op, "variances", &v);
  if (n != 4) return em_fail(e, "variances has %d entries; 4 expected", n);
  *g = (DetectionPriors){.feat_h = pool_printf("%lld", (long long)hw[0]), .feat_w = pool_printf("%lld", (long long)hw[1]),
                         .img_h = pool_printf("%lld", (long long)hw[2]), .img_w = pool_printf("%lld", (long long)hw[3]),
                         .step_w = (float)attr_float(e->op, "step_w", 0),
                         .step_h = (float)attr_float(e->op, "step_h", 0),
                         .offset = (float)attr_float(e->op, "offset", 0.5), .clip = attr_bool(e->op, "clip", 1),
                         .variances = v};
  return 0;
}

static int emit_prior_box(EmitCtx *e) {
  Var *boxes, *vars;
  int64_t hw[4];
  int run;
  const int f64 = outputs(e, "Boxes", &boxes, &vars);
  if (f64 < 0 || spatial(e, 1, hw, &run)) return -1;
  double *mins, *maxs;
  int nmin = attr_floats(e->op, "min_sizes", &mins), nmax = attr_floats(e->op, "max_sizes", &maxs);
  float ars[MAX_RATIOS];
  double ars_d[MAX_RATIOS];
  int nar = expand_ratios(e->op, ars);
  if (nar < 0 || nmin == 0 || (nmax && nmax != nmin))
    return em_fail(e, "min_sizes, max_sizes or aspect_ratios do not fit (see the shape rule)");
  if (em_const_dim(e, boxes, 2) != (int64_t)nar * nmin + nmax)
    return em_fail(e, "Boxes has the wrong number of priors");
  for (int i = 0; i < nar; i++) ars_d[i] = ars[i];
  DetectionPriors g;
  if (prior_geo(e, hw, &g)) return -1;
  if (run) run_geo(e, 1, &g);
  g.nsizes = nmin, g.sizes = mins, g.nmax = nmax, g.max_sizes = maxs, g.nratios = nar, g.ratios = ars_d;
  g.flip = attr_bool(e->op, "flip", 1), g.min_max_order = attr_bool(e->op, "min_max_aspect_ratios_order", 0);
  const char *boxes_p = em_ptr(e, boxes, 0);
  detection_print_c(e->p, &(DetectionCall){.kind = DETECTION_PRIOR_BOX, .f64 = f64, .boxes = boxes_p,
                                           .vars = em_ptr(e, vars, 0), .priors = g});
  return 0;
}

static int emit_density_prior_box(EmitCtx *e) {
  Var *boxes, *vars;
  int64_t hw[4];
  int run;
  const int f64 = outputs(e, "Boxes", &boxes, &vars);
  if (f64 < 0 || spatial(e, 1, hw, &run)) return -1;
  double *sizes, *ratios;
  int64_t *dens;
  int ns = attr_floats(e->op, "fixed_sizes", &sizes), nr = attr_floats(e->op, "fixed_ratios", &ratios);
  int nd = attr_ints(e->op, "densities", &dens);
  if (nd != ns) return em_fail(e, "densities has %d entries, fixed_sizes %d; they must be as many", nd, ns);
  for (int i = 0; i < nd; i++)
    if (dens[i] <= 0 || dens[i] > 1024)
      return em_fail(e, "densities[%d] = %lld is not in [1, 1024]", i, (long long)dens[i]);
  if (spec_numel(em_spec(e, boxes)).c != hw[0] * hw[1] * density_priors(e->op) * 4)
    return em_fail(e, "Boxes has the wrong number of priors");
  DetectionPriors g;
  if (prior_geo(e, hw, &g)) return -1;
  if (run && em_spec(e, boxes)->rank == 4) {
    run_geo(e, 1, &g);
  } else if (run) { /* flatten_to_2d: the rows are the run's H * W * priors */
    Var *in = tu_in(e, "Input", 0), *img = tu_in(e, "Image", 0);
    g.run = 1, g.feat_h = em_dim(e, in, 2), g.feat_w = em_dim(e, in, 3), g.img_h = em_dim(e, img, 2);
    g.img_w = em_dim(e, img, 3);
    const char *rows = tu_mul(tu_mul(g.feat_h, g.feat_w), pool_printf("%lld", (long long)density_priors(e->op)));
    if (var_runtime_axis(boxes) == 0) {
      move_print_c(e->p, &(MoveCall){.kind = MOVE_EXTENT, .dst = em_dim(e, boxes, 0), .src = rows});
      if (strcmp(em_dim(e, vars, 0), em_dim(e, boxes, 0)))
        move_print_c(e->p, &(MoveCall){.kind = MOVE_EXTENT, .dst = em_dim(e, vars, 0), .src = em_dim(e, boxes, 0)});
    }
  }
  g.nsizes = ns, g.sizes = sizes, g.densities = dens, g.nratios = nr, g.ratios = ratios;
  const char *boxes_p = em_ptr(e, boxes, 0);
  detection_print_c(e->p, &(DetectionCall){.kind = DETECTION_DENSITY_PRIOR_BOX, .f64 = f64, .boxes = boxes_p,
                                           .vars = em_ptr(e, vars, 0), .priors = g});
  return 0;
}

static int emit_anchor_generator(EmitCtx *e) {
  Var *anchors, *vars;
  int64_t hw[4];
  int run;
  const int f64 = outputs(e, "Anchors", &anchors, &vars);
  if (f64 < 0 || spatial(e, 0, hw, &run)) return -1;
  double *sizes, *ratios, *stride;
  int ns = attr_floats(e->op, "anchor_sizes", &sizes), nr = attr_floats(e->op, "aspect_ratios", &ratios);
  if (attr_floats(e->op, "stride", &stride) != 2) return em_fail(e, "stride must have 2 entries (width, height)");
  if (em_const_dim(e, anchors, 2) != (int64_t)ns * nr) return em_fail(e, "Anchors has the wrong number of anchors");
  DetectionPriors g;
  if (prior_geo(e, hw, &g)) return -1;
  if (run) run_geo(e, 0, &g);
  g.step_w = (float)stride[0], g.step_h = (float)stride[1]; /* Paddle's stride */
  g.nsizes = ns, g.sizes = sizes, g.nratios = nr, g.ratios = ratios;
  const char *anchors_p = em_ptr(e, anchors, 0);
  detection_print_c(e->p, &(DetectionCall){.kind = DETECTION_ANCHOR_GENERATOR, .f64 = f64, .anchors = anchors_p,
                                           .vars = em_ptr(e, vars, 0), .priors = g});
  return 0;
}

const OpDef op_prior_box = {.type = "prior_box", .infer = infer_prior_box, .emit_c = emit_prior_box,
                            .runtime_extents = 2};
const OpDef op_density_prior_box = {.type = "density_prior_box", .infer = infer_density_prior_box,
                                    .emit_c = emit_density_prior_box, .runtime_extents = 2};
const OpDef op_anchor_generator = {.type = "anchor_generator", .infer = infer_anchor_generator,
                                   .emit_c = emit_anchor_generator, .runtime_extents = 2};
