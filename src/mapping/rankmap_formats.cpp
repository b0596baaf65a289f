// The mapping formats, one codec each (rankmap_<format>.cpp): adding a format is its file, a
// MapFormat and a line in kCodecs.
#include <algorithm>
#include <iterator>
#include <string>

#include "rankmap_codec.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/limits.hpp"

namespace tac3map {
namespace {

// In the order a file's format is recognised: the first whose recognises() accepts it reads
// it. coords goes first (its header is a comment, which the others skip), bgq-mapfile before
// cray-rank-order (on a 5D machine one line of six words with commas passes both tests and is
// read as BG/Q), and slurm-hostfile, which takes any file, last.
const mapfile::Codec* const kCodecs[] = {
    &mapfile::kCoords,          &mapfile::kJson,       &mapfile::kFujitsuVcoord,
    &mapfile::kOpenmpiRankfile, &mapfile::kBgqMapfile, &mapfile::kCrayRankOrder,
    &mapfile::kSlurmHostfile,
};

// nullptr for a value outside MapFormat.
const mapfile::Codec* codecOf(MapFormat format) {
  for (const mapfile::Codec* codec : kCodecs)
    if (codec->format == format) return codec;
  return nullptr;
}

const mapfile::Codec& recognised(const mapfile::MapFile& file) {
  return **std::find_if(std::begin(kCodecs), std::end(kCodecs),
                        [&](const mapfile::Codec* codec) { return codec->recognises(file); });
}

}  // namespace

const EnumNames<MapFormat>& mapFormatNames() {
  // In MapFormat's order, the documentation's (kCodecs is in the order files are recognised).
  static const EnumNames<MapFormat> names = [] {
    std::vector<EnumNames<MapFormat>::Entry> entries;
    for (int f = 0; f < static_cast<int>(std::size(kCodecs)); ++f)
      entries.push_back({static_cast<MapFormat>(f), codecOf(static_cast<MapFormat>(f))->name, ""});
    return EnumNames<MapFormat>("mapping format", std::move(entries));
  }();
  return names;
}

MapFormat parseMapFormat(const std::string& name) {
  return mapFormatNames().parse(name);
}

const char* mapFormatName(MapFormat format) {
  const mapfile::Codec* codec = codecOf(format);
  return codec ? codec->name : "?";
}

std::string writeRankMap(MapFormat format, const Mapping& mapping, const Machine& machine,
                         const Box& box, const NodeTable* table, const RankMapOptions& options) {
  checkMapping(mapping, box, mapFormatName(format), options.slotsPerNode);
  if (options.coresPerNode < 0 || options.socketsPerNode < 0)
    throw InputError(settingName("cores per node") + " and " + settingName("sockets per node") +
                     " must be at least 1 (or 0: unknown)");
  const mapfile::Codec* codec = codecOf(format);
  return codec ? codec->write(mapping, machine, box, table, options) : "";
}

int rankMapRanks(const std::string& path) {
  // No machine: bgq-mapfile, which needs its five axes, is not recognised, and its lines count.
  const mapfile::MapFile file = mapfile::readMapFile(path, 0);
  const mapfile::Codec& codec = recognised(file);
  if (codec.ranks) return codec.ranks(file);
  return static_cast<int>(std::min<std::size_t>(file.lines.size(), limits::kMaxJobRanks + 1));
}

Mapping readRankMap(const std::string& path, const Machine& machine, const Box& box, int tasks,
                    const NodeTable* table, const RankMapOptions& options) {
  const mapfile::MapFile file = mapfile::readMapFile(path, machine.axisCount());
  return recognised(file).read(file, machine, box, tasks, table, options);
}

}  // namespace tac3map
