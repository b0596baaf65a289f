// tac3map bcast: a broadcast schedule on a tree network (bcast/broadcast.hpp, docs/bcast.md).
#pragma once

#include <cstdint>
#include <string>

#include "common_options.hpp"

namespace tac3map::cli {

struct BcastOptions {
  std::string machine;
  std::string root;
  std::uint64_t bytes = 1048576;
  std::string participants;  // comma-separated names; empty: every compute node
  std::string algorithm = "optimal";
  bool noBound = false;
  bool noIsomorphism = false;
  double timeLimit = 0;
  std::string output;
  std::string traceOut;
  bool quiet = false;
};

Command addBcastCommand(CLI::App& app, Deprecations& deprecated);
int runBcast(const BcastOptions& options);

}  // namespace tac3map::cli
