// Fuzz target: the machine description reader (torus and graph kinds), then the whole
// machine as a box, which every command builds next.
#include "fuzz_support.hpp"
#include "tac3map/network/machine.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tac3map;
  return fuzz::onlyInputErrors([&] {
    const Machine machine = parseMachine(std::string(fuzz::text(data, size)), "fuzz.json");
    makeBox(machine, machine.shapeText());
  });
}
