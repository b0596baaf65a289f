#include "tac3map/mapping/mapping_names.hpp"

#include <filesystem>

#include "tac3map/io/error.hpp"
#include "tac3map/io/integer_text.hpp"
#include "tac3map/io/suggest.hpp"
#include "tac3map/mapping/rankmap.hpp"
#include "tac3map/network/tofu_view.hpp"

namespace tac3map {

Mapping tofuDefaultMapping(int tasks, const Machine& machine, const Box& box, int slotsPerNode) {
  checkTasksFit(tasks, box, "tofu-default mapping", slotsPerNode);
  const LogicalTorus view = tofuLogicalTorus(machine, box);
  if (slotsPerNode == 1)
    return Mapping{std::vector<int>(view.node.begin(), view.node.begin() + tasks)};
  Mapping m;
  for (int task = 0; task < tasks; ++task) {
    m.nodeOfTask.push_back(view.node[task / slotsPerNode]);
    m.slotOfTask.push_back(task % slotsPerNode);
  }
  return m;
}

std::optional<std::uint64_t> randomMappingSeed(const std::string& name) {
  const std::string prefix = "random:";
  if (name.rfind(prefix, 0) != 0) return std::nullopt;
  const std::string digits = name.substr(prefix.size());
  const std::optional<std::uint64_t> seed = wholeInteger<std::uint64_t>(digits);
  if (!seed) throw InputError("mapping name '" + name + "': expected random:SEED, SEED an integer");
  return *seed;
}

bool isMappingName(const std::string& name) {
  return name == "identity" || name == "block" || name == "round-robin" || name == "tofu-default" ||
         name.rfind("random:", 0) == 0;
}

Mapping resolveMapping(const std::string& nameOrFile, const Machine& machine, const Box& box,
                       int tasks, const NodeTable* table, const RankMapOptions* options) {
  const int slotsPerNode = options ? options->slotsPerNode : 1;
  if (nameOrFile == "identity" || nameOrFile == "block")
    return identityMapping(tasks, box, slotsPerNode);
  if (nameOrFile == "round-robin") return roundRobinMapping(tasks, box, slotsPerNode);
  if (nameOrFile == "tofu-default") return tofuDefaultMapping(tasks, machine, box, slotsPerNode);
  if (const auto seed = randomMappingSeed(nameOrFile))
    return randomMapping(tasks, box, *seed, slotsPerNode);
  // A bare word that is not a file is more likely a misspelt name than a missing file.
  if (nameOrFile.find_first_of("/.") == std::string::npos && !std::filesystem::exists(nameOrFile))
    throw InputError("'" + nameOrFile +
                     "' is neither a mapping file nor a mapping name (identity, block, "
                     "round-robin, tofu-default, random:SEED)" +
                     didYouMean(nameOrFile, {"identity", "block", "round-robin", "tofu-default"}));
  return readRankMap(nameOrFile, machine, box, tasks, table, options ? *options : RankMapOptions{});
}

}  // namespace tac3map
