/* The C printer of control-flow kernels (branch_call.h). */
#include "branch_call.h"

#include "../util.h"

/* The branch the mask picks, copied whole unless it is out itself. */
static void print_select_input(Printer *p, const BranchCall *c) {
  const char *list = "";
  for (int i = 0; i < c->n; i++) list = pool_printf("%s%s%s", list, i ? ", " : "", c->x[i]);
  pr_line(p, "const %s *const x[%d] = {%s};", c->type, c->n, list);
  pr_line(p, "const int64_t k = (int64_t)%s[0];", c->mask);
  pr_line(p, "%s *out = %s;", c->type, c->out);
  pr_line(p, "if (k < 0 || k >= %d) return 1; /* Paddle stops: no such input */", c->n);
  pr_line(p, "if (x[k] != out) memcpy(out, x[k], (size_t)%s * sizeof(%s));", c->numel, c->type);
}

/* X copied into the output the mask picks, unless that is X itself. */
static void print_select_output(Printer *p, const BranchCall *c) {
  const char *list = "";
  for (int i = 0; i < c->n; i++) list = pool_printf("%s%s%s", list, i ? ", " : "", c->outs[i]);
  pr_line(p, "%s *const out[%d] = {%s};", c->type, c->n, list);
  pr_line(p, "const int64_t k = (int64_t)%s[0];", c->mask);
  pr_line(p, "const %s *x = %s;", c->type, c->x[0]);
  pr_line(p, "if (k < 0 || k >= %d) return 1; /* Paddle stops: no such output */", c->n);
  pr_line(p, "if (out[k] != x) memcpy(out[k], x, (size_t)%s * sizeof(%s));", c->numel, c->type);
}

/* The sub-block's kernels, a fault ending the kernel. */
static void print_calls(Printer *p, const BranchCall *c) {
  for (int i = 0; i < c->ncalls; i++) {
    if (c->faults[i])
      pr_line(p, "if (%s) return 1;", c->calls[i]);
    else
      pr_line(p, "%s;", c->calls[i]);
  }
}

/* Copies between the vars kept per iteration and slot `at` of their
 * arrays (into the arrays with `save`), those kept as an iteration begins
 * (outer 1) or ends (outer 0). */
static void print_keep(Printer *p, const BranchCall *c, int outer, const char *at, int save) {
  for (int k = 0; k < c->nkeep; k++) {
    const StepKeep *s = &c->keep[k];
    if (s->outer != outer) continue;
    const char *slot = pool_printf("%s + (size_t)%s * (size_t)%s", s->steps, at, s->numel);
    pr_line(p, "memcpy(%s, %s, (size_t)%s * sizeof(%s));", save ? slot : s->var, save ? s->var : slot, s->numel,
            s->type);
  }
}

/* The sub-block's kernels inside a C loop or branch; a training program's
 * while keeps its iterations' values for while_grad and counts them. */
static void print_block(Printer *p, const BranchCall *c) {
  if (c->count) pr_line(p, "int64_t it = 0;");
  pr_line(p, "%s (%s) {", c->kind == BRANCH_WHILE ? "while" : "if", c->cond);
  if (c->bound) pr_line(p, "if (it == %s) return 1; /* more iterations than the compiler counted */", c->bound);
  print_keep(p, c, 1, "it", 1);
  print_calls(p, c);
  print_keep(p, c, 0, "it", 1);
  if (c->count) pr_line(p, "it++;");
  pr_line(p, "}");
  if (c->count) pr_line(p, "%s[0] = it;", c->count);
}

/* while_grad (Paddle's WhileGradOp): the grad block once per iteration,
 * the last first, on that iteration's values; the grads of the inputs
 * the loop does not write summed over the iterations.  The outer vars
 * get back their values after the loop. */
static void print_while_grad(Printer *p, const BranchCall *c) {
  pr_line(p, "const int64_t n = %s[0];", c->count);
  print_keep(p, c, 1, c->bound, 1);
  for (int k = 0; k < c->nzero; k++) {
    pr_line(p, "memset(%s, 0, (size_t)%s * sizeof(%s));", c->zero[k].dst, c->zero[k].numel, c->zero[k].type);
    if (c->zero[k].src) pr_line(p, "%s = %s;", c->zero[k].src, c->zero[k].src2);
  }
  for (int k = 0; k < c->ngrads; k++)
    pr_line(p, "memset(%s, 0, (size_t)%s * sizeof(%s));", c->grads[k].dst, c->grads[k].numel, c->grads[k].type);
  pr_line(p, "for (int64_t it = n - 1; it >= 0; it--) {");
  print_keep(p, c, 1, "it", 0);
  print_keep(p, c, 0, "it", 0);
  print_calls(p, c);
  for (int k = 0; k < c->ngrads; k++)
    pr_line(p, "for (int64_t j = 0; j < (int64_t)%s; j++) %s[j] += %s[j];", c->grads[k].numel, c->grads[k].dst,
            c->grads[k].src);
  pr_line(p, "}");
  print_keep(p, c, 1, c->bound, 0);
}

/* conditional_block_grad (Paddle's ConditionalBlockGradOp): when the
 * forward's condition held, the grad block's kernels and each input's
 * grad copied out of it (zeros for one it does not make); else zeros. */
static void print_grad_block(Printer *p, const BranchCall *c) {
  pr_line(p, "if (%s) {", c->cond);
  print_calls(p, c);
  for (int k = 0; k < c->ngrads; k++) {
    const StepCopy *g = &c->grads[k];
    if (g->src)
      pr_line(p, "if (%s != %s) memcpy(%s, %s, (size_t)%s * sizeof(%s));", g->dst, g->src, g->dst, g->src, g->numel,
              g->type);
    else
      pr_line(p, "memset(%s, 0, (size_t)%s * sizeof(%s));", g->dst, g->numel, g->type);
  }
  pr_line(p, "} else {");
  for (int k = 0; k < c->ngrads; k++)
    pr_line(p, "memset(%s, 0, (size_t)%s * sizeof(%s));", c->grads[k].dst, c->grads[k].numel, c->grads[k].type);
  pr_line(p, "}");
}

/* recurrent: per time step its inputs' slices in, the states carried
 * (from initial_states at the first step), the block's kernels, then the
 * outputs' slices out. */
static void print_steps(Printer *p, const BranchCall *c) {
  pr_line(p, "for (int64_t i = 0; i < %s; i++) {", c->steps);
  pr_line(p, "const int64_t t = %s;", c->reverse ? pool_printf("%s - 1 - i", c->steps) : "i");
  for (int k = 0; k < c->nin; k++)
    pr_line(p, "memcpy(%s, %s + t * %s, (size_t)%s * sizeof(%s));", c->step_in[k].dst, c->step_in[k].src, c->step_in[k].numel,
            c->step_in[k].numel, c->step_in[k].type);
  for (int k = 0; k < c->nstate; k++)
    pr_line(p, "memcpy(%s, i == 0 ? %s : %s, (size_t)%s * sizeof(%s));", c->step_state[k].dst, c->step_state[k].src,
            c->step_state[k].src2, c->step_state[k].numel, c->step_state[k].type);
  print_calls(p, c);
  for (int k = 0; k < c->nout; k++)
    pr_line(p, "memcpy(%s + t * %s, %s, (size_t)%s * sizeof(%s));", c->step_out[k].dst, c->step_out[k].numel, c->step_out[k].src,
            c->step_out[k].numel, c->step_out[k].type);
  pr_line(p, "}");
}

void branch_print_c(Printer *p, const BranchCall *c) {
  switch (c->kind) {
    case BRANCH_SELECT_INPUT:
      print_select_input(p, c);
      break;
    case BRANCH_SELECT_OUTPUT:
      print_select_output(p, c);
      break;
    case BRANCH_IF:
    case BRANCH_WHILE:
      print_block(p, c);
      break;
    case BRANCH_STEPS:
      print_steps(p, c);
      break;
    case BRANCH_GRAD:
      print_grad_block(p, c);
      break;
    case BRANCH_WHILE_GRAD:
      print_while_grad(p, c);
      break;
  }
}
