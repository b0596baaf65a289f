// Speed of the search on the paper's case: CG-64 on the FX10 box 2x2x2x2x3x2.
//   FullSchedule/<objective>: the paper's whole schedule (T0 10, T_end 1e-8, 2,500 trials per
//     temperature, cooling 0.9: 492,500 trials) without early stop; counter trials_per_second.
//     tac3_default_model: the same with the machine file's four engines per node (what `map`
//     runs by default), on the engine `map` picks and on the general one.
//   Move/<objective>: one trial's work on the incremental engine: a random move proposed and
//     discarded (a rejected trial; no early rejection, as at a high temperature).
//   FullEvaluation: the reference evaluator on one mapping, i.e. what a trial would cost
//     without incremental evaluation; the baseline the Move figures are compared with.
//   Move walked routes: the same moves with the route cache off (what large boxes use).
#include <benchmark/benchmark.h>

#include <sstream>

#include "tac3map/base/random.hpp"
#include "tac3map/gen/cg_pattern.hpp"
#include "tac3map/io/trace.hpp"
#include "tac3map/search/annealer.hpp"
#include "tac3map/search/incremental.hpp"
#include "tac3map/search/incremental_compact.hpp"
#include "tac3map/search/incremental_general.hpp"

namespace tac3map {
namespace {

struct Cg64 {
  Machine machine = loadMachine(std::string(TAC3MAP_SOURCE_DIR) + "/topologies/fx10.json");
  Box box = makeBox(machine, "2x2x2x2x3x2");
  Problem problem = generateCgProblem(CgOptions{});  // 64 ranks, the paper's model
  // The machine file's model, what `map` uses by default: four engines per node.
  Problem problemDefaultModel = generateCgProblem(CgOptions{}, makeModel(machine));
};

// The paper's model, or the machine file's.
enum class CgModel { Paper, MachineFile };

const Cg64& cg64() {
  static const Cg64 instance;
  return instance;
}

void FullSchedule(benchmark::State& state, ObjectiveKind kind, Tac3Engine engine,
                  CgModel model = CgModel::Paper) {
  const Cg64& cg = cg64();
  const Problem& problem = model == CgModel::Paper ? cg.problem : cg.problemDefaultModel;
  const Network router(cg.machine, cg.box);
  Schedule schedule;
  schedule.earlyStop = false;
  schedule.tac3Engine = engine;
  std::uint64_t trials = 0;
  for (auto _ : state) {
    const SearchResult r = anneal(problem, router, kind, identityMapping(64, cg.box), schedule, 1);
    trials += r.trials;
    benchmark::DoNotOptimize(r.best.nodeOfTask.data());
  }
  state.counters["trials_per_second"] =
      benchmark::Counter(static_cast<double>(trials), benchmark::Counter::kIsRate);
}
BENCHMARK_CAPTURE(FullSchedule, tac3, ObjectiveKind::Tac3, Tac3Engine::Auto)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(FullSchedule, tac3_general_engine, ObjectiveKind::Tac3, Tac3Engine::General)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(FullSchedule, tac3_default_model, ObjectiveKind::Tac3, Tac3Engine::Auto,
                  CgModel::MachineFile)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(FullSchedule, tac3_default_model_general_engine, ObjectiveKind::Tac3,
                  Tac3Engine::General, CgModel::MachineFile)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(FullSchedule, tahb, ObjectiveKind::Tahb, Tac3Engine::Auto)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(FullSchedule, rmatt_o2f, ObjectiveKind::RmattO2f, Tac3Engine::Auto)
    ->Unit(benchmark::kMillisecond);

template <class Engine>
void Move(benchmark::State& state, std::size_t cacheBudget) {
  const Cg64& cg = cg64();
  const Network router(cg.machine, cg.box, cacheBudget);
  Engine engine(cg.problem, router, randomMapping(64, cg.box, 1));
  Rng rng(2);
  for (auto _ : state) {
    const int task = static_cast<int>(rng.below(64));
    const int from = engine.placement().nodeOf(task);
    int node = static_cast<int>(rng.below(cg.box.nodeCount - 1));
    if (node >= from) ++node;
    engine.propose(task, node, [] { return 1e308; });
    benchmark::DoNotOptimize(engine.proposedValue());
    engine.discard();
  }
}
void MoveTac3(benchmark::State& state, std::size_t budget) {
  Move<Tac3Objective>(state, budget);
}
void MoveTac3Compact(benchmark::State& state) {
  Move<CompactTac3Objective>(state, Network::kDefaultCacheBudget);
}
void MoveTahb(benchmark::State& state) {
  Move<TahbObjective>(state, Network::kDefaultCacheBudget);
}
void MoveRmatt(benchmark::State& state) {
  Move<RmattObjective>(state, Network::kDefaultCacheBudget);
}
BENCHMARK_CAPTURE(MoveTac3, cached_routes, Network::kDefaultCacheBudget);
BENCHMARK_CAPTURE(MoveTac3, walked_routes, std::size_t{0});
BENCHMARK(MoveTac3Compact);
BENCHMARK(MoveTahb);
BENCHMARK(MoveRmatt);

void FullEvaluation(benchmark::State& state) {
  const Cg64& cg = cg64();
  const Network router(cg.machine, cg.box);
  const Mapping mapping = randomMapping(64, cg.box, 1);
  for (auto _ : state) benchmark::DoNotOptimize(evaluateExact(cg.problem, router, mapping));
}
BENCHMARK(FullEvaluation);

}  // namespace
}  // namespace tac3map

BENCHMARK_MAIN();
