// Fuzz target: the SimGrid time-independent trace reader (one file with every rank), then CCS
// extraction.
#include "fuzz_support.hpp"
#include "fuzz_trace.hpp"
#include "tac3map/io/trace_formats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tac3map;
  const std::string path = fuzz::writeFile("ti.txt", fuzz::text(data, size));
  return fuzz::onlyInputErrors(
      [&] { fuzz::extractSmallTrace(readAnyTrace(path, TraceFormat::SimgridTi, {})); });
}
