#include "job.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "tac3map/error.hpp"
#include "tac3map/tofu_view.hpp"
#include "tac3map/trace_formats.hpp"

namespace tac3map::cli {

Trace loadTrace(const TraceInput& input) {
  TraceOptions options;
  options.iteration = input.iteration;
  return readAnyTrace(input.trace, parseTraceFormat(input.format), options);
}

CcsSet ccsOf(const Trace& trace, const TraceInput& input, int engines, bool splitBeyondEngines) {
  CcsOptions options;
  options.engines = engines;
  options.splitBeyondEngines = splitBeyondEngines;
  options.eagerSends = input.eagerSends;
  options.collectives = parseCollectiveAlgorithms(input.collectives);
  return extractCcs(trace, options);
}

namespace {

// Without --shape, a node table alone makes the job: the box is the whole machine.
Box jobBox(const Machine& machine, const BoxInput& input) {
  if (!input.shape.empty()) return makeBox(machine, input.shape, input.offset);
  if (input.nodes.empty())
    throw InputError("--shape is required (or --nodes, for a job on any set of nodes)");
  return makeBox(machine, machine.shapeText(), "");
}

}  // namespace

Job::Job(const BoxInput& boxInput, const TraceInput& traceInput)
    : machine(loadMachine(boxInput.machine)),
      box(jobBox(machine, boxInput)),
      model(makeModel(machine, boxInput.engines, boxInput.ranksPerNode,
                      parseOverlap(boxInput.overlap))),
      trace(loadTrace(traceInput)),
      sets(ccsOf(trace, traceInput, model.engines, boxInput.engineSets == "split")),
      problem(makeProblem(sets, model)),
      router(machine, box) {
  checkTasksFit(sets.tasks, box, trace.source + ":" + std::to_string(trace.ranksLine),
                model.ranksPerNode);
  if (!boxInput.nodes.empty()) nodes = readNodeTable(boxInput.nodes, machine, box);
  if (nodes && static_cast<int>(nodes->nodes.size()) < box.nodeCount) {
    allowed = nodes->nodes;
    if (sets.tasks > static_cast<long long>(allowed.size()) * model.ranksPerNode)
      failIn(nodes->source, std::to_string(sets.tasks) + " tasks do not fit on its " +
                                std::to_string(allowed.size()) + " nodes (" +
                                std::to_string(model.ranksPerNode) + " per node)");
  }
}

Mapping Job::mapping(const std::string& nameOrFile, int coresPerNode) const {
  const int k = model.ranksPerNode;
  const RankMapOptions files{k, coresPerNode};
  if (allowed.empty())
    return resolveMapping(nameOrFile, machine, box, sets.tasks, nodeTable(), &files);
  const int tasks = sets.tasks;
  // Within a node table, names place ranks over the table's nodes in table order (node i of
  // the placement is the table's i-th node).
  const auto onTable = [&](Mapping m) {
    for (int& node : m.nodeOfTask) node = allowed[node];
    return m;
  };
  if (nameOrFile == "identity" || nameOrFile == "block") return onTable(blockPlacement(tasks, k));
  if (nameOrFile == "round-robin") return onTable(roundRobinPlacement(tasks, k));
  if (nameOrFile == "tofu-default")
    throw InputError("tofu-default needs a box; this job is the node table " + nodes->source);
  if (const auto seed = randomMappingSeed(nameOrFile))
    return onTable(randomPlacement(tasks, static_cast<int>(allowed.size()), *seed, k));
  const Mapping m = resolveMapping(nameOrFile, machine, box, tasks, nodeTable(), &files);
  for (int task = 0; task < tasks; ++task)
    if (nodes->position[m.nodeOfTask[task]] < 0)
      failIn(nameOrFile,
             "task " + std::to_string(task) + " is on a node that is not in " + nodes->source);
  return m;
}

ChosenStart Job::autoStart(ObjectiveKind objective, const Schedule& schedule,
                           std::uint64_t seed) const {
  std::vector<std::pair<std::string, Mapping>> starts;
  std::vector<std::string> names = {"identity"};
  if (model.ranksPerNode > 1) names.push_back("round-robin");
  names.push_back("tofu-default");
  for (const std::string& name : names) {
    try {
      starts.emplace_back(name, mapping(name));
    } catch (const InputError&) {
      // not a Tofu box, or a node table: the logical view does not apply
    }
  }
  Schedule restricted = schedule;
  restricted.allowedNodes = allowed;
  return chooseStart(problem, router, objective, starts, restricted, seed);
}

Mapping Job::start(const std::string& init, ObjectiveKind objective, const Schedule& schedule,
                   std::uint64_t seed, int coresPerNode, std::optional<ChosenStart>* chosen) const {
  if (init == "auto") {
    ChosenStart best = autoStart(objective, schedule, seed);
    Mapping mapping = best.best().mapping;
    if (chosen) *chosen = std::move(best);
    return mapping;
  }
  if (init == "random") return mapping("random:" + std::to_string(seed));
  return mapping(init, coresPerNode);
}

}  // namespace tac3map::cli
