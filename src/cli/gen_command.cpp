#include "gen_command.hpp"

#include <iostream>

#include "tac3map/io/atomic_file.hpp"
#include "tac3map/io/error.hpp"

namespace tac3map::cli {

namespace {

int writeTrace(const std::string& output, const std::string& text) {
  checkOutputPaths({{"-o", output}});
  if (output.empty())
    std::cout << text;
  else
    writeFileAtomically(output, text);
  return 0;
}

}  // namespace

int runGenCg(const GenCgOptions& o) {
  CgOptions pattern = o.pattern;
  pattern.variant = parseCgVariant(o.variant);
  return writeTrace(o.output, generateCgTrace(pattern));
}

int runGenStencil(const GenStencilOptions& o) {
  StencilOptions pattern = o.pattern;
  pattern.dims = parseIntegerList(o.dims, 'x', "--dims");
  pattern.style = parseExchangeStyle(o.variant);
  return writeTrace(o.output, generateStencilTrace(pattern));
}

int runGenAlltoall(const GenAlltoallOptions& o) {
  AlltoallOptions pattern = o.pattern;
  pattern.style = parseExchangeStyle(o.variant);
  return writeTrace(o.output, generateAlltoallTrace(pattern));
}

int runGenRandom(const GenRandomOptions& o) {
  return writeTrace(o.output, generateRandomTrace(o.pattern));
}

}  // namespace tac3map::cli
