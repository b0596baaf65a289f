#include "tac3map/pipeline/job_context.hpp"

#include <fstream>
#include <optional>

#include "tac3map/initial/initial_mapper.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/integer_text.hpp"
#include "tac3map/mapping/mapping_context.hpp"
#include "tac3map/mapping/mapping_names.hpp"

namespace tac3map {
namespace {

// A value of the job and where it came from, for messages: "shape 4x2x2x2x3x2" (the setting,
// named as io/error.hpp's settingName, the command line's --shape) or "a.map's 4x2x2x2x3x2".
struct Chosen {
  std::string value;
  std::string from;  // the setting, or the file that recorded it first
  bool fromOption = false;
  bool known() const { return !value.empty(); }
  std::string describe() const { return fromOption ? from + " " + value : from + "'s " + value; }
};

// Every file recording `field` (via `recorded`) must agree with the chosen value; the first
// recording file gives the value when no option did. `same` compares a file's text of the
// field with the chosen one.
template <typename Recorded, typename Same>
void agree(Chosen& chosen, const std::vector<MappingContext>& files, const char* field,
           Recorded recorded, Same same) {
  for (const MappingContext& file : files) {
    const std::string value = recorded(file);
    if (value.empty()) continue;
    if (!chosen.known()) {
      chosen = {value, file.source, false};
      continue;
    }
    if (!same(value, file, chosen))
      failIn(file.source,
             std::string("recorded ") + field + " " + value + " differs from " + chosen.describe());
  }
}

// Shapes and offsets compare as numbers ("0,0" and "00,0" are one offset); a text that is
// not a list is reported as its source's: the setting "shape" or "a.map: recorded shape".
auto sameList(char separator, const char* field) {
  return [separator, field](const std::string& value, const MappingContext& file,
                            const Chosen& chosen) {
    const std::string recorded = std::string(": recorded ") + field;
    return parseIntegerList(value, separator, file.source + recorded) ==
           parseIntegerList(chosen.value, separator,
                            chosen.fromOption ? chosen.from : chosen.from + recorded);
  };
}

bool exact(const std::string& value, const MappingContext&, const Chosen& chosen) {
  return value == chosen.value;
}

// "fx10 4x2x8x2x3x2": a machine as a mapping records it (JSON mappings: the name alone).
std::string machineText(const std::string& name, const std::string& shape) {
  return shape.empty() ? name : name + " " + shape;
}

// The recorded machine against the machine read: the same name, and the same sizes when
// recorded. `read` describes the machine file read ("machine PATH", the setting, or "its
// machine file PATH").
void checkMachine(const MappingContext& file, const Machine& machine, const std::string& read) {
  if (file.machineName.empty()) return;
  const bool same = file.machineName == machine.name &&
                    (file.machineShape.empty() || file.machineShape == machine.shapeText());
  if (!same)
    failIn(file.source,
           "recorded machine " + machineText(file.machineName, file.machineShape) +
               " differs from " + read + " (" +
               machineText(machine.name,
                           file.machineShape.empty() ? std::string() : machine.shapeText()) +
               ")");
}

// The machine: --machine, else the first recorded machine file found. `arguments`: the
// mapping arguments, for the message when none gives the machine.
Machine chooseMachine(BoxInput& box, const std::vector<MappingContext>& files,
                      const std::vector<std::string>& arguments) {
  if (!box.machine.empty()) {
    Machine machine = loadMachine(box.machine);
    for (const MappingContext& file : files)
      checkMachine(file, machine, settingName("machine") + " " + box.machine);
    return machine;
  }
  for (const MappingContext& file : files) {
    if (file.machineFile.empty()) continue;
    const std::string path = locateMachineFile(file);
    if (path.empty())
      failIn(file.source, "recorded machine file " + file.machineFile +
                              " not found (neither from the current folder nor beside the "
                              "mapping): give " +
                              settingName("machine"));
    Machine machine = loadMachine(path);
    for (const MappingContext& other : files)
      checkMachine(
          other, machine,
          (&other == &file ? "its machine file " : file.source + "'s machine file ") + path);
    box.machine = path;
    return machine;
  }
  // A mapping file that is not there says more than a missing --machine.
  for (const std::string& argument : arguments)
    if (mayBeMappingFile(argument) && !std::ifstream(argument))
      failIn(argument, "cannot open mapping file");
  for (const MappingContext& file : files)
    if (!file.machineName.empty())
      throw SettingError("machine", " is required: " + file.source + " records machine " +
                                        file.machineName +
                                        " but not its machine file (an older tac3map wrote it)");
  throw SettingError("machine",
                     " is required (or a mapping file written by tac3map 0.2.0 or later, which "
                     "records it)");
}

}  // namespace

bool mayBeMappingFile(const std::string& argument) {
  return !argument.empty() && !isMappingName(argument) && argument != "auto" &&
         argument != "random" && findInitialMapper(argument) == nullptr;
}

JobContext jobContext(const BoxInput& given, const std::vector<std::string>& mappings) {
  std::vector<MappingContext> files;
  for (const std::string& argument : mappings)
    if (mayBeMappingFile(argument))
      if (std::optional<MappingContext> context = readMappingContext(argument))
        files.push_back(std::move(*context));
  JobContext job{given, {}};
  BoxInput& box = job.box;
  job.machine = chooseMachine(box, files, mappings);
  // A machine that takes no shape (a graph) has no box: the job is its compute nodes (or
  // --nodes), whatever a mapping records as its "shape" (all of them).
  if (job.machine.takesShape()) {
    Chosen shape{box.shape, settingName("shape"), !box.shape.empty()};
    agree(
        shape, files, "shape", [](const MappingContext& f) { return f.shape; },
        sameList('x', "shape"));
    box.shape = shape.value;
    Chosen offset{box.offset, settingName("offset"), !box.offset.empty()};
    agree(
        offset, files, "offset", [](const MappingContext& f) { return f.offset; },
        sameList(',', "offset"));
    box.offset = offset.value;
  }
  Chosen k{box.ranksPerNode > 0 ? std::to_string(box.ranksPerNode) : "",
           settingName("ranks per node"), box.ranksPerNode > 0};
  agree(
      k, files, "ranks-per-node",
      [](const MappingContext& f) {
        return f.ranksPerNode > 0 ? std::to_string(f.ranksPerNode) : std::string();
      },
      exact);
  box.ranksPerNode = k.known() ? wholeInteger<int>(k.value).value_or(1) : 1;
  return job;
}

}  // namespace tac3map
