// Reading a sweep spec (sweep_spec.hpp): every field checked, paths resolved against the
// spec's folder, the cross product expanded into entries.
#include "sweep_spec.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <utility>

#include "tac3map/io/error.hpp"
#include "tac3map/io/json_input.hpp"
#include "tac3map/io/limits.hpp"
#include "tac3map/mapping/mapping_names.hpp"
#include "tac3map/model/model.hpp"
#include "tac3map/search/objectives.hpp"
#include "tac3map/search/refiner.hpp"

namespace tac3map::cli {
namespace {

using nlohmann::json;

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
// Temperatures it leaves out are the objective's (`defaults`).
Schedule readSchedule(const json& object, const std::string& where, const std::string& source,
                      const SearchDefaults& defaults, json& filled) {
  if (!object.is_object()) failIn(source, where + ": expected a JSON object");
  checkFields(object,
              {"t0", "t_end", "trials", "cooling", "early_stop", "tie_break", "time_limit", "moves",
               "refiner"},
              where, source);
  Schedule s;
  s.t0 = defaults.t0;
  s.tEnd = defaults.tEnd;
  s.cooling = defaults.cooling;
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
              const std::string& source, std::vector<SweepCase>& cases) {
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
        SweepCase c;
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

}  // namespace

SweepSpec readSweepSpec(const std::string& path) {
  const json doc = loadJson(path);
  if (!doc.is_object()) failIn(path, "top level: expected a JSON object");
  // Every field docs/sweep.md lists; any other is a typo ("seed" for "seeds") that would
  // silently run the default.
  checkFields(
      doc,
      {"description", "jobs", "traces", "machines", "boxes", "objectives", "init", "ranks_per_node",
       "engines", "overlap", "seeds", "schedules", "chains", "iteration", "eager_sends", "mpi"},
      "", path);
  const std::filesystem::path base = std::filesystem::path(path).parent_path();
  SweepSpec spec;
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
  std::vector<SweepCase> expanded;
  for (const SweepCase& c : spec.cases)
    for (int k : ranksPerNode)
      for (int e : engines) {
        SweepCase with = c;
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
    for (SweepCase& c : spec.cases) c.overlap = overlap;
  }
  if (doc.contains("iteration"))
    spec.iteration = static_cast<int>(
        jsonInteger(doc["iteration"], 1, std::numeric_limits<int>::max(), "iteration", path));
  if (doc.contains("mpi")) {
    if (!doc["mpi"].is_string() || doc["mpi"].get<std::string>().empty())
      failIn(path, "mpi: expected an MPI profile's name or file (docs/mpi-profiles.md)");
    spec.mpi = doc["mpi"].get<std::string>();
  }
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
  // Per objective (its defaults fill what a schedule leaves out): each schedule, and as
  // written in keys.
  const json scheduleList = doc.contains("schedules") ? arrayField(doc, "schedules", path)
                                                      : json::array({json::object()});
  const auto schedulesFor = [&](const SearchDefaults& defaults) {
    std::vector<std::pair<Schedule, json>> schedules;
    for (std::size_t i = 0; i < scheduleList.size(); ++i) {
      json filled;
      const Schedule schedule = readSchedule(
          scheduleList[i], "schedules[" + std::to_string(i) + "]", path, defaults, filled);
      schedules.emplace_back(schedule, filled);
    }
    return schedules;
  };
  schedulesFor(SearchDefaults{});  // a bad schedule fails even in a sweep of baselines only
  std::vector<int> chains;         // empty: the objective's default
  if (doc.contains("chains")) {
    const json& list = arrayField(doc, "chains", path);
    for (std::size_t i = 0; i < list.size(); ++i)
      chains.push_back(static_cast<int>(
          jsonInteger(list[i], 1, limits::kMaxChains, indexed("chains", i), path)));
  }
  const json& objectives = arrayField(doc, "objectives", path);
  for (std::size_t o = 0; o < objectives.size(); ++o) {
    const std::string name = stringAt(objectives[o], "objectives", path);
    const bool isObjective = objectiveNames().find(name).has_value();
    if (!isMappingName(name) && !isObjective) {
      std::string known;
      for (const std::string& objective : objectiveNames().names())
        known += (known.empty() ? "" : ", ") + objective;
      failIn(path, "objectives[" + std::to_string(o) + "]: '" + name +
                       "' is neither an objective (" + known +
                       ") nor a mapping name (identity, block, round-robin, tofu-default, "
                       "random:SEED)");
    }
  }
  for (std::size_t c = 0; c < spec.cases.size(); ++c) {
    const SweepCase& where = spec.cases[c];
    json caseKey = {{"trace", where.trace},
                    {"machine", where.machine},
                    {"shape", where.shape},
                    {"offset", where.offset}};
    // Only when set, so that result files of earlier sweeps keep their keys.
    if (where.ranksPerNode != 1) caseKey["ranks_per_node"] = where.ranksPerNode;
    if (where.engines != 0) caseKey["engines"] = where.engines;
    if (where.overlap != "none") caseKey["overlap"] = where.overlap;
    for (const json& objective : objectives) {
      SweepEntry e;
      e.caseIndex = c;
      e.objective = objective.get<std::string>();
      e.baseline = isMappingName(e.objective);
      if (e.baseline) {
        e.key = caseKey;
        e.key["objective"] = e.objective;
        spec.entries.push_back(e);
        continue;
      }
      const SearchDefaults& defaults = objectiveSpec(e.objective).defaults;
      const std::vector<int> chainCounts =
          chains.empty() ? std::vector<int>{defaults.chains} : chains;
      const std::vector<std::pair<Schedule, json>> schedules = schedulesFor(defaults);
      for (std::size_t i = 0; i < schedules.size(); ++i)
        for (int k : chainCounts)
          for (std::uint64_t seed : seeds) {
            const auto& [schedule, written] = schedules[i];
            e.seed = seed;
            e.schedule = schedule;
            e.defaultT0 = !scheduleList[i].contains("t0");
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

}  // namespace tac3map::cli
