/* libtac3remap: runtime remapping of ranks (the paper's "virtual task reassignment"), for
 * when the launcher cannot place ranks. C API, usable from C, C++ and (through ISO_C_BINDING)
 * Fortran. docs/remap.md. */
#ifndef TAC3MAP_REMAP_H
#define TAC3MAP_REMAP_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Returns in *newcomm a communicator over the processes of `comm` whose rank k runs on the
 * node that `mapfile` (a tac3map coordinates mapping, `map -o` default format) gives task k;
 * processes without a task come after them. With several processes per node, the node's
 * processes in `comm` rank order are its local ranks 0, 1, ... and local rank s takes the
 * node's task in slot s (the map's slot column; without it, slots in file order). Collective
 * over `comm`. Each process finds its node's coordinates as tac3map-probe does (Fujitsu
 * coordinates, or TAC3MAP_NODE_COORDS, TAC3MAP_COORDS_BY_RANK, TAC3MAP_NODES). On any
 * disagreement between the map and the job (unreadable map, unknown node, more tasks than
 * processes, a task whose node or slot has no process) every process returns MPI_ERR_OTHER,
 * *newcomm = MPI_COMM_NULL, and rank 0 of `comm` prints each distinct problem once on stderr
 * (prefixed with the ranks that have it, unless all do: a bad map is one line). */
int tac3map_comm_remap(MPI_Comm comm, const char* mapfile, MPI_Comm* newcomm);

#ifdef __cplusplus
}
#endif

#endif
