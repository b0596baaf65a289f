// Fuzz target: the node table reader (readNodeTable, docs/rankmap-formats.md). The first byte
// picks the machine and box (bit 0: the star graph, else the torus; bit 1: the torus box
// 2x3x2 at offset 1,0,0 instead of all of it); the rest is the table, written to a file.
#include "fuzz_machines.hpp"
#include "fuzz_support.hpp"
#include "tac3map/mapping/rankmap.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tac3map;
  if (size == 0) return 0;
  const bool graph = data[0] & 1, part = data[0] & 2;
  const Machine& machine = graph ? fuzz::graphMachine() : fuzz::torusMachine();
  const Box box = graph ? makeBox(machine, machine.shapeText())
                        : makeBox(machine, part ? "2x3x2" : "4x3x2", part ? "1,0,0" : "");
  const std::string path = fuzz::writeFile("nodes.txt", fuzz::text(data + 1, size - 1));
  return fuzz::onlyInputErrors([&] { readNodeTable(path, machine, box); });
}
