// The native trace (docs/trace-format.md): per rank, its MPI events in program order, cut to
// one kernel iteration. Only reading and checking here; matching and ordering are in ccs.hpp.
#pragma once

#include <cstdint>
#include <istream>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "tac3map/io/limits.hpp"

namespace tac3map {

// Compute and Copy are local work (seconds of computation, bytes copied in memory): they take
// no part in matching or CCSs and are used by `predict` only.
// Collective events are expanded into point-to-point steps (collectives.hpp) before CCSs are
// extracted.
enum class EventKind : std::uint8_t {
  Send,
  Recv,
  Isend,
  Irecv,
  Wait,
  Waitall,
  Sendrecv,
  Barrier,
  Compute,
  Copy,
  Collective,
  // Completes one of the rank's live requests, the first to be matched (MPI_Waitany when the
  // trace does not say which: SimGrid's TI traces). ccs.hpp decides which.
  Waitany
};

// A receive from MPI_ANY_SOURCE (Event::peer, or Event::peer2 of a sendrecv) or with
// MPI_ANY_TAG (Event::tag): the CCS extraction matches it with the send MPI would give it
// (docs/trace-format.md, "Matching"). Readers of every format turn their constants into these.
inline constexpr int kAnySource = -2;
inline constexpr std::int64_t kAnyTag = std::numeric_limits<std::int64_t>::min();

enum class CollectiveOp : std::uint8_t {
  Bcast,
  Reduce,
  Allreduce,
  Allgather,
  Alltoall,
  Gather,
  Scatter,
  ReduceScatter,
  Barrier,
  // From SimGrid TI traces only (the native format has no count lists). A v-collective's
  // Event::bytes is the calling rank's own block: gatherv what it sends, scatterv what it
  // receives, allgatherv what it contributes; alltoallv's per-peer sizes are Trace::blocks.
  Gatherv,
  Scatterv,
  Allgatherv,
  Alltoallv,
  Scan,
  Exscan
};

// Names as a trace spells them (request names, communicator ids), each kept once: an event
// holds the index of its name (Event::request, Event::comm), so that a whole-run trace of
// millions of events holds no string per event.
class NameTable {
 public:
  NameTable() = default;
  explicit NameTable(const std::string& first) { intern(first); }
  // The index of `name`, added if new.
  int intern(const std::string& name);
  const std::string& operator[](int index) const { return names_[index]; }
  std::size_t size() const { return names_.size(); }

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, int> index_;
};

// 72 bytes: a trace's memory is mostly its events.
struct Event {
  EventKind kind = EventKind::Barrier;
  CollectiveOp op = CollectiveOp::Barrier;  // collective: which, its root and communicator
  int file = 0;              // index into Trace::files (readers of one file per rank)
  int peer = -1;             // send/isend/sendrecv: destination; recv/irecv: source or kAnySource
  int peer2 = -1;            // sendrecv: source or kAnySource
  std::uint64_t bytes = 0;   // sendrecv: bytes sent; copy: bytes copied
  double seconds = 0;        // compute
  std::uint64_t bytes2 = 0;  // sendrecv: bytes received
  std::int64_t tag = 0;      // receives: kAnyTag for MPI_ANY_TAG
  std::size_t line = 0;
  int root = 0;
  // alltoallv: Trace::blocks[blocks] are the bytes sent to each communicator rank,
  // Trace::blocks[blocks + 1] the bytes received from each; -1 for every other event.
  int blocks = -1;
  int request = -1;  // isend/irecv/wait: its name is Trace::requests[request]
  int comm = 0;      // collective: its id is Trace::commIds[comm]; 0 is "", all ranks
};
static_assert(sizeof(void*) != 8 || sizeof(Event) == 72, "Event grew: see its comment");

// A member added here must be copied by withCollectivesExpanded (collectives.cpp), which
// copies every member but the events.
struct Trace {
  std::string source;              // file name, for messages
  std::vector<std::string> files;  // when events come from several files (Event::file)
  int ranks = 0;
  std::size_t ranksLine = 0;               // line of the 'ranks' declaration, for messages about it
  std::vector<std::vector<Event>> events;  // events[rank], program order
  // Communicators declared with '<rank> comm <id> <world ranks...>': id -> members in
  // communicator-rank order, and the line that declared it.
  std::map<std::string, std::vector<int>> comms;
  std::map<std::string, std::size_t> commLines;
  // Per-peer byte counts of alltoallv calls (Event::blocks).
  std::vector<std::vector<std::uint64_t>> blocks;
  // The names events refer to by index: requests (Event::request) and communicator ids
  // (Event::comm; index 0 is "", all ranks).
  NameTable requests;
  NameTable commIds{""};

  // An event's request name ("" for none) and communicator id ("" for all ranks).
  const std::string& requestOf(const Event& e) const;
  const std::string& commOf(const Event& e) const { return commIds[e.comm]; }

  // The file of index `file` (Event::file), for messages.
  const std::string& fileAt(int file) const {
    return file > 0 && static_cast<std::size_t>(file) < files.size() ? files[file] : source;
  }
  // The file an event was read from, for messages.
  const std::string& fileOf(const Event& e) const { return fileAt(e.file); }
};

// The most ranks a trace may have. Readers check every rank count or rank id as they read it,
// before any per-rank table is sized, so a tiny file naming rank 10^8 fails at once.
struct RankLimit {
  int most = limits::kMaxRanks;
  // What holds the ranks, for the message: "box 2x2 (4 nodes, one task per node)"; empty for
  // the global limit of a trace read without a box (limits.hpp).
  std::string holder;

  // InputError at file:line when a trace declares `count` ranks, or names rank `rank`, beyond
  // the limit (line 0: the file as a whole).
  void checkCount(long long count, const std::string& file, std::size_t line) const;
  void checkRank(long long rank, const std::string& file, std::size_t line) const;
};

struct TraceOptions {
  int iteration = 1;  // which iteration (1-based) when the trace has `iteration` markers
  // readAnyTrace refuses a trace without a message between two ranks (an empty file, a
  // folder or a format read wrongly) unless this is set (`--allow-empty`).
  bool allowEmpty = false;
  RankLimit ranks;
};

// Every reader refuses a message of 2^62 bytes or more at read time, so sums of a few
// message sizes cannot overflow 64 bits later.
inline constexpr std::uint64_t kMessageBytesLimit = std::uint64_t{1} << 62;

// The size in bytes of a message of `count` (as written at file:line) elements of
// `elementSize` bytes: `count` must be a whole number, not negative, and the product below
// kMessageBytesLimit, else an InputError at file:line ("expected a byte count, got 'x'",
// "count -1 is negative", "message of N x 8 bytes is larger than the largest supported
// (2^62)"). `what` names the number: "byte count", "size", "count".
std::uint64_t messageBytes(const std::string& file, std::size_t line, const std::string& count,
                           const char* what, std::uint64_t elementSize = 1);

Trace readTrace(const std::string& path, const TraceOptions& options = {});

// Keeps each rank's events of kernel iteration `iteration` (1-based): from its iteration-th
// marker (markers[rank] = event indices where iterations start) to its next. Without any
// marker, the whole trace, and `iteration` must be 1. For the readers of every format.
void selectIteration(Trace& trace, const std::vector<std::vector<std::size_t>>& markers,
                     int iteration, const std::string& markerName);
Trace parseTrace(std::istream& in, const std::string& source, const TraceOptions& options = {});

const char* eventName(EventKind kind);
const char* collectiveName(CollectiveOp op);

}  // namespace tac3map
