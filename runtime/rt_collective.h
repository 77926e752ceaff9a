/* Collectives between processes for the c_* ops of Paddle's collective
 * programs (compiler/ops/collective.c): every ring is MPI_COMM_WORLD of a
 * model built with PADDLEC_MPI (paddlec build --mpi, make MPI=1) running
 * under mpirun.  Without MPI, or before MPI_Init, there is one process and
 * each collective leaves the data as it is.  The calls of one program come
 * in the same order on every process (its collective kernels run one after
 * another, in program order), from any one thread at a time (the trainer
 * asks MPI for MPI_THREAD_SERIALIZED). */
#ifndef PADDLEC_RT_COLLECTIVE_H
#define PADDLEC_RT_COLLECTIVE_H

#include <stddef.h>
#include <stdint.h>

/* What c_allreduce_* and c_reduce_* combine with. */
enum { RT_COLL_SUM, RT_COLL_MAX, RT_COLL_MIN, RT_COLL_PROD };

/* This process's rank and the number of processes (0 and 1 without MPI). */
void rt_coll_world(int *rank, int *size);
/* data (n elements of dtype, RT_DT_FP32/FP64/INT32/INT64) combined over
 * the processes with `op` into every process's data (root < 0) or root's
 * alone (the others' left as they are).  Sums and products go in rank
 * order, ((x0 + x1) + x2) + ..., as the places of one process sum, so the
 * result is the same on every run. */
void rt_coll_reduce(void *data, int64_t n, int dtype, int op, int root);
/* root's `bytes` bytes of data to every process. */
void rt_coll_broadcast(void *data, size_t bytes, int root);
/* Every process's `bytes` bytes of x, in rank order, into out (size *
 * bytes bytes). */
void rt_coll_allgather(const void *x, size_t bytes, void *out);

#endif
