/* Reading parameters in Paddle's tensor-record format and checking each
 * against its VarDesc (spec section 5). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "diag.h"
#include "load.h"
#include "util.h"

/* Checks one record against the var it should hold; keeps its data. */
static int check_record(Graph *g, Var *v, const char *file, const uint8_t *rec,
                        const RtTensorHdr *h) {
  Shape got = {h->rank, {0}};
  for (int i = 0; i < h->rank; i++) got.d[i] = h->dims[i];
  if (v->vtype != VT_LOD_TENSOR)
    return diag_error("%s: parameter '%s' has variable kind %d; only dense tensors (7) are readable",
                      file, v->name, v->vtype);
  if (v->decl_dtype != h->dtype) {
    const char *want = rt_dtype_name(v->decl_dtype);
    return diag_error("%s: parameter '%s' is %s in the file but %s%s in its VarDesc", file, v->name,
                      rt_dtype_name(h->dtype), want ? want : "dtype ", want ? "" : pool_printf("%d", v->decl_dtype));
  }
  int dims_ok = v->decl.rank == got.rank;
  for (int i = 0; dims_ok && i < got.rank; i++)
    dims_ok = v->decl.d[i] == got.d[i] || v->decl.d[i] < 0;
  if (!dims_ok)
    return diag_error("%s: parameter '%s' has dims %s in the file but %s in its VarDesc", file,
                      v->name, shape_str(&got), shape_str(&v->decl));
  v->shape = got;
  v->param_data = rec + h->data_offset;
  v->param_file = file;
  v->flags |= VAR_LOADED;
  g->param_bytes += h->data_bytes;
  return 0;
}

static int is_pickle(const uint8_t *b, size_t n) { return n >= 2 && b[0] == 0x80 && b[1] <= 5; }

int params_load_combined(Graph *g, const char *file) {
  uint8_t *buf;
  size_t len, off = 0;
  if (read_file(file, &buf, &len))
    return diag_error("%s: cannot read parameter file: %s", file, strerror(errno));
  if (len == 0) return diag_error("%s: empty parameter file (%d parameters expected)", file, g->nparams);
  if (is_pickle(buf, len))
    return diag_error("%s: this is a Python pickle (paddle.save / fluid.save), not a tensor stream; "
                      "export the model with save_inference_model or paddle.jit.save", file);
  for (int i = 0; i < g->nparams; i++) {
    Var *v = &g->vars[g->params[i]];
    RtTensorHdr h;
    char why[160];
    RtStatus st = rt_tensor_parse(buf + off, len - off, &h, why, sizeof why);
    if (st == RT_ERR_TRUNCATED)
      return diag_error("%s: truncated at parameter '%s' (record %d of %d, byte %zu): %s", file,
                        v->name, i + 1, g->nparams, off, why);
    if (st)
      return diag_error("%s: bad record for parameter '%s' (record %d of %d, byte %zu): %s", file,
                        v->name, i + 1, g->nparams, off, why);
    if (check_record(g, v, file, buf + off, &h)) return -1;
    off += h.record_bytes;
  }
  if (off != len)
    return diag_error("%s: %zu trailing bytes after the last parameter '%s': the file holds more than "
                      "the program's %d parameters", file, len - off,
                      g->nparams ? g->vars[g->params[g->nparams - 1]].name : "", g->nparams);
  g->params_file = file;
  g->params_status = pool_printf("complete: %d tensors read from %s, file fully consumed", g->nparams, file);
  return 0;
}

int params_load_dir(Graph *g, const char *dir) {
  int missing = 0, bad = 0;
  const char **paths = pool_alloc(((size_t)g->nparams + 1) * sizeof *paths);
  for (int i = 0; i < g->nparams; i++) {
    struct stat st;
    paths[i] = path_join(dir, g->vars[g->params[i]].name);
    if (stat(paths[i], &st) != 0) missing++;
  }
  if (missing == g->nparams) {
    g->params_status = pool_printf("not found: no combined file and none of the %d per-variable files in %s",
                                   g->nparams, dir);
    return 0;
  }
  for (int i = 0; i < g->nparams; i++) {
    Var *v = &g->vars[g->params[i]];
    uint8_t *buf;
    size_t len;
    if (read_file(paths[i], &buf, &len)) {
      diag_error("%s: missing parameter file for variable '%s' (%s)", paths[i], v->name, strerror(errno));
      bad = 1;
      continue;
    }
    RtTensorHdr h;
    char why[160];
    if (rt_tensor_parse(buf, len, &h, why, sizeof why)) {
      diag_error("%s: bad record for parameter '%s': %s", paths[i], v->name, why);
      bad = 1;
      continue;
    }
    if (check_record(g, v, paths[i], buf, &h)) {
      bad = 1;
      continue;
    }
    if (h.record_bytes != len) {
      diag_error("%s: %zu trailing bytes after the record of parameter '%s'", paths[i],
                 len - (size_t)h.record_bytes, v->name);
      bad = 1;
    }
  }
  if (bad) return -1;
  g->params_dir = dir;
  g->params_status = pool_printf("complete: %d per-variable files in %s", g->nparams, dir);
  return 0;
}
