// A sweep spec (docs/sweep.md) read, checked and expanded: its cases (trace, machine, box,
// ranks per node, engines, overlap) and the cross product's entries, each with the key that
// identifies its result line. Running them is sweep.cpp's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tac3map/search/schedule.hpp"

namespace tac3map::cli {

struct SweepCase {
  std::string trace, machine, shape, offset;
  int ranksPerNode = 1;
  int engines = 0;  // 0: the machine file's
  std::string overlap = "none";
};

// One point of the cross product. Baselines (named mappings) do not depend on the seed,
// schedule or chains, so each appears once per case.
struct SweepEntry {
  std::size_t caseIndex = 0;
  std::string objective;
  bool baseline = false;
  std::uint64_t seed = 0;
  Schedule schedule;
  bool defaultT0 = false;  // the schedule leaves t0 to the objective (SearchDefaults::t0For)
  int chains = 1;
  std::string init = "auto";
  nlohmann::json key;  // what identifies the entry in the output file
};

struct SweepSpec {
  std::vector<SweepCase> cases;
  std::vector<SweepEntry> entries;
  int iteration = 1;
  bool eagerSends = false;
  std::string mpi;  // "mpi": every case's MPI profile; empty: each machine file's
};

// InputError, naming the spec file, on anything the spec cannot mean.
SweepSpec readSweepSpec(const std::string& path);

}  // namespace tac3map::cli
