#include "report.hpp"

#include <cstdio>
#include <iostream>

namespace tac3map::cli {

std::ostream& report(bool quiet) {
  if (!quiet) return std::cout;
  // A stream without a buffer: every write fails silently, nothing is formatted.
  static std::ostream nowhere(nullptr);
  return nowhere;
}

std::string format(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

}  // namespace tac3map::cli
