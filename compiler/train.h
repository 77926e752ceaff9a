/* Training programs (DESIGN.md section 6b): a program Paddle's backward and
 * optimizer wrote (ops with op_role Backward or Optimize) compiles into a
 * trainer.  This module tells such a program apart and gives it what an
 * inference program gets from its feed and fetch ops: the feeds (the data
 * vars `paddle.static.data` marks need_check_feed), the loss (the var whose
 * gradient the backward's Loss-role fill_constant seeds) and further fetched
 * vars.  Every persistable var is state: a parameter of the compiled model
 * that its kernels update in place, loaded at run time (from the startup
 * program or a checkpoint), never from a parameter file at compile time. */
#ifndef PADDLEC_TRAIN_H
#define PADDLEC_TRAIN_H

#include "graph.h"

typedef struct TrainOpts {
  const char *feeds; /* --feed a,b: the feeds, in this order (NULL: the data vars) */
  const char *loss;  /* --loss NAME (NULL: found in the program) */
  const char *fetch; /* --fetch v,...: fetched besides the loss (NULL: none) */
} TrainOpts;

/* The body of PREFIX_run_startup for a trainer compiled without its startup
 * program: the optimizer state Paddle's optimizers start from
 * (train_state.c); `upper` is the model's upper-case prefix. */
const char *train_state_defaults(const Graph *g, const char *upper);
/* For the same trainer, the start of PREFIX_train_step: a learning rate
 * that only a startup program sets and that is still NaN is an error
 * ("" when there is none). */
const char *train_lr_check(const Graph *g, const char *prefix, const char *upper);
/* 1 when an optimizer op (not a learning-rate one) reads var id as its
 * LearningRate. */
int train_is_learning_rate(const Graph *g, int id);
/* 1 when block 0 has a backward or optimizer op. */
int train_is_training(const Graph *g);
/* The loss var (id) the program's backward starts from, or -1: the output
 * of a fill_constant with op_role Backward|Loss named `<loss>@GRAD`. */
int train_find_loss(const Graph *g);
/* Makes g's feeds and fetches those of a training step: o->feeds or the
 * data vars (byte-wise name order), then the loss (fetch 0) and o->fetch.
 * (A program with feed and fetch ops is not compiled as a trainer: it runs
 * as saved, each run one pass over its ops; this keeps them.)
 * 0, or -1 after errors naming the program and the var. */
int train_setup(Graph *g, const TrainOpts *o);

/* What `inspect` shows of a training program. */
typedef struct TrainInfo {
  int nforward, nbackward, noptimize, nlrsched; /* block 0's ops by op_role */
  int nparams;  /* trainable parameters: the Param of an optimizer op */
  int *params;  /* their var ids, in program order */
  int nstate;   /* optimizer state: the optimizer ops' other persistable
                 * inputs (moments, beta powers, velocities, learning rates) */
  int *state;   /* their var ids, in program order */
} TrainInfo;
void train_info(const Graph *g, TrainInfo *t);

/* The startup program `st` of training program `main`: its fetches become
 * the state vars of `main` (main->params) it writes, in main's order, each
 * checked for the same dtype and shape; a state var it leaves unwritten is
 * an error (Paddle's first step would stop on it too).  0 or -1. */
int train_startup_setup(Graph *st, const Graph *main);
/* The evaluation program `ev` of training program `main` (its
 * clone(for_test=True)): feeds are its data vars, fetches those of main's
 * it computes (the loss first, which it must), unless it was saved with
 * feed and fetch ops; each persistable var it reads must be a state var of
 * main of the same dtype and shape, and it writes none.  0 or -1 after
 * errors naming the var. */
int train_eval_setup(Graph *ev, const Graph *main);

#endif
