// coords: tac3map's own mapping file, '<rank> <box coordinates> [slot]' under a header that
// records the job (mapping.hpp: formatMapping, readMapping).
#include "rankmap_codec.hpp"

namespace tac3map::mapfile {
namespace {

std::string writeCoords(const Mapping& mapping, const Machine& machine, const Box& box,
                        const NodeTable*, const RankMapOptions& options) {
  return formatMapping(mapping, machine, box, options.slotsPerNode);
}

// Told by its first line, a comment the other readers would skip.
bool isCoords(const MapFile& file) {
  return file.text.rfind("# tac3map mapping", 0) == 0;
}

Mapping readCoords(const MapFile& file, const Machine&, const Box& box, int tasks, const NodeTable*,
                   const RankMapOptions& options) {
  return readMapping(file.path, box, tasks, options.slotsPerNode);
}

int coordsRanks(const MapFile& file) {
  return mappingFileRanks(file.path);
}

}  // namespace

const Codec kCoords = {MapFormat::Coords, "coords", writeCoords, isCoords, readCoords, coordsRanks};

}  // namespace tac3map::mapfile
