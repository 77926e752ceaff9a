/* One normalization kernel call as the lowering decided it, and its C
 * printer.
 *
 * The emitters of batch_norm (inference and training), sync_batch_norm's
 * sums ops, layer_norm, group_norm, instance_norm, their grads and
 * fused_feedforward's layer_norm fill one record: which routine, the
 * geometry (x viewed as [outer, c, inner], or layer_norm's [rows, cols];
 * groups), the epsilon / momentum literals and the buffers as C
 * expressions.  norm_print_c is the only code that spells the runtime's
 * normalization calls (rt_batch_norm*, rt_layer_norm*, rt_group_norm*,
 * rt_instance_norm_grad); another backend prints the same records.
 * place_sum, the sums' all-reduce between places, prints no call (the
 * trainer adds them between kernels): a note. */
#ifndef PADDLEC_OPS_NORM_CALL_H
#define PADDLEC_OPS_NORM_CALL_H

#include "ops.h"

typedef enum NormKind {
  NORM_BATCH,           /* y with the running statistics mean, var */
  NORM_BATCH_TRAIN,     /* y with the batch's statistics: saved_*, running *_out (synced: sums) */
  NORM_BATCH_GRAD,      /* dx, dscale, dbias (running statistics: var; synced: gsums and sums) */
  NORM_BATCH_SUMS,      /* this place's per-channel sums of x, x^2 and count into sums */
  NORM_BATCH_GRAD_SUMS, /* this place's per-channel sums of dy, dy * xhat into gsums */
  NORM_LAYER,           /* y, and each row's mean_out, var_out */
  NORM_LAYER_GRAD,      /* dx, dscale, dbias from each row's mean, var */
  NORM_GROUP,           /* y, and each group's mean_out, var_out, saved_inv_std (instance_norm: groups = c);
                         * channel-last x (nhwc) transposed into nhwc's scratch, normalized there, and back */
  NORM_GROUP_GRAD,      /* dx, dscale, dbias from y and var */
  NORM_INSTANCE_GRAD,   /* dx, dscale, dbias from mean and inv_std */
  NORM_PLACE_SUM,       /* nothing: the places' sums are added between kernels, by the trainer */
} NormKind;

/* Operands a kind may go without are NULL (printed as NULL), or param_ptr's
 * "NULL". */
typedef struct NormCall {
  NormKind kind;
  int f64;                  /* float64 tensors: the kernel's _f64 variant */
  const char *outer;        /* [outer, c, inner]: the batch (group and instance norms) or the dims before c */
  int64_t c;                /* channels */
  const char *inner;        /* the dims after c */
  int64_t groups;           /* NORM_GROUP, NORM_GROUP_GRAD */
  int channel_last;         /* NORM_GROUP_GRAD: y is [outer, inner, c] */
  const char *rows, *cols;  /* NORM_LAYER, NORM_LAYER_GRAD: cols normalized in each of rows */
  const char *eps;          /* a literal (not NORM_BATCH_GRAD synced, the sums kinds, NORM_INSTANCE_GRAD) */
  const char *momentum;     /* a literal: NORM_BATCH_TRAIN */
  const char *x, *dy, *y;   /* input, output gradient, output (NORM_GROUP_GRAD reads y) */
  const char *scale, *bias;
  const char *mean, *var, *inv_std;                       /* statistics read */
  const char *mean_out, *var_out, *saved_mean, *saved_inv_std; /* statistics written (NORM_BATCH: saved_*
                                                               * zeroed when set, c of them, after the call) */
  const char *sums;         /* float64: NORM_BATCH_SUMS's output; the places' summed sums (synced) */
  const char *gsums;        /* float64: NORM_BATCH_GRAD_SUMS's output; the summed ones (synced grad) */
  const char *dx, *dscale, *dbias;
  const char *nhwc;         /* NORM_GROUP: x and y are [outer, inner, c]: scratch of x's elements (`unsigned
                             * char *`), or NULL */
} NormCall;

/* The call as one statement of the C runtime (NORM_BATCH: and the zeroed
 * statistics' loops; NORM_GROUP: with its transposes; NORM_PLACE_SUM: a
 * comment). */
void norm_print_c(Printer *p, const NormCall *c);

#endif
