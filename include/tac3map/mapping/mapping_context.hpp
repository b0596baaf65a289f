// What a mapping file records about the job it was made for: the machine (its name, its sizes
// and the machine file it was read from), the box (shape and offset) and the ranks per node.
// tac3map's coordinates files keep it in their header comments, JSON mappings in top-level
// fields (docs/file-formats.md), so that the commands reading a mapping (score, predict, viz,
// map --init) need not be told the job again, and can refuse options that contradict it.
#pragma once

#include <optional>
#include <string>

namespace tac3map {

struct MappingContext {
  std::string source;        // the mapping file, for messages
  std::string machineName;   // the machine file's "name"; empty: not recorded
  std::string machineShape;  // the machine's sizes, "4x2x8x2x3x2"; empty: not recorded
  // The machine file as map --machine was given; empty: not recorded (files written before
  // tac3map 0.2.0 record only the name).
  std::string machineFile;
  std::string shape;     // the box, "2x2x2x2x3x2"; empty: not recorded
  std::string offset;    // the box's origin, "0,0,0,0,0,0"; empty: not recorded
  int ranksPerNode = 0;  // K; 0: not recorded
};

// The header lines of a coordinates mapping file ('# tac3map mapping 1' first) that carry its
// context, ending in a newline each: '# machine NAME SIZES', '# shape S offset O',
// '# machine-file PATH' (when `machineFile` is not empty) and '# ranks-per-node K'.
std::string formatMappingContext(const std::string& machineName, const std::string& machineShape,
                                 const std::string& machineFile, const std::string& shape,
                                 const std::string& offset, int ranksPerNode);

// The context recorded in a tac3map coordinates file or a JSON mapping; nullopt for a mapping
// name, any other format, or a file that cannot be read or parsed (its reader says why).
std::optional<MappingContext> readMappingContext(const std::string& path);

// The recorded machine file as a path to open: absolute, or relative as written when that
// exists from the current folder, else relative to the mapping file's folder; empty when
// nothing is recorded or no such file exists.
std::string locateMachineFile(const MappingContext& context);

}  // namespace tac3map
