// Fuzz target: the sweep spec reader (docs/sweep.md), through countSweepEntries, which reads
// and checks a spec without running it. Paths in the spec are resolved, not opened.
#include "../../src/cli/sweep.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tac3map;
  const std::string path = fuzz::writeFile("spec.json", fuzz::text(data, size));
  return fuzz::onlyInputErrors([&] { cli::countSweepEntries(path); });
}
