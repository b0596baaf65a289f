// bgq-mapfile: Blue Gene/Q runjob's --mapping, line i 'a b c d e t' for rank i: its node's
// coordinates in the box (A B C D E) and t its slot on the node.
#include <algorithm>
#include <sstream>

#include "rankmap_codec.hpp"
#include "tac3map/io/error.hpp"

namespace tac3map::mapfile {
namespace {

std::string writeBgq(const Mapping& mapping, const Machine& machine, const Box& box,
                     const NodeTable*, const RankMapOptions&) {
  if (machine.axisCount() != 5)
    throw InputError("bgq-mapfile needs a 5D machine (A B C D E), not " +
                     std::to_string(machine.axisCount()) + "D");
  std::ostringstream out;
  for (int task = 0; task < mapping.tasks(); ++task) {
    for (int c : box.coordinatesOf(mapping.nodeOfTask[task])) out << c << " ";
    out << mapping.slotOf(task) << "\n";
  }
  return out.str();
}

// Six words or more on a 5D machine.
bool isBgq(const MapFile& file) {
  return file.axes == 5 && std::count(file.head().begin(), file.head().end(), ' ') >= 5;
}

Mapping readBgq(const MapFile& file, const Machine&, const Box& box, int tasks, const NodeTable*,
                const RankMapOptions& options) {
  const std::string& path = file.path;
  MappingBuilder builder(path, box, tasks, options.slotsPerNode);
  long long rank = 0;
  for (const Line& line : file.lines) {
    std::istringstream words(line.text);
    std::vector<int> c;
    std::string word;
    while (words >> word) {
      long long value = 0;
      if (!parseInt(word, value)) failAt(path, line.number, "expected 'a b c d e t'");
      c.push_back(static_cast<int>(value));
    }
    if (c.size() != 6 || c[5] < 0)
      failAt(path, line.number, "expected 'a b c d e t' (t: the rank's slot, 0..K-1)");
    const int slot = c[5];
    c.pop_back();
    for (int a = 0; a < 5; ++a)
      if (c[a] < 0 || c[a] >= box.shape[a])
        failAt(path, line.number, "coordinates outside the box " + box.shapeText());
    builder.place(rank++, box.nodeAt(c), line.number, slot);
  }
  return builder.finish();
}

}  // namespace

const Codec kBgqMapfile = {MapFormat::BgqMapfile, "bgq-mapfile", writeBgq, isBgq, readBgq, nullptr};

}  // namespace tac3map::mapfile
