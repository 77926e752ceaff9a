/* The optimizer state of a trainer compiled without its startup program
 * (train.h train_state_defaults): what Paddle's Python optimizers ask their
 * startup program to write.  Optimizer._add_accumulator fills the beta-power
 * accumulators (adam, adamw, adamax, lamb: the Beta1Pow and Beta2Pow inputs)
 * with the op's beta1 and beta2, or with 0.9 and 0.999 when the betas come
 * from tensors (Beta1Tensor, Beta2Tensor); the fluid learning-rate decays'
 * step counter @LR_DECAY_COUNTER@ (autoincreased_step_counter, begin 0)
 * starts at begin - 1 = -1.  Every other state var stays zero (moments,
 * velocities) but the learning rate vars no op of the program writes
 * (learning_rate_0: Paddle's startup fills the optimizer's float learning
 * rate, which the main program does not hold): those start as NaN, and a
 * training step refuses to run until a checkpoint or set_learning_rate
 * gave them a value (train_lr_check).  Paddle 1.x checkpoints without their
 * .pdopt (fluid.save's optimizer half) continue from this state. */
#include <string.h>

#include "attr.h"
#include "emit.h"
#include "train.h"
#include "util.h"

#define LR_COUNTER "@LR_DECAY_COUNTER@"

/* The parameter index of var id, or -1. */
static int param_index(const Graph *g, int id) {
  for (int k = 0; k < g->nparams; k++)
    if (g->params[k] == id) return k;
  return -1;
}

/* One statement setting every element of state var id (param k) to v. */
static void fill(Printer *p, const Graph *g, int k, const char *ctype, const char *v, const char *why) {
  const Var *x = &g->vars[g->params[k]];
  int64_t n = shape_numel(&x->shape);
  if (n == 1)
    pr_line(p, "((%s *)m->w[%d])[0] = %s; /* %s: %s */", ctype, k, v, x->name, why);
  else
    pr_line(p, "for (int64_t i = 0; i < %lld; i++) ((%s *)m->w[%d])[i] = %s; /* %s: %s */", (long long)n, ctype, k, v,
            x->name, why);
}

/* Fills slot `slot` (Beta1Pow or Beta2Pow) of op `op` with its beta. */
static void beta_pows(Printer *p, const Graph *g, const Op *op, const char *slot, const char *beta,
                      const char *tensor, double dflt) {
  const Slot *s = slot_find(op->in, op->nin, slot), *t = slot_find(op->in, op->nin, tensor);
  const int from_tensor = t && t->n > 0;
  const double v = from_tensor ? dflt : attr_float(op, beta, dflt);
  for (int a = 0; s && a < s->n; a++) {
    const int k = s->vars[a] >= 0 ? param_index(g, s->vars[a]) : -1;
    if (k < 0 || g->vars[s->vars[a]].dtype != RT_DT_FP32) continue;
    fill(p, g, k, "float", pool_printf("%.9gf", (double)(float)v),
         pool_printf("%s's %s%s", op->type, beta, from_tensor ? " (from a tensor: Paddle fills the default)" : ""));
  }
}

/* 1 when state var k is a learning rate that only a startup program or a
 * checkpoint sets: an optimizer op reads it as LearningRate and no op of the
 * program writes it. */
static int unset_learning_rate(const Graph *g, int k) {
  const Var *v = &g->vars[g->params[k]];
  return v->producer < 0 && (v->dtype == RT_DT_FP32 || v->dtype == RT_DT_FP64) && train_is_learning_rate(g, g->params[k]);
}

const char *train_lr_check(const Graph *g, const char *prefix, const char *upper) {
  const char *out = "";
  for (int k = 0; k < g->nparams; k++) {
    if (!unset_learning_rate(g, k)) continue;
    const char *t = em_ctype(g->vars[g->params[k]].dtype), *x = pool_printf("*(const %s *)m->w[%d]", t, k);
    out = pool_printf("%s\n  if (%s != %s) /* NaN: set by neither a checkpoint nor set_learning_rate */\n"
                      "    return fail(m, %s_ERR_ARG, \"the learning rate '%s' is unset: no startup program was "
                      "compiled in and the checkpoint has none (%s_set_learning_rate, --learning-rate)\");",
                      out, x, x, upper, str_c_escape(g->vars[g->params[k]].name), prefix);
  }
  return out;
}

const char *train_state_defaults(const Graph *g, const char *upper) {
  Printer p;
  pr_init(&p);
  p.indent = 1;
  pr_line(&p, "/* no startup program: the state Paddle's optimizers start from (compiler/train_state.c) */");
  for (int b = 0; b < g->nblocks; b++)
    for (int i = 0; i < g->blocks[b].nops; i++) {
      const Op *op = &g->ops[g->blocks[b].ops[i]];
      beta_pows(&p, g, op, "Beta1Pow", "beta1", "Beta1Tensor", 0.9);
      beta_pows(&p, g, op, "Beta2Pow", "beta2", "Beta2Tensor", 0.999);
    }
  for (int k = 0; k < g->nparams; k++) {
    if (!strcmp(g->vars[g->params[k]].name, LR_COUNTER) && g->vars[g->params[k]].dtype == RT_DT_INT64)
      fill(&p, g, k, "int64_t", "-1", "the fluid decays' step counter, begin 0 - 1");
    if (unset_learning_rate(g, k))
      fill(&p, g, k, em_ctype(g->vars[g->params[k]].dtype), "NAN", "a learning rate only a startup program sets");
  }
  pr_line(&p, "return %s_OK;", upper);
  p.buf[p.len - 1] = 0; /* the template ends the line */
  const char *body = pool_strdup(p.buf);
  pr_free(&p);
  return body;
}
