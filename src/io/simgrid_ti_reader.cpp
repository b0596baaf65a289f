// SimGrid's time-independent traces (smpirun -trace-ti): one file, or an index of per-rank
// files, read into a Trace (trace_reading.hpp).
#include <algorithm>
#include <cmath>
#include <map>

#include "tac3map/io/words.hpp"
#include "trace_reading.hpp"

namespace tac3map::reading {
namespace {

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
  const std::optional<int> id = wholeInteger<int>(word);
  const bool numeric = id.has_value();
  for (const MpiType& type : mpiTypes()) {
    if (numeric && type.id >= 0 && *id == type.id) return type.simgridSize;
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

}  // namespace

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
      const std::optional<long long> rank =
          wholeInteger<long long>(std::string_view(text).substr(first, last - first));
      if (!rank || *rank < 0)
        failAt(file, number,
               "expected '<rank> <action> ...', got '" + text.substr(first, last - first) + "'");
      limit.checkRank(*rank, file, number);  // before any per-rank table is sized
      ranks = std::max(ranks, static_cast<int>(*rank) + 1);
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

}  // namespace tac3map::reading
