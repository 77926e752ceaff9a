/* BuildStrategy and ExecutionStrategy fields, parsing and validation (see
 * strategy.h): one table per struct, one parser for both. */
#include "strategy.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "json_read.h"
#include "util.h"

typedef enum FieldKind { FK_BOOL, FK_OPT_BOOL, FK_INT, FK_ENUM, FK_STR, FK_LIST } FieldKind;

typedef struct Field {
  const char *name;          /* Paddle's field name */
  FieldKind kind;            /* value type */
  size_t off;                /* offset in the struct */
  const char *const *names;  /* enum member names (FK_ENUM), NULL-terminated */
  const char *dflt;          /* Paddle's default, as text */
  const char *effect;        /* what it does in paddlec */
} Field;

static const char *const reduce_names[] = {"AllReduce", "Reduce", "_NoReduce", NULL};
static const char *const scale_names[] = {"CoeffNumDevice", "One", "Customized", NULL};

#define F(name, kind, names, dflt, effect) {#name, kind, offsetof(BuildStrategy, name), names, dflt, effect}
static const Field fields[] = {
    F(fuse_elewise_add_act_ops, FK_BOOL, NULL, "false",
      "pass: elementwise_add followed by an activation becomes one loop (training: and the pair's grads, "
      "relu_grad + elementwise_add_grad, one kernel)"),
    F(fuse_bn_act_ops, FK_BOOL, NULL, "false",
      "pass: batch_norm followed by an activation becomes one kernel (training: and the pair's grads, "
      "relu_grad + batch_norm_grad, one kernel)"),
    F(fuse_bn_add_act_ops, FK_BOOL, NULL, "true",
      "pass: batch_norm + elementwise_add + activation becomes one kernel (training: and the three ops' grads, "
      "relu_grad + elementwise_add_grad + batch_norm_grad, one kernel)"),
    F(fuse_relu_depthwise_conv, FK_BOOL, NULL, "false",
      "pass: a relu read only by depthwise_conv2d is applied inside the convolution"),
    F(fuse_gemm_epilogue, FK_BOOL, NULL, "false",
      "pass: mul/matmul/matmul_v2 + bias add + activation become one GEMM with an epilogue (training: "
      "Linear's matmul_v2 + bias (+ relu/gelu), and elementwise_add_grad + matmul_v2_grad (+ relu_grad/gelu_grad) "
      "one kernel)"),
    F(fused_attention, FK_BOOL, NULL, "false",
      "pass: multi-head attention (projections, scores, softmax, context, output, residual, layer_norm) "
      "becomes one kernel sequence without the score tensor in the arena"),
    F(fused_feedforward, FK_BOOL, NULL, "false",
      "pass: linear + activation + linear + residual (+ layer_norm) becomes one kernel sequence"),
    F(enable_auto_fusion, FK_BOOL, NULL, "false",
      "pass: any chain of element-wise and activation ops (with broadcast) becomes one loop"),
    F(build_cinn_pass, FK_BOOL, NULL, "false", "the same as enable_auto_fusion (paddlec generates the fused loops)"),
    F(memory_optimize, FK_OPT_BOOL, NULL, "None",
      "plan: tensors share the arena by lifetime (None: on, as Paddle does for inference)"),
    F(enable_inplace, FK_BOOL, NULL, "true",
      "plan: an element-wise, activation or reshape-like op writes into its input's buffer when the input dies there"),
    F(enable_addto, FK_BOOL, NULL, "false", "training: gradients accumulate in place (refused when true: not implemented)"),
    F(enable_sequential_execution, FK_BOOL, NULL, "false",
      "ops run one after another in program order (paddlec keeps program order)"),
    F(sequential_run, FK_BOOL, NULL, "false", "the same as enable_sequential_execution"),
    F(fix_op_run_order, FK_BOOL, NULL, "false", "accepted: paddlec always keeps program order"),
    F(reduce_strategy, FK_ENUM, reduce_names, "AllReduce",
      "data parallel: how a trainer's places combine gradients (AllReduce; Reduce: each summed from its owner "
      "place's; _NoReduce refused)"),
    F(gradient_scale_strategy, FK_ENUM, scale_names, "CoeffNumDevice",
      "data parallel: loss@GRAD on each place (CoeffNumDevice: 1 / places; One: 1; Customized: fed)"),
    F(fuse_all_reduce_ops, FK_BOOL, NULL, "true",
      "data parallel: one all-reduce for many gradients (between processes they always travel packed; the same "
      "numbers)"),
    F(fuse_broadcast_ops, FK_BOOL, NULL, "true", "data parallel: one broadcast for many parameters (the same numbers)"),
    F(sync_batch_norm, FK_BOOL, NULL, "false",
      "pass, training: batch_norm statistics (and their grads' sums) over every place's rows"),
    F(fuse_adamw, FK_BOOL, NULL, "false",
      "pass, training: the adamw ops with the same attributes and learning rate become one op updating every "
      "parameter"),
    F(fuse_all_optimizer_ops, FK_BOOL, NULL, "false",
      "pass, training: the optimizer ops of one type (adamw aside) with the same attributes and learning rate "
      "become one op updating every parameter"),
    F(enable_backward_optimizer_op_deps, FK_BOOL, NULL, "true", "training: optimizer ops after the backward (validated)"),
    F(num_trainers, FK_INT, NULL, "1", "data parallel: processes (mpirun -np), >= 1; checked against MPI's"),
    F(trainer_id, FK_INT, NULL, "0", "data parallel: this process's rank, in [0, num_trainers); checked against MPI's"),
    F(trainers_endpoints, FK_LIST, NULL, "[]", "multi-process: ip:port of each trainer (validated)"),
    F(nccl_comm_num, FK_INT, NULL, "1", "multi-GPU: NCCL communicators, >= 1 (validated)"),
    F(bkcl_comm_num, FK_INT, NULL, "1", "Kunlun XPU communicators, >= 1 (validated; no XPU support)"),
    F(use_hierarchical_allreduce, FK_BOOL, NULL, "false", "multi-GPU: two-level all-reduce (validated)"),
    F(hierarchical_allreduce_inter_nranks, FK_INT, NULL, "0", "multi-GPU: ranks per node for it, >= 0 (validated)"),
    F(is_distribution, FK_BOOL, NULL, "false", "fleet: distributed program (validated)"),
    F(async_mode, FK_BOOL, NULL, "false", "parameter-server: asynchronous training (validated)"),
    F(remove_unnecessary_lock, FK_BOOL, NULL, "true", "accepted: generated code takes no locks around ops"),
    F(cache_runtime_context, FK_BOOL, NULL, "false", "accepted: generated code has no run-time op contexts"),
    F(allow_cuda_graph_capture, FK_BOOL, NULL, "false", "accepted: generated code has no executor to capture"),
    F(mkldnn_enabled_op_types, FK_LIST, NULL, "[]", "accepted: paddlec uses its own kernels, not oneDNN"),
    F(debug_graphviz_path, FK_STR, NULL, "",
      "debug: writes DIR/before_passes.dot and DIR/after_passes.dot (the directory is created)"),
};
#undef F
_Static_assert(sizeof fields / sizeof fields[0] <= 64, "BuildStrategy.set has one bit per field");

#define F(name, kind, dflt, effect) {#name, kind, offsetof(ExecStrategy, name), NULL, dflt, effect}
static const Field exec_fields[] = {
    F(num_threads, FK_INT, "0",
      "ops that run at once, following the kernels' dependencies (0: Paddle's default, CPU_NUM, else 1)"),
    F(num_iteration_per_run, FK_INT, "1", "iterations one run performs on the fed data; fetches come from the last"),
    F(num_iteration_per_drop_scope, FK_INT, "100",
      "iterations between two releases of the temporaries outside the static arena (and after every fetch)"),
    F(allow_op_delay, FK_BOOL, "false", "accepted: Paddle's delay of communication ops; generated code has none"),
    F(use_experimental_executor, FK_BOOL, "true", "accepted: paddlec has one scheduler"),
    F(use_thread_barrier, FK_BOOL, "false", "accepted: generated code has no parameter-server barrier"),
};
#undef F

/* A struct's fields, and how the parser names it in messages. */
typedef struct Table {
  const char *what;     /* "BuildStrategy" */
  const char *option;   /* "--build-strategy" */
  const Field *fields;  /* the fields */
  int n;                /* how many */
  size_t set_off;       /* offset of the struct's `set` bits */
  int (*check)(const void *obj, const char *origin); /* checks between fields, or NULL */
} Table;

static int check_build(const void *obj, const char *origin);
static int check_exec(const void *obj, const char *origin);
static const Table build_table = {"BuildStrategy", "--build-strategy", fields, sizeof fields / sizeof fields[0],
                                  offsetof(BuildStrategy, set), check_build};
static const Table exec_table = {"ExecutionStrategy", "--exec-strategy", exec_fields,
                                 sizeof exec_fields / sizeof exec_fields[0], offsetof(ExecStrategy, set), check_exec};

static int *int_at(void *obj, const Field *f) { return (int *)((char *)obj + f->off); }
static uint64_t *set_bits(void *obj, const Table *t) { return (uint64_t *)((char *)obj + t->set_off); }

static const Field *find_field(const Table *t, const char *key) {
  for (int i = 0; i < t->n; i++)
    if (!strcmp(t->fields[i].name, key)) return &t->fields[i];
  return NULL;
}

static const char *valid_keys(const Table *t) {
  const char *s = "";
  for (int i = 0; i < t->n; i++) s = pool_printf("%s%s%s", s, i ? ", " : "", t->fields[i].name);
  return s;
}

static int set_field(const Table *t, void *obj, const char *key, const char *value, const char *origin);

static void set_defaults(const Table *t, void *obj) {
  for (int i = 0; i < t->n; i++) set_field(t, obj, t->fields[i].name, t->fields[i].dflt, "defaults");
  *set_bits(obj, t) = 0;
}

void strategy_defaults(BuildStrategy *bs) {
  memset(bs, 0, sizeof *bs);
  set_defaults(&build_table, bs);
}

void exec_strategy_defaults(ExecStrategy *es) {
  memset(es, 0, sizeof *es);
  set_defaults(&exec_table, es);
}

static int parse_bool(const char *v, int *out) {
  const char *t[] = {"true", "True", "1", "on"}, *f[] = {"false", "False", "0", "off"};
  for (int i = 0; i < 4; i++) {
    if (!strcmp(v, t[i])) return *out = 1, 0;
    if (!strcmp(v, f[i])) return *out = 0, 0;
  }
  return -1;
}

static int parse_int(const char *v, int *out) {
  char *end;
  errno = 0;
  long x = strtol(v, &end, 10);
  if (!*v || *end || errno || x < -2147483647L || x > 2147483647L) return -1;
  *out = (int)x;
  return 0;
}

/* "AllReduce", "ReduceStrategy.AllReduce" or a member number. */
static int parse_enum(const Field *f, const char *v, int *out) {
  const char *dot = strrchr(v, '.');
  const char *name = dot ? dot + 1 : v;
  for (int i = 0; f->names[i]; i++)
    if (!strcmp(name, f->names[i])) return *out = i, 0;
  int n;
  for (n = 0; f->names[n];) n++;
  if (!parse_int(v, out) && *out >= 0 && *out < n) return 0;
  return -1;
}

/* "[a;b;c]" or "a" (one entry); "[]" is empty. */
static int parse_list(const char *v, StrList *out) {
  out->n = 0;
  size_t len = strlen(v);
  const char *body = v;
  if (len >= 2 && v[0] == '[' && v[len - 1] == ']') body = pool_printf("%.*s", (int)(len - 2), v + 1);
  if (!*body) return 0;
  char *s = pool_strdup(body);
  for (char *tok = s;;) {
    char *semi = strchr(tok, ';');
    if (semi) *semi = 0;
    if (out->n >= STRATEGY_MAX_LIST) return -1;
    out->v[out->n++] = tok;
    if (!semi) break;
    tok = semi + 1;
  }
  return 0;
}

static const char *kind_text(const Field *f) {
  switch (f->kind) {
    case FK_BOOL: return "true or false";
    case FK_OPT_BOOL: return "true, false or None";
    case FK_INT: return "an integer";
    case FK_STR: return "a path";
    case FK_LIST: return "a list [a;b]";
    default: break;
  }
  const char *s = "one of";
  for (int i = 0; f->names[i]; i++) s = pool_printf("%s%s %s", s, i ? "," : "", f->names[i]);
  return s;
}

static int set_field(const Table *t, void *obj, const char *key, const char *value, const char *origin) {
  const Field *f = find_field(t, key);
  if (!f) return diag_error("%s: unknown %s key '%s'; valid keys: %s", origin, t->what, key, valid_keys(t));
  int bad = 0, *iv = int_at(obj, f);
  switch (f->kind) {
    case FK_BOOL: bad = parse_bool(value, iv); break;
    case FK_OPT_BOOL:
      if (!strcmp(value, "None") || !strcmp(value, "null")) *iv = -1;
      else bad = parse_bool(value, iv);
      break;
    case FK_INT: bad = parse_int(value, iv); break;
    case FK_ENUM: bad = parse_enum(f, value, iv); break;
    case FK_STR: *(const char **)((char *)obj + f->off) = pool_strdup(value); break;
    case FK_LIST: bad = parse_list(value, (StrList *)((char *)obj + f->off)); break;
  }
  if (bad) return diag_error("%s: %s %s='%s': expected %s", origin, t->what, key, value, kind_text(f));
  *set_bits(obj, t) |= 1ull << (f - t->fields);
  return 0;
}

int strategy_set(BuildStrategy *bs, const char *key, const char *value, const char *origin) {
  return set_field(&build_table, bs, key, value, origin);
}

/* Checks that hold between fields, once all are set. */
static int check_build(const void *obj, const char *origin) {
  const BuildStrategy *bs = obj;
  if (bs->num_trainers < 1) return diag_error("%s: BuildStrategy num_trainers must be >= 1", origin);
  if (bs->nccl_comm_num < 1 || bs->bkcl_comm_num < 1)
    return diag_error("%s: BuildStrategy nccl_comm_num and bkcl_comm_num must be >= 1", origin);
  if (bs->hierarchical_allreduce_inter_nranks < 0)
    return diag_error("%s: BuildStrategy hierarchical_allreduce_inter_nranks must be >= 0", origin);
  if (bs->trainer_id < 0 || bs->trainer_id >= bs->num_trainers)
    return diag_error("%s: BuildStrategy trainer_id %d must be in [0, num_trainers = %d)", origin, bs->trainer_id,
                      bs->num_trainers);
  if (bs->trainers_endpoints.n && bs->trainers_endpoints.n != bs->num_trainers)
    return diag_error("%s: BuildStrategy trainers_endpoints has %d entries for num_trainers = %d", origin,
                      bs->trainers_endpoints.n, bs->num_trainers);
  return 0;
}

static int check_exec(const void *obj, const char *origin) {
  const ExecStrategy *es = obj;
  if (es->num_threads < 0) return diag_error("%s: ExecutionStrategy num_threads must be >= 0", origin);
  if (es->num_iteration_per_run < 1 || es->num_iteration_per_drop_scope < 1)
    return diag_error("%s: ExecutionStrategy num_iteration_per_run and num_iteration_per_drop_scope must be >= 1",
                      origin);
  return 0;
}

static int parse_text(const Table *t, void *obj, const char *text) {
  char *s = pool_strdup(text);
  int bad = 0;
  for (char *item = s; *item;) {
    /* split at commas outside [...] */
    char *p = item;
    int depth = 0;
    for (; *p && (depth || *p != ','); p++) depth += (*p == '[') - (*p == ']');
    char *next = *p ? p + 1 : p;
    *p = 0;
    char *eq = strchr(item, '=');
    if (!eq) {
      bad |= diag_error("%s: '%s' is not key=value (valid keys: %s)", t->option, item, valid_keys(t));
    } else {
      *eq = 0;
      bad |= set_field(t, obj, item, eq + 1, t->option);
    }
    item = next;
  }
  return bad ? -1 : t->check(obj, t->option);
}

int strategy_parse(BuildStrategy *bs, const char *text) { return parse_text(&build_table, bs, text); }
int exec_strategy_parse(ExecStrategy *es, const char *text) { return parse_text(&exec_table, es, text); }

/* A JSON value as the text strategy_set takes. */
static const char *value_text(const JsonValue *v) {
  switch (v->kind) {
    case JV_NULL: return "None";
    case JV_BOOL: return v->b ? "true" : "false";
    case JV_NUMBER:
    case JV_STRING: return v->s;
    case JV_ARRAY: {
      const char *s = "[";
      for (int i = 0; i < v->n; i++) s = pool_printf("%s%s%s", s, i ? ";" : "", value_text(&v->items[i]));
      return pool_printf("%s]", s);
    }
    default: return NULL;
  }
}

static int apply_json(const Table *t, void *obj, const JsonValue *root, const char *path) {
  if (root->kind != JV_OBJECT) return diag_error("%s: expected a JSON object of %s fields", path, t->what);
  int bad = 0;
  for (int i = 0; i < root->n; i++) {
    const char *text = value_text(&root->items[i]);
    if (!text) bad |= diag_error("%s: %s %s: objects are not a value", path, t->what, root->keys[i]);
    else bad |= set_field(t, obj, root->keys[i], text, path);
  }
  return bad ? -1 : t->check(obj, path);
}

static int load_file(const Table *t, void *obj, const char *path) {
  JsonValue root;
  if (json_read_file(path, &root)) return -1;
  return apply_json(t, obj, &root, path);
}

int strategy_load_file(BuildStrategy *bs, const char *path) { return load_file(&build_table, bs, path); }
int exec_strategy_load_file(ExecStrategy *es, const char *path) { return load_file(&exec_table, es, path); }
int strategy_apply_json(BuildStrategy *bs, const JsonValue *root, const char *origin) {
  return apply_json(&build_table, bs, root, origin);
}
int exec_strategy_apply_json(ExecStrategy *es, const JsonValue *root, const char *origin) {
  return apply_json(&exec_table, es, root, origin);
}

int strategy_is_set(const BuildStrategy *bs, const char *key) {
  const Field *f = find_field(&build_table, key);
  return f && (bs->set >> (f - fields) & 1);
}

static void print_table(const Table *t) {
  printf("%s fields (Paddle's names and defaults) and what they do in paddlec:\n\n", t->what);
  for (int i = 0; i < t->n; i++) {
    const Field *f = &t->fields[i];
    printf("  %-36s %-16s default %-15s %s\n", f->name,
           f->kind == FK_ENUM ? "enum" : f->kind == FK_LIST ? "list" : f->kind == FK_STR ? "string"
                                       : f->kind == FK_INT ? "int" : "bool",
           *f->dflt ? f->dflt : "\"\"", f->effect);
  }
}

void strategy_print_table(void) {
  print_table(&build_table);
  printf("\n");
  print_table(&exec_table);
}

const char *strategy_summary(const BuildStrategy *bs) {
  const char *s = "";
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    const Field *f = &fields[i];
    if ((f->kind != FK_BOOL && f->kind != FK_OPT_BOOL) || strncmp(f->effect, "pass:", 5)) continue;
    if (*int_at((BuildStrategy *)bs, f) == 1) s = pool_printf("%s%s%s", s, *s ? "," : "", f->name);
  }
  return s;
}
