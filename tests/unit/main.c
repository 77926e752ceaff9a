/* Unit test runner: `unit_tests` runs all, `unit_tests --list` lists names,
 * `unit_tests NAME...` runs those.  Ends with "N passed, N failed". */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "util.h"

int unit_failures;

#define TESTS(X)                         \
  X(test_tensor_worked_example)          \
  X(test_tensor_packed_dims)             \
  X(test_tensor_every_truncation)        \
  X(test_tensor_bad_versions)            \
  X(test_tensor_lod_levels_skipped)      \
  X(test_tensor_unknown_dtype)           \
  X(test_dtype_sizes)                    \
  X(test_op_table)                       \
  X(test_attr_defaults_and_types)        \
  X(test_graph_feeds_fetches_params)     \
  X(test_graph_undeclared_var)           \
  X(test_graph_parent_lookup)            \
  X(test_broadcast)                      \
  X(test_params_combined)                \
  X(test_npy_roundtrip)                  \
  X(test_npy_rejects_garbage)            \
  X(test_pickle_python_bytes)            \
  X(test_pickle_roundtrip)               \
  X(test_pickle_every_truncation)        \
  X(test_pickle_writer_rejects)          \
  X(test_gemm_paths)                     \
  X(test_conv_filter_grad_empty_batch)   \
  X(test_random_engine)                  \
  X(test_random_distributions)           \
  X(test_random_truncated)               \
  X(test_vmath_expf)                     \
  X(test_vmath_reductions)               \
  X(test_act_bias_matches_two_passes)    \
  X(test_verify_catches_broken_rewrites)

#define DECL(n) void n(void);
TESTS(DECL)
#define ENTRY(n) {#n, n},
static const UnitTest tests[] = {TESTS(ENTRY)};
#define NTESTS (int)(sizeof tests / sizeof tests[0])

static int run(const UnitTest *t) {
  unit_failures = 0;
  t->fn();
  printf("%s %s\n", unit_failures ? "FAIL" : "ok  ", t->name);
  return unit_failures == 0;
}

int main(int argc, char **argv) {
  int passed = 0, failed = 0;
  if (argc > 1 && strcmp(argv[1], "--list") == 0) {
    for (int i = 0; i < NTESTS; i++) puts(tests[i].name);
    return 0;
  }
  for (int i = 0; i < NTESTS; i++) {
    int want = argc == 1;
    for (int k = 1; k < argc; k++) want |= strcmp(argv[k], tests[i].name) == 0;
    if (!want) continue;
    if (run(&tests[i])) passed++;
    else failed++;
  }
  pool_release();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
