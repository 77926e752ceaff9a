/* libFuzzer harness: the parameter readers, on combined parameter files for
 * one fixed program (samples/mlp/model.pdmodel, or $FUZZ_PARAMS_MODEL):
 *   - the compiler's params_load_combined (records checked against each
 *     VarDesc, read to the exact end);
 *   - the generated code's rt_weights_bind (records checked against the
 *     compiled weight specs and copied into their slots).
 * Oracle beyond the sanitizers: a file one accepts, the other accepts too
 * (the specs are the program's declared shapes, so they agree). */
#include "fuzz_util.h"

#include "load.h"
#include "rt_alloc.h"

static uint8_t *model;     /* the program's bytes */
static size_t model_len;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  const char *m = getenv("FUZZ_PARAMS_MODEL");
  model = fuzz_slurp(m && *m ? m : pool_printf("%s/samples/mlp/model.pdmodel", fuzz_root()), &model_len);
  pool_release();
  return 0;
}

/* rt_weights_bind over the same bytes with specs from the VarDescs; 0 ok. */
static int bind_runtime(const Graph *g, const uint8_t *data, size_t size) {
  RtWeightSpec *specs = calloc((size_t)g->nparams + 1, sizeof *specs);
  const void **ptrs = calloc((size_t)g->nparams + 1, sizeof *ptrs);
  if (!specs || !ptrs) abort();
  int usable = 1;
  for (int i = 0; i < g->nparams; i++) {
    const Var *v = &g->vars[g->params[i]];
    specs[i].name = v->name;
    specs[i].dtype = v->decl_dtype;
    specs[i].rank = v->decl.rank;
    for (int d = 0; d < v->decl.rank; d++) specs[i].dims[d] = v->decl.d[d];
    usable &= v->decl.rank >= 0 && shape_numel(&v->decl) >= 0;
  }
  int st = -1;
  if (usable) {
    unsigned char *store = rt_alloc(rt_weights_bytes(specs, g->nparams) + 64);
    char err[256];
    if (!store) abort();
    st = rt_weights_bind(size ? data : NULL, size, specs, g->nparams, store, ptrs, err, sizeof err);
    rt_free(store);
  }
  free(specs);
  free(ptrs);
  return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_reset();
  ProgramDesc *pd = paddlec__fw__program_desc__unpack(NULL, model_len, model);
  if (!pd) abort();
  Graph g;
  if (graph_build(&g, pd, "model.pdmodel")) abort();
  const char *path = fuzz_write_tmp(data, size, ".pdiparams");
  int compiler_ok = params_load_combined(&g, path) == 0;
  int runtime_ok = bind_runtime(&g, data, size) == 0;
  if (compiler_ok) {
    uint64_t bytes = 0;
    for (int i = 0; i < g.nparams; i++) {
      const Var *v = &g.vars[g.params[i]];
      if (!(v->flags & VAR_LOADED)) abort();
      uint64_t n = (uint64_t)shape_numel(&v->shape) * rt_dtype_size(v->dtype);
      bytes += n;
      if (n) {
        volatile uint8_t last = v->param_data[n - 1]; /* inside the file's bytes (ASan) */
        (void)last;
      }
    }
    if (bytes != g.param_bytes) abort();
  }
  if (compiler_ok != runtime_ok) {
    fprintf(stderr, "fuzz_params: the compiler %s the file, the runtime %s it\n",
            compiler_ok ? "accepts" : "rejects", runtime_ok ? "accepts" : "rejects");
    abort();
  }
  graph_free(&g);
  fuzz_reset();
  return 0;
}
