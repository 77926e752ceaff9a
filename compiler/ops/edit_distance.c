/* edit_distance (fluid.layers.edit_distance / paddle.nn.functional's): the
 * Levenshtein distance between each hypothesis and its reference string.
 *
 * Paddle (edit_distance_op.cc, EditDistanceInferMeta, phi
 * EditDistanceKernel; its CPU kernel is registered for float and double
 * but runs as float32 whatever the inputs, and allocates Out as float32):
 *   Hyps, Refs int64 (the kernel reads them so), attribute normalized
 *   (false).  Either LoD tensors [T, 1] each over its own level-1 LoD, or
 *   the padded form with HypsLength and RefsLength int64 [N]: Hyps [N, Lh],
 *   Refs [N, Lr], string i the first HypsLength[i] (RefsLength[i]) of row i.
 *   -> Out float32 [N, 1] (compile time: Refs' dims), N the number of
 *      hypotheses (of Hyps' LoD; its rows in the padded form): the
 *      distance of hypothesis i (m elements) and reference i (n elements),
 *      m == 0: n, n == 0: m; with normalized divided by n, and any empty
 *      reference (among all of Refs') stops the run ("Reference string %d
 *      is empty").  No LoD.
 *   -> SequenceNum int64 [1] (the kernel writes int64; InferMeta declares
 *      float32, which the VarDesc keeps): N.
 *   A Refs LoD with fewer sequences than Hyps' makes the kernel read past
 *   its offsets (2.6.2 fails or computes from whatever lies there); one
 *   with more is used for its first N.  The padded form takes both
 *   lengths: with one of them the kernel reads the other, not given.
 *
 * paddlec compiles both forms: the LoD form over the level-1 feeds Hyps
 * and Refs carry (op_lod_input: two feeds, or one), Out's dim 0 a run-time
 * extent (Hyps' sequences), SequenceNum int64 while specializing; a Refs
 * LoD with fewer sequences than Hyps', and (normalized) an empty
 * reference, stop the run.  The padded form with a fixed Lh and Lr: a
 * length outside [0, Lh] ([0, Lr]) stops the run (Paddle would read into
 * the next rows), so does an empty reference with normalized.  It refuses
 * Hyps or Refs of another dtype than int64 and one length without the
 * other. */
#include "../util.h"
#include "ops.h"
#include "tensor_util.h"

static int infer_edit_distance(OpCtx *c) {
  Var *h = ctx_need(c, "Hyps", 0), *r = ctx_need(c, "Refs", 0);
  if (!h || !r) return -1;
  Var *hl = ctx_in(c, "HypsLength", 0), *rl = ctx_in(c, "RefsLength", 0);
  const int padded = hl && rl;
  if (padded) {
    if (h->shape.rank != 2 || r->shape.rank != 2 || h->shape.d[0] != r->shape.d[0])
      return ctx_fail(c, "Hyps %s and Refs %s must be 2-D with the same dim 0 (the padded form)",
                      shape_str(&h->shape), shape_str(&r->shape));
    if (hl->shape.rank < 1 || rl->shape.rank < 1 || hl->shape.d[0] != rl->shape.d[0] ||
        hl->shape.d[0] != h->shape.d[0])
      return ctx_fail(c, "HypsLength %s, RefsLength %s and Hyps %s must have the same dim 0",
                      shape_str(&hl->shape), shape_str(&rl->shape), shape_str(&h->shape));
  } else {
    if (h->shape.rank != 2 || h->shape.d[1] != 1)
      return ctx_fail(c, "Hyps %s must be [T, 1] (a LoD tensor)", shape_str(&h->shape));
    if (r->shape.rank != 2 || r->shape.d[1] != 1)
      return ctx_fail(c, "Refs %s must be [T, 1] (a LoD tensor)", shape_str(&r->shape));
  }
  /* Paddle's compile-time Out is Refs' dims; the kernel's is [N, 1] (N
   * Hyps' sequences, at most its rows; its rows in the padded form) */
  Shape out = r->shape, one = {1, {1}};
  if (c->g->specializing) out = (Shape){2, {h->shape.d[0], 1}};
  ctx_set(c, "Out", 0, &out, RT_DT_FP32);
  ctx_set(c, "SequenceNum", 0, &one, c->g->specializing ? RT_DT_INT64 : RT_DT_FP32);
  if (!padded) ctx_set_lod_extent(c, "Out", 0, "Hyps");
  return 0;
}

/* The input whose level-1 LoD var v (slot `slot`) carries, recorded as
 * read; -1 after em_fail. */
static int lod_of(EmitCtx *e, const char *slot, const Var *v) {
  const char *why;
  int k = op_lod_input(e->g, e->spec, v, &why);
  if (k < 0) return em_fail(e, "%s ('%s') must carry a level-1 LoD (a feed's or one an op makes): %s", slot, v->name, why);
  em_reads_lod(e, k);
  return k;
}

static int same_dim(SymDim a, SymDim b) { return a.a == b.a && a.c == b.c; }

/* The distance of the strings a (la elements) and b (lb) into o[i], as the
 * kernel's table computes it, two of its rows at a time (prev, cur: the
 * scratch `rows`). */
static void print_distance(Printer *p, int normalized, const char *rows) {
  pr_line(p, "int64_t dist;");
  pr_line(p, "if (la == 0) {");
  pr_line(p, "dist = lb;");
  pr_line(p, "} else if (lb == 0) {");
  pr_line(p, "dist = la;");
  pr_line(p, "} else {");
  pr_line(p, "int64_t *prev = %s, *cur = %s + lb + 1;", rows, rows);
  pr_line(p, "for (int64_t j = 0; j <= lb; j++) prev[j] = j;");
  pr_line(p, "for (int64_t k = 1; k <= la; k++) {");
  pr_line(p, "cur[0] = k;");
  pr_line(p, "for (int64_t j = 1; j <= lb; j++) {");
  pr_line(p, "const int64_t del = prev[j] + 1, ins = cur[j - 1] + 1, sub = prev[j - 1] + (a[k - 1] != b[j - 1]);");
  pr_line(p, "cur[j] = del < ins ? del : ins;");
  pr_line(p, "if (sub < cur[j]) cur[j] = sub;");
  pr_line(p, "}");
  pr_line(p, "int64_t *done = prev;");
  pr_line(p, "prev = cur;");
  pr_line(p, "cur = done;");
  pr_line(p, "}");
  pr_line(p, "dist = prev[lb];");
  pr_line(p, "}");
  if (normalized)
    pr_line(p, "o[i] = (float)dist / (float)lb;");
  else
    pr_line(p, "o[i] = (float)dist;");
}

static int emit_edit_distance(EmitCtx *e) {
  Var *h = tu_in(e, "Hyps", 0), *r = tu_in(e, "Refs", 0), *out = tu_out(e, "Out", 0);
  Var *num = tu_out(e, "SequenceNum", 0);
  if (!h || !r || !out || !num) return -1;
  OpCtx c = {e->g, (Op *)e->op};
  Var *hl = ctx_in(&c, "HypsLength", 0), *rl = ctx_in(&c, "RefsLength", 0);
  if (!hl != !rl)
    return em_fail(e, "%s ('%s') is given without %s: the padded form takes both (Paddle's kernel reads the other)",
                   hl ? "HypsLength" : "RefsLength", hl ? hl->name : rl->name, hl ? "RefsLength" : "HypsLength");
  Var *ints[4] = {h, r, hl, rl};
  static const char *const names[4] = {"Hyps", "Refs", "HypsLength", "RefsLength"};
  for (int i = 0; i < 4; i++)
    if (ints[i] && ints[i]->dtype != RT_DT_INT64)
      return em_fail(e, "%s ('%s') is %s; Paddle's kernel reads int64", names[i], ints[i]->name,
                     rt_dtype_name(ints[i]->dtype));
  if (out->dtype != RT_DT_FP32) return em_fail(e, "Out ('%s') must be float32", out->name);
  if (num->dtype != RT_DT_INT64)
    return em_fail(e, "SequenceNum ('%s') is %s; Paddle's kernel writes int64", num->name, rt_dtype_name(num->dtype));
  const int normalized = attr_bool(e->op, "normalized", 0);
  if (tu_rank(e, h) != 2 || tu_rank(e, r) != 2) return em_fail(e, "Hyps and Refs must have rank 2");
  Printer *p = e->p;
  SymDim longest; /* the most elements a reference can have */
  int kh = -1, kr = -1;
  int64_t lh = 0, lr = 0;
  if (hl) {
    lh = em_const_dim(e, h, 1), lr = em_const_dim(e, r, 1);
    if (lh < 0 || lr < 0) return em_fail(e, "Hyps' and Refs' padded lengths (dim 1) must be fixed");
    const SymDim n = em_spec(e, h)->d[0];
    if (!same_dim(em_spec(e, r)->d[0], n) || tu_rank(e, hl) != 1 || tu_rank(e, rl) != 1 ||
        !same_dim(em_spec(e, hl)->d[0], n) || !same_dim(em_spec(e, rl)->d[0], n))
      return em_fail(e, "Hyps, Refs, HypsLength and RefsLength must have the same dim 0 (the padded form)");
    longest = (SymDim){0, lr};
  } else {
    if (em_const_dim(e, h, 1) != 1 || em_const_dim(e, r, 1) != 1) return em_fail(e, "Hyps and Refs must be [T, 1]");
    if ((kh = lod_of(e, "Hyps", h)) < 0 || (kr = lod_of(e, "Refs", r)) < 0) return -1;
    longest = em_spec(e, r)->d[0];
  }
  const char *rows = em_scratch_named(e, "int64_t", "rows", (SymDim){longest.a * 16, (longest.c + 1) * 16});
  const char *hp = em_ptr(e, h, 1), *rp = em_ptr(e, r, 1);
  if (hl) {
    pr_line(p, "/* edit_distance over padded strings (HypsLength, RefsLength)%s */",
            normalized ? ", normalized by the reference's length" : "");
    pr_line(p, "const int64_t N = %s, LH = %lld, LR = %lld;", em_dim(e, h, 0), (long long)lh, (long long)lr);
    pr_line(p, "const int64_t *hlen = %s, *rlen = %s;", em_ptr(e, hl, 1), em_ptr(e, rl, 1));
    pr_line(p, "for (int64_t i = 0; i < N; i++) {");
    pr_line(p, "if (hlen[i] < 0 || hlen[i] > LH || rlen[i] < 0 || rlen[i] > LR) return 1; /* past the row */");
    if (normalized) pr_line(p, "if (rlen[i] == 0) return 1; /* Paddle: the reference string is empty */");
    pr_line(p, "}");
  } else {
    pr_line(p, "/* edit_distance over the LoDs of input %d ('%s', Hyps) and input %d ('%s', Refs)%s */", kh,
            e->g->vars[e->g->feeds[kh]].name, kr, e->g->vars[e->g->feeds[kr]].name,
            normalized ? ", normalized by the reference's length" : "");
    pr_line(p, "const int64_t *hlod = m->lod[%d], *rlod = m->lod[%d];", kh, kr);
    pr_line(p, "const int64_t N = m->lod_count[%d] - 1, NR = m->lod_count[%d] - 1;", kh, kr);
    pr_line(p, "if (NR < N) return 1; /* Paddle reads past Refs' LoD */");
    if (normalized) {
      pr_line(p, "for (int64_t i = 0; i < NR; i++)");
      pr_line(p, "  if (rlod[i + 1] == rlod[i]) return 1; /* Paddle: \"Reference string %%d is empty\" */");
    }
  }
  pr_line(p, "float *o = %s;", em_ptr(e, out, 0));
  if (em_spec(e, out)->runtime_dim == 1) pr_line(p, "%s = N;", em_dim(e, out, 0));
  pr_line(p, "*%s = N;", em_ptr(e, num, 0));
  pr_line(p, "for (int64_t i = 0; i < N; i++) {");
  if (hl) {
    pr_line(p, "const int64_t *a = %s + i * LH, *b = %s + i * LR;", hp, rp);
    pr_line(p, "const int64_t la = hlen[i], lb = rlen[i];");
  } else {
    pr_line(p, "const int64_t *a = %s + hlod[i], *b = %s + rlod[i];", hp, rp);
    pr_line(p, "const int64_t la = hlod[i + 1] - hlod[i], lb = rlod[i + 1] - rlod[i];");
  }
  print_distance(p, normalized, rows);
  pr_line(p, "}");
  em_fault(e, hl ? (normalized ? "a length outside [0, Hyps' or Refs' dim 1], or an empty reference (normalized)"
                               : "a length outside [0, Hyps' or Refs' dim 1]")
                 : (normalized ? "Refs' LoD has fewer sequences than Hyps', or an empty reference (normalized)"
                               : "Refs' LoD has fewer sequences than Hyps'"));
  return 0;
}

/* Out and SequenceNum carry no LoD. */
const OpDef op_edit_distance = {.type = "edit_distance", .infer = infer_edit_distance, .emit_c = emit_edit_distance,
                                .lod_slot = ""};
