/* einsum (paddle.einsum): Operands* -> Out, InnerCache*, XShape*;
 * equation:STRING (required).  paddle.einsum lower-cases the equation,
 * drops spaces, writes the implicit output ("ij,jk" -> "ij,jk->ik") and
 * splits three or more operands into a chain of two-operand ops, so the op
 * sees "<term>,<term>-><term>" with labels a-z and at most one "..." per
 * term.  float32 and float64.
 * Shape rule (phi EinsumInferMeta, InferLabelShape step for step): a
 * label's extent is its first known dim; the "..." of each term covers the
 * dims its letters leave, right-aligned against the others and broadcast
 * (1 against n).  Out has the extents the output term names, X's dtype;
 * XShape[i] has operand i's dims (InnerCache is left as Paddle leaves it).
 * Two of Paddle's compile-time quirks are kept so that inspect matches the
 * shapes Paddle records: an unknown (-1) ellipsis dim broadcasts as 1, and
 * a known label met again at an unknown dim does not advance to the next
 * dim.  Neither arises while specializing, where every dim is known.
 * Semantics (Paddle's kernel: diagonal, broadcast, reduce, transpose,
 * GEMM, transpose, undiagonal): out = sum over the labels the output lacks
 * of the product of the operands; a label repeated in a term reads its
 * diagonal, one repeated in the output writes a diagonal (zero elsewhere),
 * and the broadcast dims of "..." repeat size-1 operands.  Letters must
 * agree exactly (Paddle broadcasts only "...").
 * Emission: one rt_einsum call (runtime/rt_einsum.c), a general
 * contraction loop with products and sums in double, as an EinsumCall
 * (gemm_call.h).  Dims the run gives (a sequence's length): a label on
 * one is the run's wherever it appears (a fixed dim there is refused; the
 * operands' run sizes of one label are checked to agree), and so are the
 * dims of Out it labels (run_labels). */
#include <string.h>

#include "../util.h"
#include "gemm_call.h"
#include "move_call.h"
#include "ops.h"
#include "run_hw.h"
#include "tensor_util.h"

enum { EQ_MAX_TERM = 64 };

/* The equation split into terms; "..." becomes one '.'. */
typedef struct Equation {
  int nops;                                 /* input terms */
  char in[RT_EINSUM_MAX_OPS][EQ_MAX_TERM];  /* each operand's labels */
  char out[EQ_MAX_TERM];                    /* the output's labels */
} Equation;

/* Copies term [s, end) into dst with "..." as '.'; -1 on a bad label. */
static int parse_term(const char *s, const char *end, char *dst) {
  int n = 0, dots = 0;
  while (s < end) {
    if (*s >= 'a' && *s <= 'z') {
      dst[n++] = *s++;
    } else if (end - s >= 3 && !strncmp(s, "...", 3) && !dots) {
      dst[n++] = '.';
      dots = 1;
      s += 3;
    } else {
      return -1;
    }
    if (n >= EQ_MAX_TERM - 1) return -1;
  }
  dst[n] = 0;
  return 0;
}

/* Parses the equation; -1 with *why set when it is malformed. */
static int parse_equation(const char *eq, Equation *q, const char **why) {
  const char *arrow = strstr(eq, "->");
  *why = "it must be \"<term>,<term>-><term>\" with labels a-z and at most one \"...\" per term";
  if (!arrow || strstr(arrow + 2, "->")) return -1;
  q->nops = 0;
  for (const char *s = eq;;) {
    const char *comma = memchr(s, ',', (size_t)(arrow - s));
    const char *end = comma ? comma : arrow;
    if (q->nops == RT_EINSUM_MAX_OPS) {
      *why = "it has more than two operand terms";
      return -1;
    }
    if (parse_term(s, end, q->in[q->nops++])) return -1;
    if (!comma) break;
    s = comma + 1;
  }
  return parse_term(arrow + 2, arrow + strlen(arrow), q->out);
}

/* Labels of a term other than the ellipsis. */
static int letters(const char *t) {
  int n = 0;
  for (; *t; t++) n += *t != '.';
  return n;
}

/* Parses the op's equation against its operands' ranks: *nb is the number
 * of broadcast dims (the longest ellipsis).  -1 after ctx_fail. */
static int check_equation(OpCtx *c, Equation *q, const int *rank, int nops, int *nb) {
  const char *eq = attr_str(c->op, "equation", ""), *why;
  if (parse_equation(eq, q, &why)) return ctx_fail(c, "equation \"%s\" is not supported: %s", eq, why);
  if (q->nops != nops) return ctx_fail(c, "equation \"%s\" has %d operand terms for %d Operands", eq, q->nops, nops);
  *nb = 0;
  int any_dots = 0;
  for (int i = 0; i < nops; i++) {
    int nl = letters(q->in[i]), dots = strchr(q->in[i], '.') != NULL;
    if (dots ? rank[i] < nl : rank[i] != nl)
      return ctx_fail(c, "term \"%s\" of equation \"%s\" does not fit operand %d of rank %d", q->in[i], eq, i,
                      rank[i]);
    if (dots && rank[i] - nl > *nb) *nb = rank[i] - nl;
    any_dots |= dots;
  }
  if (any_dots && !strchr(q->out, '.'))
    return ctx_fail(c, "equation \"%s\" has \"...\" in an operand but not in the output", eq);
  for (const char *o = q->out; *o; o++) {
    int found = *o == '.' && any_dots;
    for (int i = 0; i < nops && !found; i++) found = *o != '.' && strchr(q->in[i], *o) != NULL;
    if (!found) return ctx_fail(c, "output label '%c' of equation \"%s\" is in no operand", *o, eq);
  }
  int nout = letters(q->out) + (strchr(q->out, '.') ? *nb : 0);
  if (nout > RT_MAX_RANK) return ctx_fail(c, "the output of equation \"%s\" has more than %d dims", eq, RT_MAX_RANK);
  return 0;
}

static int label_at(const char *t, int p, int nell, int nb);
static const char *label_name(int l);

/* Dims the run gives (a sequence's length): a label on such a dim must
 * be the run's wherever it appears (or 1 in a "..." dim, broadcast); the
 * dims of Out it labels are run-time extents of a root of their own.
 * -1 after ctx_fail. */
static int run_labels(OpCtx *c, const Equation *q, Var *const *x, int n, int nb) {
  int run[RT_EINSUM_MAX_LABELS] = {0}, fixed[RT_EINSUM_MAX_LABELS] = {0}, any = 0;
  const char *key = pool_printf("einsum %s", attr_str(c->op, "equation", "")), *from = NULL;
  for (int i = 0; i < n; i++) {
    const int r = x[i]->shape.rank, nell = r - letters(q->in[i]);
    for (int p = 0; p < r; p++) {
      const int l = label_at(q->in[i], p, nell, nb);
      if (var_runtime_mask(x[i]) >> p & 1) {
        run[l] = any = 1, from = x[i]->runtime_from;
        key = pool_printf("%s %d:%d.%d", key, i, x[i]->runtime_root, p);
      } else if (l < 26 || x[i]->shape.d[p] != 1) {
        fixed[l] = 1;
      }
    }
  }
  if (!any) return 0;
  unsigned mask = 0;
  for (int l = 0; l < RT_EINSUM_MAX_LABELS; l++)
    if (run[l] && fixed[l])
      return ctx_fail(c, "label %s of equation \"%s\" is a size the run gives in one operand and fixed in another",
                      label_name(l), attr_str(c->op, "equation", ""));
  const Var *out = ctx_out(c, "Out", 0);
  if (!out) return 0;
  const int orank = out->shape.rank, nell = orank - letters(q->out);
  for (int p = 0; p < orank; p++)
    if (run[label_at(q->out, p, nell, nb)]) mask |= 1u << p;
  if (!mask) return 0;
  ctx_set_runtime_extents(c, "Out", 0, mask, from);
  const Var *one = NULL; /* operands whose run sizes are all one extent of one root: Out's are it too */
  int same = 1;
  for (int i = 0; i < n; i++) {
    if (!var_runtime_mask(x[i])) continue;
    if (!x[i]->runtime_same || (one && one->runtime_root != x[i]->runtime_root)) same = 0;
    if (!one) one = x[i];
  }
  if (same && one) ctx_inherit_root(ctx_out(c, "Out", 0), one, 0);
  else run_hw_share_root(c->g, ctx_out(c, "Out", 0), key);
  return 0;
}

static int infer_einsum(OpCtx *c) {
  int n = ctx_nin(c, "Operands"), rank[RT_EINSUM_MAX_OPS];
  if (n < 1 || n > RT_EINSUM_MAX_OPS) return ctx_fail(c, "einsum takes 1 or 2 Operands, not %d", n);
  Var *x[RT_EINSUM_MAX_OPS];
  for (int i = 0; i < n; i++) {
    if (!(x[i] = ctx_need(c, "Operands", i))) return -1;
    rank[i] = x[i]->shape.rank;
  }
  Equation q;
  int nb;
  if (check_equation(c, &q, rank, n, &nb)) return -1;
  /* InferLabelShape: extents 0 count as "not seen" (Paddle's LabelMap) */
  int64_t extent[26] = {0}, bcast[RT_MAX_RANK];
  for (int k = 0; k < nb; k++) bcast[k] = 1;
  for (int i = 0; i < n; i++) {
    const Shape *s = &x[i]->shape;
    int ptr = 0, nell = rank[i] - letters(q.in[i]);
    for (const char *t = q.in[i]; *t; t++) {
      if (*t == '.') {
        for (int k = 0; k < nell; k++, ptr++) {
          int64_t v = s->d[ptr], *b = &bcast[nb - nell + k];
          if (v != 1 && *b != 1 && *b != v)
            return ctx_fail(c, "operand %d %s: its \"...\" dims do not broadcast against the others", i,
                            shape_str(s));
          if (v > *b) *b = v;
        }
      } else if (extent[*t - 'a'] == 0 || extent[*t - 'a'] == DIM_UNKNOWN) {
        extent[*t - 'a'] = s->d[ptr++];
      } else if (s->d[ptr] != DIM_UNKNOWN) {
        if (s->d[ptr] != extent[*t - 'a'])
          return ctx_fail(c, "label '%c' has extent %lld and %lld", *t, (long long)extent[*t - 'a'],
                          (long long)s->d[ptr]);
        ptr++;
      }
    }
  }
  Shape o = {0, {0}};
  for (const char *t = q.out; *t; t++) {
    if (*t != '.') o.d[o.rank++] = extent[*t - 'a'];
    else
      for (int k = 0; k < nb; k++) o.d[o.rank++] = bcast[k];
  }
  ctx_set(c, "Out", 0, &o, x[0]->dtype);
  if (run_labels(c, &q, x, n, nb)) return -1;
  /* XShape and InnerCache: the operands' dims, and their sizes the run gives (einsum_grad's x_shape) */
  for (int i = 0; i < n && i < ctx_nout(c, "XShape"); i++) {
    ctx_set(c, "XShape", i, &x[i]->shape, x[i]->dtype);
    ctx_pass_runtime_extent(c, x[i], "XShape", i);
  }
  for (int i = 0; i < n && i < ctx_nout(c, "InnerCache"); i++)
    if (ctx_out(c, "InnerCache", i)) {
      ctx_set(c, "InnerCache", i, &x[i]->shape, x[i]->dtype);
      ctx_pass_runtime_extent(c, x[i], "InnerCache", i);
    }
  return 0;
}

/* einsum_grad (x_shape*, InnerCache*, Out@GRAD -> Operands@GRAD*;
 * equation): each operand's gradient has the shape and dtype of its
 * XShape (the operand's own dims). */
static int infer_einsum_grad(OpCtx *c) {
  Var *dout = ctx_need(c, "Out@GRAD", 0);
  if (!dout) return -1;
  for (int i = 0; i < ctx_nout(c, "Operands@GRAD"); i++) {
    if (!ctx_out(c, "Operands@GRAD", i)) continue;
    Var *xs = ctx_need(c, "x_shape", i);
    if (!xs) return -1;
    ctx_set(c, "Operands@GRAD", i, &xs->shape, dout->dtype);
    ctx_pass_runtime_extent(c, xs, "Operands@GRAD", i); /* the operand's sizes the run gives */
  }
  return 0;
}

/* ---- emission ---- */

/* The labels of one einsum: letters 'a'..'z' are labels 0..25, broadcast
 * dim k of the ellipsis is label 26 + k. */
typedef struct Labels {
  SymDim extent[RT_EINSUM_MAX_LABELS]; /* each label's extent */
  int used[RT_EINSUM_MAX_LABELS];      /* 1 when some operand has it */
  const char *stride[RT_EINSUM_MAX_OPS][RT_EINSUM_MAX_LABELS]; /* C expressions */
  const char *run[RT_EINSUM_MAX_LABELS]; /* the run's extent of a label on a dim it gives (run_labels), or NULL */
} Labels;

static int same_dim(SymDim a, SymDim b) { return a.a == b.a && a.c == b.c; }

/* The label of position p of term t (expanded), for an operand of rank r
 * whose ellipsis covers nell dims of nb. */
static int label_at(const char *t, int p, int nell, int nb) {
  for (int pos = 0; *t; t++) {
    if (*t == '.') {
      if (p < pos + nell) return 26 + nb - nell + (p - pos);
      pos += nell;
    } else {
      if (p == pos) return *t - 'a';
      pos++;
    }
  }
  return -1;
}

static const char *label_name(int l) { return l < 26 ? pool_printf("%c", 'a' + l) : pool_printf("...%d", l - 26); }

/* Each label's element stride in tensor x read with term t: the sum of
 * its strides along every dim that carries it, "0" for a label x lacks or
 * broadcasts (a size-1 dim never moves). */
static void term_strides(EmitCtx *e, const char *t, const Var *x, int nb, const char **st) {
  const VarSpec *s = em_spec(e, x);
  const char *dim_st[RT_MAX_RANK];
  tu_strides(e, x, dim_st);
  for (int l = 0; l < RT_EINSUM_MAX_LABELS; l++) st[l] = "0";
  for (int p = 0; p < s->rank; p++) {
    int l = label_at(t, p, s->rank - letters(t), nb);
    if (!tu_is_one(s->d[p])) st[l] = tu_add(st[l], dim_st[p]);
  }
}

/* Extents and operand strides of every label, x holding tensors of the
 * operands' shapes; -1 after em_fail. */
static int collect_labels(EmitCtx *e, const Equation *q, Var *const *x, int n, int nb, Labels *L) {
  memset(L, 0, sizeof *L);
  for (int l = 0; l < RT_EINSUM_MAX_LABELS; l++) L->extent[l] = (SymDim){0, 1};
  for (int i = 0; i < n; i++) {
    const VarSpec *s = em_spec(e, x[i]);
    for (int p = 0; p < s->rank; p++) {
      int l = label_at(q->in[i], p, s->rank - letters(q->in[i]), nb);
      SymDim d = s->d[p];
      if (l < 26 && L->used[l] && !same_dim(L->extent[l], d))
        return em_fail(e, "label '%c' has extents %s and %s", 'a' + l, em_sym(L->extent[l]), em_sym(d));
      if (l >= 26 && !tu_is_one(d) && !tu_is_one(L->extent[l]) && !same_dim(L->extent[l], d))
        return em_fail(e, "the \"...\" dims of the operands do not broadcast (%s against %s)", em_sym(L->extent[l]),
                       em_sym(d));
      if (l < 26 || !tu_is_one(d)) L->extent[l] = d;
      L->used[l] = 1;
      if (!(s->runtime_mask >> p & 1)) continue;
      const char *ext = em_dim(e, x[i], p); /* the run's: every such dim of the label the same (checked) */
      if (L->run[l] && strcmp(L->run[l], ext)) {
        em_fault(e, "the operands' sizes of one label differ in this run (Paddle raises an error)");
        pr_line(e->p, "if (%s != %s) return 1;", L->run[l], ext);
      }
      if (!L->run[l]) L->run[l] = ext;
    }
  }
  for (int i = 0; i < n; i++) term_strides(e, q->in[i], x[i], nb, L->stride[i]);
  return 0;
}

/* Fills k with one contraction: out (read with term t) = the contraction
 * of the n tensors at ptrs, tensor k's label strides in st[k], over the
 * labels L uses.  Out's labels index it; a dim of Out that is 1 where its
 * label is wider (a broadcast "..." dim of an operand's gradient) is
 * summed over like the labels Out lacks.  -1 after em_fail. */
static int lower_contraction(EmitCtx *e, const Labels *L, const char *t, int nb, int n, const char *const *ptrs,
                             const char *const (*st)[RT_EINSUM_MAX_LABELS], const Var *out, EinsumContraction *k) {
  int order[RT_EINSUM_MAX_LABELS], nl = 0, nout, zero_out = 0, in_out[RT_EINSUM_MAX_LABELS] = {0};
  const char *ost[RT_MAX_RANK], *out_stride[RT_EINSUM_MAX_LABELS] = {0};
  tu_strides(e, out, ost);
  int orank = tu_rank(e, out);
  for (int p = 0; p < orank; p++) {
    int l = label_at(t, p, orank - letters(t), nb);
    SymDim d = em_spec(e, out)->d[p];
    if (l >= 26 && tu_is_one(d) && !tu_is_one(L->extent[l])) continue;
    if (!same_dim(d, L->extent[l]))
      return em_fail(e, "%s dim %d is %s, label %s has %s", out->name, p, em_dim(e, out, p), label_name(l),
                     em_sym(L->extent[l]));
    if (in_out[l]) {
      zero_out = 1;
    } else {
      in_out[l] = 1;
      out_stride[nl] = "0";
      order[nl++] = l;
    }
    for (int j = 0; j < nl; j++)
      if (order[j] == l) out_stride[j] = tu_add(out_stride[j], ost[p]);
  }
  nout = nl;
  for (int l = 0; l < RT_EINSUM_MAX_LABELS; l++)
    if (L->used[l] && !in_out[l]) order[nl++] = l;
  *k = (EinsumContraction){.target = strcmp(e->op->type, "einsum") ? out->name : "Out", .nops = n, .nlabels = nl,
                           .nout = nout, .zero_out = zero_out};
  for (int j = 0; j < nl; j++) {
    k->label[j] = label_name(order[j]);
    k->size[j] = L->run[order[j]] ? L->run[order[j]] : em_sym(L->extent[order[j]]);
    for (int i = 0; i < n; i++) k->stride[i][j] = st[i][order[j]];
  }
  for (int j = 0; j < nout; j++) k->out_stride[j] = out_stride[j];
  for (int i = 0; i < n; i++) k->operands[i] = ptrs[i];
  k->out_numel = em_numel(e, out);
  k->out = em_ptr(e, out, 0);
  return 0;
}

/* 1 when `v` is float32 or float64. */
static int float_type(const Var *v) { return v->dtype == RT_DT_FP32 || v->dtype == RT_DT_FP64; }

/* einsum: Out = the contraction of the operands.  An InnerCache output
 * that some op reads (einsum_grad) gets a copy of its operand: paddlec's
 * InnerCache[i] holds operand i as it is (Paddle's holds the operands as
 * its GEMM path rearranged them), which is what einsum_grad reads. */
static int emit_einsum(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  int n = ctx_nin(&c, "Operands"), rank[RT_EINSUM_MAX_OPS];
  if (n < 1 || n > RT_EINSUM_MAX_OPS) return em_fail(e, "einsum takes 1 or 2 Operands, not %d", n);
  Var *x[RT_EINSUM_MAX_OPS], *out = tu_out(e, "Out", 0);
  if (!out) return -1;
  for (int i = 0; i < n; i++) {
    if (!(x[i] = tu_in(e, "Operands", i))) return -1;
    if (x[i]->dtype != out->dtype || !float_type(out))
      return em_fail(e, "einsum of %s operands into %s is not supported (float32 or float64)",
                     rt_dtype_name(x[i]->dtype), rt_dtype_name(out->dtype));
    if (x[i] == out) return em_fail(e, "Out is an operand (an in-place einsum), which is not supported");
    rank[i] = tu_rank(e, x[i]);
  }
  Equation q;
  int nb;
  if (check_equation(&c, &q, rank, n, &nb)) return -1;
  Labels L;
  if (collect_labels(e, &q, x, n, nb, &L)) return -1;
  const int orank = tu_rank(e, out);
  for (int p = 0; p < orank; p++) { /* run_labels: Out's extents, its labels' */
    const int l = label_at(q.out, p, orank - letters(q.out), nb);
    if (em_spec(e, out)->runtime_mask >> p & 1 && L.run[l])
      move_print_c(e->p, &(MoveCall){.kind = MOVE_EXTENT, .dst = em_dim(e, out, p), .src = L.run[l]});
  }
  const char *ptrs[RT_EINSUM_MAX_OPS];
  for (int i = 0; i < n; i++) ptrs[i] = em_ptr(e, x[i], 1);
  EinsumCall call = {.kind = EINSUM_FORWARD, .f64 = out->dtype != RT_DT_FP32, .type = em_ctype(out->dtype),
                     .equation = attr_str(e->op, "equation", ""), .ncontract = 1};
  if (lower_contraction(e, &L, q.out, nb, n, ptrs, (const char *const(*)[RT_EINSUM_MAX_LABELS])L.stride, out,
                        &call.contract[0]))
    return -1;
  for (int i = 0; i < n && i < ctx_nout(&c, "InnerCache"); i++) {
    Var *cache = ctx_out(&c, "InnerCache", i);
    if (!cache || !cache->nusers) continue;
    if (!(cache = tu_out(e, "InnerCache", i))) return -1;
    call.cache[i] = em_ptr(e, cache, 0);
    call.cache_numel[i] = em_numel(e, x[i]);
  }
  einsum_print_c(e->p, &call);
  return 0;
}

const OpDef op_einsum = {.type = "einsum", .infer = infer_einsum, .emit_c = emit_einsum, .runtime_extents = 2};

/* einsum_grad: operand i's gradient is the contraction of Out@GRAD (read
 * with the output term: a label the output repeats reads its diagonal)
 * with the other operand, indexed by operand i's term: its repeated labels
 * write a diagonal (zero elsewhere), a label only it has (summed by the
 * forward) broadcasts, and a "..." dim it broadcast (size 1) is summed
 * over.  The operands' values come from InnerCache (einsum above), their
 * shapes from x_shape; products and sums in double, as the forward. */
static int emit_einsum_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  int n = ctx_nin(&c, "x_shape"), rank[RT_EINSUM_MAX_OPS];
  if (n < 1 || n > RT_EINSUM_MAX_OPS) return em_fail(e, "einsum_grad takes 1 or 2 x_shape, not %d", n);
  if (ctx_nin(&c, "InnerCache") != n)
    return em_fail(e, "einsum_grad needs the forward's InnerCache (one per operand) to read the operands");
  Var *dout = tu_in(e, "Out@GRAD", 0), *xs[RT_EINSUM_MAX_OPS], *cache[RT_EINSUM_MAX_OPS];
  if (!dout) return -1;
  if (!float_type(dout)) return em_fail(e, "einsum_grad of %s tensors is not supported", rt_dtype_name(dout->dtype));
  for (int i = 0; i < n; i++) {
    if (!(xs[i] = tu_in(e, "x_shape", i)) || !(cache[i] = tu_in(e, "InnerCache", i))) return -1;
    if (cache[i]->dtype != dout->dtype || spec_numel(em_spec(e, cache[i])).c != spec_numel(em_spec(e, xs[i])).c ||
        spec_numel(em_spec(e, cache[i])).a != spec_numel(em_spec(e, xs[i])).a)
      return em_fail(e, "InnerCache[%d] ('%s') does not hold operand %d as paddlec's einsum writes it", i,
                     cache[i]->name, i);
    rank[i] = tu_rank(e, xs[i]);
  }
  Equation q;
  int nb;
  if (check_equation(&c, &q, rank, n, &nb)) return -1;
  Labels L;
  if (collect_labels(e, &q, xs, n, nb, &L)) return -1;
  const char *dout_st[RT_EINSUM_MAX_LABELS];
  term_strides(e, q.out, dout, nb, dout_st);
  EinsumCall call = {.kind = EINSUM_GRAD, .f64 = dout->dtype != RT_DT_FP32, .type = em_ctype(dout->dtype),
                     .equation = attr_str(e->op, "equation", "")};
  for (int i = 0; i < n; i++) {
    if (i >= ctx_nout(&c, "Operands@GRAD") || !ctx_out(&c, "Operands@GRAD", i)) continue;
    Var *dx = tu_out(e, "Operands@GRAD", i);
    if (!dx) return -1;
    for (int k = 0; k < n; k++)
      if (dx == dout || dx == cache[k])
        return em_fail(e, "Operands@GRAD[%d] shares a buffer with an input, which is not supported", i);
    /* the contraction of Out@GRAD and the other operand */
    const char *ptrs[2] = {em_ptr(e, dout, 1), n > 1 ? em_ptr(e, cache[1 - i], 1) : NULL};
    const char *sts[2][RT_EINSUM_MAX_LABELS];
    memcpy(sts[0], dout_st, sizeof sts[0]);
    if (n > 1) memcpy(sts[1], L.stride[1 - i], sizeof sts[1]);
    EinsumContraction *k = &call.contract[call.ncontract++];
    if (lower_contraction(e, &L, q.in[i], nb, n, ptrs, (const char *const(*)[RT_EINSUM_MAX_LABELS])sts, dx, k))
      return -1;
    k->grad = i;
  }
  einsum_print_c(e->p, &call);
  return 0;
}

/* x_shape gives only the operands' shapes (the forward leaves XShape
 * unwritten) */
static const char *const einsum_grad_ignores[] = {"x_shape", NULL};

const OpDef op_einsum_grad = {.type = "einsum_grad", .infer = infer_einsum_grad, .emit_c = emit_einsum_grad,
                              .ignores = einsum_grad_ignores, .runtime_extents = 2};
