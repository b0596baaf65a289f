// SimGrid's time-independent traces (smpirun -trace-ti): one file, or an index of per-rank
// files, read into a Trace (trace_reading.hpp).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "tac3map/io/words.hpp"
#include "ti_requests.hpp"
#include "trace_reading.hpp"

namespace tac3map::reading {
namespace {

// ---- SimGrid time-independent traces --------------------------------------------------
//
// The argument layouts are those of SimGrid 3.32's replay parsers (smpi_replay.cpp): fixed
// positions, optional fields from the end; a datatype field is SimGrid's numeric id (or an
// MPI name) and makes the size a count of that type. Without it the rank's default type
// applies: bytes, or MPI_DOUBLE after an `init` with an argument (SMPI's MPE convention).

// SMPI's wildcards (SimGrid's smpi.h): MPI_ANY_SOURCE and MPI_ANY_TAG.
constexpr long long kTiAnySource = -333;
constexpr long long kTiAnyTag = -444;

struct TiRank {
  std::vector<Event> events;
  TiRequests live;  // pending requests (ti_requests.hpp)
  int next = 0;
  std::uint64_t defaultType = 1;  // bytes; 8 after 'init <anything>'
  // An open partial waitall (TiRequests::startPartial): where its waits go, and its line.
  std::size_t partialAt = 0, partialLine = 0;
  int partialFile = 0;
  std::size_t completedByAny = 0;  // waitany lines since the last full waitall
  std::set<std::size_t> startedWithout;  // events of persistent receives (Start) of unknown source
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


// Ends the rank's open partial waitall: a wait for each request it covered, where it was.
void endPartial(TiRank& s) {
  std::vector<Event> waits;
  for (const TiRequests::Live& covered : s.live.endPartial()) {
    if (covered.request < 0) continue;  // a collective's request: nothing to wait for
    Event e;
    e.kind = EventKind::Wait;
    e.line = s.partialLine;
    e.file = s.partialFile;
    e.request = covered.request;
    waits.push_back(e);
  }
  s.events.insert(s.events.begin() + static_cast<std::ptrdiff_t>(s.partialAt), waits.begin(),
                  waits.end());
}

// 'wait <src> <dst> <tag>' (current), or 'wait' (older: the last request posted).
void wait(const Reader& r, const std::vector<std::string>& words, TiRank& s) {
  std::optional<TiRequests::Live> found;
  if (words.size() >= 5) {
    const long long src = r.integer(words[2], "a rank");
    const long long dst = r.integer(words[3], "a rank");
    const long long tag = r.integer(words[4], "a tag");
    found = s.live.wait(src, dst, tag);
    if (!found)
      r.fail("no pending request " + words[2] + " " + words[3] + " " + words[4] +
             " (source, destination, tag) to wait for");
    // A receive posted without its source (a persistent one's Start): the wait names it.
    Event* posted = found->request >= 0 ? &s.events[found->event] : nullptr;
    if (posted && posted->peer == kAnySource && found->src == kTiAnySource && src >= 0 &&
        posted->kind == EventKind::Irecv && s.startedWithout.count(found->event))
      posted->peer = static_cast<int>(src);
  } else {
    found = s.live.takeLast();
    if (!found) r.fail("wait without a pending isend/irecv");
  }
  if (found->request < 0) return;  // a non-blocking collective's: it ran at its call
  Event e = r.event(EventKind::Wait);
  e.request = found->request;
  s.events.push_back(e);
  if (s.live.partialSettled()) endPartial(s);
}

// 'Start <peer> <tag> <bytes> <datatype>' (SMPI 3.32, MPI_Start): a persistent request
// started. The size is in bytes already; a receive's peer is the rank itself (SMPI writes the
// request's destination), its source unknown until a wait names it.
void startPersistent(const Reader& r, const std::vector<std::string>& words, int ranks, int rank,
                     TiRank& s, RequestIds& requests) {
  if (words.size() < 5) r.fail("'Start' takes the form '<rank> Start <peer> <tag> <bytes> [datatype]'");
  const int peer = r.rank(words[2], ranks, "peer rank");
  const long long tag = r.integer(words[3], "a tag");
  const bool receive = peer == rank;
  Event e = r.event(receive ? EventKind::Irecv : EventKind::Isend);
  e.peer = receive ? kAnySource : peer;
  e.tag = tag;
  e.bytes = messageBytes(r.file, r.line, words[4], "size");
  e.request = requests(s.next++);
  if (receive) s.startedWithout.insert(s.events.size());
  s.live.post(receive ? kTiAnySource : rank, receive ? rank : peer, tag, e.request,
              s.events.size());
  s.events.push_back(e);
}

void readTiLine(const Reader& r, const std::vector<std::string>& words, int ranks,
                std::vector<TiRank>& state, RequestIds& requests) {
  if (words.size() < 2) r.fail("expected '<rank> <action> ...'");
  const int rank = r.rank(words[0], ranks, "rank");
  const std::string action = lower(words[1]);
  if (action == "compute") return;  // flops: read and ignored (below), and half the lines
  TiRank& s = state[rank];
  // An open partial waitall ends at the first line that is not a wait (or a test, which
  // completes nothing here).
  if (s.live.partialOpen() && action != "wait" && action.rfind("test", 0) != 0 &&
      action != "location")
    endPartial(s);
  // A non-blocking collective (SMPI writes 'ibcast', 'iallreduce', ...) runs as the blocking
  // one at its call; its request only counts in waitall and takes the wait that names it.
  static const std::set<std::string> kCollectiveActions = {
      "barrier", "bcast",     "reduce",    "allreduce",  "alltoall",  "allgather",
      "gather",  "scatter",   "reducescatter", "gatherv", "scatterv", "allgatherv",
      "alltoallv", "scan",    "exscan"};
  if (action.size() > 1 && action[0] == 'i' && kCollectiveActions.count(action.substr(1))) {
    s.live.postCollective();
    std::vector<std::string> blocking = words;
    blocking[1] = action.substr(1);
    return readTiLine(r, blocking, ranks, state, requests);
  }
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
    const bool receive = kind == EventKind::Recv || kind == EventKind::Irecv;
    const bool tagless = words.size() == 4 || (words.size() == 5 && isTypeName(words[4]));
    const long long tag = tagless ? 0 : r.integer(words[3], "a tag");
    if (receive && words[2] == "-333") {
      e.peer = kAnySource;
    } else if (words[2] == "-333") {
      r.fail("send to -333 (SMPI's MPI_ANY_SOURCE): a send needs its destination");
    } else {
      e.peer = r.rank(words[2], ranks, receive ? "source rank" : "destination rank");
    }
    e.tag = receive && tag == kTiAnyTag ? kAnyTag : tag;
    e.bytes = tagless ? bytesAt(3, 4) : bytesAt(4, 5);
    if (nonBlocking) {
      e.request = requests(s.next++);
      const long long peer = receive && e.peer == kAnySource ? kTiAnySource : e.peer;
      s.live.post(receive ? peer : rank, receive ? rank : peer, tag, e.request, s.events.size());
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
  // Ssend and bsend as send (the protocol follows the size: CcsOptions::eagerLimit).
  if (action == "send" || action == "ssend" || action == "bsend" || action == "rsend")
    return pointToPoint(EventKind::Send, false);
  if (action == "recv") return pointToPoint(EventKind::Recv, false);
  if (action == "isend" || action == "issend" || action == "ibsend" || action == "irsend")
    return pointToPoint(EventKind::Isend, true);
  if (action == "irecv") return pointToPoint(EventKind::Irecv, true);
  if (action == "start") return startPersistent(r, words, ranks, rank, s, requests);
  if (action == "startall")
    r.fail("'Startall': SimGrid's TI traces do not say which persistent requests MPI_Startall "
           "starts (MPI_Send_init and MPI_Recv_init are not traced); record the program with "
           "libtac3trace.so or DUMPI (docs/trace-formats.md)");
  if (action == "wait") return wait(r, words, s);
  if (action == "waitall") {
    const std::size_t count =
        words.size() > 2 ? static_cast<std::size_t>(std::max(0LL, r.integer(words[2], "a count")))
                         : s.live.size();
    // Requests a waitany completed are still in `live` (the trace does not say which).
    if (count + s.completedByAny >= s.live.size()) {
      s.events.push_back(r.event(EventKind::Waitall));
      s.live.clear();
      s.completedByAny = 0;
    } else {
      // Fewer than all: the waits after it name the ones it did not cover (ti_requests.hpp).
      s.partialAt = s.events.size();
      s.partialLine = r.line;
      s.partialFile = r.fileIndex;
      s.live.startPartial(count);
    }
    return;
  }
  if (action == "waitany") {
    ++s.completedByAny;
    return s.events.push_back(r.event(EventKind::Waitany));
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
  // MPI_Test* (whether it completed is not traced: the request stays pending until a wait
  // covers it), MPI_Waitsome is not traced at all.
  static const char* ignored[] = {"finalize", "compute",  "comm_size", "comm_split", "comm_dup",
                                  "location", "test",     "testall",   "testany",    "testsome"};
  for (const char* name : ignored)
    if (action == name) return;
  r.fail("unknown SimGrid action '" + words[1] + "'");
}

// SimGrid's TI traces name no communicator: a collective is taken on all ranks, so every rank
// must make the same collective calls in the same order, of one size (the v-collectives
// aside) and root. Two ranks whose k-th calls are the same collective of other sizes or roots,
// or that make different numbers of them, ran collectives on sub-communicators
// (MPI_Comm_split, MPI_Cart_sub), which the format cannot represent: said at the first rank and
// line that differs from rank 0, rather than as the mismatched messages they would expand to.
// (Calls of different collectives are the expansion's error, collectives.cpp; a rank without
// any collective is left to it too.)
void checkCollectivesAgree(const std::vector<TiRank>& state, const std::vector<std::string>& files) {
  const auto collectives = [](const std::vector<Event>& events) {
    std::vector<const Event*> list;
    for (const Event& e : events)
      if (e.kind == EventKind::Collective || e.kind == EventKind::Barrier) list.push_back(&e);
    return list;
  };
  const std::vector<const Event*> first = collectives(state[0].events);
  const auto name = [](const Event& e) {
    return e.kind == EventKind::Barrier ? std::string("barrier") : std::string(collectiveName(e.op));
  };
  const std::string why =
      ": collectives on sub-communicators, which SimGrid's TI traces cannot represent (they "
      "name no communicator); trace with libtac3trace.so or DUMPI";
  for (std::size_t rank = 1; rank < state.size(); ++rank) {
    const std::vector<const Event*> mine = collectives(state[rank].events);
    for (std::size_t k = 0; k < std::max(mine.size(), first.size()); ++k) {
      const Event* a = k < first.size() ? first[k] : nullptr;
      const Event* b = k < mine.size() ? mine[k] : nullptr;
      const bool variable = a && b && a->kind == EventKind::Collective &&
                            (a->op == CollectiveOp::Gatherv || a->op == CollectiveOp::Scatterv ||
                             a->op == CollectiveOp::Allgatherv || a->op == CollectiveOp::Alltoallv);
      if (a && b && a->kind == b->kind && a->op == b->op &&
          (variable || (a->bytes == b->bytes && a->root == b->root)))
        continue;
      if (a && b && (a->kind != b->kind || a->op != b->op)) break;  // collectives.cpp says it
      if (mine.empty() || first.empty()) break;
      const std::string ordinal = std::to_string(k + 1);
      if (!b)
        failIn(files[state[rank].events.empty() ? 0 : state[rank].events.back().file],
               "rank " + std::to_string(rank) + " makes " + std::to_string(mine.size()) +
                   " collective calls, rank 0 " + std::to_string(first.size()) + why);
      const std::string there =
          a ? "rank 0's " + name(*a) + " " + std::to_string(a->bytes) + " (" +
                  std::filesystem::path(files[a->file]).filename().string() + ":" +
                  std::to_string(a->line) + ")"
            : "rank 0 makes " + std::to_string(first.size());
      failAt(files[b->file], b->line,
             "rank " + std::to_string(rank) + "'s collective " + ordinal + " is " + name(*b) + " " +
                 std::to_string(b->bytes) + ", " + there + why);
    }
  }
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
  for (int rank = 0; rank < ranks; ++rank)
    if (state[rank].live.partialOpen()) endPartial(state[rank]);
  checkCollectivesAgree(state, trace.files);
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
