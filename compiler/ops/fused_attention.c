/* fused_attention: multi-head attention as one kernel sequence
 * (runtime/rt_attention.h), written by passes/fused_attention.c.  Named
 * after Paddle's fused_attention op, but with the projections kept apart
 * (Paddle packs Q, K and V into one QKVW) and separate key and value inputs,
 * so that cross-attention fuses too.
 *   X [B, S, Eq], KeyX [B, Sk, Ek], ValueX [B, Sk, Ev];
 *   QW [Eq, H*D], KW [Ek, H*D], VW [Ev, H*D] and QBias, KBias, VBias [H*D]
 *   (optional); SrcMask (optional, broadcast to [B, H, S, Sk] and added to
 *   the scores); OutLinearW [H*D, Eo], OutLinearBias [Eo] (optional);
 *   Residual [B, S, Eo] (optional); Ln2Scale, Ln2Bias [Eo] (optional)
 *   -> Y [B, S, Eo].
 *   Attributes: num_heads, head_dim, scale (of the scores), post_layer_norm
 *   (layer_norm the result over its last dim), ln_epsilon=1e-5.
 *   Sequence lengths the run gives (dim 1 of X, KeyX and ValueX; SrcMask's
 *   last two dims) are read at each call, the scratch planned for their
 *   bounds (run_lengths); those that must agree and are not known to, the
 *   run checks (two feeds: the ids and the attention mask).
 *   The shape rule checks X, KeyX and ValueX (rank 3, one batch, KeyX's and
 *   ValueX's length agree) and OutLinearW (rank 2); the emitter the weights
 *   and the dims that must not depend on the batch.
 * Emission: one rt_attention call, an AttentionCall (attention_call.h). */
#include <string.h>

#include "../util.h"
#include "attention_call.h"
#include "ops.h"
#include "rt_attention.h"
#include "tensor_util.h"

/* Two dims that may be unknown (-1, outside specialization) disagree. */
static int dims_differ(int64_t a, int64_t b) { return a >= 0 && b >= 0 && a != b; }

/* Which run-time extents the op takes: the sequence lengths (dim 1 of X,
 * KeyX, ValueX and Residual) and SrcMask's last two dims (KeyX's and X's
 * lengths there).  Those that must be one extent and are not known to
 * be are checked by the run (length_pairs). */
static int run_lengths(OpCtx *c, const Var *x, const Var *xk, const Var *xv) {
  const Var *mask = ctx_in(c, "SrcMask", 0), *res = ctx_in(c, "Residual", 0);
  const unsigned mx = var_runtime_mask(x), mk = var_runtime_mask(xk), mv = var_runtime_mask(xv);
  if ((mx | mk | mv | var_runtime_mask(res)) & ~2u)
    return ctx_fail(c, "X ('%s'), KeyX ('%s'), ValueX ('%s') and Residual may have a run-time extent only in their "
                    "length (dim 1)", x->name, xk->name, xv->name);
  const unsigned mm = var_runtime_mask(mask);
  const int r = mask ? mask->shape.rank : 0;
  if (mm & ~(3u << (r - 2 < 0 ? 0 : r - 2)))
    return ctx_fail(c, "SrcMask ('%s') may have run-time extents only on its last two dims, KeyX's and X's lengths",
                    mask->name);
  return 0;
}

/* A dim of a that must equal dim db of b at run time. */
typedef struct LengthPair {
  const Var *a, *b;
  int da, db;
} LengthPair;

/* The pairs of lengths the op needs equal where one of them is the run's
 * (KeyX's and ValueX's, Residual's and X's; the mask's run-time dims and
 * the lengths they stand for): the emitter checks those not known to be
 * one extent (same_runtime_dims). */
static int length_pairs(EmitCtx *e, const Var *x, const Var *xk, const Var *xv, const Var *mask, const Var *res,
                        LengthPair *p) {
  int n = 0;
  const unsigned mm = mask ? em_spec(e, mask)->runtime_mask : 0;
  const int r = mask ? em_spec(e, mask)->rank : 0;
  p[n++] = (LengthPair){xk, xv, 1, 1};
  if (res && em_spec(e, res)->rank == 3) p[n++] = (LengthPair){res, x, 1, 1};
  if (r >= 1 && mm >> (r - 1) & 1) p[n++] = (LengthPair){mask, xk, r - 1, 1};
  if (r >= 2 && mm >> (r - 2) & 1) p[n++] = (LengthPair){mask, x, r - 2, 1};
  int kept = 0;
  for (int i = 0; i < n; i++) {
    const unsigned ma = em_spec(e, p[i].a)->runtime_mask, mb = em_spec(e, p[i].b)->runtime_mask;
    if ((ma >> p[i].da & 1 || mb >> p[i].db & 1) && !same_runtime_dims(p[i].a, p[i].da, p[i].b, p[i].db))
      p[kept++] = p[i];
  }
  return kept;
}

static int infer_fused_attention(OpCtx *c) {
  Var *x = ctx_need(c, "X", 0), *wo = ctx_need(c, "OutLinearW", 0);
  Var *xk = ctx_need(c, "KeyX", 0), *xv = ctx_need(c, "ValueX", 0);
  if (!x || !wo || !xk || !xv) return -1;
  if (x->shape.rank != 3 || wo->shape.rank != 2)
    return ctx_fail(c, "X %s must have rank 3 and OutLinearW %s rank 2", shape_str(&x->shape), shape_str(&wo->shape));
  /* the kernel walks X's batch over KeyX and ValueX too, and their rows together */
  if (xk->shape.rank != 3 || xv->shape.rank != 3)
    return ctx_fail(c, "KeyX '%s' %s and ValueX '%s' %s must have rank 3", xk->name, shape_str(&xk->shape), xv->name,
                    shape_str(&xv->shape));
  if (dims_differ(xk->shape.d[0], x->shape.d[0]) || dims_differ(xv->shape.d[0], x->shape.d[0]))
    return ctx_fail(c, "KeyX '%s' %s and ValueX '%s' %s must have the batch dim of X '%s' %s", xk->name,
                    shape_str(&xk->shape), xv->name, shape_str(&xv->shape), x->name, shape_str(&x->shape));
  if (dims_differ(xk->shape.d[1], xv->shape.d[1]))
    return ctx_fail(c, "KeyX '%s' %s and ValueX '%s' %s must have the same length (dim 1)", xk->name,
                    shape_str(&xk->shape), xv->name, shape_str(&xv->shape));
  Shape s = x->shape;
  s.d[2] = wo->shape.d[1];
  ctx_set(c, "Y", 0, &s, x->dtype);
  if (run_lengths(c, x, xk, xv)) return -1;
  ctx_pass_runtime_extent(c, x, "Y", 0);
  return 0;
}

/* A constant dim, or -1 after em_fail; with run, a run-time extent's
 * bound too. */
static int64_t cdim_run(EmitCtx *e, const Var *v, int d, int run) {
  int64_t n = run ? em_bound_dim(e, v, d) : em_const_dim(e, v, d);
  if (n < 0) em_fail(e, "dim %d of '%s' must not depend on the batch", d, v->name);
  return n;
}
static int64_t cdim(EmitCtx *e, const Var *v, int d) { return cdim_run(e, v, d, 0); }

static int check_w(EmitCtx *e, const Var *w, int64_t rows, int64_t cols) {
  if (!w || w->dtype != RT_DT_FP32 || em_spec(e, w)->rank != 2 || em_const_dim(e, w, 0) != rows ||
      em_const_dim(e, w, 1) != cols)
    return em_fail(e, "the weight '%s' must be float32 [%lld, %lld]", w ? w->name : "(missing)", (long long)rows,
                   (long long)cols);
  return 0;
}

static int check_b(EmitCtx *e, const Var *b, int64_t n) {
  SymDim k = b ? spec_numel(em_spec(e, b)) : (SymDim){0, n};
  if (b && (b->dtype != RT_DT_FP32 || k.a || k.c != n))
    return em_fail(e, "the bias '%s' must be float32 with %lld elements", b->name, (long long)n);
  return 0;
}

/* The mask's strides over [B, H, S, Sk]: right-aligned broadcasting, B
 * X's batch dim (the run's, or one --shape fixed).  Where the mask has dims the run gives (S, Sk: run_lengths), run[] gets
 * the strides as C expressions of them (else stays NULL). */
static int mask_strides(EmitCtx *e, const Var *m, SymDim batch_dim, const int64_t full[4], int64_t st[4],
                        const char *run[4]) {
  const VarSpec *ms = em_spec(e, m);
  if (m->dtype != RT_DT_FP32 || ms->rank > 4) return em_fail(e, "SrcMask must be float32 of rank <= 4");
  int64_t acc = 1;
  const char *racc = "1";
  for (int i = 3; i >= 0; i--) {
    int j = ms->rank - 4 + i;
    SymDim d = j >= 0 ? ms->d[j] : (SymDim){0, 1};
    int batch = i == 0 && d.a == batch_dim.a && d.c == batch_dim.c; /* X's batch: B, or the one --shape fixed */
    const int at_run = j >= 0 && j < RT_MAX_RANK && (ms->runtime_mask >> j & 1);
    if (!(d.a == 0 && d.c == 1 && !at_run) && !batch && !(d.a == 0 && d.c == full[i]))
      return em_fail(e, "SrcMask %s does not broadcast to the scores [B, %lld, %lld, %lld]", shape_str(&m->shape),
                     (long long)full[1], (long long)full[2], (long long)full[3]);
    st[i] = (d.a == 0 && d.c == 1 && !at_run) ? 0 : acc;
    if (ms->runtime_mask && st[i]) run[i] = racc;
    if (!batch) acc *= d.c;
    if (!batch && j >= 0 && ms->runtime_mask) racc = tu_mul(racc, em_dim(e, m, j));
  }
  return 0;
}

/* An optional input's buffer, or NULL. */
static const char *ptr_or_null(EmitCtx *e, const Var *v) { return v ? em_ptr(e, v, 1) : NULL; }

static int emit_fused_attention(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "X", 0), *xk = ctx_in(&c, "KeyX", 0), *xv = ctx_in(&c, "ValueX", 0), *y = ctx_out(&c, "Y", 0);
  Var *w[4] = {ctx_in(&c, "QW", 0), ctx_in(&c, "KW", 0), ctx_in(&c, "VW", 0), ctx_in(&c, "OutLinearW", 0)};
  Var *b[4] = {ctx_in(&c, "QBias", 0), ctx_in(&c, "KBias", 0), ctx_in(&c, "VBias", 0), ctx_in(&c, "OutLinearBias", 0)};
  Var *mask = ctx_in(&c, "SrcMask", 0), *res = ctx_in(&c, "Residual", 0);
  Var *ls = ctx_in(&c, "Ln2Scale", 0), *lb = ctx_in(&c, "Ln2Bias", 0);
  if (!x || !xk || !xv || !y) return em_fail(e, "missing X, KeyX, ValueX or Y");
  RtAttention p = {0};
  p.heads = attr_int(e->op, "num_heads", 0), p.dh = attr_int(e->op, "head_dim", 0);
  p.scale = (float)attr_float(e->op, "scale", 1.0);
  p.post_ln = attr_bool(e->op, "post_layer_norm", 0);
  p.ln_eps = (float)attr_float(e->op, "ln_epsilon", 1e-5);
  if (p.heads < 1 || p.dh < 1) return em_fail(e, "num_heads and head_dim must be positive");
  if ((p.s = cdim_run(e, x, 1, 1)) < 0 || (p.eq = cdim(e, x, 2)) < 0 || (p.sk = cdim_run(e, xk, 1, 1)) < 0 ||
      (p.ek = cdim(e, xk, 2)) < 0 || (p.ev = cdim(e, xv, 2)) < 0 || (p.eo = cdim(e, y, 2)) < 0)
    return -1;
  const int64_t hd = p.heads * p.dh, ins[3] = {p.eq, p.ek, p.ev};
  for (int i = 0; i < 3; i++)
    if (check_w(e, w[i], ins[i], hd) || check_b(e, b[i], hd)) return -1;
  if (check_w(e, w[3], hd, p.eo) || check_b(e, b[3], p.eo) || check_b(e, ls, p.eo) || check_b(e, lb, p.eo)) return -1;
  if (x->dtype != RT_DT_FP32 || xk->dtype != RT_DT_FP32 || xv->dtype != RT_DT_FP32)
    return em_fail(e, "only float32 inputs are supported");
  const int64_t full[4] = {0, p.heads, p.s, p.sk};
  AttentionCall call = {.kind = ATTN_FUSED};
  if (mask && mask_strides(e, mask, em_spec(e, x)->d[0], full, p.mask_stride, call.run_mask_stride)) return -1;
  if (em_spec(e, x)->runtime_mask) call.run_s = em_dim(e, x, 1);
  if (em_spec(e, xk)->runtime_mask) call.run_sk = em_dim(e, xk, 1);
  if (res && (res->dtype != RT_DT_FP32 || spec_numel(em_spec(e, res)).a != spec_numel(em_spec(e, y)).a ||
              spec_numel(em_spec(e, res)).c != spec_numel(em_spec(e, y)).c))
    return em_fail(e, "Residual must be float32 shaped like Y");
  call.geo = p;
  AttentionIo *io = &call.io;
  io->xq = em_ptr(e, x, 1);
  io->xk = em_ptr(e, xk, 1);
  io->xv = em_ptr(e, xv, 1);
  io->wq = em_ptr(e, w[0], 1);
  io->wk = em_ptr(e, w[1], 1);
  io->wv = em_ptr(e, w[2], 1);
  io->bq = ptr_or_null(e, b[0]);
  io->bk = ptr_or_null(e, b[1]);
  io->bv = ptr_or_null(e, b[2]);
  io->mask = ptr_or_null(e, mask);
  io->wo = em_ptr(e, w[3], 1);
  io->bo = ptr_or_null(e, b[3]);
  io->res = ptr_or_null(e, res);
  io->ln_scale = ptr_or_null(e, ls);
  io->ln_bias = ptr_or_null(e, lb);
  const int64_t rows = p.s > p.sk ? p.s : p.sk, width = hd > p.eo ? hd : p.eo;
  int64_t depth = hd;
  for (int i = 0; i < 3; i++) depth = ins[i] > depth ? ins[i] : depth;
  /* rt_attention_ws_floats(&p, B) bytes: linear in the batch */
  const int64_t ws0 = rt_attention_ws_floats(&p, 0), ws1 = rt_attention_ws_floats(&p, 1);
  const char *ws = em_scratch_named(e, "float", "attention_ws", (SymDim){(ws1 - ws0) * 4, ws0 * 4});
  em_task_scratch(e, rt_attention_task_floats(&p));
  const char *gemm_ws = em_gemm_ws(e, (SymDim){rows, 0}, (SymDim){0, width}, (SymDim){0, depth});
  LengthPair pairs[4];
  const int npairs = length_pairs(e, x, xk, xv, mask, res, pairs);
  for (int i = 0; i < npairs; i++)
    pr_line(e->p, "if (%s != %s) return 1; /* '%s' and '%s' must have one length */", em_dim(e, pairs[i].a, pairs[i].da),
            em_dim(e, pairs[i].b, pairs[i].db), pairs[i].a->name, pairs[i].b->name);
  if (npairs)
    em_fault(e, pool_printf("'%s' and '%s' have different lengths in this run (Paddle raises an error)",
                            pairs[npairs - 1].a->name, pairs[npairs - 1].b->name));
  call.batch = em_dim(e, x, 0);
  call.out = em_ptr(e, y, 0);
  call.ws = ws;
  call.gemm_ws = gemm_ws;
  attention_print_c(e->p, &call);
  return 0;
}

const OpDef op_fused_attention = {.type = "fused_attention", .infer = infer_fused_attention,
                                  .emit_c = emit_fused_attention, .runtime_extents = 2};
