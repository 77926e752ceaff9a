/* The C printers of recurrent and random calls (rnn_call.h). */
#include "rnn_call.h"

#include "../util.h"
#include "tensor_util.h"

/* The weights (and in RNN_GRAD their gradients) as the arrays w and dw. */
static void print_weights(Printer *p, const RnnCall *c) {
  pr_line(p, "/* W_ih, W_hh per layer and direction, then b_ih, b_hh in the same order */");
  pr_line(p, "const %s *const w[%d] = {", c->type, c->nweights);
  for (int i = 0; i < c->nweights; i++) pr_line(p, "%s, /* %s */", c->weights[i], c->weight_notes[i]);
  pr_line(p, "};");
  if (c->kind != RNN_GRAD) return;
  pr_line(p, "/* their gradients (NULL: not wanted) */");
  pr_line(p, "%s *const dw[%d] = {", c->type, c->nweights);
  for (int i = 0; i < c->nweights; i++) {
    if (c->dweights[i]) pr_line(p, "%s, /* %s */", c->dweights[i], c->dweight_notes[i]);
    else pr_line(p, "NULL,");
  }
  pr_line(p, "};");
}

/* The forward's dropout mask, drawn; the grad's, read. */
static void print_mask(Printer *p, const RnnCall *c) {
  if (c->kind == RNN_GRAD) {
    pr_line(p, "const uint8_t *mask = %s; /* the forward's dropout mask */", c->mask);
    return;
  }
  pr_line(p, "/* the dropout mask between layers (DropoutState) */");
  pr_line(p, "uint8_t *mask = %s;", c->mask);
  if (c->mask_all) {
    random_print_c(p, &(RandomCall){.kind = RANDOM_DROPOUT_MASK, .mt = "NULL", .mask = "mask", .n = c->mask_n,
                                    .p = "1.0f"});
  } else if (c->mask_seed) {
    pr_line(p, "RtMt engine;");
    random_print_c(p, &(RandomCall){.kind = RANDOM_SEED, .mt = "&engine", .seed = c->mask_seed,
                                    .note = "the op's seed"});
    random_print_c(p, &(RandomCall){.kind = RANDOM_DROPOUT_MASK, .mt = "&engine", .mask = "mask", .n = c->mask_n,
                                    .p = c->mask_p});
  } else {
    random_print_c(p, &(RandomCall){.kind = RANDOM_DROPOUT_MASK, .mt = "&m->rng", .mask = "mask", .n = c->mask_n,
                                    .p = c->mask_p, .note = "the global generator"});
  }
}

/* The geometry as the constant RtRnn `geo`. */
static void print_geo(Printer *p, const RnnCall *c) {
  pr_line(p, "const RtRnn geo = {");
  pr_line(p, ".mode = %s, .seq_len = %s, .batch = %s, .input_size = %lld,", c->mode, c->seq_len, c->batch,
          (long long)c->input_size);
  pr_line(p, ".hidden_size = %lld, .num_layers = %lld, .num_dirs = %lld,", (long long)c->hidden_size,
          (long long)c->num_layers, (long long)c->num_dirs);
  if (c->dropout_prob) pr_line(p, ".dropout_prob = %s, .mask = mask,", c->dropout_prob);
  pr_line(p, "};");
}

/* `lengths`: the int64 lengths (int32 ones widened into c->wide) or NULL. */
static void print_lengths(Printer *p, const RnnCall *c) {
  if (c->wide) {
    pr_line(p, "int64_t *lengths = %s; /* SequenceLength, widened */", c->wide);
    pr_line(p, "for (int64_t i = 0; i < %s; i++) lengths[i] = %s[i];", c->batch, c->lengths);
  } else {
    pr_line(p, "const int64_t *lengths = %s;", c->lengths ? c->lengths : "NULL");
  }
}

void rnn_print_c(Printer *p, const RnnCall *c) {
  const char *ty = c->type;
  print_weights(p, c);
  if (c->mask) print_mask(p, c);
  print_geo(p, c);
  pr_line(p, "const %s *x = %s;", ty, c->x);
  pr_line(p, "const %s *h0 = %s, *c0 = %s;", ty, c->h0, c->c0);
  print_lengths(p, c);
  switch (c->kind) {
    case RNN_FORWARD:
      pr_line(p, "%s *out = %s;", ty, c->out);
      pr_line(p, "%s *h_n = %s, *c_n = %s;", ty, c->h_n, c->c_n);
      pr_line(p, "rt_rnn%s(&geo, x, w, h0, c0, lengths, out, h_n, c_n, %s, %s);", c->f64 ? "_f64" : "", c->ws,
              c->gemm_ws);
      break;
    case RNN_GRAD:
      pr_line(p, "const %s *dout = %s, *dh_n = %s, *dc_n = %s;", ty, c->dout, c->dh_n, c->dc_n);
      pr_line(p, "%s *dx = %s, *dh0 = %s, *dc0 = %s;", ty, c->dx, c->dh0, c->dc0);
      pr_line(p, "rt_rnn_grad%s(&geo, x, w, h0, c0, lengths, dout, dh_n, dc_n, dx, dw, dh0, dc0, %s, %s);",
              c->f64 ? "_f64" : "", c->ws, c->gemm_ws);
      break;
  }
}

/* The fills: rt_fill_<name>_f32 / _f64 with two parameters. */
static void print_fill(Printer *p, const RandomCall *c, const char *name, const char *a, const char *b) {
  pr_line(p, "rt_fill_%s_%s(%s, %s, %s, %s, %s);", name, c->f64 ? "f64" : "f32", c->mt, c->out, c->n, a, b);
}

/* Declares `mt`: the global generator; a fresh engine seeded with seed; or
 * the global generator unless seed_from[0] (Paddle's Seed input) is not 0,
 * then a fresh engine seeded with it. */
static void print_engine(Printer *p, const RandomCall *c) {
  if (c->seed_from) {
    pr_line(p, "const int32_t seed = %s[0]; /* the Seed input */", c->seed_from);
    pr_line(p, "RtMt engine, *mt = &m->rng; /* the global generator unless Seed is not 0 */");
    pr_line(p, "if (seed) {");
    random_print_c(p, &(RandomCall){.kind = RANDOM_SEED, .mt = "&engine", .seed = "(uint64_t)(int64_t)seed"});
    pr_line(p, "mt = &engine;");
    pr_line(p, "}");
  } else if (c->seed) {
    pr_line(p, "RtMt engine, *mt = &engine;");
    random_print_c(p, &(RandomCall){.kind = RANDOM_SEED, .mt = "mt", .seed = c->seed, .note = c->note});
  } else {
    pr_line(p, "RtMt *mt = &m->rng; /* the global generator */");
  }
}

void random_print_c(Printer *p, const RandomCall *c) {
  const char *note = c->note ? pool_printf(" /* %s */", c->note) : "";
  switch (c->kind) {
    case RANDOM_ENGINE:
      print_engine(p, c);
      break;
    case RANDOM_SEED:
      pr_line(p, "rt_mt_seed(%s, %s);%s", c->mt, c->seed, note);
      break;
    case RANDOM_UNIFORM:
      print_fill(p, c, "uniform", c->lo, c->hi);
      if (c->diag_num > 0)
        pr_line(p, "for (int64_t i = 0; i < %lld; i++) %s[i * %lld] = %s;", (long long)c->diag_num, c->out,
                (long long)c->diag_stride, c->diag_val);
      break;
    case RANDOM_NORMAL:
      print_fill(p, c, "normal", c->mean, c->stddev);
      break;
    case RANDOM_TRUNCATED_NORMAL:
      print_fill(p, c, "truncated_normal", c->mean, c->stddev);
      break;
    case RANDOM_UNIFORM_INT:
      pr_line(p, "%s *out = %s;", c->type, c->out);
      pr_line(p, "for (int64_t i = 0; i < %s; i++) out[i] = (%s)rt_uniform_int(%s, %s, %s);", c->n, c->type, c->mt,
              c->lo, c->hi);
      break;
    case RANDOM_DROPOUT:
      pr_line(p, "rt_dropout_%s(%s, %s, %s, %s, %s, %s, %d);", c->f64 ? "f64" : "f32", c->mt, c->x, c->y, c->mask, c->n,
              c->p, c->upscale);
      break;
    case RANDOM_DROPOUT_ALL:
      pr_line(p, "memset(%s, 0, (size_t)%s * sizeof(%s));", c->y, c->n, c->type);
      pr_line(p, "memset(%s, 0, (size_t)%s);", c->mask, c->n);
      break;
    case RANDOM_DROPOUT_MASK:
      pr_line(p, "rt_dropout_mask(%s, %s, %s, %s);%s", c->mt, c->mask, c->n, c->p, note);
      break;
    case RANDOM_RRELU:
      pr_line(p, "rt_rrelu_%s(%s, %s, %s, %s, %s, %s, %s);%s", c->f64 ? "f64" : "f32", c->mt, c->x, c->y, c->mask, c->n,
              c->lo, c->hi, note);
      break;
    case RANDOM_RRELU_SLOPES: {
      const int dt = c->f64 ? RT_DT_FP64 : RT_DT_FP32;
      pr_line(p, "{");
      tu_pr_to(p, dt, "const float *in = %s;", c->x);
      tu_pr_to(p, dt, "float *noise = %s;", c->mask);
      tu_pr_to(p, dt, "for (int64_t i = 0; i < %s; i++) noise[i] = in[i] < 0.0f ? %s : 1.0f;", c->n, c->slope);
      pr_line(p, "}");
      break;
    }
  }
}
