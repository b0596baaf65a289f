// Fuzz target: the mapping readers — readRankMap (every launcher format, recognised from the
// content), readMapping (tac3map's own coordinates file) and Scotch's readers (the file as a
// target, placed on the job; as a mapping onto the box's nodes) — on the same input. The first
// byte picks the setting: bit 0 the star graph, else the 4x3x2 torus; bit 1 a node table with
// host names (and logical coordinates on the torus); bit 2 two ranks per node; bit 3 half as
// many ranks as slots, else all of them. The rest is the file.
#include <algorithm>

#include "fuzz_machines.hpp"
#include "fuzz_support.hpp"
#include "tac3map/mapping/rankmap.hpp"
#include "tac3map/mapping/scotch_files.hpp"

namespace {

// Every box node with a host name, in reverse box order.
std::string nodeTableText(const tac3map::Machine& machine, const tac3map::Box& box) {
  std::string text;
  for (int node = box.nodeCount - 1; node >= 0; --node) {
    const std::string id = std::to_string(node);
    if (machine.namesNodes()) {
      text += "c" + id + " host=h" + id + "\n";
    } else {
      for (int c : box.coordinatesOf(node)) text += std::to_string(c) + " ";
      text += "host=h" + id + " logical=" + id + ",0,0\n";
    }
  }
  return text;
}

tac3map::NodeTable tableOf(const tac3map::Machine& machine, const std::string& name) {
  const tac3map::Box box = tac3map::makeBox(machine, machine.shapeText());
  return tac3map::readNodeTable(tac3map::fuzz::writeFile(name, nodeTableText(machine, box)),
                                machine, box);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tac3map;
  if (size == 0) return 0;
  const bool graph = data[0] & 1, withTable = data[0] & 2;
  const int slots = data[0] & 4 ? 2 : 1;
  const Machine& machine = graph ? fuzz::graphMachine() : fuzz::torusMachine();
  const Box box = makeBox(machine, machine.shapeText());
  static const NodeTable torusTable = tableOf(fuzz::torusMachine(), "torus-nodes.txt");
  static const NodeTable graphTable = tableOf(fuzz::graphMachine(), "graph-nodes.txt");
  const NodeTable* table = withTable ? (graph ? &graphTable : &torusTable) : nullptr;
  const int tasks = data[0] & 8 ? std::max(1, box.nodeCount * slots / 2) : box.nodeCount * slots;
  const std::string path = fuzz::writeFile("job.map", fuzz::text(data + 1, size - 1));
  fuzz::onlyInputErrors([&] {
    readRankMap(path, machine, box, tasks, table, RankMapOptions{slots, 0});
  });
  fuzz::onlyInputErrors([&] { scotchPartNodes(readScotchTarget(path), machine, box, table); });
  fuzz::onlyInputErrors([&] {
    // As `convert` reads it: the vertex count checked against the box first.
    std::vector<int> nodeOfPart(box.nodeCount);
    for (int node = 0; node < box.nodeCount; ++node) nodeOfPart[node] = node;
    if (isScotchMapping(path) && scotchMappingCount(path) <= box.nodeCount * slots)
      readScotchMapping(path, nodeOfPart, box, data[0] & 8 ? tasks : -1, slots);
  });
  return fuzz::onlyInputErrors([&] { readMapping(path, box, tasks, slots); });
}
