/* libFuzzer harness: the IR text reader (ir_text_parse: the .ir files of
 * tests/passes, `paddlec opt`), then what `paddlec opt` does with it: the
 * ProgramDesc it makes is decoded and built, the parameter values
 * bound, shapes inferred, the default passes run and the IR dumped.
 * Oracles beyond the sanitizers: the ProgramDesc the reader writes always
 * decodes; the dump of an IR that verified reads back. */
#include "fuzz_util.h"

#include "infer.h"
#include "ir_text.h"
#include "pipeline.h"
#include "verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_reset();
  char *text = pool_alloc(size + 1);
  memcpy(text, data, size);
  uint8_t *pb;
  size_t pblen;
  IrParams *params;
  if (ir_text_parse(text, "fuzz.ir", &pb, &pblen, &params)) goto done;
  ProgramDesc *pd = paddlec__fw__program_desc__unpack(NULL, pblen, pb);
  if (!pd) {
    fprintf(stderr, "fuzz_ir_text: the reader wrote a ProgramDesc that does not decode\n");
    abort();
  }
  Graph g;
  InferReport r;
  if (pd->n_blocks == 0 || !pd->blocks[0]) {
    paddlec__fw__program_desc__free_unpacked(pd, NULL);
    goto done;
  }
  if (graph_build(&g, pd, "fuzz.ir")) goto out;
  ir_text_bind_params(&g, params);
  if (infer_program(&g, &r)) goto out;
  PipelineOpts o;
  const char *ran;
  pipeline_defaults(&o);
  o.verify_each = 0;
  if (pipeline_run(&g, &o, &ran) || verify_graph(&g, "the default pipeline")) goto out;
  char *dump = NULL;
  size_t dlen = 0;
  FILE *f = open_memstream(&dump, &dlen);
  if (!f) abort();
  ir_dump(&g, f);
  fclose(f);
  if (ir_text_parse(dump, "dump.ir", &pb, &pblen, &params)) {
    fprintf(stderr, "fuzz_ir_text: the dump of a verified IR does not read back:\n%s", dump);
    abort();
  }
  free(dump);
out:
  graph_free(&g);
done:
  fuzz_reset();
  return 0;
}
