// What every command that reads a trace or places ranks on a box takes from the command line
// (job.hpp builds the job from them; commands.hpp holds each command's own options).
#pragma once

#include <cstdint>
#include <string>

namespace tac3map::cli {

// What every command that reads a trace needs.
struct TraceInput {
  std::string trace;
  int iteration = 1;
  bool eagerSends = false;
  std::string collectives;       // "allreduce=ring,..."
  std::string format = "auto";   // auto | native | simgrid-ti | dumpi
  bool allowEmpty = false;       // accept a trace without messages between ranks
  std::uint64_t eagerLimit = 0;  // blocking sends below this many bytes are eager
};

struct BoxInput {
  std::string machine;  // empty: the mapping file's (job_context.hpp)
  std::string shape;
  std::string offset;
  std::string nodes;                 // node table (rankmap.hpp), optional
  int ranksPerNode = 0;              // K: MPI ranks (slots) per node; 0: the mapping's, else 1
  int engines = 0;                   // 0: the machine file's
  std::string overlap = "none";      // none | adjacent | auto (docs/model.md: why none)
  std::string engineSets = "level";  // level | split: CCSs with several engines
};

}  // namespace tac3map::cli
