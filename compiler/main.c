/* paddlec command line: inspect, graph, compile, build.  User errors exit 1,
 * internal errors exit 2. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sys/wait.h>
#include <unistd.h>

#include "codegen.h"
#include "data_parallel.h"
#include "diag.h"
#include "ir_text.h"
#include "dot.h"
#include "infer.h"
#include "inspect.h"
#include "load.h"
#include "ops/ops.h"
#include "rt_blocking.h"
#include "target.h"
#include "train.h"
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
    "  compile MODEL -o DIR [--params F] [--name PREFIX] [--shape NAME=d0,d1,..]\n"
    "          [--max-shape NAME=d0,d1,..] [--embed-weights] [--blas=openblas|none]\n"
    "          [--exec-strategy K=V,...] [--march=CPU]\n"
    "        C sources: PREFIX.h, PREFIX.c, main.c, Makefile, PREFIX.cmake, the\n"
    "        runtime in paddlec_rt/, and PREFIX.pdiparams (or PREFIX_weights.c);\n"
    "        --march: lay prepared weights out for that CPU (the sources run\n"
    "        on any; build them for it); --max-shape: the most each dim of\n"
    "        tensor NAME may hold where the run gives its size (a shape fed; a\n"
    "        feed with -1 dims that neither option names: size classes)\n"
    "        --max-iterations N: the most trips of a loop only the data ends,\n"
    "        whose iterations a trainer keeps for its grad (more stop the run)\n"
    "  build MODEL -o BIN [compile options] [--march=CPU]\n"
    "        compile into BIN_src/ and build the standalone binary BIN with $CC\n"
    "        (default clang) for -march=CPU (default native); weights in BIN.pdiparams\n"
    "  build MAIN -o TRAINER --startup STARTUP.pdmodel [--feed a,b] [--loss NAME]\n"
    "        [--fetch v,...] [--mpi] [--eval TEST.pdmodel]   a training program\n"
    "        (backward and optimizer ops) becomes a trainer: feeds are its data\n"
    "        vars, fetch 0 its loss; the startup program initializes the state\n"
    "        (see README, Training); --eval: the evaluation program\n"
    "        (clone(for_test=True)) runs on the trainer's state (--eval-every K);\n"
    "        it trains on CPU places with --places N or CPU_NUM=N, and with\n"
    "        --mpi (OpenMPI) on processes: mpirun -np P TRAINER ...\n"
    "  opt MODEL [pass options]\n"
    "        run the passes and print the IR (MODEL may be IR text, see README)\n"
    "  strategy   list the BuildStrategy and ExecutionStrategy fields and what\n"
    "             each does\n"
    "  ops        list every op type paddlec knows: shape rule, and whether it\n"
    "             compiles to C\n"
    "  version    print the version\n"
    "\n"
    "pass options (compile, build, opt):\n"
    "  --build-strategy K=V,...   BuildStrategy fields by Paddle's names\n"
    "  --build-strategy-file F    the same from a JSON object\n"
    "  --ir-optim=true|false      inference fusions on unless turned off (default true)\n"
    "  --passes=P,P|none          run exactly these passes (debugging)\n"
    "  --verify-each              verify the IR after every pass\n"
    "  --dump-after=P,P|all       print the IR after these passes\n"
    "  --dump-memplan             print the memory plan (compile, build)\n"
    "\n"
    "run options (compile, build): defaults baked into the generated code,\n"
    "which its API and the standalone binary's --exec-strategy override:\n"
    "  --exec-strategy K=V,...    ExecutionStrategy fields by Paddle's names\n"
    "                             (num_threads, num_iteration_per_run, ...)\n"
    "  --exec-strategy-file F     the same from a JSON object\n"
    "\n"
    "parameters are found next to the program: PREFIX.pdiparams, __params__,\n"
    "params, a single *.pdiparams, or one file per variable (Paddle 1.x).\n";

#define MAX_SHAPES 32

typedef struct Args {
  const char *cmd;     /* sub-command */
  const char *model;   /* MODEL path */
  const char *out;     /* -o */
  LoadOpts load;       /* --params, --no-params */
  InspectOpts inspect; /* --ops, --json */
  CompileOpts compile; /* --name, --embed-weights, --blas, --shape */
  ShapeArg shapes[MAX_SHAPES]; /* --shape values */
  ShapeArg max_shapes[MAX_SHAPES]; /* --max-shape values */
  const char *march;   /* --march (build: default native; compile: NULL unless given) */
  const char *startup; /* --startup: a training program's startup program */
  const char *eval;    /* --eval: its evaluation program (clone(for_test=True)) */
  TrainOpts train;     /* --feed, --loss, --fetch */
  int ir_optim_given;  /* --ir-optim appeared */
} Args;

static int parse_args(int argc, char **argv, Args *a) {
  memset(a, 0, sizeof *a);
  a->cmd = argv[1];
  a->compile.prefix = "model";
  a->compile.blas = 1;
  pipeline_defaults(&a->compile.pipe);
  exec_strategy_defaults(&a->compile.es);
  a->compile.shapes = a->shapes;
  a->compile.max_shapes = a->max_shapes;
  for (int i = 2; i < argc; i++) {
    const char *s = argv[i];
    PipelineOpts *po = &a->compile.pipe;
    if (!strcmp(s, "--params") || !strcmp(s, "-o") || !strcmp(s, "--name") || !strcmp(s, "--shape") ||
        !strcmp(s, "--max-shape") || !strcmp(s, "--max-iterations") ||
        !strcmp(s, "--build-strategy") || !strcmp(s, "--build-strategy-file") || !strcmp(s, "--exec-strategy") ||
        !strcmp(s, "--exec-strategy-file") || !strcmp(s, "--startup") || !strcmp(s, "--eval") || !strcmp(s, "--feed") ||
        !strcmp(s, "--loss") || !strcmp(s, "--fetch")) {
      if (i + 1 >= argc) return diag_error("%s needs a value", s);
      const char *v = argv[++i];
      if (!strcmp(s, "--build-strategy")) {
        if (strategy_parse(&po->bs, v)) return -1;
      } else if (!strcmp(s, "--build-strategy-file")) {
        if (strategy_load_file(&po->bs, v)) return -1;
      } else if (!strcmp(s, "--exec-strategy")) {
        if (exec_strategy_parse(&a->compile.es, v)) return -1;
      } else if (!strcmp(s, "--exec-strategy-file")) {
        if (exec_strategy_load_file(&a->compile.es, v)) return -1;
      } else if (!strcmp(s, "--startup")) a->startup = v;
      else if (!strcmp(s, "--eval")) a->eval = v;
      else if (!strcmp(s, "--feed")) a->train.feeds = v;
      else if (!strcmp(s, "--loss")) a->train.loss = v;
      else if (!strcmp(s, "--fetch")) a->train.fetch = v;
      else if (!strcmp(s, "-o")) a->out = v;
      else if (!strcmp(s, "--name")) a->compile.prefix = v;
      else if (!strcmp(s, "--params")) a->load.params = v;
      else if (!strcmp(s, "--max-iterations")) {
        char *end;
        errno = 0;
        const long long n = strtoll(v, &end, 10);
        if (errno || *end || n < 1 || n > 1000000)
          return diag_error("--max-iterations: expected a count from 1 to 1000000, not '%s'", v);
        a->compile.max_iterations = n;
      } else if (!strcmp(s, "--max-shape")) {
        if (a->compile.nmax_shapes >= MAX_SHAPES) return diag_error("too many --max-shape options");
        if (spec_parse_shape_arg(s, v, &a->max_shapes[a->compile.nmax_shapes++])) return -1;
      } else if (a->compile.nshapes >= MAX_SHAPES) return diag_error("too many --shape options");
      else if (spec_parse_shape_arg(s, v, &a->shapes[a->compile.nshapes++])) return -1;
    } else if (!strncmp(s, "--blas=", 7)) {
      if (strcmp(s + 7, "openblas") && strcmp(s + 7, "none"))
        return diag_error("--blas: expected openblas or none, not '%s'", s + 7);
      a->compile.blas = !strcmp(s + 7, "openblas");
    } else if (!strncmp(s, "--march=", 8)) {
      a->march = s + 8;
    } else if (!strncmp(s, "--ir-optim=", 11)) {
      if (strcmp(s + 11, "true") && strcmp(s + 11, "false"))
        return diag_error("--ir-optim: expected true or false, not '%s'", s + 11);
      po->ir_optim = !strcmp(s + 11, "true");
      a->ir_optim_given = 1;
    } else if (!strncmp(s, "--passes=", 9)) {
      po->passes = s + 9;
    } else if (!strncmp(s, "--dump-after=", 13)) {
      po->dump_after = s + 13;
    } else if (!strcmp(s, "--verify-each")) {
      po->verify_each = 1;
    } else if (!strcmp(s, "--dump-memplan")) {
      a->compile.dump_memplan = 1;
    } else if (!strcmp(s, "--memory")) {
      a->inspect.memory = 1;
    } else if (!strcmp(s, "--embed-weights")) {
      a->compile.embed_weights = 1;
    } else if (!strcmp(s, "--mpi")) {
      a->compile.mpi = 1;
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
  return pipeline_check_names(&a->compile.pipe);
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
  CompileOpts co = a->compile;
  /* a training program: as build compiles it (setup_training) */
  co.training = g.pd && !bad && train_is_training(&g) && !g.nfeeds && !g.nfetches;
  co.pipe.explicit_only |= co.training;
  if (co.training) bad = train_setup(&g, &a->train);
  InspectOpts io = a->inspect;
  io.bs = &co.pipe.bs;
  if (g.pd && !bad) inspect_print(&g, &r, &io);
  if (g.pd && !bad && a->inspect.memory) bad = inspect_memory(&g, &co);
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

static const char *command_line(int argc, char **argv) {
  const char *c = "paddlec";
  for (int i = 1; i < argc; i++) c = pool_printf("%s %s", c, argv[i]);
  return c;
}

/* A training program: its feeds and loss (train_setup), no inference
 * passes unless asked for, its startup program loaded into *sg and its
 * evaluation program into *eg. */
static int setup_training(const Args *a, Graph *g, Graph *sg, Graph *eg, CompileOpts *o) {
  /* a program with feed and fetch ops (one the Executor prepared, or a test
   * fetching gradients) runs as saved: each run one pass over its ops */
  o->training = train_is_training(g) && !g->nfeeds && !g->nfetches;
  if (!o->training) {
    if (a->startup || a->eval || a->train.feeds || a->train.loss || a->train.fetch || o->mpi)
      return diag_error("%s: --startup, --eval, --feed, --loss, --fetch and --mpi are for training programs; this one has "
                        "no backward or optimizer op, or has feed and fetch ops", g->file);
    return 0;
  }
  if (a->ir_optim_given && o->pipe.ir_optim)
    return diag_error("%s: --ir-optim=true: the inference passes are not applied to training programs", g->file);
  o->pipe.explicit_only = 1;
  /* Paddle trains a program with its Executor, one op after another, where
   * CPU_NUM plays no part: num_threads 1 unless given */
  if (!o->es.num_threads) o->es.num_threads = 1;
  if (train_setup(g, &a->train)) return -1;
  LoadOpts lo = {.no_params = 1};
  InferReport r;
  if (a->eval) {
    if (load_model(a->eval, &lo, eg) || infer_program(eg, &r)) return -1;
    o->eval = eg;
  }
  if (!a->startup) return dp_rings(g, NULL);
  if (load_model(a->startup, &lo, sg) || infer_program(sg, &r)) return -1;
  if (train_is_training(sg)) return diag_error("%s: --startup: this is a training program, not a startup program", sg->file);
  o->startup = sg;
  return dp_rings(g, sg);
}

static int cmd_compile(const Args *a, const char *out_dir) {
  Graph g, sg = {0}, eg = {0};
  InferReport r;
  int bad = load_and_infer(a, &g, &r);
  CompileOpts o = a->compile;
  o.out_dir = out_dir;
  if (!bad) bad = setup_training(a, &g, &sg, &eg, &o);
  if (!bad) bad = codegen_compile(&g, &o);
  if (sg.pd) graph_free(&sg);
  if (eg.pd) graph_free(&eg);
  graph_free(&g);
  return bad ? 1 : 0;
}

static int cmd_opt(const Args *a) {
  Graph g;
  InferReport r;
  const char *ran;
  int bad = load_and_infer(a, &g, &r);
  if (!bad) bad = pipeline_run(&g, &a->compile.pipe, &ran);
  if (!bad) ir_dump(&g, stdout);
  graph_free(&g);
  return bad ? 1 : 0;
}

/* Runs argv, waits; returns its exit status (or -1). */
static int run_cmd(char *const argv[]) {
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    execvp(argv[0], argv);
    _exit(127);
  }
  int st;
  if (waitpid(pid, &st, 0) < 0) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int copy_file(const char *from, const char *to, int exec) {
  uint8_t *data;
  size_t len;
  if (read_file(from, &data, &len)) return diag_error("%s: cannot read: %s", from, strerror(errno));
  FILE *f = fopen(to, "wb");
  if (!f || fwrite(data, 1, len, f) != len || fclose(f)) return diag_error("%s: cannot write", to);
  if (exec && chmod(to, 0755)) return diag_error("%s: cannot make executable", to);
  return 0;
}

static int cmd_build(const Args *a) {
  const char *src = pool_printf("%s_src", a->out);
  if (cmd_compile(a, src)) return 1;
  const char *cc = getenv("CC");
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  char *argv[] = {"make", "-s", pool_printf("-j%ld", cpus > 0 ? cpus : 1), "-C", (char *)src,
                  pool_printf("CC=%s", cc && *cc ? cc : "clang"),
                  pool_printf("ARCH=%s", *a->march ? pool_printf("-march=%s", a->march) : ""),
                  pool_printf("BLAS=%s", a->compile.blas ? "openblas" : "none"),
                  pool_printf("MPI=%d", a->compile.mpi), (char *)a->compile.prefix, NULL};
  int st = run_cmd(argv);
  if (st) return diag_error("%s: building the generated code failed (make exited %d)", src, st), 1;
  if (copy_file(path_join(src, a->compile.prefix), a->out, 1)) return 1;
  if (!a->compile.embed_weights && !access(path_join(src, pool_printf("%s.pdiparams", a->compile.prefix)), F_OK) &&
      copy_file(path_join(src, pool_printf("%s.pdiparams", a->compile.prefix)), pool_printf("%s.pdiparams", a->out), 0))
    return 1;
  return 0;
}

int main(int argc, char **argv) {
  int rc;
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    fputs(usage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 1 : 0;
  }
  if (!strcmp(argv[1], "ops")) {
    int n = op_def_count(), compiled = 0;
    for (int i = 0; i < n; i++) {
      const OpDef *d = op_def_at(i);
      compiled += d->emit_c != NULL;
      const char *ign = "", *aign = "";
      for (const char *const *s = d->ignores; s && *s; s++) ign = pool_printf("%s%s%s", ign, *ign ? ", " : "", *s);
      for (const char *const *s = d->attr_ignores; s && *s; s++)
        aign = pool_printf("%s%s%s", aign, *aign ? ", " : "", *s);
      printf("%-48s %s%s%s%s%s\n", d->type, d->emit_c ? "shape rule, C" : "shape rule", *ign ? "; ignores " : "", ign,
             *aign ? "; ignores attributes " : "", aign);
    }
    printf("%d op types: %d compile to C, %d have a shape rule only\n", n, compiled, n - compiled);
    return 0;
  }
  if (!strcmp(argv[1], "version") || !strcmp(argv[1], "--version")) {
    printf("paddlec %s\n", PADDLEC_VERSION);
    return 0;
  }
  if (!strcmp(argv[1], "strategy")) {
    strategy_print_table();
    return 0;
  }
  static Args a;
  const char *cmds[] = {"inspect", "graph", "compile", "build", "opt"};
  int cmd = -1;
  for (int i = 0; i < 5; i++)
    if (!strcmp(argv[1], cmds[i])) cmd = i;
  if (cmd < 0) {
    diag_error("unknown command '%s' (commands: inspect, graph, compile, build, opt, ops, strategy, version)",
               argv[1]);
    return 1;
  }
  if (parse_args(argc, argv, &a)) return 1;
  if (cmd == 3 && !a.march) a.march = "native";
  const char *cc = getenv("CC");
  a.compile.pp_panel = cmd == 2 || cmd == 3 ? target_pp_panel(cc && *cc ? cc : "clang", a.march) : RT_PP_PANEL_NARROW;
  a.compile.command = command_line(argc, argv);
  if ((cmd == 2 || cmd == 3) && !a.out) {
    diag_error("%s: give the output with -o %s", a.cmd, cmd == 2 ? "DIR" : "BIN");
    return 1;
  }
  switch (cmd) {
    case 0: rc = cmd_inspect(&a); break;
    case 1: rc = cmd_graph(&a); break;
    case 2: rc = cmd_compile(&a, a.out); break;
    case 3: rc = cmd_build(&a); break;
    default: rc = cmd_opt(&a); break;
  }
  pool_release();
  return rc;
}
