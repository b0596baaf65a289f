// What the trace readers share: trace_formats.cpp dispatches to the readers of SimGrid's
// time-independent traces (simgrid_ti_reader.cpp) and of DUMPI's text output
// (dumpi_reader.cpp); the native reader is trace.cpp. Private to src/io.
#pragma once

#include <cstdint>
#include <fstream>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "tac3map/io/error.hpp"
#include "tac3map/io/integer_text.hpp"
#include "tac3map/io/trace.hpp"

namespace tac3map::reading {

// The text in lower case (ASCII): SimGrid action names are matched in any case.
std::string lower(std::string text);

// The name a converted non-blocking call gives its request: r0, r1, ... Built with append:
// GCC 12 warns falsely (-Wrestrict) on "r" + std::to_string(n).
std::string requestId(std::size_t n);

// The Trace::requests indexes of r0, r1, ..., each name interned once: every rank numbers
// its requests from r0, and a whole-run trace has millions of them.
class RequestIds {
 public:
  explicit RequestIds(NameTable& names) : names_(names) {}
  int operator()(int n) {
    const auto wanted = static_cast<std::size_t>(n);
    while (ids_.size() <= wanted) ids_.push_back(names_.intern(requestId(ids_.size())));
    return ids_[wanted];
  }

 private:
  NameTable& names_;
  std::vector<int> ids_;
};

// Opens a trace file for reading, or fails as the readers do on a folder or a missing file.
std::ifstream openTrace(const std::string& path);

// Calls visit(line, number) on each line of the file in turn, without a trailing '\r' (files
// written on Windows read the same), until it returns false. One line in memory at a time:
// reading a trace takes memory for what it keeps, not for the file's text.
template <class Visit>
void forEachLine(const std::string& path, Visit visit) {
  std::ifstream in = openTrace(path);
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!visit(line, number)) return;
  }
}

// The file's lines, without a trailing '\r' (small files only: a DUMPI .meta file).
std::vector<std::string> readLines(const std::string& path);

// An index file: every non-empty line names an existing file (relative to the index).
std::vector<std::string> indexEntries(const std::string& path);

bool mentions(const std::string& path, const std::string& needle);

// MPI datatypes: SimGrid's id (smpi_datatype.cpp, SimGrid 3.32; -1 = no id), name, size
// in bytes as SimGrid replays it (sizeof of its C type on LP64: pairs padded), and as
// MPI_Type_size gives it (the data bytes: pairs unpadded), used for names. A table for
// reading only: SimGrid's code is not used.
struct MpiType {
  int id;
  const char* name;
  std::uint64_t simgridSize, mpiSize;
};
// Every MPI datatype the readers know, in SimGrid's id order.
std::span<const MpiType> mpiTypes();
// Size of an MPI datatype by name (DUMPI prints them, SimGrid traces may); 0 if unknown.
std::uint64_t typeSize(const std::string& name);

struct Reader {
  const std::string& file;
  int fileIndex;
  std::size_t line = 0;

  [[noreturn]] void fail(const std::string& message) const { failAt(file, line, message); }

  long long integer(const std::string& word, const char* what) const {
    const std::optional<long long> value = wholeInteger<long long>(word);
    if (!value) fail(std::string("expected ") + what + ", got '" + word + "'");
    return *value;
  }
  // A collective's root: a rank of its communicator, checked against the communicator later;
  // here only that it is one (negative or past 32 bits would wrap when stored).
  int root(const std::string& word) const {
    const long long value = integer(word, "a root");
    if (value < 0 || value > std::numeric_limits<int>::max())
      fail("root " + word + " is not a rank (expected 0 or more, below 2^31)");
    return static_cast<int>(value);
  }
  int rank(const std::string& word, int ranks, const char* what) const {
    const long long r = integer(word, what);
    if (r < 0 || r >= ranks)
      fail(std::string(what) + " " + word + " is outside 0.." + std::to_string(ranks - 1));
    return static_cast<int>(r);
  }
  Event event(EventKind kind) const {
    Event e;
    e.kind = kind;
    e.line = line;
    e.file = fileIndex;
    return e;
  }
};

// The readers of the two other formats, each given the trace's files (an index file's
// entries, a DUMPI folder's rank files, or the one file).
Trace readSimgrid(const std::string& path, const std::vector<std::string>& files,
                  const RankLimit& limit);
Trace readDumpi(const std::string& path, const std::vector<std::string>& files,
                const TraceOptions& options);
// A folder as dumpi writes it: its per-rank files in rank order (InputError when it is not).
std::vector<std::string> dumpiFolderFiles(const std::string& folder);

}  // namespace tac3map::reading
