/* Data parallelism (DESIGN.md section 6c): a trainer runs on N places as
 * Paddle's ParallelExecutor runs CompiledProgram.with_data_parallel.
 *
 * A training program's ops fall in two parts by their op_role
 * (framework/op_proto_maker.h): part A, forward and backward, which every
 * place runs on its share of the batch; part B, the optimizer and
 * learning-rate ops, which run on the gradients summed across the places.
 * Every place would end part B with the same values (AllReduce: every
 * place runs it on the same sums), so a trainer runs part B once, on place
 * 0, whose state the places share; what part A writes to persistable vars
 * (batch_norm's running statistics) stays per place, as Paddle's local
 * scopes keep it. */
#ifndef PADDLEC_DATA_PARALLEL_H
#define PADDLEC_DATA_PARALLEL_H

#include "graph.h"

/* 1 when op is in part B (its op_role has the Optimize or LRSched bit).  An
 * op a pass or cond_inline made takes the role of the op it was made from
 * (the one at its provenance, or the first it fused). */
int dp_part_b(const Graph *g, const Op *op);
/* Moves block 0's part-B ops after its part-A ops, keeping each part's
 * order, when no part-A op that follows a part-B op reads or writes what
 * it writes, or writes what it reads (the learning-rate ops Paddle's
 * optimizers put before the backward); else leaves the order as it is and
 * returns the reason, in pool memory (NULL when done). */
const char *dp_order(Graph *g);
/* The gradients the places sum: the (parameter, gradient) pairs of the
 * op_role_var attribute of block 0's Backward-role ops, as Paddle's
 * MultiDevSSAGraphBuilderBase::ApplyImpl finds them
 * (ir/multi_devices_graph_pass/multi_devices_graph_pass.cc), program order,
 * each once; those the program has no var for are left out.  Returns the
 * count; *ids (pool memory) their var ids. */
int dp_grads(const Graph *g, int **ids);
/* Why the program cannot run under reduce_strategy Reduce on several
 * places, in pool memory (NULL: it can).  Paddle's ReduceSSAGraphBuilder
 * runs each optimizer op only on the place that owns its gradient
 * (multi_devices_graph_pass.cc, GetOpDeviceID), which needs one (parameter,
 * gradient) op_role_var pair per optimizer op, a gradient the backward
 * names, and no vars passed between the ops of different gradients (global
 * norm clipping's). */
const char *dp_reduce_why(const Graph *g);
/* 1 when block 0 has collective ops (c_allreduce_sum, ...: a program of
 * Paddle's collective training, which sums its gradients across processes
 * itself and scales loss@GRAD by 1/nranks itself); *nranks: the processes
 * it is written for, by its startup program's c_comm_init ops or its
 * c_allgather ops (0: none says; dp_rings() checked they agree). */
int dp_collective(const Graph *g, int *nranks);
/* The rings of a collective program g and of its startup program st (NULL
 * when none was given).  Ring 0 is every process; another ring is every
 * process too when the startup's c_comm_init makes it with the nranks of
 * every other ring (what GradAllReduce(nrings > 1) writes:
 * distributed/transpiler/collective.py _init_communicator), and the
 * trainer checks that so many processes run it.  Rings of different sizes
 * are groups of model or pipeline parallelism, refused here (0 or -1,
 * errors printed); sets coll_rings and coll_nranks of g and st. */
int dp_rings(Graph *g, Graph *st);

#endif
