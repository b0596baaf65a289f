#include "tac3map/io/trace_formats.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <sstream>

#include "tac3map/io/error.hpp"
#include "tac3map/io/words.hpp"

namespace tac3map {
namespace {

namespace fs = std::filesystem;

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
std::ifstream openTrace(const std::string& path) {
  std::error_code error;
  if (fs::is_directory(path, error))
    failIn(path, "is a folder (expected a trace file, an index file, or a folder of DUMPI files)");
  std::ifstream in(path);
  if (!in) failIn(path, "cannot open trace");
  return in;
}

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

// MPI datatypes: SimGrid's id (smpi_datatype.cpp, SimGrid 3.32; -1 = no id), name, size
// in bytes as SimGrid replays it (sizeof of its C type on LP64: pairs padded), and as
// MPI_Type_size gives it (the data bytes: pairs unpadded), used for names. A table for
// reading only: SimGrid's code is not used.
struct MpiType {
  int id;
  const char* name;
  std::uint64_t simgridSize, mpiSize;
};
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

// Size of an MPI datatype by name (DUMPI prints them, SimGrid traces may); 0 if unknown.
std::uint64_t typeSize(const std::string& name) {
  for (const MpiType& type : kMpiTypes)
    if (name == type.name) return type.mpiSize;
  return 0;
}

struct Reader {
  const std::string& file;
  int fileIndex;
  std::size_t line = 0;

  [[noreturn]] void fail(const std::string& message) const { failAt(file, line, message); }

  long long integer(const std::string& word, const char* what) const {
    long long value = 0;
    const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
    if (error != std::errc() || end != word.data() + word.size())
      fail(std::string("expected ") + what + ", got '" + word + "'");
    return value;
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

// ---- SimGrid time-independent traces --------------------------------------------------
//
// The argument layouts are those of SimGrid 3.32's replay parsers (smpi_replay.cpp): fixed
// positions, optional fields from the end; a datatype field is SimGrid's numeric id (or an
// MPI name) and makes the size a count of that type. Without it the rank's default type
// applies: bytes, or MPI_DOUBLE after an `init` with an argument (SMPI's MPE convention).

// A pending isend/irecv: the key a current-syntax wait names it by, and its request.
struct TiRequest {
  long long src, dst, tag;
  int request;
};

struct TiRank {
  std::vector<Event> events;
  std::vector<TiRequest> live;
  int next = 0;
  std::uint64_t defaultType = 1;  // bytes; 8 after 'init <anything>'
  // alltoallv count lists, moved into Trace::blocks (Event::blocks indexes them) when the
  // ranks' events are gathered.
  std::vector<std::vector<std::uint64_t>> blocks;
};

// A datatype field: SimGrid's id, or an MPI name; its size in bytes as SimGrid replays it.
std::uint64_t tiTypeSize(const Reader& r, const std::string& word) {
  int id = 0;
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), id);
  const bool numeric = error == std::errc() && end == word.data() + word.size();
  for (const MpiType& type : kMpiTypes) {
    if (numeric && type.id >= 0 && id == type.id) return type.simgridSize;
    if (!numeric && word == type.name) return type.mpiSize;
  }
  // SMPI traces a derived (not replayable) datatype's message as count x size bytes, with
  // no predefined type id: the size is bytes already.
  if (numeric && id == -1) return 1;
  if (numeric && (id == 55 || id == 56))
    r.fail("datatype id " + word + " has no size (55/56 are MPI_UB/MPI_LB, markers, not data)");
  r.fail("unknown datatype '" + word + "' (expected a SimGrid datatype id 0..59 or an MPI name)");
}

bool isTypeName(const std::string& word) {
  return typeSize(word) > 0;
}

void readTiLine(const Reader& r, const std::vector<std::string>& words, int ranks,
                std::vector<TiRank>& state, RequestIds& requests) {
  if (words.size() < 2) r.fail("expected '<rank> <action> ...'");
  const int rank = r.rank(words[0], ranks, "rank");
  const std::string action = lower(words[1]);
  if (action == "compute") return;  // flops: read and ignored (below), and half the lines
  TiRank& s = state[rank];
  const auto need = [&](std::size_t n, const char* usage) {
    if (words.size() < n) r.fail("'" + words[1] + "' takes the form '<rank> " + usage + "'");
  };
  // words[i] elements of the datatype at words[type] (the default type if absent), in bytes.
  const auto bytesAt = [&](std::size_t i, std::size_t type) {
    const std::uint64_t element = type < words.size() ? tiTypeSize(r, words[type]) : s.defaultType;
    return messageBytes(r.file, r.line, words[i], "size", element);
  };
  const auto rootAt = [&](std::size_t i) { return i < words.size() ? r.root(words[i]) : 0; };
  // SimGrid 3.32: '<peer> <tag> <size> [datatype]'; older: '<peer> <size> [datatype name]'.
  const auto pointToPoint = [&](EventKind kind, bool nonBlocking) {
    need(4, "send|recv|isend|irecv <peer> <tag> <size> [datatype]");
    Event e = r.event(kind);
    e.peer = r.rank(words[2], ranks, "peer rank");
    const bool tagless = words.size() == 4 || (words.size() == 5 && isTypeName(words[4]));
    e.tag = tagless ? 0 : r.integer(words[3], "a tag");
    e.bytes = tagless ? bytesAt(3, 4) : bytesAt(4, 5);
    if (nonBlocking) {
      e.request = requests(s.next++);
      const bool send = kind == EventKind::Isend;
      s.live.push_back({send ? rank : e.peer, send ? e.peer : rank, e.tag, e.request});
    }
    s.events.push_back(e);
  };
  const auto collective = [&](CollectiveOp op, std::uint64_t bytes, int root) {
    Event e = r.event(EventKind::Collective);
    e.op = op;
    e.bytes = bytes;
    e.root = root;
    s.events.push_back(e);
  };
  if (action == "send") return pointToPoint(EventKind::Send, false);
  if (action == "recv") return pointToPoint(EventKind::Recv, false);
  if (action == "isend") return pointToPoint(EventKind::Isend, true);
  if (action == "irecv") return pointToPoint(EventKind::Irecv, true);
  if (action == "wait") {
    if (s.live.empty()) r.fail("wait without a pending isend/irecv");
    auto it = s.live.end() - 1;  // older syntax: the last request posted (SMPI's replay)
    if (words.size() >= 5) {     // current: 'wait <src> <dst> <tag>'
      const long long src = r.integer(words[2], "a rank");
      const long long dst = r.integer(words[3], "a rank");
      const long long tag = r.integer(words[4], "a tag");
      it = std::find_if(s.live.begin(), s.live.end(), [&](const TiRequest& request) {
        return request.src == src && request.dst == dst && request.tag == tag;
      });
      if (it == s.live.end())
        r.fail("no pending request " + std::to_string(src) + " " + std::to_string(dst) + " " +
               std::to_string(tag) + " to wait for");
    }
    Event e = r.event(EventKind::Wait);
    e.request = it->request;
    s.live.erase(it);
    s.events.push_back(e);
    return;
  }
  if (action == "waitall") {
    s.events.push_back(r.event(EventKind::Waitall));
    s.live.clear();
    return;
  }
  if (action == "sendrecv") {  // SMPI's sendRecv: both halves with tag 0
    need(6, "sendRecv <send_size> <dst> <recv_size> <src> [send_type] [recv_type]");
    Event e = r.event(EventKind::Sendrecv);
    e.peer = r.rank(words[3], ranks, "destination rank");
    e.peer2 = r.rank(words[5], ranks, "source rank");
    e.bytes = bytesAt(2, 6);
    e.bytes2 = bytesAt(4, 7);
    return s.events.push_back(e);
  }
  if (action == "barrier") return s.events.push_back(r.event(EventKind::Barrier));
  if (action == "bcast") {
    need(3, "bcast <size> [root] [datatype]");
    return collective(CollectiveOp::Bcast, bytesAt(2, 4), rootAt(3));
  }
  if (action == "reduce") {
    need(4, "reduce <comm_size> <comp_size> [root] [datatype]");
    return collective(CollectiveOp::Reduce, bytesAt(2, 5), rootAt(4));
  }
  if (action == "allreduce") {
    need(4, "allreduce <comm_size> <comp_size> [datatype]");
    return collective(CollectiveOp::Allreduce, bytesAt(2, 4), 0);
  }
  if (action == "alltoall" || action == "allgather") {
    need(4, "alltoall|allgather <send_size> <recv_size> [send_type] [recv_type]");
    return collective(action == "alltoall" ? CollectiveOp::Alltoall : CollectiveOp::Allgather,
                      bytesAt(2, 4), 0);
  }
  if (action == "gather") {  // the size each rank sends, in the send type
    need(4, "gather <send_size> <recv_size> [root] [send_type] [recv_type]");
    return collective(CollectiveOp::Gather, bytesAt(2, 5), rootAt(4));
  }
  if (action == "scatter") {  // the size each rank receives, in the receive type
    need(4, "scatter <send_size> <recv_size> [root] [send_type] [recv_type]");
    return collective(CollectiveOp::Scatter, bytesAt(3, 6), rootAt(4));
  }
  if (action == "reducescatter") {
    // One recv count per rank of MPI_COMM_WORLD, the computation size, [datatype].
    const std::size_t n = static_cast<std::size_t>(ranks);
    if (words.size() < n + 3)
      r.fail("'" + words[1] + "' takes the form '<rank> reducescatter <recv_count x " +
             std::to_string(ranks) + " ranks> <comp_size> [datatype]'");
    std::uint64_t largest = 0;
    for (std::size_t i = 2; i < n + 2; ++i) largest = std::max(largest, bytesAt(i, n + 3));
    return collective(CollectiveOp::ReduceScatter, largest, 0);
  }
  // The v-collectives list one count per rank of MPI_COMM_WORLD (SimGrid 3.32's replay
  // parser). Counts at [first, first + ranks) in the type at `type`: each checked, in bytes.
  const std::size_t n = static_cast<std::size_t>(ranks);
  const auto countsAt = [&](std::size_t first, std::size_t type) {
    std::vector<std::uint64_t> counts(n);
    for (std::size_t i = 0; i < n; ++i) counts[i] = bytesAt(first + i, type);
    return counts;
  };
  const auto needCounts = [&](std::size_t lists, const char* usage) {
    if (words.size() < 2 + lists * n + 1)
      r.fail("'" + words[1] + "' takes the form '<rank> " + usage + "' with " +
             std::to_string(ranks) + " counts per list (one per rank)");
  };
  if (action == "gatherv") {  // <send_size> <recv_counts...> [root] [send_type] [recv_type]
    needCounts(1, "gatherv <send_size> <recv_count per rank> [root] [send_type] [recv_type]");
    countsAt(3, 5 + n);  // checked; each rank's own send size is its block
    return collective(CollectiveOp::Gatherv, bytesAt(2, 4 + n), rootAt(3 + n));
  }
  if (action == "scatterv") {  // <send_counts...> <recv_size> [root] [send_type] [recv_type]
    needCounts(1, "scatterv <send_count per rank> <recv_size> [root] [send_type] [recv_type]");
    countsAt(2, 4 + n);
    return collective(CollectiveOp::Scatterv, bytesAt(2 + n, 5 + n), rootAt(3 + n));
  }
  if (action == "allgatherv") {  // <send_size> <recv_counts...> [datatype] [displacements...]
    needCounts(1, "allgatherv <send_size> <recv_count per rank> [datatype]");
    countsAt(3, 3 + n);
    return collective(CollectiveOp::Allgatherv, bytesAt(2, 3 + n), 0);
  }
  if (action == "alltoallv") {
    // <send_buffer> <send_counts...> <recv_buffer> <recv_counts...> [send_type] [recv_type]
    if (words.size() < 4 + 2 * n)
      r.fail("'" + words[1] +
             "' takes the form '<rank> alltoallv <send_buffer_size> <send_count "
             "per rank> <recv_buffer_size> <recv_count per rank> [send_type] [recv_type]' with " +
             std::to_string(ranks) + " counts per list");
    std::vector<std::uint64_t> sent = countsAt(3, 4 + 2 * n);
    std::vector<std::uint64_t> received = countsAt(4 + n, 5 + 2 * n);
    Event e = r.event(EventKind::Collective);
    e.op = CollectiveOp::Alltoallv;
    e.blocks = static_cast<int>(s.blocks.size());
    s.blocks.push_back(std::move(sent));
    s.blocks.push_back(std::move(received));
    return s.events.push_back(e);
  }
  if (action == "scan" || action == "exscan") {
    // SimGrid 3.32 writes '<endpoint -1> <tag> <size> <datatype>'; older: '<size> [datatype]'.
    const bool current = words.size() >= 5 && words[2] == "-1";
    need(3, "scan|exscan <size> [datatype]");
    return collective(action == "scan" ? CollectiveOp::Scan : CollectiveOp::Exscan,
                      current ? bytesAt(4, 5) : bytesAt(2, 3), 0);
  }
  if (action == "init") {
    if (words.size() > 2) s.defaultType = 8;  // SMPI: MPI_DOUBLE, the MPE default
    return;
  }
  if (action == "sleep") {
    need(3, "sleep <seconds>");
    Event e = r.event(EventKind::Compute);
    std::size_t used = 0;
    try {
      e.seconds = std::stod(words[2], &used);
    } catch (const std::exception&) {
      used = 0;
    }
    // Whole word, a finite number of seconds >= 0 (NaN, inf and "1x" are not).
    if (used == 0 || used != words[2].size() || !std::isfinite(e.seconds) || e.seconds < 0)
      r.fail("sleep " + words[2] + ": expected seconds, a finite number >= 0");
    return s.events.push_back(e);
  }
  // Read and ignored: computation in flops (no speed known), tests, communicator management
  // (collectives are taken on all ranks), source locations.
  static const char* ignored[] = {"finalize", "compute", "comm_size", "comm_split", "comm_dup",
                                  "location", "test",    "testall",   "waitany"};
  for (const char* name : ignored)
    if (action == name) return;
  r.fail("unknown SimGrid action '" + words[1] + "'");
}

Trace readSimgrid(const std::string& path, const std::vector<std::string>& files,
                  const RankLimit& limit) {
  // Ranks: the highest rank seen + 1 (SimGrid files carry no count). A first pass finds it
  // (and checks every line's rank), a second reads the actions: one line in memory at a time.
  Trace trace;
  trace.source = path;
  trace.files = {path};
  int ranks = 0;
  for (const std::string& file : files)
    forEachLine(file, [&](const std::string& text, std::size_t number) {
      const std::size_t end = std::min(text.find('#'), text.size());
      std::size_t first = 0;
      while (first < end && isSpace(text[first])) ++first;
      if (first == end) return true;  // no words
      std::size_t last = first;
      while (last < end && !isSpace(text[last])) ++last;
      long long rank = 0;
      const auto [stop, error] = std::from_chars(text.data() + first, text.data() + last, rank);
      if (error != std::errc() || stop != text.data() + last || rank < 0)
        failAt(file, number,
               "expected '<rank> <action> ...', got '" + text.substr(first, last - first) + "'");
      limit.checkRank(rank, file, number);  // before any per-rank table is sized
      ranks = std::max(ranks, static_cast<int>(rank) + 1);
      return true;
    });
  if (ranks == 0) failIn(path, "no actions in the SimGrid trace");
  trace.ranks = ranks;
  std::vector<TiRank> state(ranks);
  RequestIds requests(trace.requests);
  std::vector<std::string> words;
  for (const std::string& file : files) {
    const int index = static_cast<int>(trace.files.size());
    trace.files.push_back(file);
    forEachLine(file, [&](const std::string& text, std::size_t number) {
      splitWords(text, words);
      if (!words.empty()) readTiLine(Reader{file, index, number}, words, ranks, state, requests);
      return true;
    });
  }
  trace.events.resize(ranks);
  for (int rank = 0; rank < ranks; ++rank) {
    // Per-rank block indexes become indexes into the trace's one table.
    const int offset = static_cast<int>(trace.blocks.size());
    for (Event& e : state[rank].events)
      if (e.blocks >= 0) e.blocks += offset;
    for (auto& list : state[rank].blocks) trace.blocks.push_back(std::move(list));
    state[rank].events.shrink_to_fit();
    trace.events[rank] = std::move(state[rank].events);
  }
  return trace;
}

// ---- DUMPI (dumpi2ascii) -----------------------------------------------------------------

struct DumpiCall {
  std::string name;  // "MPI_Send"
  std::size_t line = 0;
  std::map<std::string, std::string> args;  // "count" -> "1000", "datatype" -> "MPI_DOUBLE"
};

// "int count=1000", "MPI_Datatype datatype=4 (MPI_DOUBLE)", "MPI_Request request=[2]",
// "MPI_Request requests[2]=[1, 2]" (dumpi2ascii's arrays; also "requests=[2]{1, 2}"):
// argument name (without an array's length) and its value (a type name where one is printed).
void readArgument(const std::string& text, DumpiCall& call) {
  const auto equals = text.find('=');
  if (equals == std::string::npos) return;
  const auto space = text.rfind(' ', equals);
  std::string name = text.substr(space == std::string::npos ? 0 : space + 1,
                                 equals - (space == std::string::npos ? 0 : space + 1));
  name = name.substr(0, name.find('['));
  std::string value = text.substr(equals + 1);
  const auto open = value.find('('), close = value.find(')');
  if (open != std::string::npos && close != std::string::npos &&
      value.find("MPI_") != std::string::npos)
    value = value.substr(open + 1, close - open - 1);  // "4 (MPI_DOUBLE)" -> "MPI_DOUBLE"
  call.args[name] = value;
}

std::vector<long long> braceList(const Reader& r, const std::string& value) {
  // "[1, 2]" (dumpi2ascii) or "[2]{1, 2}" -> {1, 2}; "<IGNORED>" -> {}
  std::vector<long long> values;
  const bool braces = value.find('{') != std::string::npos;
  const auto open = value.find(braces ? '{' : '['), close = value.find(braces ? '}' : ']');
  if (open == std::string::npos || close == std::string::npos || close < open) return values;
  std::stringstream in(value.substr(open + 1, close - open - 1));
  for (std::string item; std::getline(in, item, ',');) {
    item.erase(0, item.find_first_not_of(' '));
    if (!item.empty()) values.push_back(r.integer(item, "a list item"));
  }
  return values;
}

// Calls visit(call) on each call of a dumpi2ascii file in turn, with its arguments (the lines
// up to its 'returning' line or the next call): one call in memory at a time. A file without
// a call is an error.
template <class Visit>
void forEachDumpiCall(const std::string& file, Visit visit) {
  DumpiCall call;
  bool pending = false, open = false, any = false;  // a call not visited yet; taking arguments
  forEachLine(file, [&](const std::string& text, std::size_t number) {
    const auto entering = text.find(" entering at walltime");
    const auto returning = text.find(" returning at walltime");
    if (entering != std::string::npos) {
      if (pending) visit(static_cast<const DumpiCall&>(call));
      call = {text.substr(0, entering), number, {}};
      pending = open = any = true;
    } else if (returning != std::string::npos) {
      open = false;
    } else if (open) {
      readArgument(text, call);
    }
    return true;
  });
  if (pending) visit(static_cast<const DumpiCall&>(call));
  if (!any)
    failIn(file,
           "no DUMPI calls (expected the text dumpi2ascii prints: 'MPI_Init entering at "
           "walltime ...' blocks)");
}

// A communicator handle as printed: "MPI_COMM_WORLD", or its number ("5", "5 (user)").
std::string handleOf(const std::string& value) {
  if (value.find("MPI_COMM_WORLD") != std::string::npos) return "";
  return value.substr(0, value.find(' '));
}

// Sub-communicators from MPI_Comm_split / MPI_Comm_dup: the k-th split call of every rank is
// the same split (MPI requires all ranks of the parent to call it in the same order); ranks
// with one colour form a communicator, ordered by key, then by rank in the parent.
// handles[rank]: DUMPI handle -> communicator id of trace.comms ("" = MPI_COMM_WORLD).
// `calls`: each rank's MPI_Comm_split and MPI_Comm_dup calls, in order (others are ignored).
void readCommunicators(const std::vector<std::vector<DumpiCall>>& calls, Trace& trace,
                       std::vector<std::map<std::string, std::string>>& handles) {
  struct Split {
    int rank;
    long long color, key;
    std::string handle;
  };
  std::map<std::pair<std::string, int>, std::vector<Split>> splits;  // (parent id, k) -> calls
  handles.assign(calls.size(), {});
  for (int rank = 0; rank < static_cast<int>(calls.size()); ++rank) {
    std::map<std::string, int> count;  // per parent
    for (const DumpiCall& call : calls[rank]) {
      const auto get = [&](const char* name) {
        const auto it = call.args.find(name);
        return it == call.args.end() ? std::string() : it->second;
      };
      // dumpi2ascii names the parent "oldcomm"; "comm" is read too.
      const std::string parentHandle =
          handleOf(get(call.args.count("oldcomm") ? "oldcomm" : "comm"));
      if (call.name == "MPI_Comm_dup") {
        handles[rank][handleOf(get("newcomm"))] = handles[rank][parentHandle];
      } else if (call.name == "MPI_Comm_split") {
        const std::string parent = handles[rank][parentHandle];
        long long color = 0, key = 0;
        std::from_chars(get("color").data(), get("color").data() + get("color").size(), color);
        std::from_chars(get("key").data(), get("key").data() + get("key").size(), key);
        splits[{parent, count[parent]++}].push_back({rank, color, key, handleOf(get("newcomm"))});
      }
    }
  }
  for (auto& [where, members] : splits) {
    const std::vector<int>* parent = where.first.empty() ? nullptr : &trace.comms.at(where.first);
    const auto parentRank = [&](int world) {
      if (!parent) return world;
      return static_cast<int>(std::find(parent->begin(), parent->end(), world) - parent->begin());
    };
    std::stable_sort(members.begin(), members.end(), [&](const Split& a, const Split& b) {
      return a.color != b.color ? a.color < b.color
             : a.key != b.key   ? a.key < b.key
                                : parentRank(a.rank) < parentRank(b.rank);
    });
    for (std::size_t i = 0; i < members.size();) {
      std::size_t j = i;
      std::vector<int> ranks;
      while (j < members.size() && members[j].color == members[i].color)
        ranks.push_back(members[j++].rank);
      if (members[i].color >= 0) {  // MPI_UNDEFINED is negative: no communicator
        const std::string id = "split" + std::to_string(trace.comms.size());
        trace.comms[id] = ranks;
        for (std::size_t k = i; k < j; ++k) handles[members[k].rank][members[k].handle] = id;
      }
      i = j;
    }
  }
}

// Appends the rank's events; returns where its MPI_Pcontrol(1) iterations start.
std::vector<std::size_t> convertDumpiRank(const std::string& file, int fileIndex, int rank,
                                          int ranks, Trace& trace,
                                          const std::map<std::string, std::string>& handles,
                                          RequestIds& requests) {
  std::vector<std::size_t> iterations;
  std::map<std::string, int> requestName;  // DUMPI request id -> native name (Trace::requests)
  int next = 0;
  auto& events = trace.events[rank];
  forEachDumpiCall(file, [&](const DumpiCall& call) {
    const Reader r{file, fileIndex, call.line};
    const auto arg = [&](const char* name) -> const std::string& {
      const auto it = call.args.find(name);
      if (it == call.args.end()) r.fail(call.name + " without '" + name + "'");
      return it->second;
    };
    const auto bytes = [&](const char* count, const char* type) {
      const std::uint64_t size = typeSize(arg(type));
      if (size == 0) r.fail("unknown datatype '" + arg(type) + "'");
      return messageBytes(file, call.line, arg(count), "count", size);
    };
    // The call's communicator id ("" = all ranks); `members` set to its world ranks.
    const std::vector<int>* members = nullptr;
    const auto comm = [&]() -> std::string {
      members = nullptr;
      const auto it = call.args.find("comm");
      if (it == call.args.end()) return "";
      const std::string handle = handleOf(it->second);
      if (handle.empty()) return "";
      const auto known = handles.find(handle);
      if (known == handles.end())
        r.fail(call.name + " on communicator " + it->second +
               ", which no MPI_Comm_split or MPI_Comm_dup of this rank created");
      if (!known->second.empty()) members = &trace.comms.at(known->second);
      return known->second;
    };
    // A peer given as a rank of the call's communicator, as a world rank.
    const auto world = [&](const std::string& value, const char* what) {
      if (!members) return r.rank(value, ranks, what);
      const long long local = r.integer(value, what);
      if (local < 0 || local >= static_cast<long long>(members->size()))
        r.fail(std::string(what) + " " + value + " is outside the communicator");
      return (*members)[local];
    };
    // A request handle as printed alone ("[7]") or in a list (7): the same key.
    const auto handle = [](const std::string& id) {
      std::string key;
      for (char c : id)
        if (c != '[' && c != ']' && c != ' ') key += c;
      return key;
    };
    const auto request = [&](const std::string& id) {
      const int name = requests(next++);
      requestName[handle(id)] = name;
      return name;
    };
    const auto waitFor = [&](const std::string& id) {
      const auto it = requestName.find(handle(id));
      if (it == requestName.end()) return;  // a request not posted in the trace (or null)
      Event e = r.event(EventKind::Wait);
      e.request = it->second;
      requestName.erase(it);
      events.push_back(e);
    };
    const std::string& n = call.name;
    Event e;
    if (n == "MPI_Send" || n == "MPI_Ssend" || n == "MPI_Bsend" || n == "MPI_Rsend" ||
        n == "MPI_Isend" || n == "MPI_Issend" || n == "MPI_Irsend" || n == "MPI_Ibsend") {
      comm();
      const bool nonBlocking = n[4] == 'I';
      e = r.event(nonBlocking ? EventKind::Isend : EventKind::Send);
      e.peer = world(arg("dest"), "destination");
      e.bytes = bytes("count", "datatype");
      e.tag = r.integer(arg("tag"), "a tag");
      if (nonBlocking) e.request = request(arg("request"));
      events.push_back(e);
    } else if (n == "MPI_Recv" || n == "MPI_Irecv") {
      comm();
      e = r.event(n == "MPI_Irecv" ? EventKind::Irecv : EventKind::Recv);
      const std::string& source = arg("source");
      if (source.find("ANY") != std::string::npos || source == "-1")
        r.fail("MPI_ANY_SOURCE receive: the DUMPI reader needs a known source");
      e.peer = world(source, "source");
      e.bytes = bytes("count", "datatype");
      e.tag = r.integer(arg("tag"), "a tag");
      if (n == "MPI_Irecv") e.request = request(arg("request"));
      events.push_back(e);
    } else if (n == "MPI_Sendrecv") {
      comm();
      e = r.event(EventKind::Sendrecv);
      e.peer = world(arg("dest"), "destination");
      e.bytes = bytes("sendcount", "sendtype");
      e.peer2 = world(arg("source"), "source");
      e.bytes2 = bytes("recvcount", "recvtype");
      e.tag = r.integer(arg("sendtag"), "a tag");
      if (r.integer(arg("recvtag"), "a tag") != e.tag)
        r.fail("MPI_Sendrecv with different send and receive tags");
      events.push_back(e);
    } else if (n == "MPI_Wait" || n == "MPI_Test") {
      waitFor(arg("request"));
    } else if (n == "MPI_Waitall" || n == "MPI_Testall" || n == "MPI_Waitsome" ||
               n == "MPI_Waitany") {
      const auto it = call.args.find("requests");
      if (it == call.args.end()) r.fail(n + " without 'requests'");
      for (long long id : braceList(r, it->second)) waitFor(std::to_string(id));
    } else if (n == "MPI_Barrier") {
      const std::string id = comm();
      if (id.empty()) {
        events.push_back(r.event(EventKind::Barrier));
      } else {
        e = r.event(EventKind::Collective);
        e.op = CollectiveOp::Barrier;
        e.comm = trace.commIds.intern(id);
        events.push_back(e);
      }
    } else if (n == "MPI_Bcast" || n == "MPI_Reduce" || n == "MPI_Allreduce" || n == "MPI_Scan" ||
               n == "MPI_Exscan") {
      const std::string id = comm();
      e = r.event(EventKind::Collective);
      e.comm = trace.commIds.intern(id);
      e.op = n == "MPI_Bcast"       ? CollectiveOp::Bcast
             : n == "MPI_Reduce"    ? CollectiveOp::Reduce
             : n == "MPI_Allreduce" ? CollectiveOp::Allreduce
             : n == "MPI_Scan"      ? CollectiveOp::Scan
                                    : CollectiveOp::Exscan;
      e.bytes = bytes("count", "datatype");
      if (n == "MPI_Bcast" || n == "MPI_Reduce") e.root = r.root(arg("root"));
      events.push_back(e);
    } else if (n == "MPI_Allgather" || n == "MPI_Alltoall" || n == "MPI_Gather" ||
               n == "MPI_Scatter") {
      const std::string id = comm();
      e = r.event(EventKind::Collective);
      e.comm = trace.commIds.intern(id);
      e.op = n == "MPI_Allgather"  ? CollectiveOp::Allgather
             : n == "MPI_Alltoall" ? CollectiveOp::Alltoall
             : n == "MPI_Gather"   ? CollectiveOp::Gather
                                   : CollectiveOp::Scatter;
      e.bytes =
          n == "MPI_Scatter" ? bytes("recvcount", "recvtype") : bytes("sendcount", "sendtype");
      if (n == "MPI_Gather" || n == "MPI_Scatter") e.root = r.root(arg("root"));
      events.push_back(e);
    } else if (n == "MPI_Reduce_scatter") {
      // One receive count per rank of the communicator: the collective of the largest block.
      const std::string id = comm();
      e = r.event(EventKind::Collective);
      e.comm = trace.commIds.intern(id);
      e.op = CollectiveOp::ReduceScatter;
      const std::uint64_t size = typeSize(arg("datatype"));
      if (size == 0) r.fail("unknown datatype '" + arg("datatype") + "'");
      const std::vector<long long> counts = braceList(r, arg("recvcounts"));
      if (counts.empty()) r.fail("MPI_Reduce_scatter without receive counts");
      for (long long count : counts)
        e.bytes =
            std::max(e.bytes, messageBytes(file, call.line, std::to_string(count), "count", size));
      events.push_back(e);
    } else if (n == "MPI_Pcontrol") {
      if (r.integer(arg("level"), "a level") == 1) iterations.push_back(events.size());
    }
    // Other calls (MPI_Init, MPI_Comm_rank, MPI_Wtime, ...) are read and ignored.
  });
  return iterations;
}

Trace readDumpi(const std::string& path, const std::vector<std::string>& files,
                const TraceOptions& options) {
  Trace trace;
  trace.source = path;
  trace.files = {path};
  trace.ranks = static_cast<int>(files.size());
  trace.events.resize(trace.ranks);
  // A first pass checks every file and keeps the calls that make communicators; the second
  // converts each rank's calls as it reads them.
  std::vector<std::vector<DumpiCall>> calls(files.size());
  for (std::size_t rank = 0; rank < files.size(); ++rank)
    forEachDumpiCall(files[rank], [&](const DumpiCall& call) {
      if (call.name == "MPI_Comm_split" || call.name == "MPI_Comm_dup") calls[rank].push_back(call);
    });
  std::vector<std::map<std::string, std::string>> handles;
  readCommunicators(calls, trace, handles);
  std::vector<std::vector<std::size_t>> iterations;
  RequestIds requests(trace.requests);
  for (int rank = 0; rank < trace.ranks; ++rank) {
    trace.files.push_back(files[rank]);
    iterations.push_back(
        convertDumpiRank(files[rank], rank + 1, rank, trace.ranks, trace, handles[rank], requests));
    trace.events[rank].shrink_to_fit();
  }
  // MPI_Pcontrol(1) marks iterations, as the native 'iteration' lines do.
  selectIteration(trace, iterations, options.iteration, "MPI_Pcontrol(1)");
  return trace;
}

// ---- A folder as dumpi writes it ----------------------------------------------------------
//
// dumpi writes <prefix>.meta (numprocs=, fileprefix=) and <prefix>-<rank>.bin per rank (rank
// in 4 digits or more); dumpi2ascii prints each .bin, saved as <prefix>-<rank>.txt beside it.

struct DumpiRankFile {
  std::string prefix;
  int rank = -1;
  std::size_t digits = 0;
};

// "dumpi-2024.05.01-0003.txt" -> {"dumpi-2024.05.01", 3, 4}; rank -1 if not of that form.
DumpiRankFile dumpiRankFile(const std::string& name, const std::string& extension) {
  DumpiRankFile parsed;
  if (name.size() <= extension.size() ||
      name.compare(name.size() - extension.size(), extension.size(), extension) != 0)
    return parsed;
  const std::string stem = name.substr(0, name.size() - extension.size());
  const auto dash = stem.rfind('-');
  if (dash == std::string::npos || dash == 0) return parsed;
  const std::string digits = stem.substr(dash + 1);
  int rank = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), rank);
  if (digits.size() < 4 || error != std::errc() || end != digits.data() + digits.size())
    return parsed;
  return {stem.substr(0, dash), rank, digits.size()};
}

std::string dumpiRankName(const std::string& prefix, int rank, std::size_t digits,
                          const char* extension) {
  std::string number = std::to_string(rank);
  if (number.size() < digits) number.insert(0, digits - number.size(), '0');
  std::string name = prefix;
  name.append("-").append(number).append(extension);
  return name;
}

// The per-rank text files of a folder, in rank order, or an error saying what is missing.
std::vector<std::string> dumpiFolderFiles(const std::string& folder) {
  std::vector<std::string> metas;
  std::map<std::string, std::map<int, std::string>> texts, binaries;  // prefix -> rank -> name
  std::size_t digits = 4;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    if (!entry.is_regular_file(error)) continue;
    const std::string name = entry.path().filename().string();
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".meta") == 0) metas.push_back(name);
    for (const char* extension : {".txt", ".bin"}) {
      const DumpiRankFile file = dumpiRankFile(name, extension);
      if (file.rank < 0) continue;
      (extension[1] == 't' ? texts : binaries)[file.prefix][file.rank] = name;
      digits = file.digits;
    }
  }
  if (error) failIn(folder, "cannot list the folder: " + error.message());
  std::sort(metas.begin(), metas.end());
  const std::string hint = "the .txt files dumpi2ascii prints, named <prefix>-<rank>.txt";
  if (metas.size() > 1)
    failIn(folder, "several DUMPI runs (" + metas[0] + ", " + metas[1] +
                       "): keep one run's files per folder");
  // The run: the .meta file's, else the one prefix of the rank files.
  std::string prefix;
  int ranks = 0;
  if (!metas.empty()) {
    const std::string meta = (fs::path(folder) / metas[0]).string();
    std::size_t number = 0;
    for (const std::string& line : readLines(meta)) {
      ++number;
      if (line.rfind("fileprefix=", 0) == 0) prefix = fs::path(line.substr(11)).filename().string();
      if (line.rfind("numprocs=", 0) == 0) {
        const long long count = Reader{meta, 0, number}.integer(line.substr(9), "a rank count");
        if (count < 1 || count > 100000000)
          failAt(meta, number, "numprocs must be from 1 to 100000000");
        ranks = static_cast<int>(count);
      }
    }
    if (prefix.empty() || ranks == 0)
      failIn(meta, "not a DUMPI .meta file (expected 'numprocs=' and 'fileprefix=' lines)");
  } else {
    std::map<std::string, std::map<int, std::string>>& files = texts.empty() ? binaries : texts;
    if (files.empty())
      failIn(folder, "no DUMPI trace in this folder (expected " + hint +
                         ", e.g. dumpi-2024.05.01.12.00.00-0000.txt)");
    if (files.size() > 1)
      failIn(folder, "DUMPI files of several runs (" + files.begin()->first + "-*, " +
                         std::next(files.begin())->first + "-*): keep one run's files per folder");
    prefix = files.begin()->first;
    for (const auto* known : {&texts, &binaries}) {
      const auto run = known->find(prefix);
      if (run != known->end()) ranks = std::max(ranks, run->second.rbegin()->first + 1);
    }
  }
  const std::map<int, std::string>& text = texts[prefix];
  const std::map<int, std::string>& binary = binaries[prefix];
  if (text.empty()) {
    if (binary.empty())
      failIn(folder, "no DUMPI text files " + prefix + "-*.txt (expected " + hint + ")");
    const std::string bin = binary.begin()->second;
    failIn(folder, "DUMPI binary files only (" + bin +
                       " ...): convert each with dumpi2ascii, e.g. dumpi2ascii " + bin + " > " +
                       bin.substr(0, bin.size() - 4) + ".txt");
  }
  if (text.rbegin()->first >= ranks && !metas.empty())
    failIn(folder, text.rbegin()->second + " is rank " + std::to_string(text.rbegin()->first) +
                       ", but " + metas[0] + " says numprocs=" + std::to_string(ranks));
  std::vector<std::string> files;
  for (int rank = 0; rank < ranks; ++rank) {
    const auto found = text.find(rank);
    if (found == text.end()) {
      const std::string expected = dumpiRankName(prefix, rank, digits, ".txt");
      failIn(folder, "no DUMPI text file for rank " + std::to_string(rank) + " (expected " +
                         expected +
                         (binary.count(rank) ? "; convert the .bin files with dumpi2ascii)"
                                             : "; the folder has no .bin file for it either)"));
    }
    files.push_back((fs::path(folder) / found->second).string());
  }
  return files;
}

// A message between two ranks: a send to another rank, or a collective on two ranks or more.
bool hasMessages(const Trace& trace) {
  for (int rank = 0; rank < trace.ranks; ++rank)
    for (const Event& e : trace.events[rank]) {
      if ((e.kind == EventKind::Send || e.kind == EventKind::Isend) && e.peer != rank) return true;
      if (e.kind == EventKind::Sendrecv && (e.peer != rank || e.peer2 != rank)) return true;
      if (e.kind == EventKind::Collective && e.op != CollectiveOp::Barrier) {
        const auto comm = trace.comms.find(trace.commOf(e));
        const std::size_t members =
            comm == trace.comms.end() ? static_cast<std::size_t>(trace.ranks) : comm->second.size();
        if (members > 1) return true;
      }
    }
  return false;
}

}  // namespace

TraceFormat parseTraceFormat(const std::string& name) {
  if (name == "auto") return TraceFormat::Auto;
  if (name == "native") return TraceFormat::Native;
  if (name == "simgrid-ti") return TraceFormat::SimgridTi;
  if (name == "dumpi") return TraceFormat::Dumpi;
  throw InputError("--trace-format '" + name + "': expected auto, native, simgrid-ti or dumpi");
}

const char* traceFormatName(TraceFormat format) {
  switch (format) {
    case TraceFormat::Auto:
      return "auto";
    case TraceFormat::Native:
      return "native";
    case TraceFormat::SimgridTi:
      return "simgrid-ti";
    case TraceFormat::Dumpi:
      return "dumpi";
  }
  return "?";
}

TraceFormat detectTraceFormat(const std::string& path) {
  std::error_code error;
  if (fs::is_directory(path, error)) return TraceFormat::Dumpi;  // only DUMPI comes as a folder
  bool native = false;
  forEachLine(path, [&](const std::string& line, std::size_t) {
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') return true;
    native = line.compare(first, 13, "tac3map-trace") == 0;
    return false;
  });
  if (native) return TraceFormat::Native;
  const std::vector<std::string> files = indexEntries(path);
  const std::string& sample = files.empty() ? path : files.front();
  return mentions(sample, " entering at walltime") ? TraceFormat::Dumpi : TraceFormat::SimgridTi;
}

Trace readAnyTrace(const std::string& path, TraceFormat format, const TraceOptions& options) {
  if (format == TraceFormat::Auto) format = detectTraceFormat(path);
  std::error_code error;
  const bool folder = fs::is_directory(path, error);
  if (folder && format != TraceFormat::Dumpi)
    failIn(path, std::string("is a folder: a ")
                     .append(traceFormatName(format))
                     .append(" trace is a file (or an index file listing one file per rank); "
                             "only DUMPI traces are read from a folder"));
  Trace trace;
  if (format == TraceFormat::Native) {
    trace = readTrace(path, options);
  } else {
    std::vector<std::string> files = folder ? dumpiFolderFiles(path) : indexEntries(path);
    if (files.empty()) files = {path};
    if (format == TraceFormat::Dumpi) {
      options.ranks.checkCount(static_cast<long long>(files.size()), path, 0);  // a file a rank
      trace = readDumpi(path, files, options);
    } else {
      if (options.iteration != 1)
        failIn(path, "--iteration: SimGrid time-independent traces have no iteration markers");
      trace = readSimgrid(path, files, options.ranks);
    }
  }
  if (!options.allowEmpty && !hasMessages(trace))
    failIn(path, options.iteration == 1
                     ? std::string("the trace has no messages between ranks; pass --allow-empty "
                                   "to accept it")
                     : std::string("iteration ")
                           .append(std::to_string(options.iteration))
                           .append(" of the trace has no messages between ranks; pass "
                                   "--allow-empty to accept it"));
  return trace;
}

}  // namespace tac3map
