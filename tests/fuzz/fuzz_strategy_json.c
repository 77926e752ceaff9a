/* libFuzzer harness: the option readers of --build-strategy-file and
 * --exec-strategy-file (json_parse, then every key applied to a
 * BuildStrategy and an ExecStrategy through strategy_apply_json), and the
 * command-line forms --build-strategy / --exec-strategy on the same text. */
#include "fuzz_util.h"

#include "json_read.h"
#include "strategy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_reset();
  char *text = pool_alloc(size + 1);
  memcpy(text, data, size);
  if (memchr(text, 0, size)) goto out; /* json_read_file refuses these */
  JsonValue root;
  BuildStrategy bs;
  ExecStrategy es;
  if (json_parse(text, "fuzz.json", &root) == 0) {
    strategy_defaults(&bs);
    if (strategy_apply_json(&bs, &root, "fuzz.json") == 0) strategy_summary(&bs);
    exec_strategy_defaults(&es);
    exec_strategy_apply_json(&es, &root, "fuzz.json");
  }
  strategy_defaults(&bs);
  if (strategy_parse(&bs, text) == 0) strategy_summary(&bs);
  exec_strategy_defaults(&es);
  exec_strategy_parse(&es, text);
out:
  fuzz_reset();
  return 0;
}
