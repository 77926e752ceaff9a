/* One embedding kernel as the lowering decided it, and its C printer.
 *
 * lookup_table (v1, v2) reads W's row each id names (rt_gather; the row of
 * padding_idx, and an id outside [0, V), read as zeros); its grad zeroes
 * W@GRAD and adds each id's row of Out@GRAD to row id, in id order,
 * skipping padding_idx and ids outside [0, V).  c_embedding (tensor
 * parallelism: this process holds rows start .. start + V - 1) copies row
 * id - start where it is in [0, V), zeros else; its grad adds each id's
 * row of Out@GRAD to row id - start where it is in [0, V).  The emitters
 * (lookup_table.c, c_embedding.c) check the tensors and fill one record:
 * the kind, the C types, the buffers and the geometry as C expressions;
 * embed_print_c prints the kernel; another backend prints the same
 * records. */
#ifndef PADDLEC_OPS_EMBED_CALL_H
#define PADDLEC_OPS_EMBED_CALL_H

#include "ops.h"

typedef enum EmbedKind {
  EMBED_LOOKUP,      /* out rows i = w row ids[i] (rt_gather), zeros for pad; an id outside [0, V) returns 1 */
  EMBED_LOOKUP_GRAD, /* dw = 0, rows ids[i] += dout rows i but pad and ids outside [0, V) */
  EMBED_C,           /* out rows i = w row ids[i] - start inside [0, V), else zeros */
  EMBED_C_GRAD,      /* dw = 0, rows ids[i] - start += dout rows i inside [0, V) */
} EmbedKind;

typedef struct EmbedCall {
  EmbedKind kind;
  const char *type;       /* C element type of W (Out, the grads) */
  const char *ids_type;   /* C type of an id (all but LOOKUP) */
  int ids_bytes;          /* LOOKUP: bytes of an id, 4 or 8 */
  const char *ids;        /* the ids, read */
  const char *w, *out;    /* LOOKUP, C: W read, Out written */
  const char *dout, *dw;  /* the grads: Out@GRAD read, W@GRAD written */
  const char *rows;       /* W's rows V */
  const char *row;        /* W's row D (LOOKUP: in bytes) */
  const char *count;      /* the ids' count */
  const char *pad;        /* LOOKUP(_GRAD): padding_idx as a C int64_t literal, NULL when none */
  const char *start;      /* C(_GRAD): the first row this process holds, a C int64_t literal */
  const char *dw_numel;   /* C_GRAD: W@GRAD's elements */
} EmbedCall;

void embed_print_c(Printer *p, const EmbedCall *c);

#endif
