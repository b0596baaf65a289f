#include "ccs_command.hpp"

#include <iostream>
#include <nlohmann/json.hpp>

#include "tac3map/model/ccs.hpp"
#include "tac3map/model/problem.hpp"
#include "tac3map/pipeline/job.hpp"

namespace tac3map::cli {

using nlohmann::json;

Command addCcsCommand(CLI::App& app, Deprecations& deprecated) {
  auto options = std::make_shared<CcsOptionsCli>();
  CcsOptionsCli& o = *options;
  CLI::App* cmd = app.add_subcommand(
      "ccs",
      "print the concurrent communication sets of a trace\n  example: tac3map ccs "
      "--trace examples/cg64-sendrecv.trace --json");
  addTraceOptions(*cmd, o.input, &deprecated);
  cmd->add_option("--output-format,-f", o.format,
                  "text | json ({\"ccs\": [[{src, dst, bytes}, ...], ...], \"distinct\", "
                  "\"same_as\", \"period\"})")
      ->check(choiceOf({"text", "json"}))
      ->capture_default_str();
  cmd->add_flag("--json", o.json, "the same as --output-format json");
  return runWhenParsed(cmd, options, runCcs);
}

int runCcs(const CcsOptionsCli& o) {
  const CcsSet sets = ccsOf(loadTrace(o.input), o.input, jobMpiProfile(o.input, nullptr));
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

}  // namespace tac3map::cli
