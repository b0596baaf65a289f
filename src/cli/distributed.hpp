// Scale-out of the annealing chains over MPI processes (`mpirun -n P tac3map map ...`).
// Process r runs chains r, r + P, r + 2P, ... (each with its own threads); rank 0 gathers every
// chain's summary, picks the winner exactly as one process would (lowest objective, then
// lowest chain index) and receives the winning mapping. The result therefore equals the
// single-process run with the same --chains and --seed. Without MPI (not built with it, or not
// launched by an MPI launcher) this is annealChains in one process.
#pragma once

#include "tac3map/search/annealer.hpp"

namespace tac3map::cli {

// MPI_Init when the process was started by an MPI launcher (Open MPI, MPICH/PMI, PMIx
// environment), MPI_Finalize at the end; a no-op otherwise.
class MpiSession {
 public:
  MpiSession(int* argc, char*** argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  static bool active();
  static int rank();  // 0 when not active
  static int size();  // 1 when not active
};

// On rank 0: every chain's result in chain order (the best mapping only for the winner);
// on other ranks: their own chains only, `best` meaningless.
ChainsResult annealChainsEverywhere(const Problem& problem, const Network& router,
                                    ObjectiveKind objective, const Mapping& initial,
                                    const Schedule& schedule, std::uint64_t seed, int chains,
                                    int threads, Progress* progress,
                                    const ExactScores* initialScores = nullptr);

}  // namespace tac3map::cli
