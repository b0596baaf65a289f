// tac3map sweep: the cross product of a sweep spec (traces, machines, boxes, objectives or
// baseline mappings, seeds, schedules, chains), run in parallel, one JSON line per result
// appended to an output file. A rerun skips the entries that already succeeded, so an
// interrupted job-script sweep resumes; docs/sweep.md has the spec and line formats.
#pragma once

#include <cstddef>
#include <string>

namespace tac3map::cli {

struct SweepOptions {
  std::string spec;
  std::string output;  // JSON lines, appended to
  int threads = 1;
  bool quiet = false;
};

int runSweep(const SweepOptions& options);

// Reads and checks a spec without running anything: the number of entries it describes
// (InputError as runSweep gives). For tests and the sweep spec's fuzz target.
std::size_t countSweepEntries(const std::string& spec);

}  // namespace tac3map::cli
