/* The IR as text: what --dump-after and `paddlec opt` print, and what pass
 * tests are written in (the .ir files of tests/passes/).  Block 0 only, one line each:
 *
 *   # paddlec IR
 *   var x: float32[-1, 3, 8, 8] feed 0
 *   var conv.w: float32[4, 3, 3, 3] param = rand(7)
 *   var y: float32[-1, 4, 8, 8] fetch 0
 *   op conv2d(Input: x, Filter: conv.w) -> (Output: y) {groups: 1, strides: ints[1, 1]}
 *
 * Vars: name, dtype and dims (-1 = unknown), then any of `feed N`,
 * `fetch N`, `param` (a parameter: in text given a value `= rand(SEED)`,
 * `= fill(V)` or `= [v, v, ...]`), `persistable`; `holder` declares the
 * feed/fetch list vars.  A slot binding several vars lists them in [...].
 * Attributes keep their Paddle type: 1 (int), 1L (long), 0.5f (float), 0.5d
 * (float64), true, "text", ints[..], longs[..], floats[..], float64s[..],
 * bools[..], strings[..].  A dumped fused op ends with a comment naming the
 * ops it replaced.  Names with characters outside [A-Za-z0-9_.@/-] are
 * written in double quotes. */
#ifndef PADDLEC_IR_TEXT_H
#define PADDLEC_IR_TEXT_H

#include <stdio.h>

#include "graph.h"

/* Writes block 0: the vars its ops use (and the feeds and fetches), then its
 * ops in program order. */
void ir_dump(const Graph *g, FILE *f);
/* One attribute's value as the dump writes it (ints[1, 1], 0.5f, "NCHW"). */
void ir_attr_write(FILE *f, const OpAttr *a);
/* 1 when the bytes start like IR text ("# paddlec IR"). */
int ir_text_detect(const uint8_t *bytes, size_t len);
/* Parses IR text (from `file`) into a serialized ProgramDesc (*pb, *pblen,
 * pool memory) and the parameter values, which ir_text_bind_params puts on
 * the graph built from it.  Errors name the file and line.  0 or -1. */
typedef struct IrParams IrParams;
int ir_text_parse(const char *text, const char *file, uint8_t **pb, size_t *pblen, IrParams **params);
int ir_text_bind_params(Graph *g, const IrParams *params);

#endif
