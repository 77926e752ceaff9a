/* The pass pipeline (see pipeline.h).  The order of the passes lives here
 * and only here, each entry with the reason for its place. */
#include "pipeline.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diag.h"
#include "dot.h"
#include "ir_text.h"
#include "pass.h"
#include "util.h"
#include "verify.h"

typedef struct PassEntry {
  const char *name;   /* for --passes and --dump-after; the BuildStrategy key when there is one */
  PassFn fn;          /* the pass */
  const char *field;  /* the BuildStrategy field that switches it, NULL: ir_optim alone */
  const char *reason; /* why it sits where it does */
  const char *train;  /* NULL: not applied to training programs (refused by
                       * name when asked for there); else what it does there */
  int asked_only;     /* 1: runs only when its field is set true (not by
                       * ir_optim's default: a training option) */
} PassEntry;

static const PassEntry pipeline[] = {
    {"constant_folding", pass_constant_folding, NULL,
     "first: shape / fill_constant / cast chains become constants that later patterns can read", NULL, 0},
    {"dead_code_elimination", pass_dead_code_elimination, NULL, "drops what folding left without readers", NULL, 0},
    {"fold_batch_norm", pass_fold_batch_norm, NULL,
     "before the conv fusions: conv + batch_norm becomes a conv with a bias they can extend", NULL, 0},
    {"conv_elementwise_add_act", pass_conv_elementwise_add_act, NULL,
     "after folding: bias, residual and activation join the conv's epilogue", NULL, 0},
    {"sync_batch_norm", pass_sync_batch_norm, "sync_batch_norm",
     "before the batch_norm fusions, which leave a synced batch_norm alone",
     "each training batch_norm and its grad take their statistics over every place's rows (sums between the "
     "places)", 1},
    {"fuse_bn_add_act_ops", pass_fuse_bn_add_act_ops, "fuse_bn_add_act_ops",
     "after folding: only batch_norms that no conv could absorb are left",
     "act(batch_norm(x) + z) whose Y and sum no other op reads, with its relu_grad + elementwise_add_grad + "
     "batch_norm_grad", 0},
    {"fuse_bn_act_ops", pass_fuse_bn_act_ops, "fuse_bn_act_ops", "after bn+add+act, which takes the longer pattern",
     "act(batch_norm(x)) whose Y no grad op reads, and its relu_grad + batch_norm_grad pair", 0},
    {"fuse_relu_depthwise_conv", pass_fuse_relu_depthwise_conv, "fuse_relu_depthwise_conv",
     "after the conv epilogues: a relu that no conv took as its activation", NULL, 0},
    {"fused_attention", pass_fused_attention, "fused_attention",
     "before the GEMM epilogues: it matches the plain matmul + add projections", NULL, 0},
    {"fused_feedforward", pass_fused_feedforward, "fused_feedforward",
     "after the attention (whose output may be its residual), before the GEMM epilogues", NULL, 0},
    {"fuse_gemm_epilogue", pass_fuse_gemm_epilogue, "fuse_gemm_epilogue",
     "after the conv fusions: the matrix products' bias and activation",
     "paddle.nn.Linear's matmul_v2 + bias add (+ relu / gelu) whose grad pair fuses too, and its "
     "elementwise_add_grad + matmul_v2_grad (+ the previous layer's relu_grad / gelu_grad)", 0},
    {"enable_auto_fusion", pass_enable_auto_fusion, "enable_auto_fusion",
     "after the fusions into GEMMs and convs: the element-wise chains they left become single loops", NULL, 0},
    {"fuse_elewise_add_act_ops", pass_fuse_elewise_add_act_ops, "fuse_elewise_add_act_ops",
     "last: an add + activation pair that no other fusion took (auto fusion takes them when on)",
     "act(elementwise_add(x, y)) whose sum no grad op reads, and its relu_grad + elementwise_add_grad pair", 0},
    {"fuse_all_optimizer_ops", pass_fuse_all_optimizer_ops, "fuse_all_optimizer_ops",
     "after the forward and grad fusions, which leave the optimizer ops alone",
     "one op per optimizer type (but adamw) updates every parameter", 1},
    {"fuse_adamw", pass_fuse_adamw, "fuse_adamw", "beside fuse_all_optimizer_ops, for the adamw ops it leaves",
     "one adamw op updates every parameter", 1},
};
enum { NPASSES = sizeof pipeline / sizeof pipeline[0] };

void pipeline_defaults(PipelineOpts *o) {
  memset(o, 0, sizeof *o);
  strategy_defaults(&o->bs);
  o->ir_optim = 1;
  const char *v = getenv("PADDLEC_VERIFY_EACH");
  o->verify_each = v && *v && strcmp(v, "0");
}

const char *pipeline_pass_names(void) {
  const char *s = "";
  for (int i = 0; i < NPASSES; i++) s = pool_printf("%s%s%s", s, i ? ", " : "", pipeline[i].name);
  return s;
}

/* 1 when `name` is in the comma-separated `list`. */
static int in_list(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *p = list; p && *p;) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len == n && !strncmp(p, name, n)) return 1;
    p = e ? e + 1 : NULL;
  }
  return 0;
}

static int check_list(const char *list, const char *option, int allow_all) {
  int bad = 0;
  for (const char *p = list; p && *p;) {
    const char *e = strchr(p, ',');
    const char *name = pool_printf("%.*s", (int)(e ? (size_t)(e - p) : strlen(p)), p);
    int ok = !strcmp(name, "none") || (allow_all && !strcmp(name, "all"));
    for (int i = 0; i < NPASSES && !ok; i++) ok = !strcmp(name, pipeline[i].name);
    if (!ok) bad = diag_error("%s: unknown pass '%s'; the passes are: %s", option, name, pipeline_pass_names());
    p = e ? e + 1 : NULL;
  }
  return bad ? -1 : 0;
}

int pipeline_check_names(const PipelineOpts *o) {
  return check_list(o->passes, "--passes", 0) | check_list(o->dump_after, "--dump-after", 1);
}

/* The int field of BuildStrategy named `field`. */
static int field_value(const BuildStrategy *bs, const char *field) {
  static const struct {
    const char *name; /* the field */
    size_t off;       /* where it is */
  } f[] = {
#define FIELD(x) {#x, offsetof(BuildStrategy, x)}
      FIELD(fuse_bn_add_act_ops),      FIELD(fuse_bn_act_ops),    FIELD(fuse_relu_depthwise_conv),
      FIELD(fused_attention),          FIELD(fused_feedforward),  FIELD(fuse_gemm_epilogue),
      FIELD(fuse_elewise_add_act_ops), FIELD(enable_auto_fusion), FIELD(build_cinn_pass),
      FIELD(fuse_all_optimizer_ops),   FIELD(fuse_adamw),         FIELD(sync_batch_norm),
#undef FIELD
  };
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
    if (!strcmp(f[i].name, field)) return *(const int *)((const char *)bs + f[i].off);
  diag_internal("pipeline: no BuildStrategy field '%s'", field);
}

/* Whether a pass runs: --passes decides alone when given; otherwise a pass
 * with a BuildStrategy field runs when the field is set true, or, under
 * ir_optim, when it is not set false (not an asked_only one); the others
 * run under ir_optim.  On a training program (explicit_only) only the
 * passes whose field is set true run.  build_cinn_pass is another name for
 * enable_auto_fusion. */
static int enabled(const PassEntry *p, const PipelineOpts *o) {
  if (o->passes) return in_list(o->passes, p->name);
  if (o->explicit_only) return p->field && strategy_is_set(&o->bs, p->field) && field_value(&o->bs, p->field);
  if (!p->field) return o->ir_optim;
  if (p->asked_only) return field_value(&o->bs, p->field);
  int cinn = !strcmp(p->field, "enable_auto_fusion");
  int on = field_value(&o->bs, p->field) || (cinn && field_value(&o->bs, "build_cinn_pass"));
  int explicit_set = strategy_is_set(&o->bs, p->field) || (cinn && strategy_is_set(&o->bs, "build_cinn_pass"));
  return explicit_set ? on : (on || o->ir_optim);
}

const char *pipeline_enabled(const PipelineOpts *o) {
  const char *s = "";
  for (int i = 0; i < NPASSES; i++)
    if (enabled(&pipeline[i], o)) s = pool_printf("%s%s%s", s, *s ? ", " : "", pipeline[i].name);
  return s;
}

static int write_dot(const Graph *g, const char *dir, const char *name) {
  if (mkdir(dir, 0777) && errno != EEXIST)
    return diag_error("debug_graphviz_path %s: cannot create: %s", dir, strerror(errno));
  const char *path = path_join(dir, name);
  FILE *f = fopen(path, "w");
  if (!f) return diag_error("%s: cannot write: %s", path, strerror(errno));
  int bad = dot_write(g, f);
  if (fclose(f) || bad) return diag_error("%s: write failed", path);
  return 0;
}

/* On a training program (explicit_only), a pass asked for that is not
 * applied to training programs is an error naming its field: never
 * silently skipped. */
static int check_training(const Graph *g, const PipelineOpts *o) {
  int bad = 0;
  for (int i = 0; i < NPASSES; i++) {
    const PassEntry *p = &pipeline[i];
    if (!enabled(p, o) || p->train) continue;
    if (p->field)
      bad = diag_error("%s: BuildStrategy %s=true: this pass is not applied to training programs yet (it would "
                       "rewrite forward ops whose outputs the grad ops read; the training fusions are: %s)",
                       g->file, p->field, pipeline_training_passes());
    else
      bad = diag_error("%s: --passes %s: this pass is not applied to training programs", g->file, p->name);
  }
  /* Paddle's addto accumulates a gradient into the buffer of an earlier
   * one (GPU only); paddlec's sum ops write a buffer of their own */
  if (o->bs.enable_addto)
    bad = diag_error("%s: BuildStrategy enable_addto=true: in-place gradient accumulation is not implemented "
                     "(gradients are summed by sum ops into buffers of their own); leave it false",
                     g->file);
  return bad ? -1 : 0;
}

const char *pipeline_training_passes(void) {
  const char *s = "";
  for (int i = 0; i < NPASSES; i++)
    if (pipeline[i].train) s = pool_printf("%s%s%s", s, *s ? ", " : "", pipeline[i].name);
  return s;
}

int pipeline_run(Graph *g, const PipelineOpts *o, const char **ran) {
  const char *dot_dir = o->bs.debug_graphviz_path;
  *ran = "";
  if (o->explicit_only && check_training(g, o)) return -1;
  if (dot_dir && *dot_dir && write_dot(g, dot_dir, "before_passes.dot")) return -1;
  if (o->verify_each && verify_graph(g, "the loader")) return -1;
  for (int i = 0; i < NPASSES; i++) {
    const PassEntry *p = &pipeline[i];
    if (!enabled(p, o)) continue;
    PassCtx c = {.bs = &o->bs, .pass = p->name};
    if (p->fn(g, &c)) return -1;
    if (o->verify_each && verify_graph(g, p->name)) return -1;
    if (c.changes) *ran = pool_printf("%s%s%s(%d)", *ran, **ran ? ", " : "", p->name, c.changes);
    if (o->dump_after && (in_list(o->dump_after, p->name) || in_list(o->dump_after, "all"))) {
      printf("# IR after %s (%d rewrites)\n", p->name, c.changes);
      ir_dump(g, stdout);
    }
  }
  if (!**ran) *ran = "none";
  if (dot_dir && *dot_dir && write_dot(g, dot_dir, "after_passes.dot")) return -1;
  return 0;
}
