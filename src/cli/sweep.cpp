// Running a sweep (sweep.hpp): the spec's entries (sweep_spec.hpp) not yet done, in
// parallel, each result appended as a JSON line; then a summary.
#include "sweep.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "report.hpp"
#include "score_table.hpp"
#include "sweep_spec.hpp"
#include "tac3map/io/atomic_file.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/exit_codes.hpp"
#include "tac3map/pipeline/job.hpp"
#include "tac3map/pipeline/map_job.hpp"
#include "tac3map/search/annealer.hpp"
#include "tac3map/search/objectives.hpp"
#include "usage.hpp"

namespace tac3map::cli {
namespace {

using nlohmann::json;

// Results already in the output file, by key. A last line cut short (the sweep was killed
// while writing it) is cut off the file, so that the rerun appends after whole lines; any
// other unreadable line is an error.
std::map<std::string, json> readDone(const std::string& path) {
  std::map<std::string, json> done;
  std::ifstream in(path, std::ios::binary);
  if (!in) return done;
  std::vector<std::string> lines;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  const bool endsWithNewline = text.empty() || text.back() == '\n';
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    json line;
    try {
      line = json::parse(lines[i]);
    } catch (const json::parse_error&) {
      if (i + 1 == lines.size() && !endsWithNewline) {
        std::filesystem::resize_file(path, text.size() - lines[i].size());
        break;
      }
      failAt(path, i + 1, "not a sweep result line (invalid JSON)");
    }
    if (!line.is_object() || !line.contains("key") || !line.contains("status"))
      failAt(path, i + 1, "not a sweep result line (no key or status)");
    if (line["status"] == "ok") done[line["key"].dump()] = line;
  }
  // A whole last line without its newline (an editor, a copy): end it, so that the next
  // result starts a line of its own.
  if (!endsWithNewline && std::filesystem::file_size(path) == text.size()) {
    std::ofstream end(path, std::ios::binary | std::ios::app);
    end << '\n';
    if (!end) failIn(path, "cannot append to the results file");
  }
  return done;
}

json runEntry(const SweepEntry& e, const Job& job) {
  json result = {{"key", e.key}};
  if (e.baseline) {
    const Mapping mapping = job.mapping(e.objective);
    result["scores"] = scoresJson(job.score(mapping));
    return result;
  }
  // time_limit bounds the entry's whole search, starts included, as map's --time-limit does;
  // a sweep compares searches, so its result is the search's (no flow ranking).
  MapJobOptions options;
  options.objective = parseObjective(e.objective);
  options.schedule = e.schedule;
  if (e.defaultT0)
    options.schedule.t0 = objectiveSpec(options.objective).defaults.t0For(job.problem.tasks);
  options.seed = e.seed;
  options.init = e.init;
  options.chains = e.chains;
  options.rankByFlow = false;
  const MapResult mapped = mapJob(job, options);
  const ChainsResult& run = mapped.run;
  const SearchResult& best = mapped.winner();
  std::uint64_t trials = 0;
  for (const SearchResult& chain : run.chains) trials += chain.trials;
  result["scores"] = scoresJson(mapped.scores);
  result["search"] = {{"trials", trials},
                      {"seconds", run.seconds},
                      {"stopped", best.stopped},
                      {"best_chain", run.best}};
  return result;
}

// Per case and objective: runs, best and mean tac3 as a multiple of its bound, best hops.
void printSummary(std::ostream& out, const SweepSpec& spec,
                  const std::map<std::string, json>& done) {
  struct Row {
    int runs = 0;
    double best = 0, sum = 0, bestHops = 0;
    std::string bestSeed = "-";
  };
  std::map<std::size_t, std::vector<std::pair<std::string, Row>>> table;
  for (const SweepEntry& e : spec.entries) {
    const auto it = done.find(e.key.dump());
    if (it == done.end()) continue;
    auto& rows = table[e.caseIndex];
    auto row = std::find_if(rows.begin(), rows.end(),
                            [&](const auto& r) { return r.first == e.objective; });
    if (row == rows.end()) row = rows.insert(rows.end(), {e.objective, Row{}});
    const json& s = it->second["scores"];
    const double ratio = s["tac3"].get<double>() / s["tac3_lower_bound"].get<double>();
    Row& r = row->second;
    if (r.runs == 0 || ratio < r.best) {
      r.best = ratio;
      r.bestSeed = e.baseline ? "-" : std::to_string(e.seed);
    }
    r.bestHops = r.runs == 0 ? s["avg_hops"].get<double>()
                             : std::min(r.bestHops, s["avg_hops"].get<double>());
    r.sum += ratio;
    ++r.runs;
  }
  char line[512];
  std::snprintf(line, sizeof line, "%-34s %-16s %-14s %5s %11s %6s %11s %9s\n", "trace", "box",
                "objective", "runs", "best tac3x", "seed", "mean tac3x", "best hops");
  out << line;
  for (const auto& [caseIndex, rows] : table) {
    double best = rows.front().second.best;
    for (const auto& [name, r] : rows) best = std::min(best, r.best);
    const SweepCase& c = spec.cases[caseIndex];
    const std::string trace = std::filesystem::path(c.trace).filename().string();
    for (const auto& [name, r] : rows) {
      std::snprintf(line, sizeof line, "%-34s %-16s %-14s %5d %10.3f%s %6s %11.3f %9.4f\n",
                    trace.c_str(), c.shape.c_str(), name.c_str(), r.runs, r.best,
                    r.best == best ? "*" : " ", r.bestSeed.c_str(), r.sum / r.runs, r.bestHops);
      out << line;
    }
  }
  out << "tac3x: tac3 as a multiple of its contention-free lower bound; * best per trace and box\n";
}

}  // namespace

std::size_t countSweepEntries(const std::string& spec) {
  return readSweepSpec(spec).entries.size();
}

int runSweep(const SweepOptions& o) {
  if (o.threads < 1) throw InputError("--threads must be at least 1");
  const SweepSpec spec = readSweepSpec(o.spec);
  checkOutputPaths({{"-o", o.output}});
  std::map<std::string, json> done = readDone(o.output);
  std::vector<const SweepEntry*> pending;
  for (const SweepEntry& e : spec.entries)
    if (!done.count(e.key.dump())) pending.push_back(&e);

  std::FILE* file = std::fopen(o.output.c_str(), "ab");
  if (!file) failIn(o.output, "cannot open for appending");
  std::mutex lock;
  int failed = 0, finished = 0;
  const bool log = !o.quiet;
  if (log)
    std::cerr << "sweep: " << spec.entries.size() << " entries, "
              << spec.entries.size() - pending.size() << " already done, " << pending.size()
              << " to run on " << o.threads << " threads\n";
  const auto record = [&](const SweepEntry& e, json result, const std::string& error) {
    result["key"] = e.key;
    result["status"] = error.empty() ? "ok" : "error";
    if (!error.empty()) result["error"] = error;
    const std::string text = result.dump() + "\n";
    const std::lock_guard<std::mutex> guard(lock);
    std::fwrite(text.data(), 1, text.size(), file);
    std::fflush(file);
    ++finished;
    if (error.empty())
      done[e.key.dump()] = result;
    else
      ++failed;
    if (log)
      std::cerr << "[" << finished << "/" << pending.size() << "] " << e.objective << " "
                << spec.cases[e.caseIndex].shape << (error.empty() ? " ok" : " failed: " + error)
                << "\n";
  };

  // Jobs (trace, CCSs, routes) are built once per case, by whichever thread needs one first.
  std::vector<std::once_flag> built(spec.cases.size());
  std::vector<std::unique_ptr<Job>> jobs(spec.cases.size());
  std::vector<std::string> jobErrors(spec.cases.size());
  const auto jobFor = [&](std::size_t c) -> const Job* {
    std::call_once(built[c], [&] {
      const SweepCase& where = spec.cases[c];
      try {
        TraceInput trace;
        trace.trace = where.trace;
        trace.iteration = spec.iteration;
        trace.eagerSends = spec.eagerSends;
        trace.mpi = spec.mpi;
        jobs[c] = std::make_unique<Job>(
            BoxInput{where.machine, where.shape, where.offset, "", where.ranksPerNode,
                     where.engines, where.overlap},
            trace, TraceEvents::Release);
      } catch (const std::exception& e) {
        jobErrors[c] = commandLineMessage(e);  // "the one-line message map would print"
      }
    });
    return jobs[c].get();
  };
  std::atomic<std::size_t> next{0};
  const auto worker = [&] {
    for (std::size_t i = next++; i < pending.size(); i = next++) {
      const SweepEntry& e = *pending[i];
      const Job* job = jobFor(e.caseIndex);
      if (!job) {
        record(e, json::object(), jobErrors[e.caseIndex]);
        continue;
      }
      try {
        record(e, runEntry(e, *job), "");
      } catch (const std::exception& error) {
        record(e, json::object(), commandLineMessage(error));
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < o.threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& thread : pool) thread.join();
  std::fclose(file);

  printSummary(report(o.quiet), spec, done);
  if (failed > 0) {
    std::cerr << "sweep: " << failed << " of " << pending.size() << " entries failed (see "
              << o.output << ")\n";
    return kExitPartial;
  }
  return kExitOk;
}

}  // namespace tac3map::cli
