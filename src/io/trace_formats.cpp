#include "tac3map/io/trace_formats.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "tac3map/io/error.hpp"

namespace tac3map {
namespace {

namespace fs = std::filesystem;

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// The name a converted non-blocking call gives its request: r0, r1, ... Built with append:
// GCC 12 warns falsely (-Wrestrict) on "r" + std::to_string(n).
std::string requestId(int n) {
  std::string name = "r";
  name.append(std::to_string(n));
  return name;
}

std::vector<std::string> readLines(const std::string& path) {
  std::ifstream in(path);
  if (!in) failIn(path, "cannot open trace");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// An index file: every non-empty line names an existing file (relative to the index).
std::vector<std::string> indexEntries(const std::string& path) {
  std::vector<std::string> files;
  const fs::path base = fs::path(path).parent_path();
  for (std::string line : readLines(path)) {
    line.erase(line.find_last_not_of(" \t\r") + 1);
    line.erase(0, line.find_first_not_of(" \t"));
    if (line.empty()) continue;
    const fs::path file = fs::path(line).is_absolute() ? fs::path(line) : base / line;
    std::error_code error;
    if (line.find(' ') != std::string::npos || !fs::is_regular_file(file, error)) return {};
    files.push_back(file.string());
  }
  return files;
}

bool mentions(const std::string& path, const std::string& needle) {
  for (const std::string& line : readLines(path))
    if (line.find(needle) != std::string::npos) return true;
  return false;
}

// Sizes of MPI datatypes by name (DUMPI prints them, SimGrid may).
std::uint64_t typeSize(const std::string& name) {
  static const std::map<std::string, std::uint64_t> sizes = {{"MPI_CHAR", 1},
                                                             {"MPI_SIGNED_CHAR", 1},
                                                             {"MPI_UNSIGNED_CHAR", 1},
                                                             {"MPI_BYTE", 1},
                                                             {"MPI_PACKED", 1},
                                                             {"MPI_SHORT", 2},
                                                             {"MPI_UNSIGNED_SHORT", 2},
                                                             {"MPI_INT", 4},
                                                             {"MPI_UNSIGNED", 4},
                                                             {"MPI_FLOAT", 4},
                                                             {"MPI_INTEGER", 4},
                                                             {"MPI_REAL", 4},
                                                             {"MPI_LONG", 8},
                                                             {"MPI_UNSIGNED_LONG", 8},
                                                             {"MPI_LONG_LONG", 8},
                                                             {"MPI_LONG_LONG_INT", 8},
                                                             {"MPI_DOUBLE", 8},
                                                             {"MPI_DOUBLE_PRECISION", 8},
                                                             {"MPI_INT64_T", 8},
                                                             {"MPI_UINT64_T", 8},
                                                             {"MPI_INT32_T", 4},
                                                             {"MPI_COMPLEX", 8},
                                                             {"MPI_DOUBLE_COMPLEX", 16},
                                                             {"MPI_LONG_DOUBLE", 16},
                                                             {"MPI_2INT", 8},
                                                             {"MPI_DOUBLE_INT", 12},
                                                             {"MPI_FLOAT_INT", 8}};
  const auto it = sizes.find(name);
  return it == sizes.end() ? 0 : it->second;
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

struct TiRank {
  std::vector<Event> events;
  std::vector<std::pair<std::string, std::string>> live;  // (src dst tag key, request name)
  int next = 0;
};

void readTiLine(const Reader& r, const std::vector<std::string>& words, int ranks,
                std::vector<TiRank>& state) {
  if (words.size() < 2) r.fail("expected '<rank> <action> ...'");
  const int rank = r.rank(words[0], ranks, "rank");
  const std::string action = lower(words[1]);
  TiRank& s = state[rank];
  const auto need = [&](std::size_t n, const char* usage) {
    if (words.size() < n) r.fail("'" + words[1] + "' takes the form '<rank> " + usage + "'");
  };
  const auto bytesAt = [&](std::size_t i) {
    const long long v = r.integer(words[i], "a size");
    if (v < 0) r.fail("negative size");
    // An optional datatype name after the size scales it; else the size is in bytes.
    std::uint64_t element = 1;
    if (i + 1 < words.size() && typeSize(words[i + 1]) > 0) element = typeSize(words[i + 1]);
    return static_cast<std::uint64_t>(v) * element;
  };
  // Current syntax: '<peer> <tag> <size> [type]'; older: '<peer> <size>'.
  const auto pointToPoint = [&](EventKind kind, bool nonBlocking) {
    need(4, "send|recv|isend|irecv <peer> [<tag>] <size> [datatype]");
    Event e = r.event(kind);
    e.peer = r.rank(words[2], ranks, "peer rank");
    const bool tagged = words.size() >= 5 && typeSize(words[4]) == 0;
    e.tag = tagged ? r.integer(words[3], "a tag") : 0;
    e.bytes = bytesAt(tagged ? 4 : 3);
    if (nonBlocking) {
      e.request = requestId(s.next++);
      const bool send = kind == EventKind::Isend;
      const std::string key = (send ? std::to_string(rank) : std::to_string(e.peer)) + " " +
                              (send ? std::to_string(e.peer) : std::to_string(rank)) + " " +
                              std::to_string(e.tag);
      s.live.push_back({key, e.request});
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
      const std::string key = std::to_string(r.integer(words[2], "a rank")) + " " +
                              std::to_string(r.integer(words[3], "a rank")) + " " +
                              std::to_string(r.integer(words[4], "a tag"));
      it = std::find_if(s.live.begin(), s.live.end(),
                        [&](const auto& request) { return request.first == key; });
      if (it == s.live.end()) r.fail("no pending request " + key + " to wait for");
    }
    Event e = r.event(EventKind::Wait);
    e.request = it->second;
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
    need(6, "sendRecv <send_size> <dst> <recv_size> <src> [datatypes]");
    Event e = r.event(EventKind::Sendrecv);
    e.peer = r.rank(words[3], ranks, "destination rank");
    e.peer2 = r.rank(words[5], ranks, "source rank");
    const long long sent = r.integer(words[2], "a size"), received = r.integer(words[4], "a size");
    if (sent < 0 || received < 0) r.fail("negative size");
    const std::uint64_t sendType = words.size() > 6 ? typeSize(words[6]) : 0;
    const std::uint64_t recvType = words.size() > 7 ? typeSize(words[7]) : 0;
    e.bytes = static_cast<std::uint64_t>(sent) * (sendType ? sendType : 1);
    e.bytes2 = static_cast<std::uint64_t>(received) * (recvType ? recvType : 1);
    return s.events.push_back(e);
  }
  if (action == "barrier") return s.events.push_back(r.event(EventKind::Barrier));
  if (action == "bcast") {
    need(3, "bcast <size> [root] [datatype]");
    return collective(CollectiveOp::Bcast, bytesAt(2),
                      words.size() > 3 && typeSize(words[3]) == 0
                          ? r.root(words[3])
                          : 0);
  }
  if (action == "reduce") {
    need(4, "reduce <comm_size> <comp_size> [root] [datatype]");
    return collective(CollectiveOp::Reduce, bytesAt(2),
                      words.size() > 4 && typeSize(words[4]) == 0
                          ? r.root(words[4])
                          : 0);
  }
  if (action == "allreduce") {
    need(4, "allreduce <comm_size> <comp_size> [datatype]");
    return collective(CollectiveOp::Allreduce, bytesAt(2), 0);
  }
  if (action == "alltoall" || action == "allgather") {
    need(4, "alltoall|allgather <send_size> <recv_size> [datatypes]");
    return collective(action == "alltoall" ? CollectiveOp::Alltoall : CollectiveOp::Allgather,
                      bytesAt(2), 0);
  }
  if (action == "gather" || action == "scatter") {
    need(5, "gather|scatter <send_size> <recv_size> <root> [datatypes]");
    return collective(action == "gather" ? CollectiveOp::Gather : CollectiveOp::Scatter,
                      bytesAt(action == "gather" ? 2 : 3),
                      r.root(words[4]));
  }
  if (action == "reducescatter") {
    need(4, "reducescatter <recv_sizes...> <comp_size> [datatype]");
    std::uint64_t largest = 0;  // the recv sizes, one per rank, then the computation size
    for (std::size_t i = 2; i + 1 < words.size() && typeSize(words[i]) == 0; ++i)
      largest = std::max<std::uint64_t>(largest, r.integer(words[i], "a size"));
    return collective(CollectiveOp::ReduceScatter, largest, 0);
  }
  if (action == "sleep") {
    need(3, "sleep <seconds>");
    Event e = r.event(EventKind::Compute);
    e.seconds = std::stod(words[2]);
    return s.events.push_back(e);
  }
  // Read and ignored: set-up, computation in flops (no speed known), tests, communicator
  // management (collectives are taken on all ranks), source locations.
  static const char* ignored[] = {"init",     "finalize", "compute", "comm_size", "comm_split",
                                  "comm_dup", "location", "test",    "testall",   "waitany"};
  for (const char* name : ignored)
    if (action == name) return;
  r.fail("unknown SimGrid action '" + words[1] + "'");
}

Trace readSimgrid(const std::string& path, const std::vector<std::string>& files,
                  const RankLimit& limit) {
  // Ranks: the highest rank seen + 1 (SimGrid files carry no count).
  Trace trace;
  trace.source = path;
  trace.files = {path};
  std::vector<std::vector<std::pair<std::size_t, std::vector<std::string>>>> perFile;
  int ranks = 0;
  for (const std::string& file : files) {
    std::vector<std::pair<std::size_t, std::vector<std::string>>> lines;
    std::size_t number = 0;
    for (const std::string& text : readLines(file)) {
      ++number;
      std::istringstream in(text.substr(0, text.find('#')));
      std::vector<std::string> words;
      for (std::string word; in >> word;) words.push_back(word);
      if (words.empty()) continue;
      long long rank = 0;
      const auto [end, error] =
          std::from_chars(words[0].data(), words[0].data() + words[0].size(), rank);
      if (error != std::errc() || end != words[0].data() + words[0].size() || rank < 0)
        failAt(file, number, "expected '<rank> <action> ...', got '" + words[0] + "'");
      limit.checkRank(rank, file, number);  // before any per-rank table is sized
      ranks = std::max(ranks, static_cast<int>(rank) + 1);
      lines.push_back({number, words});
    }
    perFile.push_back(lines);
  }
  if (ranks == 0) failIn(path, "no actions in the SimGrid trace");
  trace.ranks = ranks;
  std::vector<TiRank> state(ranks);
  for (std::size_t f = 0; f < files.size(); ++f) {
    const int index = static_cast<int>(trace.files.size());
    trace.files.push_back(files[f]);
    for (const auto& [number, words] : perFile[f]) {
      Reader r{files[f], index, number};
      readTiLine(r, words, ranks, state);
    }
  }
  trace.events.resize(ranks);
  for (int rank = 0; rank < ranks; ++rank) trace.events[rank] = std::move(state[rank].events);
  return trace;
}

// ---- DUMPI (dumpi2ascii) -----------------------------------------------------------------

struct DumpiCall {
  std::string name;  // "MPI_Send"
  std::size_t line = 0;
  std::map<std::string, std::string> args;  // "count" -> "1000", "datatype" -> "MPI_DOUBLE"
};

// "int count=1000", "MPI_Datatype datatype=4 (MPI_DOUBLE)", "MPI_Request request=[2]",
// "int requests=[2]{1, 2}": argument name and its value (a type name where one is printed).
void readArgument(const std::string& text, DumpiCall& call) {
  const auto equals = text.find('=');
  if (equals == std::string::npos) return;
  const auto space = text.rfind(' ', equals);
  const std::string name = text.substr(space == std::string::npos ? 0 : space + 1,
                                       equals - (space == std::string::npos ? 0 : space + 1));
  std::string value = text.substr(equals + 1);
  const auto open = value.find('('), close = value.find(')');
  if (open != std::string::npos && close != std::string::npos &&
      value.find("MPI_") != std::string::npos)
    value = value.substr(open + 1, close - open - 1);  // "4 (MPI_DOUBLE)" -> "MPI_DOUBLE"
  call.args[name] = value;
}

std::vector<long long> braceList(const Reader& r, const std::string& value) {
  // "[2]{1, 2}" -> {1, 2}
  std::vector<long long> values;
  const auto open = value.find('{'), close = value.find('}');
  if (open == std::string::npos || close == std::string::npos) return values;
  std::stringstream in(value.substr(open + 1, close - open - 1));
  for (std::string item; std::getline(in, item, ',');) {
    item.erase(0, item.find_first_not_of(' '));
    if (!item.empty()) values.push_back(r.integer(item, "a list item"));
  }
  return values;
}

std::vector<DumpiCall> parseDumpiCalls(const std::string& file) {
  std::vector<DumpiCall> calls;
  std::size_t number = 0;
  DumpiCall* open = nullptr;
  for (const std::string& text : readLines(file)) {
    ++number;
    const auto entering = text.find(" entering at walltime");
    const auto returning = text.find(" returning at walltime");
    if (entering != std::string::npos) {
      calls.push_back({text.substr(0, entering), number, {}});
      open = &calls.back();
    } else if (returning != std::string::npos) {
      open = nullptr;
    } else if (open) {
      readArgument(text, *open);
    }
  }
  return calls;
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
      if (call.name == "MPI_Comm_dup") {
        handles[rank][handleOf(get("newcomm"))] = handles[rank][handleOf(get("comm"))];
      } else if (call.name == "MPI_Comm_split") {
        const std::string parent = handles[rank][handleOf(get("comm"))];
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
std::vector<std::size_t> convertDumpiRank(const std::vector<DumpiCall>& calls,
                                          const std::string& file, int fileIndex, int rank,
                                          int ranks, Trace& trace,
                                          const std::map<std::string, std::string>& handles) {
  std::vector<std::size_t> iterations;
  std::map<std::string, std::string> requestName;  // DUMPI request id -> native name
  int next = 0;
  auto& events = trace.events[rank];
  for (const DumpiCall& call : calls) {
    const Reader r{file, fileIndex, call.line};
    const auto arg = [&](const char* name) -> const std::string& {
      const auto it = call.args.find(name);
      if (it == call.args.end()) r.fail(call.name + " without '" + name + "'");
      return it->second;
    };
    const auto bytes = [&](const char* count, const char* type) {
      const std::uint64_t size = typeSize(arg(type));
      if (size == 0) r.fail("unknown datatype '" + arg(type) + "'");
      return static_cast<std::uint64_t>(r.integer(arg(count), "a count")) * size;
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
    const auto request = [&](const std::string& id) {
      const std::string name = requestId(next++);
      requestName[id] = name;
      return name;
    };
    const auto waitFor = [&](const std::string& id) {
      const auto it = requestName.find(id);
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
        e.comm = id;
        events.push_back(e);
      }
    } else if (n == "MPI_Bcast" || n == "MPI_Reduce" || n == "MPI_Allreduce") {
      const std::string id = comm();
      e = r.event(EventKind::Collective);
      e.comm = id;
      e.op = n == "MPI_Bcast"    ? CollectiveOp::Bcast
             : n == "MPI_Reduce" ? CollectiveOp::Reduce
                                 : CollectiveOp::Allreduce;
      e.bytes = bytes("count", "datatype");
      if (n != "MPI_Allreduce") e.root = r.root(arg("root"));
      events.push_back(e);
    } else if (n == "MPI_Allgather" || n == "MPI_Alltoall" || n == "MPI_Gather" ||
               n == "MPI_Scatter") {
      const std::string id = comm();
      e = r.event(EventKind::Collective);
      e.comm = id;
      e.op = n == "MPI_Allgather"  ? CollectiveOp::Allgather
             : n == "MPI_Alltoall" ? CollectiveOp::Alltoall
             : n == "MPI_Gather"   ? CollectiveOp::Gather
                                   : CollectiveOp::Scatter;
      e.bytes =
          n == "MPI_Scatter" ? bytes("recvcount", "recvtype") : bytes("sendcount", "sendtype");
      if (n == "MPI_Gather" || n == "MPI_Scatter")
        e.root = r.root(arg("root"));
      events.push_back(e);
    } else if (n == "MPI_Pcontrol") {
      if (r.integer(arg("level"), "a level") == 1) iterations.push_back(events.size());
    }
    // Other calls (MPI_Init, MPI_Comm_rank, MPI_Wtime, ...) are read and ignored.
  }
  return iterations;
}

Trace readDumpi(const std::string& path, const std::vector<std::string>& files,
                const TraceOptions& options) {
  Trace trace;
  trace.source = path;
  trace.files = {path};
  trace.ranks = static_cast<int>(files.size());
  trace.events.resize(trace.ranks);
  std::vector<std::vector<DumpiCall>> calls;
  for (const std::string& file : files) calls.push_back(parseDumpiCalls(file));
  std::vector<std::map<std::string, std::string>> handles;
  readCommunicators(calls, trace, handles);
  std::vector<std::vector<std::size_t>> iterations;
  for (int rank = 0; rank < trace.ranks; ++rank) {
    trace.files.push_back(files[rank]);
    iterations.push_back(convertDumpiRank(calls[rank], files[rank], rank + 1, rank, trace.ranks,
                                          trace, handles[rank]));
  }
  // MPI_Pcontrol(1) marks iterations, as the native 'iteration' lines do.
  selectIteration(trace, iterations, options.iteration, "MPI_Pcontrol(1)");
  return trace;
}

}  // namespace

TraceFormat parseTraceFormat(const std::string& name) {
  if (name == "auto") return TraceFormat::Auto;
  if (name == "native") return TraceFormat::Native;
  if (name == "simgrid-ti") return TraceFormat::SimgridTi;
  if (name == "dumpi") return TraceFormat::Dumpi;
  throw InputError("--format '" + name + "': expected auto, native, simgrid-ti or dumpi");
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
  for (const std::string& line : readLines(path)) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    if (line.compare(first, 13, "tac3map-trace") == 0) return TraceFormat::Native;
    break;
  }
  const std::vector<std::string> files = indexEntries(path);
  const std::string& sample = files.empty() ? path : files.front();
  return mentions(sample, " entering at walltime") ? TraceFormat::Dumpi : TraceFormat::SimgridTi;
}

Trace readAnyTrace(const std::string& path, TraceFormat format, const TraceOptions& options) {
  if (format == TraceFormat::Auto) format = detectTraceFormat(path);
  if (format == TraceFormat::Native) return readTrace(path, options);
  std::vector<std::string> files = indexEntries(path);
  if (files.empty()) files = {path};
  if (format == TraceFormat::Dumpi) {
    options.ranks.checkCount(static_cast<long long>(files.size()), path, 0);  // a file a rank
    return readDumpi(path, files, options);
  }
  if (options.iteration != 1)
    failIn(path, "--iteration: SimGrid time-independent traces have no iteration markers");
  return readSimgrid(path, files, options.ranks);
}

}  // namespace tac3map
