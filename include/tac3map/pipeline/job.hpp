// A job: machine, box, trace, CCSs and routes, read and checked once; what `map`, `score`,
// `sweep` and a program embedding the library map and score (map_job.hpp).
#pragma once

#include <atomic>
#include <mutex>
#include <optional>

#include "tac3map/initial/initial_mapper.hpp"
#include "tac3map/io/trace.hpp"
#include "tac3map/mapping/allocation.hpp"
#include "tac3map/mapping/mapping.hpp"
#include "tac3map/mapping/rankmap.hpp"
#include "tac3map/model/ccs.hpp"
#include "tac3map/model/flow.hpp"
#include "tac3map/model/model.hpp"
#include "tac3map/model/mpi_profile.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/model/timeline.hpp"
#include "tac3map/network/machine.hpp"
#include "tac3map/network/network.hpp"
#include "tac3map/pipeline/choose_start.hpp"
#include "tac3map/pipeline/inputs.hpp"
#include "tac3map/pipeline/job_context.hpp"

namespace tac3map {

// The trace of --trace/--trace-format/--iteration, refused as soon as it names more ranks than
// `ranks` (the global limit of a trace read without a box, or a job's capacity).
Trace loadTrace(const TraceInput& input, const RankLimit& ranks = {});
// The ranks a job can hold: its box's nodes (a graph machine's compute nodes) times the ranks
// per node, known before the trace is read, so the readers refuse a larger trace at the line
// that declares or names too many ranks, before sizing anything per rank.
RankLimit jobRankLimit(const Box& box, int ranksPerNode);
// The job's box from --machine's machine and --shape/--offset: without --shape, a node table
// alone makes the job and the box is the whole machine; a graph machine has no box (its
// compute nodes, or those of --nodes) and refuses --shape.
Box jobBox(const Machine& machine, const BoxInput& input);
// The MPI the job runs (docs/mpi-profiles.md): --mpi's, else the machine file's, else (a
// command without a machine) Open MPI's.
MpiProfile jobMpiProfile(const TraceInput& input, const Machine* machine);
// The CCS options of a trace read under `mpi` (its eager limit and collectives, --eager-limit
// and --collectives on top).
CcsOptions ccsOptions(const TraceInput& input, const MpiProfile& mpi, int engines = 1,
                      bool splitBeyondEngines = false);
CcsSet ccsOf(const Trace& trace, const TraceInput& input, const MpiProfile& mpi, int engines = 1,
             bool splitBeyondEngines = false);
// The same from a trace no longer needed (expanded in place: extractCcs).
CcsSet ccsOf(Trace&& trace, const TraceInput& input, const MpiProfile& mpi, int engines = 1,
             bool splitBeyondEngines = false);

// Whether a job keeps its trace's events once its CCSs are made: predict (and score
// --profile) reads them again; the other commands release them, so that a whole-run trace is
// in memory once (expanded in place) rather than twice, and not for the whole search.
enum class TraceEvents { Keep, Release };

struct Job {
  Machine machine;
  Box box;
  MpiProfile mpi;  // the MPI it runs (mpi_profile.hpp)
  Model model;     // engines and ranks per node (model.hpp)
  // The trace as read; with TraceEvents::Release, every rank's event list is empty (the
  // other members stay: source, files, ranks, communicators).
  Trace trace;
  CcsSet sets;
  Problem problem;
  Network router;
  std::optional<NodeTable> nodes;
  // The nodes the ranks may occupy, K slots each: every node of the box, or (a non-contiguous
  // allocation) the node table's nodes when the box is the whole machine or --shape.
  Allocation allocation;

  // A complete box (sweep); --ranks-per-node 0 counts as 1.
  Job(const BoxInput& boxInput, const TraceInput& traceInput,
      TraceEvents events = TraceEvents::Keep);
  // The box completed from the command's mapping files, machine read (job_context.hpp).
  Job(const JobContext& context, const TraceInput& traceInput,
      TraceEvents events = TraceEvents::Keep);

  const NodeTable* nodeTable() const { return nodes ? &*nodes : nullptr; }
  // A mapping file of any format, or a name (identity, round-robin, random:SEED, tofu-default:
  // over K slots per node); within a
  // non-contiguous allocation identity follows the node table's order, random draws from
  // its nodes, and a file must use only them. Files are read with --ranks-per-node K slots
  // per node and `coresPerNode` (map --cores-per-node).
  Mapping mapping(const std::string& nameOrFile, int coresPerNode = 0) const;

  int ranksPerNode() const { return model.ranksPerNode; }
  // What a start (initial_mapper.hpp) sees of this job; `grid` from --grid, empty: detect.
  StartContext startContext(const std::vector<int>& grid = {}) const {
    return {machine, box, problem, router, allocation, grid};
  }
  // --init auto (initial_mapping.hpp): the best by `objective` of every start that applies
  // (identity, round-robin, tofu-default, geometric), a hop-bytes search from each and a deep
  // one (choose_start.hpp), in
  // kStartsShare of the time left before the schedule's deadline (deadline.hpp).
  ChosenStart autoStart(ObjectiveKind objective, const Schedule& schedule, std::uint64_t seed,
                        const std::vector<int>& grid = {}, Progress* progress = nullptr) const;
  // A start by --init value: auto (the choice into `chosen` when given), random (seeded by
  // `seed`), a mapping name or file (read with `coresPerNode`, map --cores-per-node), or a
  // start's name (geometric).
  Mapping start(const std::string& init, ObjectiveKind objective, const Schedule& schedule,
                std::uint64_t seed, int coresPerNode = 0,
                std::optional<ChosenStart>* chosen = nullptr, const std::vector<int>& grid = {},
                Progress* progress = nullptr) const;
  // The problem's order, what the timeline model walks: its iteration is found on first use
  // (findPeriod), not by the commands that never need it.
  const TimelinePlan& timeline() const {
    std::call_once(timelineOnce_, [this] { timeline_.emplace(problem); });
    return *timeline_;
  }
  // The objectives, the timeline model's length (timeline.hpp) and the flow model's
  // (flow.hpp) of a mapping.
  Scores score(const Mapping& mapping) const {
    return withTimeline(evaluateExact(problem, router, mapping), mapping);
  }
  // A mapping not at hand leaves the timeline out.
  Scores withTimeline(const ExactScores& exact, const Mapping& mapping) const {
    Scores s = toScores(exact, machine.linkBandwidth);
    if (mapping.nodeOfTask.size() != static_cast<std::size_t>(problem.tasks)) return s;
    s.timeline = static_cast<double>(timelineExact(problem, timeline(), router, mapping)) /
                 (machine.linkBandwidth * static_cast<double>(exact.tac3Scale));
    if (const auto f = flow(mapping)) {
      s.flow = f->seconds;
      s.flowSampled = f->sampled;
    }
    return s;
  }
  // The flow model's length (flow.hpp): the whole trace's, or where the job's first mapping
  // was too costly to simulate whole, every mapping's sampledFlowSeconds (like for like). A
  // trace it gives up on is not simulated again for the job's other mappings.
  struct FlowFigure {
    double seconds;
    bool sampled;
  };
  std::optional<FlowFigure> flow(const Mapping& mapping,
                                 FlowClock::time_point until = FlowClock::time_point::max()) const {
    const FlowWay way = flowWay_;
    if (way == FlowWay::None) return std::nullopt;
    if (way != FlowWay::Sampled) {
      if (const auto s =
              flowSeconds(problem, router, mapping, kFlowMaxMessages, flowMaxWork, until)) {
        flowWay_ = FlowWay::Whole;
        return FlowFigure{*s, false};
      }
      // Past `until` the simulation stopped for the caller's clock, not for the trace.
      if (FlowClock::now() >= until) return std::nullopt;
      if (way == FlowWay::Whole) {  // an earlier mapping's whole figure: no sample beside it
        flowWay_ = FlowWay::None;
        return std::nullopt;
      }
    }
    if (const auto s =
            sampledFlowSeconds(problem, router, mapping, kFlowMaxMessages, flowMaxWork, until)) {
      flowWay_ = FlowWay::Sampled;
      return FlowFigure{*s, true};
    }
    if (FlowClock::now() < until) flowWay_ = FlowWay::None;
    return std::nullopt;
  }
  // No flow figures for this job from now on (a caller that found them too costly).
  void forgoFlow() const { flowWay_ = FlowWay::None; }
  // The work one flow simulation may take, here and in map's ranking (flow.hpp; tests lower
  // it to reach the sample).
  std::uint64_t flowMaxWork = kFlowMaxWork;

 private:
  // How the job's mappings are simulated, set by the first one: whole, sampled or not at all.
  enum class FlowWay { Unknown, Whole, Sampled, None };
  mutable std::once_flag timelineOnce_;
  mutable std::optional<TimelinePlan> timeline_;
  mutable std::atomic<FlowWay> flowWay_{FlowWay::Unknown};
};

}  // namespace tac3map
