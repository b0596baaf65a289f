// What a job is made of, as text a user gives (a command line, a sweep spec, a program that
// embeds the library): the trace and how to read it, the machine and the box. job.hpp builds
// the job from them; each field's comment names the option of `tac3map` that sets it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tac3map {

// What every command that reads a trace needs.
struct TraceInput {
  std::string trace;
  int iteration = 1;
  bool eagerSends = false;
  std::string collectives;       // "allreduce=ring,..."
  std::string format = "auto";   // auto | native | simgrid-ti | dumpi
  bool allowEmpty = false;       // accept a trace without messages between ranks
  // --eager-limit: sends below this many bytes are eager; none: the MPI profile's.
  std::optional<std::uint64_t> eagerLimit;
  // --mpi: an MPI profile's name or file (mpi_profile.hpp); empty: the machine file's.
  std::string mpi;
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

}  // namespace tac3map
