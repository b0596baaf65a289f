#include "trace_reading.hpp"

#include <cctype>
#include <filesystem>

namespace tac3map::reading {
namespace {

namespace fs = std::filesystem;

const MpiType kMpiTypes[] = {
    {0, "MPI_DOUBLE", 8, 8},
    {1, "MPI_INT", 4, 4},
    {2, "MPI_CHAR", 1, 1},
    {3, "MPI_SHORT", 2, 2},
    {4, "MPI_LONG", 8, 8},
    {5, "MPI_FLOAT", 4, 4},
    {6, "MPI_BYTE", 1, 1},
    {7, "MPI_LONG_LONG", 8, 8},
    {8, "MPI_SIGNED_CHAR", 1, 1},
    {9, "MPI_UNSIGNED_CHAR", 1, 1},
    {10, "MPI_UNSIGNED_SHORT", 2, 2},
    {11, "MPI_UNSIGNED", 4, 4},
    {12, "MPI_UNSIGNED_LONG", 8, 8},
    {13, "MPI_UNSIGNED_LONG_LONG", 8, 8},
    {14, "MPI_LONG_DOUBLE", 16, 16},
    {15, "MPI_WCHAR", 4, 4},
    {16, "MPI_C_BOOL", 1, 1},
    {17, "MPI_INT8_T", 1, 1},
    {18, "MPI_INT16_T", 2, 2},
    {19, "MPI_INT32_T", 4, 4},
    {20, "MPI_INT64_T", 8, 8},
    {21, "MPI_UINT8_T", 1, 1},
    {22, "MPI_UINT16_T", 2, 2},
    {23, "MPI_UINT32_T", 4, 4},
    {24, "MPI_UINT64_T", 8, 8},
    {25, "MPI_C_FLOAT_COMPLEX", 8, 8},
    {26, "MPI_C_DOUBLE_COMPLEX", 16, 16},
    {27, "MPI_C_LONG_DOUBLE_COMPLEX", 32, 32},
    {28, "MPI_AINT", 8, 8},
    {29, "MPI_OFFSET", 8, 8},
    {30, "MPI_FLOAT_INT", 8, 8},
    {31, "MPI_LONG_INT", 16, 12},
    {32, "MPI_DOUBLE_INT", 16, 12},
    {33, "MPI_SHORT_INT", 8, 6},
    {34, "MPI_2INT", 8, 8},
    {35, "MPI_2FLOAT", 8, 8},
    {36, "MPI_2DOUBLE", 16, 16},
    {37, "MPI_2LONG", 16, 16},
    {38, "MPI_REAL", 4, 4},
    {39, "MPI_REAL4", 4, 4},
    {40, "MPI_REAL8", 8, 8},
    {41, "MPI_REAL16", 16, 16},
    {42, "MPI_COMPLEX8", 8, 8},
    {43, "MPI_COMPLEX16", 16, 16},
    {44, "MPI_COMPLEX32", 16, 32},  // SimGrid gives it two doubles
    {45, "MPI_INTEGER1", 4, 1},     // SimGrid gives it an int
    {46, "MPI_INTEGER2", 2, 2},
    {47, "MPI_INTEGER4", 4, 4},
    {48, "MPI_INTEGER8", 8, 8},
    {49, "MPI_INTEGER16", 16, 16},
    {50, "MPI_LONG_DOUBLE_INT", 32, 20},
    {51, "MPI_CXX_BOOL", 1, 1},
    {52, "MPI_CXX_FLOAT_COMPLEX", 8, 8},
    {53, "MPI_CXX_DOUBLE_COMPLEX", 16, 16},
    {54, "MPI_CXX_LONG_DOUBLE_COMPLEX", 32, 32},
    {57, "MPI_PACKED", 1, 1},
    {58, "MPI_PTR", 8, 8},
    {59, "MPI_COUNT", 8, 8},
    // Names only (Fortran and aliases; SimGrid maps them to the ids above).
    {-1, "MPI_UNSIGNED_LONG_INT", 8, 8},
    {-1, "MPI_LONG_LONG_INT", 8, 8},
    {-1, "MPI_INTEGER", 4, 4},
    {-1, "MPI_LOGICAL", 4, 4},
    {-1, "MPI_CHARACTER", 1, 1},
    {-1, "MPI_DOUBLE_PRECISION", 8, 8},
    {-1, "MPI_COMPLEX", 8, 8},
    {-1, "MPI_DOUBLE_COMPLEX", 16, 16},
    {-1, "MPI_2INTEGER", 8, 8},
    {-1, "MPI_2REAL", 8, 8},
    {-1, "MPI_2DOUBLE_PRECISION", 16, 16}};

}  // namespace

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// The name a converted non-blocking call gives its request: r0, r1, ... Built with append:
// GCC 12 warns falsely (-Wrestrict) on "r" + std::to_string(n).
std::string requestId(std::size_t n) {
  std::string name = "r";
  name.append(std::to_string(n));
  return name;
}

// Opens a trace file for reading, or fails as the readers do on a folder or a missing file.
std::ifstream openTrace(const std::string& path) {
  std::error_code error;
  if (fs::is_directory(path, error))
    failIn(path, "is a folder (expected a trace file, an index file, or a folder of DUMPI files)");
  std::ifstream in(path);
  if (!in) failIn(path, "cannot open trace");
  return in;
}

// The file's lines, without a trailing '\r' (small files only: a DUMPI .meta file).
std::vector<std::string> readLines(const std::string& path) {
  std::vector<std::string> lines;
  forEachLine(path, [&](const std::string& line, std::size_t) {
    lines.push_back(line);
    return true;
  });
  return lines;
}

// An index file: every non-empty line names an existing file (relative to the index).
std::vector<std::string> indexEntries(const std::string& path) {
  std::vector<std::string> files;
  const fs::path base = fs::path(path).parent_path();
  bool index = true;
  forEachLine(path, [&](std::string line, std::size_t) {
    line.erase(line.find_last_not_of(" \t\r") + 1);
    line.erase(0, line.find_first_not_of(" \t"));
    if (line.empty()) return true;
    const fs::path file = fs::path(line).is_absolute() ? fs::path(line) : base / line;
    std::error_code error;
    if (line.find(' ') != std::string::npos || !fs::is_regular_file(file, error)) {
      index = false;
      return false;
    }
    files.push_back(file.string());
    return true;
  });
  if (!index) return {};
  return files;
}

bool mentions(const std::string& path, const std::string& needle) {
  bool found = false;
  forEachLine(path, [&](const std::string& line, std::size_t) {
    found = line.find(needle) != std::string::npos;
    return !found;
  });
  return found;
}

std::span<const MpiType> mpiTypes() {
  return kMpiTypes;
}

// Size of an MPI datatype by name (DUMPI prints them, SimGrid traces may); 0 if unknown.
std::uint64_t typeSize(const std::string& name) {
  for (const MpiType& type : kMpiTypes)
    if (name == type.name) return type.mpiSize;
  return 0;
}

}  // namespace tac3map::reading
