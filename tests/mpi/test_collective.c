/* runtime/rt_collective.c under mpirun -np 3 (tests/test_collective.py):
 * each check's expected values are worked out by hand in its comment.
 * Prints "ok" on rank 0 when every rank passed; exits 1 otherwise. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "rt.h"
#include "rt_collective.h"

static int failed;

static void check(int ok, const char *what, int rank) {
  if (!ok) {
    fprintf(stderr, "rank %d: %s\n", rank, what);
    failed = 1;
  }
}

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  int rank, size;
  rt_coll_world(&rank, &size);
  if (size != 3) {
    fprintf(stderr, "run with mpirun -np 3 (got %d)\n", size);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  /* a sum in rank order: (1 + 1e8) rounds to 1e8 in float32, + (-1e8) = 0;
   * from the last rank down, (-1e8 + 1e8) + 1 would give 1 */
  const float big[3] = {1.0f, 1e8f, -1e8f};
  float f = big[rank];
  rt_coll_reduce(&f, 1, RT_DT_FP32, RT_COLL_SUM, -1);
  check(f == 0.0f, "float32 sum in rank order ((1 + 1e8) + -1e8 = 0)", rank);
  /* int64 element-wise: x_r = {r, 10 - r}: sum {0+1+2, 10+9+8} = {3, 27},
   * max {2, 10}, min {0, 8}, prod of {r + 1, 2} = {1*2*3, 2*2*2} = {6, 8} */
  int64_t s[2] = {rank, 10 - rank}, mx[2] = {rank, 10 - rank}, mn[2] = {rank, 10 - rank}, pr[2] = {rank + 1, 2};
  rt_coll_reduce(s, 2, RT_DT_INT64, RT_COLL_SUM, -1);
  rt_coll_reduce(mx, 2, RT_DT_INT64, RT_COLL_MAX, -1);
  rt_coll_reduce(mn, 2, RT_DT_INT64, RT_COLL_MIN, -1);
  rt_coll_reduce(pr, 2, RT_DT_INT64, RT_COLL_PROD, -1);
  check(s[0] == 3 && s[1] == 27, "int64 sum {3, 27}", rank);
  check(mx[0] == 2 && mx[1] == 10, "int64 max {2, 10}", rank);
  check(mn[0] == 0 && mn[1] == 8, "int64 min {0, 8}", rank);
  check(pr[0] == 6 && pr[1] == 8, "int64 prod {6, 8}", rank);
  /* c_reduce_sum to root 1: float64 x_r = 0.5 * (r + 1): 0.5 + 1 + 1.5 = 3
   * on rank 1; ranks 0 and 2 keep theirs (0.5, 1.5) */
  double d = 0.5 * (rank + 1);
  rt_coll_reduce(&d, 1, RT_DT_FP64, RT_COLL_SUM, 1);
  check(d == (rank == 1 ? 3.0 : 0.5 * (rank + 1)), "float64 reduce to root 1", rank);
  /* reduce max to root 2, the last rank: int32 x_r = 7 - r: 7 there */
  int32_t i32 = 7 - rank;
  rt_coll_reduce(&i32, 1, RT_DT_INT32, RT_COLL_MAX, 2);
  check(i32 == (rank == 2 ? 7 : 7 - rank), "int32 reduce max to root 2", rank);
  /* broadcast from root 2: every rank gets {20, 21, 22} */
  int32_t b[3] = {10 * rank, 10 * rank + 1, 10 * rank + 2};
  rt_coll_broadcast(b, sizeof b, 2);
  check(b[0] == 20 && b[1] == 21 && b[2] == 22, "broadcast from root 2", rank);
  /* allgather of {r, r + 0.5}: {0, 0.5, 1, 1.5, 2, 2.5} on every rank */
  float x[2] = {(float)rank, rank + 0.5f}, all[6];
  memset(all, 0, sizeof all);
  rt_coll_allgather(x, sizeof x, all);
  for (int i = 0; i < 6; i++) check(all[i] == 0.5f * (float)i, "allgather in rank order", rank);
  int bad = failed;
  MPI_Allreduce(&failed, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && !bad) printf("ok\n");
  MPI_Finalize();
  return bad ? 1 : 0;
}
