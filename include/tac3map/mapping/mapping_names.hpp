// A mapping by name or by file, as every command takes it: the launcher placements
// (mapping.hpp) and the Tofu logical torus order (tofu-default, built here on tofu_view.hpp's
// view) by name, else a rank-map file of any format (rankmap.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "tac3map/mapping/mapping.hpp"
#include "tac3map/network/machine.hpp"

namespace tac3map {

// Rank k on the k-th logical position, logical X fastest.
// K > 1 ranks per node: block placement over the view's node order.
Mapping tofuDefaultMapping(int tasks, const Machine& machine, const Box& box, int slotsPerNode = 1);

struct NodeTable;

// The seed of a mapping name "random:SEED"; nullopt for any other name; InputError when the
// seed is not an integer.
std::optional<std::uint64_t> randomMappingSeed(const std::string& name);
// Whether resolveMapping reads `name` as a mapping name (identity, block, round-robin,
// tofu-default, random:...) rather than as a file.
bool isMappingName(const std::string& name);
struct RankMapOptions;

// A mapping by name or file: "identity" (block placement), "round-robin", "random:SEED",
// "tofu-default", else a rank-map file of any format (rankmap.hpp; host-based formats need
// the node table; `options`: K ranks per node and C cores per node, default one rank per
// node; names place ranks over K slots per node).
Mapping resolveMapping(const std::string& nameOrFile, const Machine& machine, const Box& box,
                       int tasks, const NodeTable* table = nullptr,
                       const RankMapOptions* options = nullptr);

}  // namespace tac3map
