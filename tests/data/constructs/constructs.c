#include <mpi.h>
/* Every MPI construct issue 41 names that SimGrid's TI tracer records, on 4 ranks. */
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, n; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &n);
  double b[4][100], c[4][100];
  MPI_Request rq[8]; MPI_Status st[8];
  int right = (rank + 1) % n, left = (rank + n - 1) % n;
  /* partial waitall: sends only, then the receives one by one */
  MPI_Irecv(c[0], 100, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &rq[0]);
  MPI_Irecv(c[1], 100, MPI_DOUBLE, right, 8, MPI_COMM_WORLD, &rq[1]);
  MPI_Isend(b[0], 100, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &rq[2]);
  MPI_Isend(b[1], 100, MPI_DOUBLE, left, 8, MPI_COMM_WORLD, &rq[3]);
  MPI_Waitall(2, &rq[2], st);
  MPI_Wait(&rq[1], st);
  MPI_Wait(&rq[0], st);
  /* MPI_ANY_SOURCE, blocking */
  if (rank == 0) {
    for (int i = 1; i < n; ++i) MPI_Recv(c[0], 10, MPI_DOUBLE, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, st);
  } else MPI_Send(b[0], 10, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD);
  /* MPI_ANY_SOURCE and MPI_ANY_TAG, waitany */
  if (rank == 0) {
    for (int i = 1; i < n; ++i) MPI_Irecv(c[i-1], 5, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &rq[i-1]);
    int idx; for (int i = 1; i < n; ++i) MPI_Waitany(n-1, rq, &idx, st);
  } else MPI_Send(b[0], 5, MPI_INT, 0, 10 + rank, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);  /* no later message for the MPI_ANY_TAG receives */
  /* test, then wait */
  MPI_Irecv(c[0], 100, MPI_DOUBLE, left, 9, MPI_COMM_WORLD, &rq[0]);
  MPI_Isend(b[0], 100, MPI_DOUBLE, right, 9, MPI_COMM_WORLD, &rq[1]);
  int flag = 0; MPI_Test(&rq[0], &flag, st);
  MPI_Waitall(2, rq, st);
  /* persistent requests started one by one */
  MPI_Send_init(b[0], 100, MPI_DOUBLE, right, 4, MPI_COMM_WORLD, &rq[0]);
  MPI_Recv_init(c[0], 100, MPI_DOUBLE, left, 4, MPI_COMM_WORLD, &rq[1]);
  for (int it = 0; it < 2; ++it) { MPI_Start(&rq[1]); MPI_Start(&rq[0]); MPI_Wait(&rq[0], st); MPI_Wait(&rq[1], st); }
  MPI_Request_free(&rq[0]); MPI_Request_free(&rq[1]);
  /* probe */
  if (rank == 1) MPI_Send(b[0], 20, MPI_DOUBLE, 2, 5, MPI_COMM_WORLD);
  if (rank == 2) { MPI_Probe(MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, st); int cnt; MPI_Get_count(st, MPI_DOUBLE, &cnt); MPI_Recv(c[0], cnt, MPI_DOUBLE, st[0].MPI_SOURCE, 5, MPI_COMM_WORLD, st); }
  /* point to point on a sub-communicator */
  MPI_Comm sub; MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &sub);
  int sr; MPI_Comm_rank(sub, &sr);
  if (sr == 0) MPI_Send(b[0], 3, MPI_DOUBLE, 1, 6, sub); else if (sr == 1) MPI_Recv(c[0], 3, MPI_DOUBLE, 0, 6, sub, st);
  /* non-blocking collectives */
  MPI_Ibcast(b[0], 10, MPI_DOUBLE, 0, MPI_COMM_WORLD, &rq[0]);
  MPI_Iallreduce(b[1], c[1], 10, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rq[1]);
  MPI_Waitall(2, rq, st);
  MPI_Ibarrier(MPI_COMM_WORLD, rq); MPI_Wait(rq, st);
  /* sendrecv_replace, ssend, issend */
  MPI_Sendrecv_replace(b[0], 50, MPI_DOUBLE, right, 11, left, 11, MPI_COMM_WORLD, st);
  if (rank == 0) MPI_Ssend(b[0], 1, MPI_DOUBLE, 1, 12, MPI_COMM_WORLD);
  if (rank == 1) MPI_Recv(c[0], 1, MPI_DOUBLE, 0, 12, MPI_COMM_WORLD, st);
  if (rank == 0) { MPI_Issend(b[0], 1, MPI_DOUBLE, 1, 14, MPI_COMM_WORLD, rq); MPI_Wait(rq, st); }
  if (rank == 1) MPI_Recv(c[0], 1, MPI_DOUBLE, 0, 14, MPI_COMM_WORLD, st);
  MPI_Finalize();
  return 0;
}
