// tac3map map: a mapping found by the search (pipeline/map_job.hpp), written for the launcher,
// with a JSON report on request (docs/map.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common_options.hpp"
#include "tac3map/pipeline/inputs.hpp"
#include "tac3map/search/schedule.hpp"

namespace tac3map::cli {

struct MapOptions {
  TraceInput input;
  BoxInput box;
  std::string objective = "tac3";
  std::uint64_t seed = 1;
  std::string init = "auto";
  std::string grid;  // --grid 48x46x72: the ranks' process grid for the geometric start
  std::string moves = "auto";
  Schedule schedule;
  // Unset: the objective's default (objectives.hpp, SearchDefaults).
  std::optional<double> t0, tEnd, cooling;
  std::optional<int> chains;
  bool noEarlyStop = false;
  bool noTieBreak = false;
  int threads = 1;
  bool quiet = false;
  std::string output;
  std::string mapFormat = "coords";
  // The Open MPI rank file's binding (docs/rankmap-formats.md): C cores and S sockets a node
  // has (0: the machine file's, else unknown) and --bind core | socket | none.
  int coresPerNode = 0;
  int socketsPerNode = 0;
  std::string bind = "core";
  std::string report;
};

Command addMapCommand(CLI::App& app, Deprecations& deprecated);
int runMap(const MapOptions& options);

}  // namespace tac3map::cli
