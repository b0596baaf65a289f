#include "job.hpp"

#include <algorithm>
#include <charconv>
#include <string>

#include "tac3map/error.hpp"
#include "tac3map/random.hpp"
#include "tac3map/tofu_view.hpp"
#include "tac3map/trace_formats.hpp"

namespace tac3map::cli {

Trace loadTrace(const TraceInput& input) {
  TraceOptions options;
  options.iteration = input.iteration;
  return readAnyTrace(input.trace, parseTraceFormat(input.format), options);
}

CcsSet ccsOf(const Trace& trace, const TraceInput& input) {
  CcsOptions options;
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
      trace(loadTrace(traceInput)),
      sets(ccsOf(trace, traceInput)),
      problem(makeProblem(sets)),
      router(machine, box),
      ranksPerNode(boxInput.ranksPerNode) {
  checkTasksFit(sets.tasks, box, trace.source + ":" + std::to_string(trace.ranksLine),
                ranksPerNode);
  if (!boxInput.nodes.empty()) nodes = readNodeTable(boxInput.nodes, machine, box);
  if (nodes && static_cast<int>(nodes->nodes.size()) < box.nodeCount) {
    allowed = nodes->nodes;
    if (sets.tasks > static_cast<int>(allowed.size()))
      failIn(nodes->source, std::to_string(sets.tasks) + " tasks do not fit on its " +
                                std::to_string(allowed.size()) + " nodes (one task per node)");
  }
}

Mapping Job::mapping(const std::string& nameOrFile, int coresPerNode) const {
  const RankMapOptions files{ranksPerNode, coresPerNode};
  if (allowed.empty())
    return resolveMapping(nameOrFile, machine, box, sets.tasks, nodeTable(), &files);
  const int tasks = sets.tasks;
  if (nameOrFile == "identity")
    return Mapping{std::vector<int>(allowed.begin(), allowed.begin() + tasks)};
  if (nameOrFile == "tofu-default")
    throw InputError("tofu-default needs a box; this job is the node table " + nodes->source);
  if (nameOrFile.rfind("random:", 0) == 0) {  // Fisher-Yates over the table's nodes
    const std::string digits = nameOrFile.substr(7);
    std::uint64_t seed = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), seed);
    if (digits.empty() || error != std::errc() || end != digits.data() + digits.size())
      throw InputError("mapping name '" + nameOrFile + "': expected random:SEED, SEED an integer");
    std::vector<int> pool = allowed;
    Rng rng(seed);
    for (std::size_t i = pool.size() - 1; i > 0; --i) std::swap(pool[i], pool[rng.below(i + 1)]);
    return Mapping{std::vector<int>(pool.begin(), pool.begin() + tasks)};
  }
  const Mapping m = resolveMapping(nameOrFile, machine, box, tasks, nodeTable(), &files);
  for (int task = 0; task < tasks; ++task)
    if (nodes->position[m.nodeOfTask[task]] < 0)
      failIn(nameOrFile,
             "task " + std::to_string(task) + " is on a node that is not in " + nodes->source);
  return m;
}

}  // namespace tac3map::cli
