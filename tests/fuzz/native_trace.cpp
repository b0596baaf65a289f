// Fuzz target: the native trace reader (docs/trace-format.md), then CCS extraction.
#include <sstream>

#include "fuzz_support.hpp"
#include "fuzz_trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tac3map;
  return fuzz::onlyInputErrors([&] {
    std::istringstream in{std::string(fuzz::text(data, size))};
    fuzz::extractSmallTrace(parseTrace(in, "fuzz.trace"));
  });
}
