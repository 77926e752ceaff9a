/* Collectives between processes (rt_collective.h). */
#include "rt_collective.h"

#include <string.h>

#include "rt.h"
#include "rt_alloc.h"

#ifdef PADDLEC_MPI
#include <limits.h>
#include <mpi.h>
#endif

void rt_coll_world(int *rank, int *size) {
  *rank = 0;
  *size = 1;
#ifdef PADDLEC_MPI
  int on = 0, off = 0;
  MPI_Initialized(&on);
  MPI_Finalized(&off);
  if (on && !off) {
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
  }
#endif
}

#ifdef PADDLEC_MPI
enum { SEND, RECV, BCAST };

/* Sends, receives or broadcasts `bytes` bytes in pieces of at most INT_MAX
 * bytes (MPI counts are ints). */
static void message(int what, void *data, size_t bytes, int peer) {
  unsigned char *d = data;
  while (bytes > 0) {
    const int k = bytes > (size_t)INT_MAX ? INT_MAX : (int)bytes;
    if (what == SEND) MPI_Send(d, k, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
    else if (what == RECV) MPI_Recv(d, k, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else MPI_Bcast(d, k, MPI_BYTE, peer, MPI_COMM_WORLD);
    d += k;
    bytes -= (size_t)k;
  }
}

#define COMBINE(T)                                                              \
  do {                                                                          \
    T *a = acc;                                                                 \
    const T *b = x;                                                             \
    for (int64_t i = 0; i < n; i++)                                             \
      a[i] = op == RT_COLL_SUM   ? b[i] + a[i]                                  \
             : op == RT_COLL_PROD ? b[i] * a[i]                                 \
             : op == RT_COLL_MAX  ? (b[i] > a[i] ? b[i] : a[i])                 \
                                  : (b[i] < a[i] ? b[i] : a[i]);                \
  } while (0)

/* acc = acc (op) x, element-wise: acc holds the lower ranks' result. */
static void combine(void *acc, const void *x, int64_t n, int dtype, int op) {
  switch (dtype) {
    case RT_DT_FP32: COMBINE(float); break;
    case RT_DT_FP64: COMBINE(double); break;
    case RT_DT_INT32: COMBINE(int32_t); break;
    default: COMBINE(int64_t); break;
  }
}
#endif

void rt_coll_reduce(void *data, int64_t n, int dtype, int op, int root) {
  int rank, size;
  rt_coll_world(&rank, &size);
  if (size < 2 || n <= 0) return;
#ifdef PADDLEC_MPI
  /* a chain along the ranks: rank r receives ranks 0 .. r-1's result,
   * combines its own, passes it on; the last rank has the total */
  const size_t bytes = (size_t)n * rt_dtype_size(dtype);
  void *acc = rank > 0 ? rt_alloc(bytes) : data;
  if (!acc) MPI_Abort(MPI_COMM_WORLD, 1); /* no memory to receive into: every process stops */
  if (rank > 0) {
    message(RECV, acc, bytes, rank - 1);
    combine(acc, data, n, dtype, op);
  }
  if (rank + 1 < size) message(SEND, acc, bytes, rank + 1);
  const int last = size - 1;
  if (root < 0) {
    if (rank == last && acc != data) memcpy(data, acc, bytes);
    message(BCAST, data, bytes, last);
  } else if (root != last) {
    if (rank == last) message(SEND, acc, bytes, root);
    if (rank == root) message(RECV, data, bytes, last);
  } else if (rank == last) {
    memcpy(data, acc, bytes);
  }
  if (acc != data) rt_free(acc);
#else
  (void)data;
  (void)dtype;
  (void)op;
  (void)root;
#endif
}

void rt_coll_broadcast(void *data, size_t bytes, int root) {
  int rank, size;
  rt_coll_world(&rank, &size);
  if (size < 2 || !bytes) return;
#ifdef PADDLEC_MPI
  message(BCAST, data, bytes, root);
#else
  (void)data;
  (void)root;
#endif
}

void rt_coll_allgather(const void *x, size_t bytes, void *out) {
  int rank, size;
  rt_coll_world(&rank, &size);
  unsigned char *mine = (unsigned char *)out + (size_t)rank * bytes;
  if ((const void *)mine != x) memmove(mine, x, bytes);
  if (size < 2 || !bytes) return;
#ifdef PADDLEC_MPI
  for (int r = 0; r < size; r++) message(BCAST, (unsigned char *)out + (size_t)r * bytes, bytes, r);
#endif
}
