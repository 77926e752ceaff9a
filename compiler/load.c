/* Locating and decoding a saved program (see load.h). */
#include "load.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diag.h"
#include "ir_text.h"
#include "loop_unread.h"
#include "util.h"
#include "while_steps.h"

static int is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return pool_strdup(".");
  if (slash == path) return pool_strdup("/");
  char *d = pool_strdup(path);
  d[slash - path] = 0;
  return d;
}

/* The unique file in dir ending with suffix: 1 found (in *out), 0 none,
 * -1 several (error printed). */
static int find_suffix(const char *dir, const char *suffix, char **out) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  const char **hits = NULL;
  int n = 0, cap = 0;
  for (struct dirent *e; (e = readdir(d));)
    if (ends_with(e->d_name, suffix) && strlen(e->d_name) > strlen(suffix))
      VEC_PUSH(hits, n, cap, pool_strdup(e->d_name));
  closedir(d);
  if (n == 0) return 0;
  qsort(hits, (size_t)n, sizeof *hits, cmp_bytes);
  if (n > 1) {
    diag_error("%s: %d files end in %s (%s, %s%s); name the one to use", dir, n, suffix,
               hits[0], hits[1], n > 2 ? ", ..." : "");
    return -1;
  }
  *out = path_join(dir, hits[0]);
  return 1;
}

/* Picks the program file inside a model directory. */
static char *find_program(const char *dir) {
  char *p = path_join(dir, "__model__");
  if (is_file(p)) return p;
  int r = find_suffix(dir, ".pdmodel", &p);
  if (r == 1) return p;
  if (r < 0) return NULL;
  p = path_join(dir, "model");
  if (is_file(p)) return p;
  diag_error("%s: no Paddle model in this directory (looked for __model__, *.pdmodel, model)", dir);
  return NULL;
}

/* Explains bytes that are not a ProgramDesc when we can tell what they are. */
static const char *what_is(const uint8_t *b, size_t n) {
  if (n >= 2 && b[0] == 0x80 && b[1] <= 5) return " (it is a Python pickle, e.g. a .pdparams written by paddle.save)";
  size_t i = 0;
  while (i < n && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) i++;
  if (i < n && b[i] == '{') return " (it looks like JSON; a Paddle 3 PIR .json program is not supported yet: re-save it with FLAGS_enable_pir_api=0)";
  return "";
}

static uint64_t hash_bytes(const uint8_t *b, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

/* Decodes the program in `file`: a ProgramDesc, or IR text (ir_text.h),
 * whose parameter values go to *ir. */
static ProgramDesc *decode(const char *file, uint64_t *hash, IrParams **ir) {
  uint8_t *bytes;
  size_t len;
  if (read_file(file, &bytes, &len)) {
    diag_error("%s: cannot read: %s", file, strerror(errno));
    return NULL;
  }
  if (len == 0) {
    diag_error("%s: empty file, not a Paddle program", file);
    return NULL;
  }
  *hash = hash_bytes(bytes, len);
  if (ir_text_detect(bytes, len)) {
    char *text = pool_alloc(len + 1);
    memcpy(text, bytes, len);
    if (ir_text_parse(text, file, &bytes, &len, ir)) return NULL;
  }
  ProgramDesc *pd = paddlec__fw__program_desc__unpack(NULL, len, bytes);
  if (!pd) {
    diag_error("%s: not a Paddle ProgramDesc: protobuf decoding failed (truncated or not a program)%s",
               file, what_is(bytes, len));
    return NULL;
  }
  if (pd->n_blocks == 0 || !pd->blocks[0]) {
    diag_error("%s: not a Paddle ProgramDesc: it decodes to a program with no blocks%s", file,
               what_is(bytes, len));
    paddlec__fw__program_desc__free_unpacked(pd, NULL);
    return NULL;
  }
  return pd;
}

/* The parameter values written in IR text; each parameter needs one. */
static int bind_ir_params(Graph *g, const IrParams *ir) {
  if (ir_text_bind_params(g, ir)) return -1;
  g->params_status = "given in the IR text";
  int bad = 0;
  for (int i = 0; i < g->nparams; i++)
    if (!(g->vars[g->params[i]].flags & VAR_LOADED))
      bad = diag_error("%s: parameter '%s' has no value (write '= rand(SEED)', '= fill(V)' or '= [v, ...]')", g->file,
                       g->vars[g->params[i]].name);
  if (!bad) g->params_file = g->file;
  return bad ? -1 : 0;
}

/* Finds a combined parameter file next to the program, or NULL. */
static char *find_combined(const char *program, const char *dir, int *bad) {
  if (ends_with(program, ".pdmodel")) {
    char *p = pool_printf("%.*s.pdiparams", (int)(strlen(program) - 8), program);
    if (is_file(p)) return p;
  }
  const char *names[] = {"__params__", "params"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    char *p = path_join(dir, names[i]);
    if (is_file(p)) return p;
  }
  char *p;
  int r = find_suffix(dir, ".pdiparams", &p);
  if (r < 0) *bad = 1;
  return r == 1 ? p : NULL;
}

int load_model(const char *path, const LoadOpts *o, Graph *g) {
  memset(g, 0, sizeof *g);
  if (!is_dir(path) && !is_file(path)) {
    diag_error("%s: %s", path, errno ? strerror(errno) : "not a file or directory");
    return -1;
  }
  const char *program = is_dir(path) ? find_program(path) : pool_strdup(path);
  if (!program) return -1;
  const char *dir = is_dir(path) ? path : dir_of(program);
  uint64_t hash = 0;
  IrParams *ir = NULL;
  ProgramDesc *pd = decode(program, &hash, &ir);
  if (!pd) return -1;
  if (graph_build(g, pd, program)) {
    graph_free(g);
    return -1;
  }
  g->file_hash = hash;
  loop_drop_unread(g);
  while_steps_link(g);
  if (ir) return bind_ir_params(g, ir);
  g->params_status = "not loaded (--no-params)";
  if (o->no_params) return 0;
  if (g->nparams == 0) {
    g->params_status = "none (the program has no parameters)";
    return 0;
  }
  if (o->params) return params_load_combined(g, o->params);
  int bad = 0;
  char *combined = find_combined(program, dir, &bad);
  if (bad) return -1;
  if (combined) return params_load_combined(g, combined);
  return params_load_dir(g, dir);
}
