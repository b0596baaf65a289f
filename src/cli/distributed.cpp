#include "distributed.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>

#include "tac3map/io/error.hpp"
#include "tac3map/search/refiner.hpp"

#ifdef TAC3MAP_HAVE_MPI
#include <mpi.h>
#endif

namespace tac3map::cli {
namespace {

bool gActive = false;
int gRank = 0, gSize = 1;

#ifdef TAC3MAP_HAVE_MPI
bool launchedByMpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(name)) return true;
  return false;
}

// A chain's summary as fixed-width integers, so that processes exchange plain arrays.
constexpr int kFields = 16;
const char* const kStops[] = {"schedule", "lower-bound", "time-limit", "nothing-to-optimize"};

// The refiner as its place in refiners() (every process has the same list).
std::uint64_t refinerIndex(const std::string& name) {
  std::uint64_t i = 0;
  while (i < refiners().size() && name != refiners()[i]->name()) ++i;
  return i;
}

void pack(int index, const SearchResult& r, std::uint64_t* out) {
  std::uint64_t stop = 0;
  while (stop < 4 && r.stopped != kStops[stop]) ++stop;
  std::uint64_t secondsBits;
  std::memcpy(&secondsBits, &r.seconds, sizeof secondsBits);
  const ExactScores& s = r.bestScores;
  const std::uint64_t fields[kFields] = {static_cast<std::uint64_t>(index),
                                         r.trials,
                                         r.accepted,
                                         secondsBits,
                                         stop,
                                         s.tac3ByteCounts,
                                         s.lowerBoundBytes,
                                         s.tahbByteHops,
                                         s.maxLinkBytes,
                                         s.totalBytes,
                                         static_cast<std::uint64_t>(s.maxLinkMessages),
                                         s.tac3Scale,
                                         s.sharedPairs,
                                         r.tieBreakMoves,
                                         refinerIndex(r.refiner),
                                         static_cast<std::uint64_t>(r.levels)};
  std::memcpy(out, fields, sizeof fields);
}

SearchResult unpack(const std::uint64_t* in) {
  SearchResult r;
  r.trials = in[1];
  r.accepted = in[2];
  std::memcpy(&r.seconds, &in[3], sizeof r.seconds);
  r.stopped = in[4] < 4 ? kStops[in[4]] : "unknown";
  ExactScores& s = r.bestScores;
  s.tac3ByteCounts = in[5];
  s.lowerBoundBytes = in[6];
  s.tahbByteHops = in[7];
  s.maxLinkBytes = in[8];
  s.totalBytes = in[9];
  s.maxLinkMessages = static_cast<int>(in[10]);
  s.tac3Scale = in[11];
  s.sharedPairs = in[12];
  r.tieBreakMoves = in[13];
  r.refiner = in[14] < refiners().size() ? refiners()[in[14]]->name() : "unknown";
  r.levels = static_cast<int>(in[15]);
  return r;
}
#endif

}  // namespace

MpiSession::MpiSession(int* argc, char*** argv) {
#ifdef TAC3MAP_HAVE_MPI
  if (!launchedByMpi()) return;
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &gRank);
  MPI_Comm_size(MPI_COMM_WORLD, &gSize);
  gActive = true;
#else
  (void)argc;
  (void)argv;
#endif
}

MpiSession::~MpiSession() {
#ifdef TAC3MAP_HAVE_MPI
  if (gActive) MPI_Finalize();
#endif
}

bool MpiSession::active() {
  return gActive;
}
int MpiSession::rank() {
  return gRank;
}
int MpiSession::size() {
  return gSize;
}

ChainsResult annealChainsEverywhere(const Problem& problem, const Network& router,
                                    ObjectiveKind objective, const Mapping& initial,
                                    const Schedule& schedule, std::uint64_t seed, int chains,
                                    int threads, Progress* progress,
                                    const ExactScores* initialScores) {
  if (!gActive || gSize == 1)
    return annealChains(problem, router, objective, initial, schedule, seed, chains, threads,
                        progress, initialScores);
#ifdef TAC3MAP_HAVE_MPI
  if (chains < 1) throw InputError("--chains must be at least 1");
  const auto start = std::chrono::steady_clock::now();
  std::vector<int> mine;
  for (int i = gRank; i < chains; i += gSize) mine.push_back(i);
  ChainsResult local;
  local.chains = annealChainSubset(problem, router, objective, initial, schedule, seed, mine,
                                   threads, progress, initialScores);

  // Everyone's summaries to rank 0.
  std::vector<std::uint64_t> packed(mine.size() * kFields);
  for (std::size_t k = 0; k < mine.size(); ++k)
    pack(mine[k], local.chains[k], &packed[k * kFields]);
  std::vector<int> counts(gSize), displacements(gSize);
  for (int r = 0; r < gSize; ++r) {
    counts[r] = (chains - r + gSize - 1) / gSize * kFields;  // chains r, r+P, ... < chains
    if (counts[r] < 0) counts[r] = 0;
    displacements[r] = r == 0 ? 0 : displacements[r - 1] + counts[r - 1];
  }
  std::vector<std::uint64_t> all(gRank == 0 ? static_cast<std::size_t>(chains) * kFields : 0);
  MPI_Gatherv(packed.data(), static_cast<int>(packed.size()), MPI_UINT64_T, all.data(),
              counts.data(), displacements.data(), MPI_UINT64_T, 0, MPI_COMM_WORLD);

  ChainsResult result;
  int winner = 0;
  if (gRank == 0) {
    result.chains.resize(chains);
    for (int k = 0; k < chains; ++k) {
      const std::uint64_t* fields = &all[static_cast<std::size_t>(k) * kFields];
      result.chains[fields[0]] = unpack(fields);
    }
    std::vector<ExactScores> scores;
    for (const SearchResult& chain : result.chains) scores.push_back(chain.bestScores);
    winner = static_cast<int>(winningChain(scores, objective));
    result.best = static_cast<std::size_t>(winner);
  }
  MPI_Bcast(&winner, 1, MPI_INT, 0, MPI_COMM_WORLD);

  // The winning mapping to rank 0.
  const int owner = winner % gSize;
  const int tasks = initial.tasks();
  const bool slotted = problem.model.ranksPerNode > 1;  // the best mapping then has slots
  if (owner == gRank) {
    const Mapping& best = local.chains[static_cast<std::size_t>(winner / gSize)].best;
    if (gRank == 0)
      result.chains[winner].best = best;
    else {
      MPI_Send(best.nodeOfTask.data(), tasks, MPI_INT, 0, 0, MPI_COMM_WORLD);
      if (slotted) MPI_Send(best.slotOfTask.data(), tasks, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
  } else if (gRank == 0) {
    Mapping& best = result.chains[winner].best;
    best.nodeOfTask.resize(tasks);
    MPI_Recv(best.nodeOfTask.data(), tasks, MPI_INT, owner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (slotted) {
      best.slotOfTask.resize(tasks);
      MPI_Recv(best.slotOfTask.data(), tasks, MPI_INT, owner, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return gRank == 0 ? result : local;
#else
  return {};
#endif
}

}  // namespace tac3map::cli
