/* paddlec command line: `inspect` and `graph` (compile/build come with code
 * generation).  User errors exit 1, internal errors exit 2. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "dot.h"
#include "infer.h"
#include "inspect.h"
#include "load.h"
#include "util.h"

#define PADDLEC_VERSION "0.1.0"

static const char usage[] =
    "usage: paddlec COMMAND MODEL [options]\n"
    "\n"
    "MODEL is a .pdmodel / __model__ file, or a directory holding one\n"
    "(__model__, *.pdmodel or model) with its parameters.\n"
    "\n"
    "commands:\n"
    "  inspect MODEL [--params F] [--no-params] [--ops] [--json]\n"
    "        summary: Paddle version, feeds, fetches, op histogram, parameters,\n"
    "        shape inference, ops paddlec cannot compile yet\n"
    "  graph MODEL -o FILE.dot [--params F] [--no-params]\n"
    "        the data-flow graph in Graphviz DOT (render: dot -Tsvg FILE.dot)\n"
    "  version    print the version\n"
    "\n"
    "parameters are found next to the program: PREFIX.pdiparams, __params__,\n"
    "params, a single *.pdiparams, or one file per variable (Paddle 1.x).\n";

typedef struct Args {
  const char *cmd;     /* sub-command */
  const char *model;   /* MODEL path */
  const char *out;     /* -o */
  LoadOpts load;       /* --params, --no-params */
  InspectOpts inspect; /* --ops, --json */
} Args;

static int parse_args(int argc, char **argv, Args *a) {
  memset(a, 0, sizeof *a);
  a->cmd = argv[1];
  for (int i = 2; i < argc; i++) {
    const char *s = argv[i];
    if (!strcmp(s, "--params") || !strcmp(s, "-o")) {
      if (i + 1 >= argc) return diag_error("%s needs a value", s);
      if (!strcmp(s, "-o")) a->out = argv[++i];
      else a->load.params = argv[++i];
    } else if (!strcmp(s, "--no-params")) {
      a->load.no_params = 1;
    } else if (!strcmp(s, "--ops")) {
      a->inspect.ops = 1;
    } else if (!strcmp(s, "--json")) {
      a->inspect.json = 1;
    } else if (s[0] == '-' && s[1]) {
      return diag_error("unknown option '%s' (see paddlec --help)", s);
    } else if (!a->model) {
      a->model = s;
    } else {
      return diag_error("unexpected argument '%s'", s);
    }
  }
  if (!a->model) return diag_error("%s: no MODEL given (see paddlec --help)", a->cmd);
  return 0;
}

static int load_and_infer(const Args *a, Graph *g, InferReport *r) {
  errno = 0;
  if (load_model(a->model, &a->load, g)) return -1;
  return infer_program(g, r);
}

static int cmd_inspect(const Args *a) {
  Graph g;
  InferReport r;
  int bad = load_and_infer(a, &g, &r);
  if (g.pd && !bad) inspect_print(&g, &r, &a->inspect);
  graph_free(&g);
  return bad || diag_count() ? 1 : 0;
}

static int cmd_graph(const Args *a) {
  if (!a->out) return diag_error("graph: give the output file with -o FILE.dot"), 1;
  Graph g;
  InferReport r;
  int bad = load_and_infer(a, &g, &r);
  if (!bad) {
    FILE *f = fopen(a->out, "w");
    if (!f) bad = diag_error("%s: cannot write: %s", a->out, strerror(errno));
    else {
      if (dot_write(&g, f)) bad = diag_error("%s: write failed", a->out);
      if (fclose(f)) bad = diag_error("%s: write failed: %s", a->out, strerror(errno));
    }
  }
  graph_free(&g);
  return bad ? 1 : 0;
}

int main(int argc, char **argv) {
  int rc;
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    fputs(usage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 1 : 0;
  }
  if (!strcmp(argv[1], "version") || !strcmp(argv[1], "--version")) {
    printf("paddlec %s\n", PADDLEC_VERSION);
    return 0;
  }
  Args a;
  if (strcmp(argv[1], "inspect") && strcmp(argv[1], "graph")) {
    diag_error("unknown command '%s' (commands: inspect, graph, version)", argv[1]);
    return 1;
  }
  if (parse_args(argc, argv, &a)) return 1;
  rc = !strcmp(a.cmd, "inspect") ? cmd_inspect(&a) : cmd_graph(&a);
  pool_release();
  return rc;
}
