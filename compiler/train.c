/* Training programs: feeds, loss and fetches of a training step (train.h). */
#include "train.h"

#include <stdlib.h>
#include <string.h>

#include "attr.h"
#include "cond_inline.h"
#include "data_parallel.h"
#include "diag.h"
#include "rewrite.h"
#include "util.h"

int train_is_training(const Graph *g) { return graph_has_training_ops(g); }

int train_find_loss(const Graph *g) {
  const Block *b = &g->blocks[0];
  for (int k = 0; k < b->nops; k++) {
    const Op *op = &g->ops[b->ops[k]];
    if (strcmp(op->type, "fill_constant") || op_role(op) != (OP_ROLE_BACKWARD | OP_ROLE_LOSS)) continue;
    const Slot *out = slot_find(op->out, op->nout, "Out");
    if (out && out->n == 1 && out->vars[0] >= 0) {
      const char *name = g->vars[out->vars[0]].name;
      const char *at = strstr(name, "@GRAD");
      if (!at || at[5]) continue;
      char *loss = pool_strdup(name);
      loss[at - name] = 0;
      return graph_find_var(g, 0, loss);
    }
  }
  return -1;
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The var of block 0 named `name` that can be fed or fetched: a dense
 * tensor; -1 after an error naming `what` (the option). */
static int step_var(const Graph *g, const char *name, const char *what) {
  const int id = graph_find_var(g, 0, name);
  if (id < 0) return diag_error("%s: %s '%s': the program has no such variable", g->file, what, name);
  if (g->vars[id].vtype != VT_LOD_TENSOR)
    return diag_error("%s: %s '%s' is a variable of kind %d, not a dense tensor (7)", g->file, what, name,
                      g->vars[id].vtype);
  return id;
}

/* Appends the comma-separated names of `list` to ids via step_var. */
static int add_list(const Graph *g, const char *list, const char *what, int **ids, int *n, int *cap) {
  char *s = pool_strdup(list);
  for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
    const int id = step_var(g, tok, what);
    if (id < 0) return -1;
    VEC_PUSH(*ids, *n, *cap, id);
  }
  return 0;
}

/* The reader ops of fluid 1.x training scripts (create_py_reader,
 * create_double_buffer_reader, read): the Python DataLoader fills the queue
 * they read, so a trainer takes the outputs of `read` as its data vars and
 * drops the three ops.  Returns how many `read` outputs became data. */
static int drop_readers(Graph *g) {
  static const char *const readers[] = {"create_py_reader", "create_double_buffer_reader", "read", NULL};
  const Block *b = &g->blocks[0];
  int n = 0;
  for (int k = b->nops - 1; k >= 0; k--) {
    Op *op = &g->ops[b->ops[k]];
    if (!str_in(op->type, readers)) continue;
    for (int s = 0; !strcmp(op->type, "read") && s < op->nout; s++)
      for (int a = 0; a < op->out[s].n; a++)
        if (op->out[s].vars[a] >= 0) {
          g->vars[op->out[s].vars[a]].flags |= VAR_NEED_CHECK_FEED;
          n++;
        }
    rw_remove_op(g, b->ops[k]);
  }
  if (n) graph_relink(g);
  return n;
}

static int set_feeds(Graph *g, const TrainOpts *o) {
  int cap = 0, n = 0, *ids = NULL;
  drop_readers(g);
  if (o->feeds) {
    if (add_list(g, o->feeds, "--feed", &ids, &n, &cap)) return -1;
  } else {
    const Block *b = &g->blocks[0];
    const char **names = pool_alloc(((size_t)b->nvars + 1) * sizeof *names);
    int k = 0;
    for (int i = 0; i < b->nvars; i++) {
      const Var *v = &g->vars[b->vars[i]];
      if ((v->flags & VAR_NEED_CHECK_FEED) && !(v->flags & VAR_PERSISTABLE) && v->vtype == VT_LOD_TENSOR)
        names[k++] = v->name;
    }
    qsort(names, (size_t)k, sizeof *names, cmp_names);
    for (int i = 0; i < k; i++) VEC_PUSH(ids, n, cap, graph_find_var(g, 0, names[i]));
  }
  for (int i = 0; i < n; i++) {
    Var *v = &g->vars[ids[i]];
    if (v->flags & VAR_PERSISTABLE)
      return diag_error("%s: --feed '%s' is persistable state, not data", g->file, v->name);
    if (v->producer >= 0)
      return diag_error("%s: --feed '%s' is written by %s; a feed must be data no op computes", g->file,
                        v->name, graph_op_where(g, &g->ops[v->producer]));
    for (int j = 0; j < i; j++)
      if (ids[j] == ids[i]) return diag_error("%s: --feed names '%s' twice", g->file, v->name);
    v->flags |= VAR_FEED;
    v->feed_col = i;
  }
  g->feeds = ids;
  g->nfeeds = n;
  return 0;
}

/* The state: every parameter (persistable var some op reads) has the shape
 * its VarDesc declares, as a loaded parameter has, and no compile-time
 * values (a parameter file found beside the program is not the state the
 * trainer will hold). */
static int set_state(Graph *g) {
  int bad = 0;
  /* a persistable var no op reads is state all the same: Paddle's scope
   * holds it and paddle.static.save writes it (paddle.nn.LSTM's fused
   * weight buffer, the output of the startup's coalesce_tensor) */
  const Block *b0 = &g->blocks[0];
  for (int i = 0; i < b0->nvars; i++) {
    Var *v = &g->vars[b0->vars[i]];
    if ((v->flags & VAR_PARAM) && v->vtype == VT_LOD_TENSOR && !v->nusers) v->flags |= VAR_KEEP;
  }
  graph_relink(g);
  for (int i = 0; i < g->nparams; i++) {
    Var *v = &g->vars[g->params[i]];
    v->param_data = NULL;
    v->flags |= VAR_LOADED;
    if (shape_numel(&v->decl) < 0 || v->decl_dtype < 0)
      bad = diag_error("%s: state var '%s' has no complete shape and dtype in its VarDesc (%s)", g->file, v->name,
                       shape_str(&v->decl));
    v->shape = v->decl;
    v->dtype = v->decl_dtype;
  }
  return bad ? -1 : 0;
}

/* Makes vars ids[0 .. n) g's fetches, in that order. */
static void set_fetches(Graph *g, int *ids, int n) {
  for (int i = 0; i < n; i++) {
    g->vars[ids[i]].flags |= VAR_FETCH;
    g->vars[ids[i]].fetch_col = i;
  }
  g->fetches = ids;
  g->nfetches = n;
}

int train_setup(Graph *g, const TrainOpts *o) {
  if (g->nfeeds || g->nfetches) {
    if (o->feeds || o->loss || o->fetch)
      return diag_error("%s: the program has feed and fetch ops; --feed, --loss and --fetch are for programs "
                        "without them", g->file);
    return 0;
  }
  cond_inline(g); /* the learning-rate schedule's small blocks */
  g->dp_why = dp_order(g); /* part B after part A, for places */
  g->dp_reduce_why = dp_reduce_why(g);
  if (set_state(g) || set_feeds(g, o)) return -1;
  int loss = o->loss ? step_var(g, o->loss, "--loss") : train_find_loss(g);
  if (o->loss && loss < 0) return -1;
  if (loss < 0)
    return diag_error("%s: no loss found (no fill_constant with op_role Backward|Loss writes a '<loss>@GRAD'); "
                      "name it with --loss", g->file);
  const int ldt = g->vars[loss].dtype;
  if (ldt != RT_DT_FP32 && ldt != RT_DT_FP64) /* the trainer prints it and checks it for NaN */
    return diag_error("%s: the loss '%s' is %s; the trainer takes a float32 or float64 loss", g->file,
                      g->vars[loss].name, rt_dtype_name(ldt));
  int cap = 0, n = 0, *ids = NULL;
  VEC_PUSH(ids, n, cap, loss);
  if (o->fetch && add_list(g, o->fetch, "--fetch", &ids, &n, &cap)) return -1;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      if (ids[j] == ids[i]) return diag_error("%s: '%s' is fetched twice", g->file, g->vars[ids[i]].name);
  set_fetches(g, ids, n);
  return 0;
}

/* The op of block 0 of g that last writes a var named `name`, or NULL. */
static const Op *writer(const Graph *g, const char *name) {
  const int id = graph_find_var(g, 0, name);
  return id >= 0 && g->vars[id].producer >= 0 ? &g->ops[g->vars[id].producer] : NULL;
}

int train_startup_setup(Graph *st, const Graph *main) {
  int bad = 0, cap = 0, n = 0, *ids = NULL;
  graph_relink(st);
  /* a persistable var the startup program writes is its result, not a
   * parameter to load, even where a later op of it reads the var
   * (paddle.nn.LSTM's coalesce_tensor reads the weights uniform_random
   * wrote) */
  for (int i = 0; i < st->nvars; i++)
    if ((st->vars[i].flags & VAR_PARAM) && st->vars[i].producer >= 0) st->vars[i].flags &= ~VAR_PARAM;
  graph_relink(st); /* its parameters: only vars some op reads and none writes */
  for (int i = 0; i < main->nparams; i++) {
    const Var *v = &main->vars[main->params[i]];
    const Op *w = writer(st, v->name);
    if (!w) {
      bad = diag_error("%s: state var '%s' of %s is not written by the startup program (Paddle's first step would "
                       "stop on it: \"holds no memory\")", st->file, v->name, main->file);
      continue;
    }
    Var *s = &st->vars[graph_find_var(st, 0, v->name)];
    if (s->dtype != v->dtype || !shape_equal(&s->shape, &v->shape)) {
      bad = diag_error("%s: %s writes '%s' as %s%s; %s uses it as %s%s", st->file, graph_op_where(st, w), v->name,
                       rt_dtype_name(s->dtype), shape_str(&s->shape), main->file, rt_dtype_name(v->dtype),
                       shape_str(&v->shape));
      continue;
    }
    s->flags |= VAR_FETCH;
    s->fetch_col = n;
    VEC_PUSH(ids, n, cap, (int)(s - st->vars));
  }
  st->fetches = ids;
  st->nfetches = n;
  return bad ? -1 : 0;
}

static void push_once(int **ids, int *n, int *cap, int id) {
  for (int i = 0; i < *n; i++)
    if ((*ids)[i] == id) return;
  VEC_PUSH(*ids, *n, *cap, id);
}

void train_info(const Graph *g, TrainInfo *t) {
  memset(t, 0, sizeof *t);
  int pcap = 0, scap = 0;
  const Block *b = &g->blocks[0];
  for (int k = 0; k < b->nops; k++) {
    const Op *op = &g->ops[b->ops[k]];
    const int role = op_role(op);
    if (role & OP_ROLE_LRSCHED) t->nlrsched++;
    else if (role & OP_ROLE_OPTIMIZE) t->noptimize++;
    else if (role & OP_ROLE_BACKWARD) t->nbackward++;
    else t->nforward++;
    if (!(role & OP_ROLE_OPTIMIZE) || (role & OP_ROLE_LRSCHED)) continue;
    for (int s = 0; s < op->nin; s++)
      for (int a = 0; a < op->in[s].n; a++) {
        const int id = op->in[s].vars[a];
        if (id < 0 || !(g->vars[id].flags & VAR_PERSISTABLE)) continue;
        if (!strcmp(op->in[s].name, "Param")) push_once(&t->params, &t->nparams, &pcap, id);
        else push_once(&t->state, &t->nstate, &scap, id);
      }
  }
}

int train_eval_setup(Graph *ev, const Graph *main) {
  if (train_is_training(ev))
    return diag_error("%s: --eval: this is a training program (it has backward or optimizer ops), not an evaluation "
                      "program (main_program.clone(for_test=True))", ev->file);
  const int own_io = ev->nfeeds || ev->nfetches; /* saved with feed and fetch ops: as saved */
  if (!own_io) cond_inline(ev);
  TrainOpts none = {0};
  if (set_state(ev) || (!own_io && set_feeds(ev, &none))) return -1;
  int bad = 0;
  for (int i = 0; i < ev->nparams; i++) {
    const Var *v = &ev->vars[ev->params[i]];
    const int k = graph_find_var(main, 0, v->name);
    int state = 0;
    for (int j = 0; j < main->nparams && k >= 0 && !state; j++) state = main->params[j] == k;
    if (!state)
      bad = diag_error("%s: --eval: it reads '%s', which is not state of the training program %s", ev->file, v->name,
                       main->file);
    else if (main->vars[k].dtype != v->dtype || !shape_equal(&main->vars[k].shape, &v->shape))
      bad = diag_error("%s: --eval: '%s' is %s%s here; the training program's state is %s%s", ev->file, v->name,
                       rt_dtype_name(v->dtype), shape_str(&v->shape), rt_dtype_name(main->vars[k].dtype),
                       shape_str(&main->vars[k].shape));
  }
  for (int i = 0; i < ev->nvars; i++) {
    const Var *v = &ev->vars[i];
    if ((v->flags & VAR_PERSISTABLE) && v->producer >= 0 && !(v->flags & VAR_PARAM))
      bad = diag_error("%s: --eval: %s writes state var '%s'; an evaluation program reads the trainer's state",
                       ev->file, graph_op_where(ev, &ev->ops[v->producer]), v->name);
  }
  if (bad || own_io) return bad ? -1 : 0;
  /* its fetches: the trainer's (the loss first) that it computes */
  int cap = 0, n = 0, *ids = NULL;
  for (int i = 0; i < main->nfetches; i++) {
    const char *name = main->vars[main->fetches[i]].name;
    const int id = graph_find_var(ev, 0, name);
    if (id < 0 || ev->vars[id].producer < 0) {
      if (i == 0)
        return diag_error("%s: --eval: it does not compute the training program's loss '%s'", ev->file, name);
      continue;
    }
    VEC_PUSH(ids, n, cap, id);
  }
  set_fetches(ev, ids, n);
  return 0;
}

int train_is_learning_rate(const Graph *g, int id) {
  const Var *v = &g->vars[id];
  for (int u = 0; u < v->nusers; u++) {
    const Op *op = &g->ops[v->users[u]];
    if (!(op_role(op) & OP_ROLE_OPTIMIZE) || (op_role(op) & OP_ROLE_LRSCHED)) continue;
    const Slot *s = slot_find(op->in, op->nin, "LearningRate");
    for (int a = 0; s && a < s->n; a++)
      if (s->vars[a] == id) return 1;
  }
  return 0;
}
