// Fuzz target: the DUMPI (dumpi2ascii) reader, then CCS extraction. The input is the rank
// files one after the other, separated by lines '%%rank' (no separator: one rank); they are
// written to the scratch folder with an index file listing them, which is what is read.
#include "fuzz_support.hpp"
#include "fuzz_trace.hpp"
#include "tac3map/io/trace_formats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tac3map;
  const auto ranks = fuzz::splitAtLines(fuzz::text(data, size), "%%rank");
  if (ranks.size() > 16) return -1;  // not kept in the corpus
  std::string index;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const std::string name = "dumpi-" + std::to_string(r) + ".txt";
    fuzz::writeFile(name, ranks[r]);
    index += name + "\n";
  }
  const std::string path = fuzz::writeFile("index", index);
  return fuzz::onlyInputErrors(
      [&] { fuzz::extractSmallTrace(readAnyTrace(path, TraceFormat::Dumpi, {})); });
}
