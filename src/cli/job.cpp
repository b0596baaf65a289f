#include "job.hpp"

#include <string>

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

Job::Job(const BoxInput& boxInput, const TraceInput& traceInput)
    : machine(loadMachine(boxInput.machine)),
      box(makeBox(machine, boxInput.shape, boxInput.offset)),
      trace(loadTrace(traceInput)),
      sets(ccsOf(trace, traceInput)),
      problem(makeProblem(sets)),
      router(machine, box) {
  checkTasksFit(sets.tasks, box, trace.source + ":" + std::to_string(trace.ranksLine));
  if (!boxInput.nodes.empty()) nodes = readNodeTable(boxInput.nodes, machine, box);
}

Mapping Job::mapping(const std::string& nameOrFile) const {
  return resolveMapping(nameOrFile, machine, box, sets.tasks, nodeTable());
}

}  // namespace tac3map::cli
