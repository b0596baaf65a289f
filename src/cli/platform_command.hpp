// tac3map platform: the job's box as a SimGrid platform (platform.hpp) and, for a mapping,
// the SMPI host file that places each rank on its node, for `smpirun -replay`.
#pragma once

#include <string>

#include "common_options.hpp"

namespace tac3map::cli {

struct PlatformOptions {
  std::string machine;
  std::string shape;
  std::string offset;
  int ranksPerNode = 1;
  int engines = 0;  // 0: the machine file's
  std::string trace;
  int ranks = 0;  // 0: from --trace or the mapping file
  std::string traceFormat = "auto";
  std::string mapping = "identity";
  std::string output;
  std::string hostfile;
  std::string mpi;           // empty: the machine file's
  bool noMpiConfig = false;  // no <config> section
  bool quiet = false;
};

Command addPlatformCommand(CLI::App& app, Deprecations& deprecated);
int runPlatform(const PlatformOptions& options);

}  // namespace tac3map::cli
