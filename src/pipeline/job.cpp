#include "tac3map/pipeline/job.hpp"

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>

#include "tac3map/io/error.hpp"
#include "tac3map/io/limits.hpp"
#include "tac3map/io/suggest.hpp"
#include "tac3map/io/trace_formats.hpp"
#include "tac3map/mapping/mapping_names.hpp"

namespace tac3map {

Trace loadTrace(const TraceInput& input, const RankLimit& ranks) {
  TraceOptions options;
  options.iteration = input.iteration;
  options.allowEmpty = input.allowEmpty;
  options.ranks = ranks;
  return readAnyTrace(input.trace, parseTraceFormat(input.format), options);
}

RankLimit jobRankLimit(const Box& box, int ranksPerNode) {
  RankLimit limit;
  limit.holder = boxCapacityText(box, ranksPerNode);
  const long long capacity = static_cast<long long>(box.nodeCount) * ranksPerNode;
  if (capacity > limits::kMaxJobRanks) {
    limit.most = limits::kMaxJobRanks;
    limit.holder += ", capped at tac3map's limit of ";
    limit.holder += std::to_string(limits::kMaxJobRanks);
    limit.holder += " ranks a job (docs/limits.md)";
  } else {
    limit.most = static_cast<int>(capacity);
  }
  return limit;
}

MpiProfile jobMpiProfile(const TraceInput& input, const Machine* machine) {
  if (!input.mpi.empty()) return loadMpiProfile(input.mpi);
  if (machine) return loadMpiProfile(machine->mpi, machine->source);
  return loadMpiProfile("openmpi");
}

CcsOptions ccsOptions(const TraceInput& input, const MpiProfile& mpi, int engines,
                      bool splitBeyondEngines) {
  CcsOptions options;
  options.engines = engines;
  options.splitBeyondEngines = splitBeyondEngines;
  options.eagerSends = input.eagerSends;
  options.eagerLimit = input.eagerLimit.value_or(mpi.eagerLimit);
  CollectiveAlgorithms byProfile;
  byProfile.rules = mpi.collectives;
  options.collectives = parseCollectiveAlgorithms(input.collectives, byProfile);
  return options;
}

CcsSet ccsOf(const Trace& trace, const TraceInput& input, const MpiProfile& mpi, int engines,
             bool splitBeyondEngines) {
  return extractCcs(trace, ccsOptions(input, mpi, engines, splitBeyondEngines));
}

CcsSet ccsOf(Trace&& trace, const TraceInput& input, const MpiProfile& mpi, int engines,
             bool splitBeyondEngines) {
  return extractCcs(std::move(trace), ccsOptions(input, mpi, engines, splitBeyondEngines));
}

Box jobBox(const Machine& machine, const BoxInput& input) {
  // With a node table (--nodes) the job may be any nodes of the machine: the box is all of it.
  const std::string shape = settingName("shape"), nodes = settingName("nodes");
  return machine.boxFor(input.shape, input.offset, !input.nodes.empty(),
                        shape + " is required (or " + nodes + ", for a job on any set of nodes)",
                        "choose its nodes with " + nodes + " FILE (node names), not " + shape +
                            "/" + settingName("offset"));
}

namespace {

// The fit check, before CCSs are extracted (an all-to-all's expansion grows with the square of
// the ranks). The readers already refuse ranks beyond jobRankLimit; this names the 'ranks' line.
const Trace& fitted(const Trace& trace, const Box& box, int ranksPerNode) {
  checkTasksFit(trace.ranks, box, trace.source + ":" + std::to_string(trace.ranksLine),
                ranksPerNode);
  return trace;
}

// The job's CCSs; with TraceEvents::Release, made from the trace expanded in place, whose
// events are then released.
CcsSet jobSets(Trace& trace, const Box& box, const Model& model, const TraceInput& input,
               const MpiProfile& mpi, bool splitBeyondEngines, TraceEvents events) {
  fitted(trace, box, model.ranksPerNode);
  if (events == TraceEvents::Keep)
    return ccsOf(trace, input, mpi, model.engines, splitBeyondEngines);
  return ccsOf(std::move(trace), input, mpi, model.engines, splitBeyondEngines);  // releases
}

// The machine's model with the MPI's software cost per message.
Model jobModel(const Machine& machine, const BoxInput& box, const MpiProfile& mpi) {
  Model model = makeModel(machine, box.engines, box.ranksPerNode > 0 ? box.ranksPerNode : 1,
                          parseOverlap(box.overlap));
  model.messageOverhead = mpi.messageOverhead;
  return model;
}

}  // namespace

Job::Job(const BoxInput& boxInput, const TraceInput& traceInput, TraceEvents events)
    : Job(JobContext{boxInput, loadMachine(boxInput.machine)}, traceInput, events) {}

Job::Job(const JobContext& context, const TraceInput& traceInput, TraceEvents events)
    : machine(context.machine),
      box(jobBox(machine, context.box)),
      mpi(jobMpiProfile(traceInput, &machine)),
      model(jobModel(machine, context.box, mpi)),
      trace(loadTrace(traceInput, jobRankLimit(box, model.ranksPerNode))),
      sets(jobSets(trace, box, model, traceInput, mpi, context.box.engineSets == "split",
                   events)),
      problem(makeProblem(sets, model)),
      router(machine, box) {
  checkScoreArithmetic(sets, model, router.longestRoute(), trace.source);
  if (!context.box.nodes.empty()) nodes = readNodeTable(context.box.nodes, machine, box);
  allocation = nodes && static_cast<int>(nodes->nodes.size()) < box.nodeCount
                   ? Allocation::ofNodes(nodes->nodes, box.nodeCount, model.ranksPerNode)
                   : Allocation::wholeBox(box.nodeCount, model.ranksPerNode);
  if (nodes) allocation.checkFits(sets.tasks, nodes->source);
}

Mapping Job::mapping(const std::string& nameOrFile, int coresPerNode) const {
  const RankMapOptions files{model.ranksPerNode, coresPerNode};
  if (allocation.isWholeBox())
    return resolveMapping(nameOrFile, machine, box, sets.tasks, nodeTable(), &files);
  const int tasks = sets.tasks;
  // Within a node table, names place ranks over the table's nodes in table order.
  if (nameOrFile == "identity" || nameOrFile == "block") return allocation.block(tasks);
  if (nameOrFile == "round-robin") return allocation.roundRobin(tasks);
  if (nameOrFile == "tofu-default")
    throw InputError("tofu-default needs a box; this job is the node table " + nodes->source);
  if (const auto seed = randomMappingSeed(nameOrFile)) return allocation.random(tasks, *seed);
  const Mapping m = resolveMapping(nameOrFile, machine, box, tasks, nodeTable(), &files);
  allocation.checkHolds(m, nameOrFile, nodes->source);
  return m;
}

ChosenStart Job::autoStart(ObjectiveKind objective, const Schedule& schedule, std::uint64_t seed,
                           const std::vector<int>& grid, Progress* progress) const {
  const StartContext context = startContext(grid);
  std::vector<std::pair<std::string, StartBuilder>> starts;
  for (const auto& mapper : initialMappers())
    if (mapper->whyNot(context).empty())
      starts.emplace_back(mapper->name(),
                          [&context, m = mapper.get()] { return m->build(context); });
  Schedule restricted = schedule;
  restricted.allocation = allocation;
  // The starts' share of the search's time (deadline.hpp); the main search gets the rest.
  restricted.deadline = schedule.until().share(kStartsShare);
  restricted.timeLimit = 0;
  return chooseStart(problem, router, objective, starts, restricted, seed, progress);
}

Mapping Job::start(const std::string& init, ObjectiveKind objective, const Schedule& schedule,
                   std::uint64_t seed, int coresPerNode, std::optional<ChosenStart>* chosen,
                   const std::vector<int>& grid, Progress* progress) const {
  if (init == "auto") {
    ChosenStart best = autoStart(objective, schedule, seed, grid, progress);
    Mapping mapping = best.best().mapping;
    if (chosen) *chosen = std::move(best);
    return mapping;
  }
  if (init == "random") return mapping("random:" + std::to_string(seed));
  // A start of initial_mapper.hpp's list that is not a mapping name (geometric, graph, ...);
  // mapping names and files go through mapping(), which knows node tables and rank-map files.
  if (const InitialMapper* mapper = isMappingName(init) ? nullptr : findInitialMapper(init)) {
    const StartContext context = startContext(grid);
    const std::string why = mapper->whyNot(context);
    if (!why.empty()) throw SettingError("init", " " + init + ": " + why);
    return mapper->build(context);
  }
  if (!isMappingName(init) && init.find_first_of("/.") == std::string::npos &&
      !std::filesystem::exists(init)) {
    std::vector<std::string> starts{"auto", "identity", "round-robin", "random", "tofu-default"};
    for (const auto& mapper : initialMappers())
      if (std::find(starts.begin(), starts.end(), mapper->name()) == starts.end())
        starts.push_back(mapper->name());
    std::string list;
    for (const std::string& name : starts) list += (list.empty() ? "" : ", ") + name;
    throw SettingError("init", " '" + init + "': neither a start (" + list +
                                   ", random:SEED) nor a mapping file" + didYouMean(init, starts));
  }
  return mapping(init, coresPerNode);
}

}  // namespace tac3map
