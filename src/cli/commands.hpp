// The subcommands of the tac3map command: options as parsed by CLI11 in main.cpp, and the
// functions that run them. Each returns the process exit code; input errors are thrown as
// InputError and printed by main.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "inputs.hpp"
#include "tac3map/gen/cg_pattern.hpp"
#include "tac3map/gen/patterns.hpp"
#include "tac3map/search/annealer.hpp"

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
  bool noEarlyStop = false;
  bool noTieBreak = false;
  int chains = 1;
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

struct ScoreOptions {
  TraceInput input;
  BoxInput box;
  std::vector<std::string> mappings;
  std::string format = "table";  // --output-format: table | json | csv
  bool json = false;             // the same as --output-format json
  std::string profile;           // adds the predicted time
  std::string model = "piecewise";
  std::string baseline;  // the mapping the ratios are taken against; "" = the first
};

struct PredictOptionsCli {
  TraceInput input;
  BoxInput box;
  std::string mapping;
  std::string profile;
  std::string model = "piecewise";
  bool barriers = false;
  bool collectivesCompare = false;
  std::string format = "text";  // text | json
  bool json = false;            // the same as format json
};

int runPredict(const PredictOptionsCli& options);

struct VizOptionsCli {
  TraceInput input;
  BoxInput box;
  std::string mapping;
  std::string compare;
  std::string output;
  bool aggregateOnly = false;
  bool quiet = false;
  std::string detail = "auto";  // auto | links | nodes | summary
  std::string plane;            // "X,Y": the slice plane's axes (empty: the two largest)
};

int runViz(const VizOptionsCli& options);

struct CcsOptionsCli {
  TraceInput input;
  std::string format = "text";  // text | json
  bool json = false;            // the same as format json
};

// The generators' options bind straight to the library's option structs; only fields given
// as text on the command line (variants, extents) pass through a string.
struct GenCgOptions {
  CgOptions pattern;
  std::string variant = "sendrecv";
  std::string output;  // empty: standard output
};

struct GenStencilOptions {
  StencilOptions pattern;
  std::string dims = "8x8x8";
  std::string variant = "isend";
  std::string output;
};

struct GenAlltoallOptions {
  AlltoallOptions pattern;
  std::string variant = "sendrecv";
  std::string output;
};

struct GenRandomOptions {
  RandomPatternOptions pattern;
  std::string output;
};

int runMap(const MapOptions& options);
int runScore(const ScoreOptions& options);
int runCcs(const CcsOptionsCli& options);
int runGenCg(const GenCgOptions& options);
int runGenStencil(const GenStencilOptions& options);
int runGenAlltoall(const GenAlltoallOptions& options);
int runGenRandom(const GenRandomOptions& options);

}  // namespace tac3map::cli
