// Shared by the libFuzzer targets (docs/fuzzing.md): a scratch folder of the process's own for
// the readers that take a path, and the rule every target checks — a reader refuses bad input
// with tac3map::InputError only. Any other exception escapes LLVMFuzzerTestOneInput, so
// std::terminate aborts and libFuzzer reports the input as a crash, as it does for what
// AddressSanitizer and UndefinedBehaviorSanitizer find.
#pragma once

#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "tac3map/io/error.hpp"

namespace tac3map::fuzz {

inline std::string_view text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// A folder made once per process under $TMPDIR (or /tmp), removed at exit.
inline const std::string& scratch() {
  static const std::string dir = [] {
    const char* base = std::getenv("TMPDIR");
    std::string path = std::string(base && *base ? base : "/tmp") + "/tac3map-fuzz-XXXXXX";
    if (!mkdtemp(path.data())) {
      std::perror("mkdtemp");
      std::abort();
    }
    static const std::string removeAtExit = path;
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(removeAtExit, ignored);
    });
    return path;
  }();
  return dir;
}

// Writes `content` to scratch()/name and returns its path.
inline std::string writeFile(const std::string& name, std::string_view content) {
  const std::string path = scratch() + "/" + name;
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file || std::fwrite(content.data(), 1, content.size(), file) != content.size() ||
      std::fclose(file) != 0) {
    std::perror(path.c_str());
    std::abort();
  }
  return path;
}

// Splits `content` at lines that are exactly `separator` (the line's newline dropped with it).
inline std::vector<std::string_view> splitAtLines(std::string_view content,
                                                  std::string_view separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0, lineStart = 0;
  while (lineStart <= content.size()) {
    std::size_t end = content.find('\n', lineStart);
    const bool last = end == std::string_view::npos;
    if (last) end = content.size();
    if (content.substr(lineStart, end - lineStart) == separator) {
      parts.push_back(content.substr(start, lineStart - start));
      start = last ? content.size() : end + 1;
    }
    if (last) break;
    lineStart = end + 1;
  }
  parts.push_back(content.substr(start));
  return parts;
}

// Runs `read`; an InputError is the expected, clean refusal of a bad input (printed when
// TAC3MAP_FUZZ_VERBOSE is set: to check that the seeds are read).
template <class Read>
int onlyInputErrors(Read&& read) {
  static const bool verbose = std::getenv("TAC3MAP_FUZZ_VERBOSE") != nullptr;
  try {
    read();
    if (verbose) std::fprintf(stderr, "read\n");
  } catch (const InputError& e) {
    if (verbose) std::fprintf(stderr, "InputError: %s\n", e.what());
  }
  return 0;
}

}  // namespace tac3map::fuzz
