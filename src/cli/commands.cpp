#include "commands.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <thread>

#include "distributed.hpp"
#include "job.hpp"
#include "report.hpp"
#include "score_table.hpp"
#include "tac3map/gen/cg_pattern.hpp"
#include "tac3map/gen/patterns.hpp"
#include "tac3map/initial/initial_mapping.hpp"
#include "tac3map/io/atomic_file.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/trace.hpp"
#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/ccs.hpp"
#include "tac3map/model/collectives.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/model/predict.hpp"
#include "tac3map/model/profile.hpp"
#include "tac3map/network/machine.hpp"
#include "tac3map/network/network.hpp"
#include "tac3map/output/viz.hpp"
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

std::string format(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

// The profile's message and memory-copy models (predict, score --profile).
struct ProfileModels {
  Profile profile;
  TimeModel message, copy;
  ProfileModels(const std::string& path, const std::string& kind)
      : profile(loadProfile(path)),
        message(profile.pingpong, parseModelKind(kind), profile.source + ": pingpong"),
        copy(profile.memcpy, parseModelKind(kind), profile.source + ": memcpy") {}
  PredictModel with(const Machine& machine, const Model& network) const {
    return {message, copy, machine.hopLatency, network};
  }
};

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

// The progress line: on a terminal only, at most four updates a second, rewritten in place. It
// names map's phase (Progress::phase: reading, starts, search, tie-break); in the search, the
// temperature, best value, trial rate and time left.
class ProgressLine {
 public:
  ProgressLine(const Progress& progress, std::uint64_t plannedTrials, const char* unit,
               bool enabled)
      : progress_(progress), planned_(plannedTrials), unit_(unit) {
    if (enabled) thread_ = std::thread([this] { loop(); });
  }
  ~ProgressLine() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    wake_.notify_one();
    thread_.join();
    std::fputs("\r\033[K", stderr);  // leave the terminal clean for the summary
  }
  // The search phase's deadline (--time-limit), once it is set: the time left is at most its.
  void bound(const Deadline& deadline) {
    std::lock_guard<std::mutex> lock(mutex_);
    deadline_ = deadline;
  }

 private:
  void loop() {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    std::optional<Clock::time_point> searchBegan;  // the trial rate is over the search's time
    std::unique_lock<std::mutex> lock(mutex_);
    while (!wake_.wait_for(lock, std::chrono::milliseconds(250), [this] { return done_; })) {
      const auto now = Clock::now();
      const double elapsed = std::chrono::duration<double>(now - start).count();
      const Phase phase = progress_.phase.load(std::memory_order_relaxed);
      std::string line = std::string("\r") + phaseName(phase) + ": ";
      if (phase == Phase::Starts)
        line += std::to_string(progress_.startStep.load(std::memory_order_relaxed)) + " of " +
                std::to_string(progress_.startSteps.load(std::memory_order_relaxed)) +
                " starts tried  ";
      double left = -1;  // unknown
      if ((phase == Phase::Search || phase == Phase::TieBreak) &&
          progress_.started.load(std::memory_order_relaxed)) {
        if (!searchBegan) searchBegan = now;
        const double searching = std::chrono::duration<double>(now - *searchBegan).count();
        const double trials = static_cast<double>(progress_.trials.load(std::memory_order_relaxed));
        const double rate = searching > 0 ? trials / searching : 0.0;
        if (phase == Phase::Search) {
          line += format("T %.3g  ", progress_.temperature.load(std::memory_order_relaxed));
          if (rate > 0) left = std::max(0.0, (static_cast<double>(planned_) - trials) / rate);
        }
        line += format("best %.6g ", progress_.bestEnergy.load(std::memory_order_relaxed)) + unit_ +
                "  " + format("%.3g trials/s  ", rate);
      }
      line += format("%.1f s elapsed", elapsed);
      if (deadline_.limited())
        left = left < 0 ? deadline_.left(now) : std::min(left, deadline_.left(now));
      if (left >= 0) line += format("  ~%.1f s left (at most)", left);
      line += "\033[K";
      std::fputs(line.c_str(), stderr);
      std::fflush(stderr);
    }
  }

  const Progress& progress_;
  const std::uint64_t planned_;
  const char* unit_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  Deadline deadline_;
  std::thread thread_;
};

// The flow simulations kept from a limited search for the ranking after it: about one per
// candidate of --init auto, and at most this share of the limit.
constexpr double kFlowRankingReserve = 16;
constexpr double kFlowRankingShare = 0.25;

double secondsSince(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace

int runMap(const MapOptions& o) {
  checkOutputPaths({{"-o", o.output}, {"--report", o.report}});
  const auto start = std::chrono::steady_clock::now();
  const ObjectiveKind objective = parseObjective(o.objective);
  Schedule schedule = o.schedule;
  schedule.earlyStop = !o.noEarlyStop;
  schedule.breakTies = !o.noTieBreak;
  schedule.moves = parseMoveKind(o.moves);
  checkSchedule(schedule);
  Progress progress;  // Phase::Reading
  // The progress line, from reading to the search's end. With MPI only rank 0 reports, on its
  // own chains' progress.
  std::optional<ProgressLine> line;
  line.emplace(progress, schedule.totalTrials() * static_cast<std::uint64_t>(o.chains),
               objectiveSpec(objective).normalisedMeaning,
               !o.quiet && MpiSession::rank() == 0 && ::isatty(STDERR_FILENO));
  const Job job(jobContext(o.box, {o.init}), o.input, TraceEvents::Release);
  // Setup (reading the trace, CCSs, routes) is done: the search phase begins, and with it the
  // one deadline that the starts, the search and the tie-break share (deadline.hpp).
  const double setupSeconds = secondsSince(start);
  const auto searchBegan = std::chrono::steady_clock::now();
  schedule.deadline = Deadline::after(schedule.timeLimit, searchBegan);
  schedule.timeLimit = 0;
  // The flow model's ranking of the search's map and --init auto's candidates comes after the
  // search, within the same limit: the time of one simulation (of the block placement) for
  // each, at most a quarter of the limit, is kept from the starts and the search. The ranking
  // ends at the limit itself, with the maps simulated by then (docs/model.md, "Cost and
  // limits"). A job whose one simulation does not even fit in the limit has no flow figures.
  const Deadline limit = schedule.deadline;
  if (limit.limited() && objective == ObjectiveKind::Tac3) {
    const auto began = std::chrono::steady_clock::now();
    if (job.flow(job.mapping("identity"), limit.atOrNever()))
      schedule.deadline = limit.reserve(
          std::min(kFlowRankingReserve * secondsSince(began), kFlowRankingShare * limit.left()));
    else
      job.forgoFlow();
  }
  line->bound(schedule.deadline);
  schedule.allocation = job.allocation;
  const MapFormat mapFormat = parseMapFormat(o.mapFormat);
  const RankMapOptions rankMap{job.ranksPerNode(), o.coresPerNode, o.socketsPerNode,
                               parseRankfileBind(o.bind)};
  // Fail before the starts and the search if the output format cannot be written (no host
  // names, too few cores per node, ...): the block placement has the same nodes and slots.
  if (mapFormat != MapFormat::CrayRankOrder)
    writeRankMap(mapFormat, job.mapping("identity"), job.machine, job.box, job.nodeTable(),
                 rankMap);
  std::optional<ChosenStart> chosen;  // with --init auto
  progress.phase = Phase::Starts;
  const Mapping initial = job.start(o.init, objective, schedule, o.seed, o.coresPerNode, &chosen,
                                    parseGrid(o.grid), &progress);
  // The start's scores (the report's), and how long scoring the job takes: each chain stops
  // that much before its share of the deadline, so that scoring its result still fits.
  // The searches reuse the start's scores rather than score it again.
  std::optional<ExactScores> initialScores;
  if (chosen) {
    initialScores = chosen->best().scores;
    schedule.scoringSeconds = chosen->scoringSeconds;
  } else if (MpiSession::rank() == 0 || schedule.deadline.limited()) {
    const auto scoring = std::chrono::steady_clock::now();
    initialScores = evaluateExact(job.problem, job.router, initial);
    schedule.scoringSeconds = secondsSince(scoring);
  }
  const double startsSeconds = secondsSince(searchBegan);
  progress.phase = Phase::Search;
  const ChainsResult run = annealChainsEverywhere(job.problem, job.router, objective, initial,
                                                  schedule, o.seed, o.chains, o.threads, &progress,
                                                  initialScores ? &*initialScores : nullptr);
  const double limitedSeconds = secondsSince(searchBegan);
  line.reset();
  if (MpiSession::rank() != 0) return 0;  // rank 0 writes the outputs
  const SearchResult& winner = run.chains[run.best];
  // The result: the search's map, or with tac3 the candidate of --init auto that the flow
  // model (flow.hpp) finds faster, where it can simulate the trace (docs/search.md).
  const Mapping* result = &winner.best;
  const ExactScores* resultScores = &winner.bestScores;
  std::string resultFrom = "search";
  std::size_t ranked = 0;
  const Scores before = job.withTimeline(*initialScores, initial);  // the flow model's verdict
  if (objective == ObjectiveKind::Tac3 && chosen && before.flow) {
    std::vector<const Mapping*> maps{&winner.best};
    for (const StartCandidate& c : chosen->candidates) maps.push_back(&c.mapping);
    if (const auto ranking =
            fastestByFlow(job.problem, job.router, maps, kFlowMaxMessages, limit.atOrNever())) {
      ranked = ranking->ranked;
      if (ranking->fastest > 0) {
        const StartCandidate& c = chosen->candidates[ranking->fastest - 1];
        result = &c.mapping;
        resultScores = &c.scores;
        resultFrom = c.name;
      }
    }
  }
  const Scores after = job.withTimeline(*resultScores, *result);
  std::uint64_t trials = 0, accepted = 0;
  // Why the search phase ended: the deadline when it cut any part of it (a start, a chain, a
  // tie-break), else the winning chain's reason.
  bool timeLimited = chosen && chosen->timeLimited;
  json chains = json::array();
  for (std::size_t i = 0; i < run.chains.size(); ++i) {
    const SearchResult& c = run.chains[i];
    timeLimited |= c.stopped == "time-limit";
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
  outputs.emplace_back(
      o.output, writeRankMap(mapFormat, *result, job.machine, job.box, job.nodeTable(), rankMap));
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
          {"candidates", ranked}}},
        {"mapping", coordinatesJson(*result, job.box)}};
    outputs.emplace_back(o.report, report.dump(2) + "\n");
  }
  for (StagedFile& file : outputs) file.commit();

  std::ostream& out = report(o.quiet);
  out << job.sets.tasks << " tasks on " << job.box.nodeCount << " nodes of " << job.machine.name
      << " box " << job.box.shapeText() << "; " << job.sets.sets.size() << " CCS ("
      << job.problem.realCcsCount << " distinct), " << job.sets.communicationCount()
      << " communications\n";
  out << "objective " << objectiveName(objective) << ", seed " << o.seed << ", init " << o.init;
  if (chosen)
    out << " (" << chosen->best().name << ", the best of " << chosen->candidates.size()
        << " starts)";
  if (job.model.engines > 1 || job.model.ranksPerNode > 1)
    out << ", " << job.model.engines << " engine" << (job.model.engines > 1 ? "s" : "") << " and "
        << job.model.ranksPerNode << " rank" << (job.model.ranksPerNode > 1 ? "s" : "")
        << " per node";
  if (o.chains > 1) out << ", " << o.chains << " chains on " << o.threads << " threads";
  out << "\n";
  printScores(out, "", {"initial", "result"}, {before, after}, ScoreFormat::Table, false);
  out << "search: " << trials << " trials, " << accepted << " accepted, "
      << format("%.3f", run.seconds) << " s, stopped: " << winner.stopped;
  if (o.chains > 1) out << " (best: chain " << run.best << ", seed " << o.seed + run.best << ")";
  out << "\n";
  if (ranked > 0)
    out << "result: " << (resultFrom == "search" ? "the search's map" : resultFrom)
        << ", the fastest of " << ranked << " candidates by the flow model\n";
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

int runScore(const ScoreOptions& o) {
  const ScoreFormat format = o.json ? ScoreFormat::Json : parseScoreFormat(o.format);
  const int baseline = baselineRow(o.mappings, o.baseline);  // before any work
  // The events are read again only to predict (--profile).
  const Job job(jobContext(o.box, o.mappings), o.input,
                o.profile.empty() ? TraceEvents::Release : TraceEvents::Keep);
  std::vector<Mapping> mappings;
  std::vector<Scores> scores;
  for (const std::string& name : o.mappings) {
    mappings.push_back(job.mapping(name));
    scores.push_back(job.score(mappings.back()));
  }
  std::vector<double> predicted;
  if (!o.profile.empty()) {
    const ProfileModels models(o.profile, o.model);
    const PredictModel model = models.with(job.machine, job.model);
    const double localWork = localWorkSeconds(job.trace, models.copy);
    for (const Mapping& mapping : mappings)
      predicted.push_back(
          predict(job.problem, job.router, mapping, model, localWork, &job.timeline()).total);
  }
  printScores(std::cout, "mapping", o.mappings, scores, format, true, predicted, baseline);
  return 0;
}

int runPredict(const PredictOptionsCli& o) {
  const Job job(jobContext(o.box, {o.mapping}), o.input);
  const ProfileModels models(o.profile, o.model);
  const Profile& profile = models.profile;
  const TimeModel& message = models.message;
  const PredictModel model = models.with(job.machine, job.model);
  const Mapping mapping = job.mapping(o.mapping);
  const Prediction p = predict(job.problem, job.router, mapping, model,
                               localWorkSeconds(job.trace, models.copy), &job.timeline());
  std::vector<BarrierAdvice> advice;
  if (o.barriers) {
    advice = barrierAdvice(job.problem, job.router, mapping, model, profile.barrierSeconds);
    placeBarriers(advice, job.sets, job.trace, p.total);
  }
  const auto describe = [&](int c) {
    return std::to_string(job.problem.src[c]) + "->" + std::to_string(job.problem.dst[c]);
  };
  // Each collective of the trace alone, under every algorithm, and the best by size.
  struct Compared {
    CollectiveCall call;
    std::vector<AlgorithmTime> times;
    std::vector<BestRange> ranges;
  };
  std::vector<Compared> compared;
  if (o.collectivesCompare)
    for (const CollectiveCall& call : collectiveCalls(job.trace))
      compared.push_back({call,
                          compareAlgorithms(call, job.trace.ranks, job.router, mapping, model),
                          bestBySize(call, job.trace.ranks, job.router, mapping, model)});
  const auto sizeText = [](std::uint64_t bytes) {
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
    if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KiB";
    return std::to_string(bytes) + " B";
  };
  if (o.json || o.format == "json") {
    json ccs = json::array();
    for (std::size_t t = 0; t < p.ccs.size(); ++t) {
      const CcsTime& c = p.ccs[t];
      ccs.push_back({{"ccs", t},
                     {"seconds", c.seconds},
                     {"busiest_link", c.busiestLink},
                     {"slowest", c.slowest < 0 ? "" : describe(c.slowest)},
                     {"slowest_bytes", c.slowest < 0 ? 0 : job.problem.bytes[c.slowest]},
                     {"contention", c.contention},
                     {"repeats", c.repeats}});
    }
    json barriers = json::array();
    for (const BarrierAdvice& a : advice)
      barriers.push_back({{"after_ccs", a.after},
                          {"contention_alone", a.contentionAlone},
                          {"contention_overlapped", a.contentionOverlapped},
                          {"penalty_seconds", a.penalty},
                          {"barrier_seconds", a.barrier},
                          {"barrier_pays", a.pays},
                          {"trace_location",
                           a.line > 0 ? json{{"file", a.file}, {"line", a.line}} : json(nullptr)},
                          {"same_level", a.sameLevel},
                          {"gain_seconds", a.gain},
                          {"gain_percent", a.gainPercent}});
    json out = {{"mapping", o.mapping},
                {"profile", profile.name},
                {"model", o.model},
                {"ccs", ccs},
                {"communication_seconds", p.communication},
                {"timeline_seconds", p.timeline},
                {"flow_seconds", p.flow ? json(*p.flow) : json(nullptr)},
                {"total_from", p.flow ? "flow" : "timeline"},
                {"local_work_seconds", p.computation},
                {"total_seconds", p.total}};
    if (o.barriers) out["barriers"] = barriers;
    if (o.collectivesCompare) {
      json list = json::array();
      for (const Compared& c : compared) {
        json times = json::object(), ranges = json::array();
        for (const AlgorithmTime& t : c.times) times[algorithmName(t.algorithm)] = t.seconds;
        for (const BestRange& r : c.ranges)
          ranges.push_back(
              {{"from_bytes", r.from}, {"to_bytes", r.to}, {"best", algorithmName(r.algorithm)}});
        list.push_back({{"line", c.call.line},
                        {"collective", collectiveName(c.call.op)},
                        {"bytes", c.call.bytes},
                        {"ranks", c.call.members.size()},
                        {"seconds", times},
                        {"best_by_size", ranges}});
      }
      out["collectives"] = list;
    }
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  std::ostream& out = std::cout;
  out << "mapping " << o.mapping << "; profile " << profile.name << " (" << o.model
      << " model: latency " << format("%.3g", message.latency()) << " s, "
      << format("%.3g", message.bandwidth() / 1e9) << " GB/s); hop latency "
      << format("%.3g", job.machine.hopLatency) << " s\n";
  out << "ccs  messages  busiest_link  slowest            bytes       C    time[s]   repeats\n";
  std::vector<int> messages(p.ccs.size(), 0);
  for (std::size_t c = 0; c < job.problem.realCommunications; ++c) ++messages[job.problem.ccs[c]];
  for (std::size_t t = 0; t < p.ccs.size(); ++t) {
    const CcsTime& c = p.ccs[t];
    char line[160];
    std::snprintf(line, sizeof line, "%-4zu %-9d %-13d %-18s %-11llu %-4.3g %-9.6g %llu\n", t,
                  messages[t], c.busiestLink, c.slowest < 0 ? "-" : describe(c.slowest).c_str(),
                  static_cast<unsigned long long>(c.slowest < 0 ? 0 : job.problem.bytes[c.slowest]),
                  c.contention, c.seconds, static_cast<unsigned long long>(c.repeats));
    out << line;
  }
  out << "communication " << format("%.6g", p.communication) << " s summed over CCSs, "
      << format("%.6g", p.timeline)
      << " s on the timeline (each message starts when both its ranks are ready)";
  if (p.flow)
    out << ", " << format("%.6g", *p.flow)
        << " s by the flow model (messages in flight share links)";
  out << "\n";
  out << (p.flow ? "flow " : "timeline ") << format("%.6g", p.flow.value_or(p.timeline))
      << " s + local work " << format("%.6g", p.computation) << " s = " << format("%.6g", p.total)
      << " s\n";
  if (o.collectivesCompare) {
    out << "collectives, each alone under this mapping (* best):\n";
    if (compared.empty()) out << "  (the trace has no collectives)\n";
    for (const Compared& c : compared) {
      const auto best = std::min_element(
          c.times.begin(), c.times.end(),
          [](const AlgorithmTime& a, const AlgorithmTime& b) { return a.seconds < b.seconds; });
      out << "  line " << c.call.line << ": " << collectiveName(c.call.op) << " "
          << sizeText(c.call.bytes) << " on " << c.call.members.size() << " ranks:";
      for (auto t = c.times.begin(); t != c.times.end(); ++t)
        out << " " << algorithmName(t->algorithm) << " " << format("%.4g", t->seconds) << " s"
            << (t == best ? "*" : "");
      out << "\n    best by size:";
      for (const BestRange& r : c.ranges)
        out << " " << sizeText(r.from) << ".." << sizeText(r.to) << " "
            << algorithmName(r.algorithm) << ";";
      out << "\n";
    }
  }
  if (o.barriers) {
    // Gains are against this iteration with CCS t+1 meeting CCS t's loads (docs/predict.md).
    out << "barriers between CCSs (barrier: " << format("%.3g", profile.barrierSeconds)
        << " s; gain: the iteration's time without the barrier minus with it):\n"
        << "after_ccs  C_alone  C_overlapped  penalty[s]  gain[s]      gain[%]  advice\n";
    for (const BarrierAdvice& a : advice) {
      const std::string where = a.file + ":" + std::to_string(a.line);
      std::string verdict;
      if (a.sameLevel)
        verdict = "no barrier: CCS " + std::to_string(a.after) + " and " +
                  std::to_string(a.after + 1) + " are one step of the program";
      else if (a.line == 0)
        verdict = "no barrier";
      else if (a.pays)
        verdict = "insert a barrier before " + where + " (rank " + std::to_string(a.src) +
                  "'s send to " + std::to_string(a.dst) + ", the first of CCS " +
                  std::to_string(a.after + 1) + ")";
      else
        verdict = "no barrier (it would go before " + where + ")";
      char line[160];
      std::snprintf(line, sizeof line, "%-10d %-8d %-13d %-11.4g %-12.4g %-8.3g ", a.after,
                    a.contentionAlone, a.contentionOverlapped, a.penalty, a.gain, a.gainPercent);
      out << line << verdict << "\n";
    }
  }
  return 0;
}

int runViz(const VizOptionsCli& o) {
  checkOutputPaths({{"-o", o.output}});
  // The picture's format from -o's extension: .svg, or .png through rsvg-convert (checked
  // before any work, so a missing converter never costs a run).
  const std::size_t dot = o.output.rfind('.'), slash = o.output.rfind('/');
  std::string extension = dot == std::string::npos || (slash != std::string::npos && dot < slash)
                              ? ""
                              : o.output.substr(dot);
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (extension != ".svg" && extension != ".png")
    throw InputError("-o " + o.output + ": expected a file name ending in .svg or .png");
  const bool png = extension == ".png";
  if (png && findRsvgConvert().empty())
    throw InputError("-o " + o.output +
                     ": PNG output needs rsvg-convert, which is not on the PATH (Debian package "
                     "librsvg2-bin); install it or write .svg");
  const VizDetail detail = parseDetail(o.detail);
  const Job job(jobContext(o.box, {o.mapping, o.compare}), o.input, TraceEvents::Release);
  std::vector<VizMapping> mappings;
  for (const std::string& name : {o.mapping, o.compare})
    if (!name.empty()) mappings.push_back({name, job.mapping(name)});
  VizOptions options;
  options.detail = detail;
  if (!o.plane.empty()) options.plane = parsePlane(job.machine, o.plane);
  // A graph machine has no box shape: its compute nodes are counted instead.
  options.title = job.machine.name;
  if (job.machine.isGraph()) {
    options.title += ' ';
    options.title += std::to_string(job.box.nodeCount);
    options.title += " compute nodes";
  } else {
    options.title += " box ";
    options.title += job.box.shapeText();
    options.title += " (";
    options.title += std::to_string(job.box.nodeCount);
    options.title += " nodes)";
  }
  options.title += ", " + o.input.trace + " (" + std::to_string(job.sets.sets.size()) + " CCS)";
  // One panel per CCS where every link is drawn (and at most 16 CCSs); pictures that
  // aggregate nodes aggregate the CCSs too. Graph pictures draw every link up to 1,500 nodes.
  const bool perCcs = job.machine.isGraph()
                          ? job.box.nodeCount <= 1500
                          : resolveDetail(detail, job.box.nodeCount) == VizDetail::Links;
  options.aggregateOnly = o.aggregateOnly || !perCcs || job.sets.sets.size() > 16;
  const std::string svg =
      renderSvg(job.machine, job.box, job.router, job.problem, mappings, options);
  StagedFile file(o.output, png ? svgToPng(svg) : svg);
  file.commit();
  report(o.quiet) << "wrote " << o.output << "\n";
  return 0;
}

int runCcs(const CcsOptionsCli& o) {
  const CcsSet sets = ccsOf(loadTrace(o.input), o.input);
  // Repeated sets and the iteration they form (problem.hpp): what map and score keep.
  const Problem merged = makeProblem(sets);
  const Period period = findPeriod(merged.ccsOfSet);
  std::vector<std::size_t> firstOf(static_cast<std::size_t>(merged.ccsCount), sets.sets.size());
  for (std::size_t t = 0; t < sets.sets.size(); ++t) {
    std::size_t& first = firstOf[static_cast<std::size_t>(merged.ccsOfSet[t])];
    first = std::min(first, t);
  }
  if (o.json || o.format == "json") {
    json list = json::array();
    for (const auto& set : sets.sets) {
      json items = json::array();
      for (const Communication& c : set)
        items.push_back({{"src", c.src}, {"dst", c.dst}, {"bytes", c.bytes}});
      list.push_back(items);
    }
    json same = json::array();  // per CCS: the first CCS with the same messages
    for (int d : merged.ccsOfSet) same.push_back(firstOf[static_cast<std::size_t>(d)]);
    std::cout
        << json{{"ccs", list},
                {"distinct", merged.ccsCount},
                {"same_as", same},
                {"period",
                 {{"start", period.start}, {"length", period.length}, {"repeats", period.repeats}}}}
               .dump()
        << "\n";
    return 0;
  }
  std::cout << o.input.trace << ": " << sets.tasks << " ranks, " << sets.communicationCount()
            << " communications, " << sets.sets.size() << " CCS, " << merged.ccsCount
            << " distinct\n";
  if (period.length > 0)
    std::cout << "iteration: " << period.length << " CCS from ccs " << period.start << ", "
              << period.repeats << " times (ccs " << period.start << " to "
              << period.start + period.length * period.repeats - 1 << ")\n";
  else
    std::cout << "iteration: none (no sequence of sets repeats)\n";
  for (std::size_t t = 0; t < sets.sets.size(); ++t) {
    const auto& set = sets.sets[t];
    std::cout << "ccs " << t << " (level " << (set.empty() ? 0 : set.front().level)
              << "): " << set.size() << " communications";
    const std::size_t first = firstOf[static_cast<std::size_t>(merged.ccsOfSet[t])];
    if (first < t) std::cout << ", same as ccs " << first;
    std::cout << "\n";
    for (const Communication& c : set)
      std::cout << "  " << c.src << " -> " << c.dst << "  " << c.bytes << " bytes  (lines "
                << c.sendLine << ", " << c.recvLine << ")\n";
  }
  return 0;
}

namespace {

int writeTrace(const std::string& output, const std::string& text) {
  checkOutputPaths({{"-o", output}});
  if (output.empty())
    std::cout << text;
  else
    writeFileAtomically(output, text);
  return 0;
}

}  // namespace

int runGenCg(const GenCgOptions& o) {
  CgOptions pattern = o.pattern;
  pattern.variant = parseCgVariant(o.variant);
  return writeTrace(o.output, generateCgTrace(pattern));
}

int runGenStencil(const GenStencilOptions& o) {
  StencilOptions pattern = o.pattern;
  pattern.dims = parseIntegerList(o.dims, 'x', "--dims");
  pattern.style = parseExchangeStyle(o.variant);
  return writeTrace(o.output, generateStencilTrace(pattern));
}

int runGenAlltoall(const GenAlltoallOptions& o) {
  AlltoallOptions pattern = o.pattern;
  pattern.style = parseExchangeStyle(o.variant);
  return writeTrace(o.output, generateAlltoallTrace(pattern));
}

int runGenRandom(const GenRandomOptions& o) {
  return writeTrace(o.output, generateRandomTrace(o.pattern));
}

}  // namespace tac3map::cli
