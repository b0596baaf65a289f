#include "map_command.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <sstream>

#include "distributed.hpp"
#include "progress_line.hpp"
#include "report.hpp"
#include "score_table.hpp"
#include "tac3map/initial/initial_mapper.hpp"
#include "tac3map/io/atomic_file.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/limits.hpp"
#include "tac3map/mapping/rankmap.hpp"
#include "tac3map/pipeline/job.hpp"
#include "tac3map/pipeline/job_context.hpp"
#include "tac3map/pipeline/map_job.hpp"
#include "tac3map/search/objectives.hpp"
#include "tac3map/search/refiner.hpp"

namespace tac3map::cli {
namespace {

// --grid AxBxC: the extents, each at least 1; empty text: none (detect).
std::vector<int> parseGrid(const std::string& text) {
  if (text.empty()) return {};
  std::vector<int> extents = parseIntegerList(text, 'x', "--grid");
  for (int extent : extents)
    if (extent < 1) throw InputError("--grid " + text + ": every extent must be at least 1");
  return extents;
}

using nlohmann::json;

// Peak resident memory of this process so far (Linux reports kilobytes).
double peakMemoryMiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

json coordinatesJson(const Mapping& mapping, const Box& box) {
  json list = json::array();
  for (int node : mapping.nodeOfTask) list.push_back(box.coordinatesOf(node));
  return list;
}

// Which start --init auto chose and what each scored (null for other --init values).
json startJson(const std::optional<ChosenStart>& chosen, const Job& job) {
  if (!chosen) return nullptr;
  json candidates = json::array();
  for (const StartCandidate& c : chosen->candidates)
    candidates.push_back(
        {{"name", c.name}, {"scores", scoresJson(job.withTimeline(c.scores, c.mapping))}});
  return {{"chosen", chosen->best().name},
          {"candidates", candidates},
          {"skipped", chosen->skipped},
          {"time_limited", chosen->timeLimited},
          {"seconds", chosen->seconds}};
}

// A search default per objective for a help text: "tac3 10, tahb 0.1, ...".
template <class T>
std::string perObjective(T SearchDefaults::*field) {
  std::string text;
  for (const ObjectiveSpec& spec : objectiveSpecs()) {
    std::ostringstream value;
    value << spec.defaults.*field;
    text += (text.empty() ? "" : ", ") + std::string(spec.name) + " " + value.str();
  }
  return text;
}

// --t0's defaults, with the colder start of large jobs where an objective has one.
std::string t0Defaults() {
  std::string text;
  for (const ObjectiveSpec& spec : objectiveSpecs()) {
    std::ostringstream value;
    value << spec.name << " " << spec.defaults.t0;
    if (spec.defaults.coldAbove > 0)
      value << " (" << spec.defaults.coldT0TimesTasks << " / ranks above "
            << spec.defaults.coldAbove << " ranks)";
    text += (text.empty() ? "" : ", ") + value.str();
  }
  return text;
}

double secondsSince(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// --init's help: auto, each start of the list (initial_mapper.hpp) with its description, the
// random mappings and a file.
std::string initHelp() {
  std::string names, starts;
  for (const auto& mapper : initialMappers()) {
    names += (names.empty() ? "" : ", ") + std::string(mapper->name());
    starts += std::string(" | ") + mapper->name();
    if (*mapper->description()) starts += std::string(" (") + mapper->description() + ")";
  }
  return "start: auto (the best of " + names +
         " and a hop-bytes search from each, then a deeper one from the fewest byte-hops, "
         "with K > 1 also each refined by node swaps, by the objective)" +
         starts + " | random (seeded by --seed) | random:SEED | a mapping file";
}

}  // namespace

Command addMapCommand(CLI::App& app, Deprecations& deprecated) {
  auto options = std::make_shared<MapOptions>();
  MapOptions& o = *options;
  CLI::App* cmd = app.add_subcommand(
      "map",
      "find a mapping by simulated annealing and write it\n  example: tac3map map "
      "--machine topologies/fx10.json --shape 2x2x2x2x3x2 --trace examples/cg64-sendrecv.trace -o "
      "cg64.map");
  addBoxOptions(*cmd, o.box);
  addTraceOptions(*cmd, o.input, &deprecated);
  cmd->add_option("--objective", o.objective, objectiveNames().help())
      ->check(choiceOf(objectiveNames()))
      ->capture_default_str();
  cmd->add_option("--seed", o.seed, "random seed (0 to 2^64-1)")
      ->check(nonNegative())
      ->capture_default_str();
  cmd->add_option("--init", o.init, initHelp())->capture_default_str();
  cmd->add_option("--grid", o.grid,
                  "the ranks' process grid for the geometric start, e.g. 48x46x72 (rank = x + "
                  "X (y + Y z)); default: detected from the pattern");
  cmd->add_option("--moves", o.moves, "trial moves: " + moveKindNames().help())
      ->check(choiceOf(moveKindNames()))
      ->capture_default_str();
  cmd->add_option("--refiner", o.schedule.refiner, "the search: " + refinerNames().help())
      ->check(choiceOf(refinerNames()))
      ->capture_default_str();
  cmd->add_option_function<double>(
      "--t0", [&o](const double& v) { o.t0 = v; },
      "initial temperature (default: " + t0Defaults() + ")");
  cmd->add_option_function<double>(
      "--t-end", [&o](const double& v) { o.tEnd = v; },
      "final temperature (default: " + perObjective(&SearchDefaults::tEnd) + ")");
  cmd->add_option("--trials", o.schedule.trialsPerTemperature, "trials per temperature")
      ->check(CLI::Range(std::uint64_t{1}, limits::kMaxTrials))
      ->capture_default_str();
  cmd->add_option_function<double>(
      "--cooling", [&o](const double& v) { o.cooling = v; },
      "temperature factor per step (default: " + perObjective(&SearchDefaults::cooling) + ")");
  cmd->add_flag("--no-early-stop", o.noEarlyStop,
                "run the whole schedule even when tac3 reaches its lower bound");
  cmd->add_flag("--no-tie-break", o.noTieBreak,
                "tac3: keep the search's best mapping as it is (no descent to fewer shared "
                "links, then fewer byte-hops, at equal tac3)");
  cmd->add_option("--time-limit", o.schedule.timeLimit,
                  "seconds for the whole search: the starts of --init auto and their "
                  "searches, the chains, multilevel's levels and the tie-break share them "
                  "(reading the trace and building routes come on top; docs/search.md)");
  cmd->add_option_function<int>(
         "--chains", [&o](const int& v) { o.chains = v; },
         "independent chains (seeds seed, seed+1, ...; default: " +
             perObjective(&SearchDefaults::chains) + ")")
      ->check(CLI::Range(1, limits::kMaxChains));
  cmd->add_option("--threads", o.threads,
                  "threads running the chains (result does not "
                  "depend on it)")
      ->check(CLI::Range(1, limits::kMaxThreads))
      ->capture_default_str();
  cmd->add_flag("--quiet,-q", o.quiet, "print nothing but errors (no progress line, no summary)");
  cmd->add_option("--output,-o", o.output, "mapping file to write")->required();
  cmd->add_option("--output-format,-f", o.mapFormat,
                  "format of -o: " + mapFormatNames().help() + " (docs/rankmap-formats.md)")
      ->check(choiceOf(mapFormatNames()))
      ->capture_default_str();
  deprecated.add(*cmd, "--map-format", "--output-format", o.mapFormat, "old --output-format")
      ->check(choiceOf(mapFormatNames()));
  cmd->add_option("--cores-per-node", o.coresPerNode,
                  "cores per node (C): openmpi-rankfile --bind core binds slot s to cores "
                  "s*C/K..(s+1)*C/K-1 (0: the machine file's cores_per_node, else slot s to "
                  "core s)")
      ->check(CLI::Range(0, limits::kMaxCoresPerNode))
      ->capture_default_str();
  cmd->add_option("--sockets-per-node", o.socketsPerNode,
                  "sockets per node (S) for --bind socket (0: the machine file's "
                  "sockets_per_node, else 1)")
      ->check(CLI::Range(0, limits::kMaxCoresPerNode))
      ->capture_default_str();
  cmd->add_option("--bind", o.bind,
                  "what openmpi-rankfile binds each rank to: " + rankfileBindNames().help())
      ->check(choiceOf(rankfileBindNames()))
      ->capture_default_str();
  cmd->add_option("--report", o.report, "JSON report to write");
  return runWhenParsed(cmd, options, runMap);
}

int runMap(const MapOptions& o) {
  checkOutputPaths({{"-o", o.output}, {"--report", o.report}});
  const auto start = std::chrono::steady_clock::now();
  MapJobOptions options;
  options.objective = parseObjective(o.objective);
  const ObjectiveKind objective = options.objective;
  Schedule& schedule = options.schedule;
  schedule = o.schedule;
  const SearchDefaults& defaults = objectiveSpec(objective).defaults;
  schedule.t0 = o.t0.value_or(defaults.t0);  // the job's size may make it colder, below
  schedule.tEnd = o.tEnd.value_or(defaults.tEnd);
  schedule.cooling = o.cooling.value_or(defaults.cooling);
  schedule.earlyStop = !o.noEarlyStop;
  schedule.breakTies = !o.noTieBreak;
  schedule.moves = parseMoveKind(o.moves);
  checkSchedule(schedule);
  options.seed = o.seed;
  options.init = o.init;
  options.grid = parseGrid(o.grid);
  options.coresPerNode = o.coresPerNode;
  options.chains = o.chains.value_or(defaults.chains);
  options.threads = o.threads;
  options.reports = MpiSession::rank() == 0;
  options.runChains = annealChainsEverywhere;
  Progress progress;  // Phase::Reading
  options.progress = &progress;
  // The progress line, from reading to the search's end. With MPI only rank 0 reports, on its
  // own chains' progress.
  std::optional<ProgressLine> line;
  line.emplace(progress, schedule.totalTrials() * static_cast<std::uint64_t>(options.chains),
               objectiveSpec(objective).normalisedMeaning,
               !o.quiet && MpiSession::rank() == 0 && ::isatty(STDERR_FILENO));
  options.onDeadline = [&line](const Deadline& deadline) { line->bound(deadline); };
  const Job job(jobContext(o.box, {o.init}), o.input, TraceEvents::Release);
  if (!o.t0) {
    schedule.t0 = defaults.t0For(job.problem.tasks);
    checkSchedule(schedule);
    line->plan(schedule.totalTrials() * static_cast<std::uint64_t>(options.chains));
  }
  // Setup (reading the trace, CCSs, routes) is done; --time-limit counts from mapJob's call
  // (the one deadline that the starts, the search and the tie-break share: deadline.hpp).
  const double setupSeconds = secondsSince(start);
  const MapFormat mapFormat = parseMapFormat(o.mapFormat);
  const RankMapOptions rankMap{job.ranksPerNode(), o.coresPerNode, o.socketsPerNode,
                               parseRankfileBind(o.bind)};
  // Fail before the starts and the search if the output format cannot be written (no host
  // names, too few cores per node, ...): the block placement has the same nodes and slots.
  if (mapFormat != MapFormat::CrayRankOrder)
    writeRankMap(mapFormat, job.mapping("identity"), job.machine, job.box, job.nodeTable(),
                 rankMap);
  const MapResult mapped = mapJob(job, options);
  line.reset();
  if (!options.reports) return 0;  // rank 0 writes the outputs
  const ChainsResult& run = mapped.run;
  const SearchResult& winner = mapped.winner();
  const std::optional<ChosenStart>& chosen = mapped.chosen;
  const Scores& before = mapped.initialScores;
  const Scores& after = mapped.scores;
  const std::size_t ranked = mapped.rankedByFlow;
  const std::string& resultFrom = mapped.from;
  const double startsSeconds = mapped.startsSeconds;
  const double limitedSeconds = mapped.limitedSeconds;
  std::uint64_t trials = 0, accepted = 0;
  // Why the search phase ended: the deadline when it cut any part of it (a start, a chain, a
  // tie-break), else the winning chain's reason.
  const bool timeLimited = mapped.timeLimited;
  json chains = json::array();
  for (std::size_t i = 0; i < run.chains.size(); ++i) {
    const SearchResult& c = run.chains[i];
    trials += c.trials;
    accepted += c.accepted;
    chains.push_back({{"chain", i},
                      {"seed", o.seed + i},
                      // No timeline or flow: with MPI another process holds the chain's map, and
                      // the report must not depend on the process count.
                      {"scores", scoresJson(toScores(c.bestScores, job.machine.linkBandwidth))},
                      {"trials", c.trials},
                      {"accepted", c.accepted},
                      {"seconds", c.seconds},
                      {"stopped", c.stopped},
                      {"tie_break_moves", c.tieBreakMoves}});
  }
  const std::string stopped = timeLimited ? "time-limit" : winner.stopped;

  std::vector<StagedFile> outputs;
  outputs.emplace_back(o.output, writeRankMap(mapFormat, mapped.mapping, job.machine, job.box,
                                              job.nodeTable(), rankMap));
  if (!o.report.empty()) {
    json report = {
        {"machine", job.machine.name},
        {"shape", job.box.shapeText()},
        {"offset", job.box.offsetText()},
        {"trace", o.input.trace},
        {"tasks", job.sets.tasks},
        {"nodes", job.box.nodeCount},
        {"ccs", job.sets.sets.size()},
        {"distinct_ccs", job.problem.realCcsCount},
        {"communications", job.sets.communicationCount()},
        {"objective", objectiveName(objective)},
        {"seed", o.seed},
        {"init", o.init},
        {"start", startJson(chosen, job)},
        {"initial_scores", scoresJson(before)},
        {"scores", scoresJson(after)},
        {"search",
         {{"trials", trials},
          {"accepted", accepted},
          {"seconds", run.seconds},
          {"stopped", winner.stopped},
          {"tie_break_moves", winner.tieBreakMoves},
          {"best_chain", run.best},
          {"refiner", winner.refiner},
          {"levels", winner.levels},
          {"moves", usesLocalMoves(schedule, job.allocation.nodeCount()) ? "local" : "global"}}},
        {"time",
         {{"limit", o.schedule.timeLimit > 0 ? json(o.schedule.timeLimit) : json(nullptr)},
          {"setup_seconds", setupSeconds},
          {"starts_seconds", startsSeconds},
          {"search_seconds", run.seconds},
          {"limited_seconds", limitedSeconds},
          {"stopped", stopped}}},
        {"resources", {{"seconds", secondsSince(start)}, {"peak_memory_mib", peakMemoryMiB()}}},
        {"chains", chains},
        {"result",
         {{"from", resultFrom},
          {"ranked_by", ranked > 0 ? json("flow") : json(nullptr)},
          {"candidates", ranked},
          {"flow_swaps", mapped.flowSwaps}}},
        {"mapping", coordinatesJson(mapped.mapping, job.box)}};
    outputs.emplace_back(o.report, report.dump(2) + "\n");
  }
  for (StagedFile& file : outputs) file.commit();

  std::ostream& out = report(o.quiet);
  out << job.sets.tasks << " tasks on " << job.box.nodeCount << " nodes of " << job.machine.name
      << " box " << job.box.shapeText() << "; " << job.sets.sets.size() << " CCS ("
      << job.problem.realCcsCount << " distinct), " << job.sets.communicationCount()
      << " communications\n";
  out << "objective " << objectiveName(objective) << ", seed " << o.seed << ", init " << o.init;
  if (chosen) {
    const auto starts = std::count_if(chosen->candidates.begin(), chosen->candidates.end(),
                                      [](const StartCandidate& c) { return c.mayStart; });
    out << " (" << chosen->best().name << ", the best of " << starts << " starts)";
  }
  if (job.model.engines > 1 || job.model.ranksPerNode > 1)
    out << ", " << job.model.engines << " engine" << (job.model.engines > 1 ? "s" : "") << " and "
        << job.model.ranksPerNode << " rank" << (job.model.ranksPerNode > 1 ? "s" : "")
        << " per node";
  if (options.chains > 1) out << ", " << options.chains << " chains on " << o.threads << " threads";
  out << "\n";
  printScores(out, "", {"initial", "result"}, {before, after}, ScoreFormat::Table, false);
  out << "search: " << trials << " trials, " << accepted << " accepted, "
      << format("%.3f", run.seconds) << " s, stopped: " << winner.stopped;
  if (options.chains > 1)
    out << " (best: chain " << run.best << ", seed " << o.seed + run.best << ")";
  out << "\n";
  if (ranked > 0) {
    out << "result: " << (resultFrom == "search" ? "the search's map" : resultFrom)
        << ", the fastest of " << ranked << " candidates by the flow model";
    if (mapped.flowSwaps > 0)
      out << ", then " << mapped.flowSwaps << " swap" << (mapped.flowSwaps > 1 ? "s" : "")
          << " of two ranks that the flow model finds faster";
    out << "\n";
  }
  out << "time: setup " << format("%.3f", setupSeconds)
      << " s (reading the trace, routes; outside --time-limit), starts "
      << format("%.3f", startsSeconds) << " s, search " << format("%.3f", run.seconds) << " s";
  if (o.schedule.timeLimit > 0)
    out << "; limit " << format("%g", o.schedule.timeLimit) << " s"
        << (timeLimited ? ", reached" : ", not reached");
  out << "\n";
  out << "wrote " << o.output << (o.report.empty() ? "" : " and " + o.report) << "\n";
  return 0;
}

}  // namespace tac3map::cli
