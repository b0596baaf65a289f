// slurm-hostfile: SLURM_HOSTFILE for srun --distribution=arbitrary, line i the host of rank i.
#include <sstream>

#include "rankmap_codec.hpp"

namespace tac3map::mapfile {
namespace {

std::string writeHostfile(const Mapping& mapping, const Machine& machine, const Box&,
                          const NodeTable* table, const RankMapOptions&) {
  // A node's host once per rank on it.
  std::ostringstream out;
  for (int task = 0; task < mapping.tasks(); ++task)
    out << hostOf(machine, table, mapping.nodeOfTask[task], "slurm-hostfile") << "\n";
  return out.str();
}

// Any file no other format claims: a host name can be any word.
bool isHostfile(const MapFile&) {
  return true;
}

// A host per line, in rank order; lowest free slot of its node.
Mapping readHostfile(const MapFile& file, const Machine& machine, const Box& box, int tasks,
                     const NodeTable* table, const RankMapOptions& options) {
  MappingBuilder builder(file.path, box, tasks, options.slotsPerNode);
  const auto byHost = nodesByHost(machine, table, "slurm-hostfile", file.path);
  long long rank = 0;
  for (const Line& line : file.lines)
    builder.place(rank++, hostNode(byHost, line.text, file.path, line.number), line.number);
  return builder.finish();
}

}  // namespace

const Codec kSlurmHostfile = {
    MapFormat::SlurmHostfile, "slurm-hostfile", writeHostfile, isHostfile, readHostfile, nullptr};

}  // namespace tac3map::mapfile
