#include "predict_command.hpp"

#include <iostream>
#include <nlohmann/json.hpp>

#include "profile_models.hpp"
#include "report.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/model/collectives.hpp"
#include "tac3map/model/predict.hpp"
#include "tac3map/model/profile.hpp"
#include "tac3map/pipeline/job.hpp"
#include "tac3map/pipeline/job_context.hpp"

namespace tac3map::cli {

using nlohmann::json;

Command addPredictCommand(CLI::App& app, Deprecations& deprecated) {
  auto options = std::make_shared<PredictOptionsCli>();
  PredictOptionsCli& o = *options;
  CLI::App* cmd = app.add_subcommand(
      "predict",
      "predict the time of one iteration under a mapping from a measured profile\n  example: "
      "tac3map predict --machine topologies/fx10.json --shape 2x2x2x2x3x2 --trace "
      "examples/cg64-sendrecv.trace tofu-default --profile topologies/fx10-profile.json "
      "--barriers");
  addBoxOptions(*cmd, o.box, false);
  addTraceOptions(*cmd, o.input, &deprecated);
  cmd->add_option("mapping", o.mapping, "mapping file or name")->required();
  cmd->add_option("--profile", o.profile, "profile JSON (tac3map-pingpong writes one)")->required();
  cmd->add_option("--model", o.model, modelKindNames().help())
      ->check(choiceOf(modelKindNames()))
      ->capture_default_str();
  cmd->add_flag("--barriers", o.barriers,
                "advise where a barrier between CCSs pays (cross-CCS collisions)");
  cmd->add_flag("--collectives-compare", o.collectivesCompare,
                "each collective's predicted time under every algorithm, the best, and "
                "the best by message size");
  cmd->add_option("--output-format,-f", o.format, "text | json")
      ->check(choiceOf({"text", "json"}))
      ->capture_default_str();
  cmd->add_flag("--json", o.json, "the same as --output-format json");
  return runWhenParsed(cmd, options, runPredict);
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
                {"flow_sampled", p.flowSampled},
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
    out << ", " << format("%.6g", *p.flow) << " s by the flow model (messages in flight share links"
        << (p.flowSampled ? "; from the trace's head, two iterations and tail" : "") << ")";
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

}  // namespace tac3map::cli
