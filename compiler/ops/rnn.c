/* rnn: the fused multi-layer RNN op that paddle.nn.LSTM / GRU / SimpleRNN
 * export (cuDNN-style packed weights).
 *
 *   Input [T, N, I] (time major; the Python layer transposes batch-major
 *   input before the op), PreState* ([L*D, N, H]: LSTM has two, h and c;
 *   GRU / RNN_TANH / RNN_RELU one), WeightList* (per layer and direction:
 *   weights then biases), SequenceLength† [N] ->
 *   Out [T, N, D*H], State* (= PreState), Reserve, DropoutState.
 *   Attributes: dropout_prob=0, is_bidirec=false (D = 2 when true),
 *   input_size=10, hidden_size=100, num_layers=1, mode="LSTM" ("LSTM", "GRU",
 *   "RNN_TANH", "RNN_RELU"), seed=0, is_test=false.
 *
 *   rnn_grad: Input, PreState*, WeightList*, SequenceLength†, Out,
 *   Reserve, DropoutState, Out@GRAD†, State@GRAD†* -> Input@GRAD†,
 *   PreState@GRAD†*, WeightList@GRAD†* (the same attributes).
 *
 * Paddle's RnnInferMeta sets Out and State (dtype of Input) and leaves
 * Reserve and DropoutState as declared (uint8 scalars in the programs
 * Python writes): their size depends on the kernel.  While specializing,
 * paddlec makes them empty: neither kernel here writes or reads them.
 * rnn_grad's rule is the generic one (grad_infer: each X@GRAD as X).
 *
 * C emission (float32 or float64 as Paddle's float and double CPU kernels,
 * inference and training alike): one rt_rnn call (rt_rnn_f64 in float64,
 * Input, PreState, WeightList, Out and State all of Input's dtype;
 * runtime/rt_rnn.h, which spells out the WeightList layout, the gate order
 * and each cell's formula, as Paddle 2.6's CPU kernel computes them).
 * WeightList holds, for each layer and direction, W_ih [G*H, in] and W_hh
 * [G*H, H], then all the biases b_ih, b_hh [G*H] in the same order (G = 4
 * LSTM, 3 GRU, 1 RNN_*; in = Input width for layer 0, D*H above).
 * SequenceLength (int32 or int64) zeroes the outputs past each sequence's
 * length and freezes its state there.  The attributes: mode, num_layers,
 * is_bidirec and hidden_size shape the network (checked against the
 * weights and PreState); input_size is not read (Paddle's kernel takes the
 * width from Input and the weights, both checked here); dropout_prob
 * applies, as in Paddle, only between layers and only when is_test is
 * false: the forward draws DropoutState ([T, N, D*H] uint8, one mask for
 * every pair of layers; from a generator seeded with `seed` when it is not
 * 0, else the global one) and rt_rnn applies it; seed only seeds that
 * dropout.
 *
 * rnn_grad: one rt_rnn_grad (rt_rnn_grad_f64) call, which runs the forward again (into the
 * kernel's scratch, with the forward's DropoutState when it dropped) rather
 * than read Reserve, then backpropagates through
 * every step, layer and direction; WeightList@GRAD has WeightList's layout.
 * It reproduces one quirk of Paddle's grad kernel with SequenceLength (see
 * rt_rnn.h: the reverse direction's first step of a short sequence). */
#include <string.h>

#include "../util.h"
#include "rt_kernels.h"
#include "ops.h"
#include "rnn_call.h"
#include "tensor_util.h"

/* 1 when the op drops between layers: Paddle's RnnKernel with is_test
 * false, dropout_prob not 0 and more than one layer. */
static int rnn_drops(const Op *op) {
  return !attr_bool(op, "is_test", 0) && attr_float(op, "dropout_prob", 0.0) != 0 && attr_int(op, "num_layers", 1) > 1;
}

/* OpDef.global_rng: a forward that draws its mask from the global
 * generator (seed 0; dropout_prob 1 draws nothing). */
static int rnn_global_rng(const Graph *g, const Op *op) {
  (void)g;
  return rnn_drops(op) && attr_float(op, "dropout_prob", 0.0) != 1 && attr_int(op, "seed", 0) == 0;
}

static int infer_rnn(OpCtx *c) {
  Var *x = ctx_need(c, "Input", 0);
  if (!x) return -1;
  if (x->shape.rank != 3) return ctx_fail(c, "Input %s must have rank 3", shape_str(&x->shape));
  const char *mode = attr_str(c->op, "mode", "LSTM");
  int nstate = strcmp(mode, "LSTM") == 0 ? 2 : 1;
  if (strcmp(mode, "LSTM") && strcmp(mode, "GRU") && strcmp(mode, "RNN_TANH") &&
      strcmp(mode, "RNN_RELU"))
    return ctx_fail(c, "unknown mode '%s'", mode);
  if (ctx_nin(c, "PreState") != nstate)
    return ctx_fail(c, "mode %s takes %d PreState tensors, got %d", mode, nstate,
                    ctx_nin(c, "PreState"));
  Var *seq = ctx_in(c, "SequenceLength", 0);
  if (seq && seq->shape.rank >= 1 && seq->shape.d[0] != x->shape.d[1])
    return ctx_fail(c, "SequenceLength %s does not match batch size %lld", shape_str(&seq->shape),
                    (long long)x->shape.d[1]);
  for (int i = 0; i < nstate; i++) {
    Var *s = ctx_need(c, "PreState", i);
    if (!s) return -1;
    if (s->shape.rank != 3 || s->shape.d[1] != x->shape.d[1])
      return ctx_fail(c, "PreState[%d] %s does not fit Input %s", i, shape_str(&s->shape),
                      shape_str(&x->shape));
    ctx_set(c, "State", i, &s->shape, x->dtype);
  }
  int64_t hidden = attr_int(c->op, "hidden_size", 100);
  Shape out = x->shape;
  out.d[2] = attr_bool(c->op, "is_bidirec", 0) ? 2 * hidden : hidden;
  ctx_set(c, "Out", 0, &out, x->dtype);
  /* Reserve and DropoutState keep Paddle's declared uint8 scalar; while
   * specializing Reserve is empty (paddlec's rnn_grad runs the forward again
   * rather than read it) and so is DropoutState unless the forward drops
   * between layers: then it holds the mask, Out's shape */
  Shape side = {c->g->specializing ? 1 : 0, {0}};
  ctx_set(c, "Reserve", 0, &side, RT_DT_UINT8);
  ctx_set(c, "DropoutState", 0, c->g->specializing && rnn_drops(c->op) ? &out : &side, RT_DT_UINT8);
  /* a time dim the run gives (a sequence length: Input [T, N, I]) is Out's;
   * the kernel steps through the run's T (the workspace planned for the
   * bound).  Not with a dropout mask between layers (sized by T) */
  if (var_runtime_mask(x) & ~1u || (var_runtime_mask(x) && rnn_drops(c->op)))
    return ctx_fail(c, "Input ('%s') may have a run-time extent only in its time dim (0), and not with dropout "
                    "between layers", x->name);
  ctx_pass_runtime_extent(c, x, "Out", 0);
  return 0;
}

/* ---- C emission ---- */

static const struct {
  const char *name;      /* the mode attribute */
  RtRnnMode mode;        /* the runtime's cell */
  const char *enum_name; /* its name in emitted code */
} modes[] = {{"LSTM", RT_RNN_LSTM, "RT_RNN_LSTM"},
             {"GRU", RT_RNN_GRU, "RT_RNN_GRU"},
             {"RNN_TANH", RT_RNN_TANH, "RT_RNN_TANH"},
             {"RNN_RELU", RT_RNN_RELU, "RT_RNN_RELU"}};

/* The op's element type: Input's dtype (float32 or float64, which
 * rnn_geometry checks); every float tensor of the op must have it. */
static int rnn_dtype(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "Input", 0);
  return x ? x->dtype : RT_DT_FP32;
}

/* Its C type. */
static const char *rnn_ctype(EmitCtx *e) { return rnn_dtype(e) == RT_DT_FP64 ? "double" : "float"; }

/* 1 when v is a tensor of the op's dtype with exactly `rank` constant dims d. */
static int const_shape_is(EmitCtx *e, const Var *v, int rank, const int64_t *d) {
  const VarSpec *s = em_spec(e, v);
  if (v->dtype != rnn_dtype(e) || s->rank != rank) return 0;
  for (int i = 0; i < rank; i++)
    if (s->d[i].a != 0 || s->d[i].c != d[i]) return 0;
  return 1;
}

/* 1 when two dims are the same function of the batch. */
static int sym_eq(SymDim x, SymDim y) { return x.a == y.a && x.c == y.c; }

/* A var's specialized shape with its dims in B, e.g. "[4, B, 5]". */
static const char *sym_shape(EmitCtx *e, const Var *v) {
  const VarSpec *s = em_spec(e, v);
  const char *t = "[";
  for (int i = 0; i < s->rank; i++) t = pool_printf("%s%s%s", t, i ? ", " : "", em_sym(s->d[i]));
  return pool_printf("%s]", t);
}

/* A tensor in `slot`[i] (WeightList or its grad) must have the shape of the
 * i-th weight: W_ih [G*H, in] and W_hh [G*H, H] per layer and direction,
 * then the biases [G*H] in the same order (of Input's dtype). */
static int check_weight(EmitCtx *e, const RtRnn *g, const char *slot, int i, const Var *w) {
  const int64_t nd = g->num_dirs, gh = rt_rnn_gates(g->mode) * g->hidden_size, nk = g->num_layers * nd;
  int64_t k = (i % (2 * nk)) / 2, width = k < nd ? g->input_size : nd * g->hidden_size;
  int64_t mat[2] = {gh, i % 2 ? g->hidden_size : width};
  int ok = i < 2 * nk ? const_shape_is(e, w, 2, mat) : const_shape_is(e, w, 1, &gh);
  if (ok) return 0;
  return em_fail(e, "%s[%d] (%s) is %s %s; layer %lld direction %lld needs a %s %s", slot, i, w->name,
                 rt_dtype_name(w->dtype), sym_shape(e, w), (long long)(k / nd), (long long)(k % nd),
                 rt_dtype_name(rnn_dtype(e)),
                 i < 2 * nk ? shape_str(&(Shape){2, {mat[0], mat[1]}}) : shape_str(&(Shape){1, {gh}}));
}

/* Checks WeightList against the network and fills r's weights, in Paddle's
 * order, with their comments. */
static int rnn_weights(EmitCtx *e, const RtRnn *g, RnnCall *r) {
  OpCtx c = {e->g, (Op *)e->op};
  const int64_t nd = g->num_dirs, nk = g->num_layers * nd;
  if (ctx_nin(&c, "WeightList") != 4 * nk)
    return em_fail(e, "WeightList has %d tensors; %lld layers x %lld directions need %lld", ctx_nin(&c, "WeightList"),
                   (long long)g->num_layers, (long long)nd, (long long)(4 * nk));
  for (int i = 0; i < 4 * nk; i++) {
    Var *w = ctx_in(&c, "WeightList", i);
    if (!w) return em_fail(e, "WeightList[%d] is missing", i);
    if (check_weight(e, g, "WeightList", i, w)) return -1;
  }
  const char **ptrs = pool_alloc((size_t)(4 * nk) * sizeof *ptrs);
  const char **notes = pool_alloc((size_t)(4 * nk) * sizeof *notes);
  for (int i = 0; i < 4 * nk; i++) {
    Var *w = ctx_in(&c, "WeightList", i);
    ptrs[i] = em_ptr(e, w, 1);
    notes[i] = pool_printf("%s %s", w->name, sym_shape(e, w));
  }
  r->nweights = (int)(4 * nk), r->weights = ptrs, r->weight_notes = notes;
  return 0;
}

/* A state tensor (PreState or State) must be [L*D, N, H] of the op's dtype. */
static int check_state(EmitCtx *e, const Var *v, const char *slot, int i, SymDim batch, const RtRnn *g) {
  const VarSpec *s = em_spec(e, v);
  if (v->dtype == rnn_dtype(e) && s->rank == 3 && sym_eq(s->d[0], (SymDim){0, g->num_layers * g->num_dirs}) &&
      sym_eq(s->d[1], batch) && sym_eq(s->d[2], (SymDim){0, g->hidden_size}))
    return 0;
  return em_fail(e, "%s[%d] (%s) is %s %s; it must be %s [%lld, N, %lld]", slot, i, v->name,
                 rt_dtype_name(v->dtype), sym_shape(e, v), rt_dtype_name(rnn_dtype(e)),
                 (long long)(g->num_layers * g->num_dirs),
                 (long long)g->hidden_size);
}

/* The network of an rnn or rnn_grad op from its attributes and Input:
 * into *g (seq_len and batch left 0: *steps and *batch hold them) and the
 * mode's index in `modes`.  Refuses dropout between layers in training
 * (is_test=false).  -1 after em_fail. */
static int rnn_geometry(EmitCtx *e, RtRnn *g, int *mi, SymDim *steps, SymDim *batch) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "Input", 0);
  if (!x) return em_fail(e, "missing Input");
  const char *mode = attr_str(e->op, "mode", "LSTM");
  *mi = -1;
  for (int i = 0; i < (int)(sizeof modes / sizeof modes[0]); i++)
    if (!strcmp(mode, modes[i].name)) *mi = i;
  if (*mi < 0) return em_fail(e, "unknown mode '%s'", mode);
  int64_t layers = attr_int(e->op, "num_layers", 1), hidden = attr_int(e->op, "hidden_size", 100);
  const double dropout = attr_float(e->op, "dropout_prob", 0.0);
  if (rnn_drops(e->op) && !(dropout > 0 && dropout <= 1))
    return em_fail(e, "dropout_prob %g is not in [0, 1]", dropout);
  if (layers < 1 || hidden < 1)
    return em_fail(e, "num_layers %lld and hidden_size %lld must be positive", (long long)layers, (long long)hidden);
  const VarSpec *xs = em_spec(e, x);
  if ((x->dtype != RT_DT_FP32 && x->dtype != RT_DT_FP64) || xs->rank != 3)
    return em_fail(e, "only a float32 or float64 rank-3 Input is supported (got %s %s)", rt_dtype_name(x->dtype),
                   sym_shape(e, x));
  *steps = xs->d[0], *batch = xs->d[1];
  if (steps->a && batch->a) return em_fail(e, "time steps and batch of Input must not both depend on the batch");
  if (xs->d[2].a) return em_fail(e, "the feature dim of Input must not depend on the batch");
  *g = (RtRnn){modes[*mi].mode, 0, 0, xs->d[2].c, hidden, layers, attr_bool(e->op, "is_bidirec", 0) ? 2 : 1,
               rnn_drops(e->op) ? (float)dropout : 0.0f, NULL};
  return 0;
}

/* Fills r's geometry and element type. */
static void rnn_geo(EmitCtx *e, const RtRnn *g, int mi, SymDim steps, SymDim batch, RnnCall *r) {
  r->type = rnn_ctype(e), r->f64 = rnn_dtype(e) == RT_DT_FP64;
  r->mode = modes[mi].enum_name, r->seq_len = em_sym(steps), r->batch = em_sym(batch);
  r->input_size = g->input_size, r->hidden_size = g->hidden_size, r->num_layers = g->num_layers;
  r->num_dirs = g->num_dirs;
  r->dropout_prob = rt_rnn_drops(g) ? em_float(g->dropout_prob) : NULL;
}

/* DropoutState when the op drops between layers (the mask, Out's size and
 * uint8), else NULL with *ok 1; *ok 0 after em_fail. */
static const Var *dropout_state(EmitCtx *e, const RtRnn *g, SymDim steps, SymDim batch, int is_output, int *ok) {
  OpCtx c = {e->g, (Op *)e->op};
  *ok = 1;
  if (!rt_rnn_drops(g)) return NULL;
  Var *m = is_output ? ctx_out(&c, "DropoutState", 0) : ctx_in(&c, "DropoutState", 0);
  SymDim n = m ? spec_numel(em_spec(e, m)) : (SymDim){-1, -1};
  const int64_t w = g->num_dirs * g->hidden_size; /* T*N*w; at most one of T, N depends on B */
  SymDim want = {(steps.a * batch.c + batch.a * steps.c) * w, steps.c * batch.c * w};
  if (!m || m->dtype != RT_DT_UINT8 || !sym_eq(n, want)) {
    *ok = 0;
    em_fail(e, "dropout between layers needs DropoutState, uint8 of Out's size (%s)",
            m ? sym_shape(e, m) : "missing");
  }
  return m;
}

/* The kernel's workspace and GEMM room (float32 only) for the forward
 * (grad 0) or the grad: affine in B since at most one of T, N is, so their values at B = 0
 * and B = 1 give the two coefficients. */
static void rnn_workspace(EmitCtx *e, const RtRnn *g, SymDim steps, SymDim batch, int grad, const char **ws,
                          const char **gemm_ws) {
  RtRnn at0 = *g, at1 = *g;
  at0.seq_len = steps.c, at0.batch = batch.c;
  at1.seq_len = steps.a + steps.c, at1.batch = batch.a + batch.c;
  int64_t ws0 = grad ? rt_rnn_grad_ws_floats(&at0) : rt_rnn_ws_floats(&at0);
  int64_t ws1 = grad ? rt_rnn_grad_ws_floats(&at1) : rt_rnn_ws_floats(&at1), m0, m1, n, k0, k1;
  const int64_t size = rnn_dtype(e) == RT_DT_FP64 ? 8 : 4;
  *ws = em_scratch_named(e, rnn_ctype(e), "rnn_ws", (SymDim){(ws1 - ws0) * size, ws0 * size});
  if (size == 8) { /* rt_dgemm packs nothing */
    *gemm_ws = "NULL";
    return;
  }
  if (grad) {
    rt_rnn_grad_gemm_dims(&at0, &m0, &n, &k0);
    rt_rnn_grad_gemm_dims(&at1, &m1, &n, &k1);
  } else {
    rt_rnn_gemm_dims(&at0, &m0, &n, &k0);
    rt_rnn_gemm_dims(&at1, &m1, &n, &k1);
  }
  *gemm_ws = em_gemm_ws(e, (SymDim){m1 - m0, m0}, (SymDim){0, n}, (SymDim){k1 - k0, k0});
}

/* SequenceLength (NULL: none) must be int32 or int64 with one length per
 * sequence; *wide is the scratch for an int64 copy of int32 lengths (the
 * kernels read int64), else NULL.  -1 after em_fail. */
static int check_lengths(EmitCtx *e, const Var *lens, SymDim batch, const char **wide) {
  *wide = NULL;
  if (!lens) return 0;
  SymDim n = spec_numel(em_spec(e, lens));
  if ((lens->dtype != RT_DT_INT64 && lens->dtype != RT_DT_INT32) || !sym_eq(n, batch))
    return em_fail(e, "SequenceLength (%s) must be int32 or int64 with one length per sequence (%s)", lens->name,
                   sym_shape(e, lens));
  if (lens->dtype == RT_DT_INT32) *wide = pool_printf("(int64_t *)%s", em_scratch_at(e, "lengths", (SymDim){batch.a * 8, batch.c * 8}));
  return 0;
}

static int emit_rnn(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "Input", 0), *out = ctx_out(&c, "Out", 0), *lens = ctx_in(&c, "SequenceLength", 0);
  if (!x || !out) return em_fail(e, "missing Input or Out");
  RtRnn g;
  int mi;
  SymDim steps, batch;
  if (rnn_geometry(e, &g, &mi, &steps, &batch)) return -1;
  const char *mode = modes[mi].name;
  int64_t hidden = g.hidden_size;
  const VarSpec *os = em_spec(e, out);
  if (out->dtype != x->dtype || os->rank != 3 || !sym_eq(os->d[0], steps) || !sym_eq(os->d[1], batch) ||
      !sym_eq(os->d[2], (SymDim){0, g.num_dirs * hidden}))
    return em_fail(e, "Out (%s %s) does not fit Input %s with %lld directions of %lld", rt_dtype_name(out->dtype),
                   sym_shape(e, out), sym_shape(e, x), (long long)g.num_dirs, (long long)hidden);
  int nstate = g.mode == RT_RNN_LSTM ? 2 : 1;
  if (ctx_nin(&c, "PreState") != nstate) return em_fail(e, "mode %s takes %d PreState tensors", mode, nstate);
  const char *pre[2] = {"NULL", "NULL"}, *post[2] = {"NULL", "NULL"};
  int64_t state_floats = g.num_layers * g.num_dirs * hidden, esize = x->dtype == RT_DT_FP64 ? 8 : 4;
  for (int i = 0; i < nstate; i++) {
    Var *h0 = ctx_in(&c, "PreState", i), *hn = ctx_out(&c, "State", i);
    if (!h0) return em_fail(e, "PreState[%d] is missing", i);
    if (check_state(e, h0, "PreState", i, batch, &g) || (hn && check_state(e, hn, "State", i, batch, &g)))
      return -1;
    pre[i] = em_ptr(e, h0, 1);
    post[i] = hn ? em_ptr(e, hn, 0)
                 : em_scratch_named(e, rnn_ctype(e), "unfetched_state",
                                    (SymDim){batch.a * state_floats * esize, batch.c * state_floats * esize});
  }
  RnnCall r = {.kind = RNN_FORWARD, .h0 = pre[0], .c0 = pre[1], .h_n = post[0], .c_n = post[1]};
  if (check_lengths(e, lens, batch, &r.wide)) return -1;
  if (rnn_weights(e, &g, &r)) return -1;
  int ok;
  const Var *mask = dropout_state(e, &g, steps, batch, 1, &ok);
  if (!ok) return -1;
  rnn_workspace(e, &g, steps, batch, 0, &r.ws, &r.gemm_ws);
  if (mask) {
    const int64_t seed = attr_int(e->op, "seed", 0);
    r.mask = em_ptr(e, mask, 0);
    r.mask_n = em_numel(e, mask);
    if (g.dropout_prob == 1.0f) {
      attr_superseded(e->op, "seed"); /* nothing is drawn */
      r.mask_all = 1;
    } else {
      if (seed && (seed < INT32_MIN || seed > INT32_MAX))
        return em_fail(e, "seed %lld is not an int32", (long long)seed);
      if (seed) r.mask_seed = pool_printf("(uint64_t)INT64_C(%lld)", (long long)seed);
      r.mask_p = em_float(g.dropout_prob);
    }
  } else {
    attr_superseded(e->op, "seed"); /* it seeds only that dropout */
  }
  rnn_geo(e, &g, mi, steps, batch, &r);
  if (em_spec(e, x)->runtime_mask) r.seq_len = em_dim(e, x, 0); /* the run's time steps (infer_rnn) */
  r.x = em_ptr(e, x, 1);
  if (lens) r.lengths = em_ptr(e, lens, 1);
  r.out = em_ptr(e, out, 0);
  rnn_print_c(e->p, &r);
  return 0;
}

/* Paddle's rnn_grad reads the forward's Reserve (gates and hidden states
 * as the forward computed them) and takes its own attributes for the rest;
 * paddlec's computes the forward again from the grad op's attributes.  The
 * two agree when the attributes do, as Paddle's grad maker copies them; an
 * edited program where they differ is refused (Paddle backpropagates then
 * through a forward other than the one its Reserve holds). */
static int check_forward_attrs(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  const Var *r = ctx_in(&c, "Reserve", 0);
  if (!r || r->producer < 0 || strcmp(e->g->ops[r->producer].type, "rnn")) return 0;
  const Op *f = &e->g->ops[r->producer];
  static const char *const nums[] = {"dropout_prob", "hidden_size", "num_layers"};
  for (size_t i = 0; i < sizeof nums / sizeof *nums; i++)
    if (attr_float(f, nums[i], 0) != attr_float(e->op, nums[i], 0))
      return em_fail(e, "%s %g differs from its forward's (%s): Paddle's grad would not be the forward's gradient",
                     nums[i], attr_float(e->op, nums[i], 0), graph_op_where(e->g, f));
  static const char *const flags[] = {"is_test", "is_bidirec"};
  for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
    if (attr_bool(f, flags[i], 0) != attr_bool(e->op, flags[i], 0))
      return em_fail(e, "%s differs from its forward's (%s): Paddle's grad would not be the forward's gradient",
                     flags[i], graph_op_where(e->g, f));
  if (strcmp(attr_str(f, "mode", "LSTM"), attr_str(e->op, "mode", "LSTM")))
    return em_fail(e, "mode %s differs from its forward's %s (%s)", attr_str(e->op, "mode", "LSTM"),
                   attr_str(f, "mode", "LSTM"), graph_op_where(e->g, f));
  return 0;
}

/* rnn_grad: Paddle's RnnGradKernel, with or without SequenceLength and
 * dropout.  rt_rnn_grad runs the forward again from Input, PreState,
 * WeightList and DropoutState (into the kernel's scratch) instead of reading
 * Reserve, so Out and Reserve are not read, nor DropoutState without
 * dropout (ignores below).  Out@GRAD and each
 * State@GRAD may be absent (zero); each output may be absent (not
 * computed). */
static int emit_rnn_grad(EmitCtx *e) {
  OpCtx c = {e->g, (Op *)e->op};
  Var *x = ctx_in(&c, "Input", 0), *dout = ctx_in(&c, "Out@GRAD", 0), *dx = ctx_out(&c, "Input@GRAD", 0);
  Var *lens = ctx_in(&c, "SequenceLength", 0);
  RtRnn g;
  int mi;
  SymDim steps, batch;
  RnnCall r = {.kind = RNN_GRAD};
  if (check_forward_attrs(e) || rnn_geometry(e, &g, &mi, &steps, &batch) || check_lengths(e, lens, batch, &r.wide))
    return -1;
  const VarSpec *xs = em_spec(e, x);
  if (dout) {
    const VarSpec *ds = em_spec(e, dout);
    if (dout->dtype != x->dtype || ds->rank != 3 || !sym_eq(ds->d[0], steps) || !sym_eq(ds->d[1], batch) ||
        !sym_eq(ds->d[2], (SymDim){0, g.num_dirs * g.hidden_size}))
      return em_fail(e, "Out@GRAD (%s %s) does not fit Input %s with %lld directions of %lld",
                     rt_dtype_name(dout->dtype), sym_shape(e, dout), sym_shape(e, x), (long long)g.num_dirs,
                     (long long)g.hidden_size);
  }
  if (dx) {
    const VarSpec *ds = em_spec(e, dx);
    if (dx->dtype != x->dtype || ds->rank != 3 || !sym_eq(ds->d[0], steps) || !sym_eq(ds->d[1], batch) ||
        !sym_eq(ds->d[2], xs->d[2]))
      return em_fail(e, "Input@GRAD (%s %s) must be %s like Input %s", rt_dtype_name(dx->dtype),
                     sym_shape(e, dx), rt_dtype_name(x->dtype), sym_shape(e, x));
  }
  int nstate = g.mode == RT_RNN_LSTM ? 2 : 1;
  if (ctx_nin(&c, "PreState") != nstate) return em_fail(e, "mode %s takes %d PreState tensors", modes[mi].name, nstate);
  if (ctx_nin(&c, "State@GRAD") > nstate || ctx_nout(&c, "PreState@GRAD") > nstate)
    return em_fail(e, "mode %s takes at most %d State@GRAD and PreState@GRAD tensors", modes[mi].name, nstate);
  const char *pre[2] = {"NULL", "NULL"}, *dpost[2] = {"NULL", "NULL"}, *dpre[2] = {"NULL", "NULL"};
  for (int i = 0; i < nstate; i++) {
    Var *h0 = ctx_in(&c, "PreState", i), *dhn = ctx_in(&c, "State@GRAD", i), *dh0 = ctx_out(&c, "PreState@GRAD", i);
    if (!h0) return em_fail(e, "PreState[%d] is missing", i);
    if (check_state(e, h0, "PreState", i, batch, &g) || (dhn && check_state(e, dhn, "State@GRAD", i, batch, &g)) ||
        (dh0 && check_state(e, dh0, "PreState@GRAD", i, batch, &g)))
      return -1;
    pre[i] = em_ptr(e, h0, 1);
    if (dhn) dpost[i] = em_ptr(e, dhn, 1);
    if (dh0) dpre[i] = em_ptr(e, dh0, 0);
  }
  if (rnn_weights(e, &g, &r)) return -1;
  const int64_t nw = 4 * g.num_layers * g.num_dirs;
  if (ctx_nout(&c, "WeightList@GRAD") > nw)
    return em_fail(e, "WeightList@GRAD has %d tensors for %lld weights", ctx_nout(&c, "WeightList@GRAD"),
                   (long long)nw);
  const char **dws = pool_alloc((size_t)nw * sizeof *dws), **dw_notes = pool_alloc((size_t)nw * sizeof *dw_notes);
  for (int i = 0; i < nw; i++) {
    Var *dw = ctx_out(&c, "WeightList@GRAD", i);
    if (dw && check_weight(e, &g, "WeightList@GRAD", i, dw)) return -1;
    dws[i] = dw ? em_ptr(e, dw, 0) : NULL;
    dw_notes[i] = dw ? dw->name : NULL;
  }
  r.dweights = dws, r.dweight_notes = dw_notes;
  int ok;
  const Var *mask = dropout_state(e, &g, steps, batch, 0, &ok);
  if (!ok) return -1;
  attr_superseded(e->op, "seed"); /* the grad reads the forward's mask */
  rnn_workspace(e, &g, steps, batch, 1, &r.ws, &r.gemm_ws);
  if (mask) r.mask = em_ptr(e, mask, 1);
  rnn_geo(e, &g, mi, steps, batch, &r);
  if (xs->runtime_mask) r.seq_len = em_dim(e, x, 0); /* the run's time steps, as the forward took them (infer_rnn) */
  r.x = em_ptr(e, x, 1);
  r.h0 = pre[0], r.c0 = pre[1];
  if (lens) r.lengths = em_ptr(e, lens, 1);
  r.dout = dout ? em_ptr(e, dout, 1) : "NULL";
  r.dh_n = dpost[0], r.dc_n = dpost[1];
  r.dx = dx ? em_ptr(e, dx, 0) : "NULL";
  r.dh0 = dpre[0], r.dc0 = dpre[1];
  rnn_print_c(e->p, &r);
  return 0;
}

/* input_size: see the top of the file. */
static const char *const rnn_attr_ignores[] = {"input_size", NULL};
const OpDef op_rnn = {.type = "rnn",
                      .infer = infer_rnn,
                      .emit_c = emit_rnn,
                      .runtime_extents = 1,
                      .attr_ignores = rnn_attr_ignores,
                      .global_rng = rnn_global_rng};
/* Out, Reserve, DropoutState: rnn_grad computes the forward again (see
 * emit_rnn_grad), reading DropoutState only when the forward dropped. */
static const char *const rnn_grad_ignores[] = {"Out", "Reserve", "DropoutState", NULL};
/* The generic rule: each X@GRAD takes its forward input's shape. */
const OpDef op_rnn_grad = {.type = "rnn_grad",
                           .infer = grad_infer,
                           .emit_c = emit_rnn_grad,
                           .ignores = rnn_grad_ignores,
                           .runtime_extents = 1, /* the forward's run-time time steps */
                           .attr_ignores = rnn_attr_ignores};
