#include "sweep.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "report.hpp"
#include "score_table.hpp"
#include "tac3map/io/atomic_file.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/exit_codes.hpp"
#include "tac3map/io/json_input.hpp"
#include "tac3map/io/limits.hpp"
#include "tac3map/mapping/mapping_names.hpp"
#include "tac3map/pipeline/job.hpp"
#include "tac3map/search/annealer.hpp"
#include "tac3map/search/objectives.hpp"
#include "tac3map/search/refiner.hpp"

namespace tac3map::cli {
namespace {

using nlohmann::json;

struct Case {
  std::string trace, machine, shape, offset;
  int ranksPerNode = 1;
  int engines = 0;  // 0: the machine file's
  std::string overlap = "none";
};

// One point of the cross product. Baselines (named mappings) do not depend on the seed,
// schedule or chains, so each appears once per case.
struct Entry {
  std::size_t caseIndex = 0;
  std::string objective;
  bool baseline = false;
  std::uint64_t seed = 0;
  Schedule schedule;
  int chains = 1;
  std::string init = "auto";
  json key;  // what identifies the entry in the output file
};

struct Spec {
  std::vector<Case> cases;
  std::vector<Entry> entries;
  int iteration = 1;
  bool eagerSends = false;
};

std::string resolvePath(const std::filesystem::path& base, const std::string& path) {
  const std::filesystem::path p(path);
  return p.is_absolute() ? path : (base / p).lexically_normal().string();
}

// "key[i]", a JSON path for messages.
std::string indexed(const char* key, std::size_t i) {
  std::string path = key;
  path += "[";
  path += std::to_string(i);
  path += "]";
  return path;
}

const json& arrayField(const json& doc, const char* key, const std::string& source) {
  const json& value = jsonField(doc, key, "top level", source);
  if (!value.is_array() || value.empty())
    failIn(source, std::string(key) + ": expected a non-empty array");
  return value;
}

std::string stringAt(const json& value, const std::string& where, const std::string& source) {
  if (!value.is_string()) failIn(source, where + ": expected a string");
  return value.get<std::string>();
}

// Reads a schedule object; unknown fields are errors (a typo would silently run defaults).
Schedule readSchedule(const json& object, const std::string& where, const std::string& source,
                      json& filled) {
  if (!object.is_object()) failIn(source, where + ": expected a JSON object");
  checkFields(object,
              {"t0", "t_end", "trials", "cooling", "early_stop", "tie_break", "time_limit", "moves",
               "refiner"},
              where, source);
  Schedule s;
  std::string moves = "auto";
  for (const auto& [key, value] : object.items()) {
    const std::string at = where + "." + key;
    if (key == "moves") {
      moves = stringAt(value, at, source);
      continue;
    }
    if (key == "refiner") {
      s.refiner = stringAt(value, at, source);
      continue;
    }
    if (key == "early_stop" || key == "tie_break") {
      if (!value.is_boolean()) failIn(source, at + ": expected true or false");
      (key == "early_stop" ? s.earlyStop : s.breakTies) = value.get<bool>();
      continue;
    }
    if (key == "trials") {
      s.trialsPerTemperature = jsonUnsigned(value, 1, limits::kMaxTrials, at, source);
      continue;
    }
    if (!value.is_number()) failIn(source, at + ": expected a number");
    if (key == "t0")
      s.t0 = value.get<double>();
    else if (key == "t_end")
      s.tEnd = value.get<double>();
    else if (key == "cooling")
      s.cooling = value.get<double>();
    else if (key == "time_limit")
      s.timeLimit = value.get<double>();
    else
      failIn(source, at + ": unknown schedule field");  // checkFields knows them all
  }
  try {
    s.moves = parseMoveKind(moves);
    checkSchedule(s);
  } catch (const InputError& e) {
    failIn(source, where + ": " + e.what());
  }
  filled = {{"t0", s.t0},
            {"t_end", s.tEnd},
            {"trials", s.trialsPerTemperature},
            {"cooling", s.cooling},
            {"early_stop", s.earlyStop},
            {"tie_break", s.breakTies},
            {"time_limit", s.timeLimit},
            {"moves", moves},
            {"refiner", s.refiner}};
  return s;
}

void addCases(const json& traces, const json& machines, const json& boxes,
              const std::filesystem::path& base, const std::string& where,
              const std::string& source, std::vector<Case>& cases) {
  // An empty list would make the sweep do nothing and say it succeeded.
  if (traces.empty()) failIn(source, where + "trace: expected at least one trace");
  if (machines.empty()) failIn(source, where + "machine: expected at least one machine");
  if (boxes.empty())
    failIn(source, where +
                       "boxes: expected at least one box (leave \"boxes\" out for the whole "
                       "machine)");
  for (std::size_t t = 0; t < traces.size(); ++t)
    for (std::size_t m = 0; m < machines.size(); ++m)
      for (std::size_t b = 0; b < boxes.size(); ++b) {
        const std::string at = where + "boxes[" + std::to_string(b) + "]";
        Case c;
        c.trace = resolvePath(base, stringAt(traces[t], where + "traces", source));
        c.machine = resolvePath(base, stringAt(machines[m], where + "machines", source));
        if (boxes[b].is_object()) {
          checkFields(boxes[b], {"shape", "offset"}, at, source);
          c.shape = stringAt(jsonField(boxes[b], "shape", at, source), at + ".shape", source);
          if (boxes[b].contains("offset"))
            c.offset = stringAt(boxes[b]["offset"], at + ".offset", source);
        } else {
          c.shape = stringAt(boxes[b], at, source);
        }
        cases.push_back(c);
      }
}

json singleton(const json& value) {
  return value.is_array() ? value : json::array({value});
}

// An optional top-level key holding an integer or a list of integers from `low` to `high`.
std::vector<int> integerList(const json& doc, const char* key, int fallback, int low, int high,
                             const std::string& path) {
  if (!doc.contains(key)) return {fallback};
  std::vector<int> values;
  const json list = singleton(doc[key]);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = doc[key].is_array() ? indexed(key, i) : std::string(key);
    values.push_back(static_cast<int>(jsonInteger(list[i], low, high, where, path)));
  }
  if (values.empty()) failIn(path, std::string(key) + ": expected at least one value");
  return values;
}

Spec readSpec(const std::string& path) {
  const json doc = loadJson(path);
  if (!doc.is_object()) failIn(path, "top level: expected a JSON object");
  // Every field docs/sweep.md lists; any other is a typo ("seed" for "seeds") that would
  // silently run the default.
  checkFields(
      doc,
      {"description", "jobs", "traces", "machines", "boxes", "objectives", "init", "ranks_per_node",
       "engines", "overlap", "seeds", "schedules", "chains", "iteration", "eager_sends"},
      "", path);
  const std::filesystem::path base = std::filesystem::path(path).parent_path();
  Spec spec;
  if (doc.contains("jobs")) {
    const json& jobs = arrayField(doc, "jobs", path);
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      const std::string where = "jobs[" + std::to_string(j) + "]";
      checkFields(jobs[j], {"trace", "machine", "boxes"}, where, path);
      // No boxes: the whole machine (a graph machine's compute nodes; a torus needs boxes).
      addCases(singleton(jsonField(jobs[j], "trace", where, path)),
               singleton(jsonField(jobs[j], "machine", where, path)),
               jobs[j].contains("boxes") ? singleton(jobs[j]["boxes"]) : json::array({""}), base,
               where + ".", path, spec.cases);
    }
  } else {
    addCases(arrayField(doc, "traces", path), arrayField(doc, "machines", path),
             doc.contains("boxes") ? arrayField(doc, "boxes", path) : json::array({""}), base, "",
             path, spec.cases);
  }
  // Ranks per node and injection engines multiply the cases.
  const std::vector<int> ranksPerNode = integerList(doc, "ranks_per_node", 1, 1, 4096, path);
  const std::vector<int> engines = integerList(doc, "engines", 0, 1, 64, path);
  std::vector<Case> expanded;
  for (const Case& c : spec.cases)
    for (int k : ranksPerNode)
      for (int e : engines) {
        Case with = c;
        with.ranksPerNode = k;
        with.engines = e;
        expanded.push_back(with);
      }
  spec.cases = expanded;
  std::string init = "auto";
  if (doc.contains("init")) init = stringAt(doc["init"], "init", path);
  if (doc.contains("overlap")) {
    const std::string overlap = stringAt(doc["overlap"], "overlap", path);
    try {
      parseOverlap(overlap);
    } catch (const InputError& e) {
      failIn(path, std::string("overlap: ") + e.what());
    }
    for (Case& c : spec.cases) c.overlap = overlap;
  }
  if (doc.contains("iteration"))
    spec.iteration = static_cast<int>(
        jsonInteger(doc["iteration"], 1, std::numeric_limits<int>::max(), "iteration", path));
  if (doc.contains("eager_sends")) {
    if (!doc["eager_sends"].is_boolean()) failIn(path, "eager_sends: expected true or false");
    spec.eagerSends = doc["eager_sends"].get<bool>();
  }

  std::vector<std::uint64_t> seeds{1};
  if (doc.contains("seeds")) {
    seeds.clear();
    const json& list = arrayField(doc, "seeds", path);
    for (std::size_t i = 0; i < list.size(); ++i)
      seeds.push_back(jsonUnsigned(list[i], 0, std::numeric_limits<std::uint64_t>::max(),
                                   indexed("seeds", i), path));
  }
  std::vector<std::pair<Schedule, json>> schedules;  // and as written in keys
  const json scheduleList = doc.contains("schedules") ? arrayField(doc, "schedules", path)
                                                      : json::array({json::object()});
  for (std::size_t i = 0; i < scheduleList.size(); ++i) {
    json filled;
    const Schedule schedule =
        readSchedule(scheduleList[i], "schedules[" + std::to_string(i) + "]", path, filled);
    schedules.emplace_back(schedule, filled);
  }
  std::vector<int> chains{1};
  if (doc.contains("chains")) {
    chains.clear();
    const json& list = arrayField(doc, "chains", path);
    for (std::size_t i = 0; i < list.size(); ++i)
      chains.push_back(static_cast<int>(
          jsonInteger(list[i], 1, limits::kMaxChains, indexed("chains", i), path)));
  }
  const json& objectives = arrayField(doc, "objectives", path);
  for (std::size_t o = 0; o < objectives.size(); ++o) {
    const std::string name = stringAt(objectives[o], "objectives", path);
    const auto& specs = objectiveSpecs();
    const bool isObjective = std::any_of(specs.begin(), specs.end(),
                                         [&](const ObjectiveSpec& s) { return name == s.name; });
    if (!isMappingName(name) && !isObjective) {
      std::string known;
      for (const ObjectiveSpec& spec : specs)
        known += (known.empty() ? "" : ", ") + std::string(spec.name);
      failIn(path, "objectives[" + std::to_string(o) + "]: '" + name +
                       "' is neither an objective (" + known +
                       ") nor a mapping name (identity, block, round-robin, tofu-default, "
                       "random:SEED)");
    }
  }
  for (std::size_t c = 0; c < spec.cases.size(); ++c) {
    const Case& where = spec.cases[c];
    json caseKey = {{"trace", where.trace},
                    {"machine", where.machine},
                    {"shape", where.shape},
                    {"offset", where.offset}};
    // Only when set, so that result files of earlier sweeps keep their keys.
    if (where.ranksPerNode != 1) caseKey["ranks_per_node"] = where.ranksPerNode;
    if (where.engines != 0) caseKey["engines"] = where.engines;
    if (where.overlap != "none") caseKey["overlap"] = where.overlap;
    for (const json& objective : objectives) {
      Entry e;
      e.caseIndex = c;
      e.objective = objective.get<std::string>();
      e.baseline = isMappingName(e.objective);
      if (e.baseline) {
        e.key = caseKey;
        e.key["objective"] = e.objective;
        spec.entries.push_back(e);
        continue;
      }
      for (const auto& [schedule, written] : schedules)
        for (int k : chains)
          for (std::uint64_t seed : seeds) {
            e.seed = seed;
            e.schedule = schedule;
            e.chains = k;
            e.key = caseKey;
            e.key["objective"] = e.objective;
            e.key["seed"] = seed;
            e.key["schedule"] = written;
            e.key["chains"] = k;
            e.init = init;
            e.key["init"] = init;
            spec.entries.push_back(e);
          }
    }
  }
  return spec;
}

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

json runEntry(const Entry& e, const Job& job) {
  json result = {{"key", e.key}};
  if (e.baseline) {
    const Mapping mapping = job.mapping(e.objective);
    result["scores"] = scoresJson(job.score(mapping));
    return result;
  }
  const ObjectiveKind objective = parseObjective(e.objective);
  // time_limit bounds the entry's whole search, starts included, as map's --time-limit does.
  Schedule schedule = e.schedule;
  schedule.deadline = schedule.until();
  schedule.timeLimit = 0;
  const Mapping start = job.start(e.init, objective, schedule, e.seed);
  const ChainsResult run =
      annealChains(job.problem, job.router, objective, start, schedule, e.seed, e.chains, 1);
  const SearchResult& best = run.chains[run.best];
  std::uint64_t trials = 0;
  for (const SearchResult& chain : run.chains) trials += chain.trials;
  result["scores"] = scoresJson(job.withTimeline(best.bestScores, best.best));
  result["search"] = {{"trials", trials},
                      {"seconds", run.seconds},
                      {"stopped", best.stopped},
                      {"best_chain", run.best}};
  return result;
}

// Per case and objective: runs, best and mean tac3 as a multiple of its bound, best hops.
void printSummary(std::ostream& out, const Spec& spec, const std::map<std::string, json>& done) {
  struct Row {
    int runs = 0;
    double best = 0, sum = 0, bestHops = 0;
    std::string bestSeed = "-";
  };
  std::map<std::size_t, std::vector<std::pair<std::string, Row>>> table;
  for (const Entry& e : spec.entries) {
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
    const Case& c = spec.cases[caseIndex];
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
  return readSpec(spec).entries.size();
}

int runSweep(const SweepOptions& o) {
  if (o.threads < 1) throw InputError("--threads must be at least 1");
  const Spec spec = readSpec(o.spec);
  checkOutputPaths({{"-o", o.output}});
  std::map<std::string, json> done = readDone(o.output);
  std::vector<const Entry*> pending;
  for (const Entry& e : spec.entries)
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
  const auto record = [&](const Entry& e, json result, const std::string& error) {
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
      const Case& where = spec.cases[c];
      try {
        jobs[c] = std::make_unique<Job>(
            BoxInput{where.machine, where.shape, where.offset, "", where.ranksPerNode,
                     where.engines, where.overlap},
            TraceInput{where.trace, spec.iteration, spec.eagerSends, ""}, TraceEvents::Release);
      } catch (const std::exception& e) {
        jobErrors[c] = e.what();
      }
    });
    return jobs[c].get();
  };
  std::atomic<std::size_t> next{0};
  const auto worker = [&] {
    for (std::size_t i = next++; i < pending.size(); i = next++) {
      const Entry& e = *pending[i];
      const Job* job = jobFor(e.caseIndex);
      if (!job) {
        record(e, json::object(), jobErrors[e.caseIndex]);
        continue;
      }
      try {
        record(e, runEntry(e, *job), "");
      } catch (const std::exception& error) {
        record(e, json::object(), error.what());
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
