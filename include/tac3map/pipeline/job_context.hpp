// The job a command's mapping files record (mapping_context.hpp) merged into its box options,
// so that `score a.map`, `predict a.map`, `viz a.map` and `map --init a.map` need no
// --machine/--shape: what the options leave out comes from the files, what they give must
// agree with every file that records it, and the files must agree with each other.
#pragma once

#include <string>
#include <vector>

#include "tac3map/network/machine.hpp"
#include "tac3map/pipeline/inputs.hpp"

namespace tac3map {

// Whether a mapping argument (score's mappings, predict's and viz's, map --init) names a file
// rather than a mapping name (identity, random:SEED, ...) or a start (auto, geometric, ...).
bool mayBeMappingFile(const std::string& argument);

// The box options with everything filled in, and the machine they name, read once.
struct JobContext {
  BoxInput box;
  Machine machine;
};

// `given` completed from the mapping files among `mappings` (names are skipped): --machine
// from the first file recording its machine file, --shape and --offset from the first
// recording the box (not on a graph machine), --ranks-per-node (0: not given) from the first
// recording K, else 1. InputError naming the file and the field when a given option, or the
// file the value came from, differs from a file's record ("a.map: recorded shape 2x2x2x2x3x2
// differs from --shape 4x2x2x2x3x2"); machines compare by their name (and sizes), not their
// path. When neither --machine nor a file gives the machine: "--machine is required ...".
JobContext jobContext(const BoxInput& given, const std::vector<std::string>& mappings);

}  // namespace tac3map
