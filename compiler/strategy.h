/* Paddle's BuildStrategy and ExecutionStrategy, under Paddle's field names,
 * with Paddle's defaults (paddle.static.BuildStrategy() and
 * ExecutionStrategy() of Paddle 2.6), and what each field does in paddlec
 * (`paddlec strategy` prints the tables).
 *
 * Options come from `--build-strategy key=value,...` and
 * `--build-strategy-file F.json` (an object with the same keys), and the
 * same for `--exec-strategy`; booleans are true/false (also 1/0,
 * True/False), enums take Paddle's member names (`AllReduce`,
 * `ReduceStrategy.Reduce`) or their numbers, lists are written `[a;b]` on
 * the command line and as JSON arrays in a file.  An unknown key or a bad
 * value is an error that lists the valid keys or values. */
#ifndef PADDLEC_STRATEGY_H
#define PADDLEC_STRATEGY_H

#include <stdint.h>

enum { STRATEGY_MAX_LIST = 32 };

typedef struct StrList {
  int n;                                /* entries */
  const char *v[STRATEGY_MAX_LIST];     /* the strings */
} StrList;

typedef struct BuildStrategy {
  /* fusions (passes/) */
  int fuse_elewise_add_act_ops;   /* elementwise_add + activation -> one loop */
  int fuse_bn_act_ops;            /* batch_norm + activation -> one kernel */
  int fuse_bn_add_act_ops;        /* batch_norm + elementwise_add + activation */
  int fuse_relu_depthwise_conv;   /* relu read by depthwise_conv2d, applied in the conv */
  int fuse_gemm_epilogue;         /* mul/matmul + bias + activation -> GEMM epilogue */
  int fused_attention;            /* multi-head attention -> one kernel sequence */
  int fused_feedforward;          /* linear + act + linear + residual (+ layer_norm) */
  int enable_auto_fusion;         /* element-wise chains -> one loop */
  int build_cinn_pass;            /* paddlec: the same as enable_auto_fusion */
  /* memory */
  int memory_optimize;            /* share the arena by lifetime; -1 = None (Paddle: on) */
  int enable_inplace;             /* outputs reuse a dying input's buffer */
  int enable_addto;               /* gradient accumulation in place (training) */
  /* order */
  int enable_sequential_execution; /* run ops in program order */
  int sequential_run;             /* the same, Paddle's newer name */
  int fix_op_run_order;           /* program order (paddlec never reorders) */
  /* multi-device and training: validated now, used by those features */
  int reduce_strategy;            /* 0 AllReduce, 1 Reduce, 2 _NoReduce */
  int gradient_scale_strategy;    /* 0 CoeffNumDevice, 1 One, 2 Customized */
  int fuse_all_reduce_ops;        /* one all-reduce over many gradients */
  int fuse_broadcast_ops;         /* one broadcast over many parameters (Reduce) */
  int sync_batch_norm;            /* batch_norm statistics across devices */
  int fuse_adamw;                 /* one AdamW over every parameter */
  int fuse_all_optimizer_ops;     /* one optimizer op per optimizer type */
  int enable_backward_optimizer_op_deps; /* order optimizer ops after the backward */
  int num_trainers;               /* processes taking part */
  int trainer_id;                 /* this process's rank */
  StrList trainers_endpoints;     /* ip:port of every trainer */
  int nccl_comm_num;              /* NCCL communicators */
  int bkcl_comm_num;              /* BKCL (Kunlun) communicators */
  int use_hierarchical_allreduce; /* two-level all-reduce */
  int hierarchical_allreduce_inter_nranks; /* ranks per node for it */
  int is_distribution;            /* a distributed (fleet) program */
  int async_mode;                 /* asynchronous parameter-server training */
  /* accepted; no meaning in generated code */
  int remove_unnecessary_lock;    /* locks around ops (paddlec has none) */
  int cache_runtime_context;      /* executor run-time contexts (none) */
  int allow_cuda_graph_capture;   /* CUDA graph capture (generated code is plain) */
  StrList mkldnn_enabled_op_types; /* oneDNN kernels (paddlec has its own) */
  const char *debug_graphviz_path; /* DOT of the graph before/after passes ("" none) */
  uint64_t set;                   /* bit i: field i of the table set explicitly */
} BuildStrategy;

/* Paddle's ExecutionStrategy: how the compiled model runs.  These are the
 * defaults baked into the generated code (`--exec-strategy`,
 * `--exec-strategy-file`); the generated API and the standalone binary
 * override them at run time. */
typedef struct ExecStrategy {
  int num_threads;                  /* ops at once; 0 = Paddle's default (CPU_NUM, else 1) */
  int num_iteration_per_run;        /* iterations per run call */
  int num_iteration_per_drop_scope; /* iterations between drops of the temporaries */
  int allow_op_delay;               /* accepted, no effect */
  int use_experimental_executor;    /* accepted, no effect */
  int use_thread_barrier;           /* accepted, no effect */
  uint64_t set;                     /* bit i: field i set explicitly */
} ExecStrategy;

/* Paddle's defaults. */
void strategy_defaults(BuildStrategy *bs);
void exec_strategy_defaults(ExecStrategy *es);
/* "key=value,..." and JSON files, as for BuildStrategy.  Returns 0 or -1. */
int exec_strategy_parse(ExecStrategy *es, const char *text);
int exec_strategy_load_file(ExecStrategy *es, const char *path);
/* Sets one field from text; `origin` names where it came from for errors
 * ("--build-strategy", "F.json").  Returns 0 or -1 (error printed). */
int strategy_set(BuildStrategy *bs, const char *key, const char *value, const char *origin);
/* "key=value,key=value" (lists as [a;b]).  Returns 0 or -1. */
int strategy_parse(BuildStrategy *bs, const char *text);
/* A JSON object file with the same keys.  Returns 0 or -1. */
int strategy_load_file(BuildStrategy *bs, const char *path);
/* The same from a parsed JSON value (what the file readers do after
 * json_read_file); `origin` names it in errors.  Returns 0 or -1. */
struct JsonValue;
int strategy_apply_json(BuildStrategy *bs, const struct JsonValue *root, const char *origin);
int exec_strategy_apply_json(ExecStrategy *es, const struct JsonValue *root, const char *origin);
/* 1 when `key` was set explicitly (by strategy_set). */
int strategy_is_set(const BuildStrategy *bs, const char *key);
/* Prints every field of both: name, type, Paddle's default, what it does in
 * paddlec. */
void strategy_print_table(void);
/* The pass fields that are on, comma-separated, for the banner. */
const char *strategy_summary(const BuildStrategy *bs);

#endif
