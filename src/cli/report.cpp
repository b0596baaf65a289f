#include "report.hpp"

#include <iostream>

namespace tac3map::cli {

std::ostream& report(bool quiet) {
  if (!quiet) return std::cout;
  // A stream without a buffer: every write fails silently, nothing is formatted.
  static std::ostream nowhere(nullptr);
  return nowhere;
}

}  // namespace tac3map::cli
