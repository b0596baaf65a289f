#include "tac3map/output/dumpi_writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

#include "tac3map/io/atomic_file.hpp"
#include "tac3map/io/error.hpp"

namespace tac3map {
namespace {

// DUMPI's numbering of the handles it prints (dumpi/common/constants.h): MPI_COMM_WORLD is
// communicator 2, the first user communicator 4; requests start at 2; MPI_BYTE is datatype 5,
// MPI_DOUBLE 14; MPI_SUM is operation 3.
constexpr int kCommNull = 1;
constexpr int kCommWorld = 2;
constexpr int kFirstUserComm = 4;
constexpr int kFirstRequest = 2;
constexpr int kUndefinedColour = -32766;  // MPI_UNDEFINED in Open MPI and MPICH
constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();
// Every call takes a microsecond of the clock the files print; local work adds its own time.
constexpr std::int64_t kCallNanoseconds = 1000;

// The collectives DUMPI writes as calls: every one but SimGrid's v-collectives.
const std::set<CollectiveOp> kDumpiCollectives = {
    CollectiveOp::Bcast,     CollectiveOp::Reduce,        CollectiveOp::Allreduce,
    CollectiveOp::Allgather, CollectiveOp::Alltoall,      CollectiveOp::Gather,
    CollectiveOp::Scatter,   CollectiveOp::ReduceScatter, CollectiveOp::Barrier,
    CollectiveOp::Scan,      CollectiveOp::Exscan};

bool rooted(CollectiveOp op) {
  return op == CollectiveOp::Bcast || op == CollectiveOp::Reduce || op == CollectiveOp::Gather ||
         op == CollectiveOp::Scatter;
}

class RankWriter {
 public:
  RankWriter(const Trace& trace, int rank, const std::map<std::string, int>& handles)
      : trace_(trace), rank_(rank), handles_(handles) {}

  std::string write() {
    call("MPI_Init", {"int argc=0", "string argv[0]=<IGNORED>"});
    call("MPI_Comm_rank", {world("comm"), "int rank=" + std::to_string(rank_)});
    call("MPI_Comm_size", {world("comm"), "int size=" + std::to_string(trace_.ranks)});
    // One split of MPI_COMM_WORLD per communicator, in the same order on every rank: the
    // reader takes the k-th split of every rank as one call (so does MPI).
    for (const auto& [id, members] : trace_.comms) {
      const auto at = std::find(members.begin(), members.end(), rank_);
      const bool member = at != members.end();
      call("MPI_Comm_split",
           {world("oldcomm"), "int color=" + std::to_string(member ? 0 : kUndefinedColour),
            "int key=" + std::to_string(member ? at - members.begin() : 0),
            member ? comm("newcomm", id)
                   : "MPI_Comm newcomm=" + std::to_string(kCommNull) + " (MPI_COMM_NULL)"});
    }
    for (const Event& e : trace_.events[rank_]) event(e);
    call("MPI_Finalize", {});
    return out_;
  }

 private:
  std::string world(const char* name) const {
    return std::string("MPI_Comm ") + name + "=" + std::to_string(kCommWorld) + " (MPI_COMM_WORLD)";
  }
  std::string comm(const char* name, const std::string& id) const {
    if (id.empty()) return world(name);
    return std::string("MPI_Comm ") + name + "=" + std::to_string(handles_.at(id)) +
           " (user-defined-comm)";
  }

  static std::string clock(std::int64_t nanoseconds) {
    std::string fraction = std::to_string(nanoseconds % 1000000000);
    fraction.insert(0, 9 - fraction.size(), '0');
    return std::to_string(nanoseconds / 1000000000) + "." + fraction;
  }
  void call(const std::string& name, const std::vector<std::string>& arguments) {
    const std::string start = clock(now_), stop = clock(now_ + kCallNanoseconds / 2);
    out_ +=
        name + " entering at walltime " + start + ", cputime " + start + " seconds in thread 0.\n";
    for (const std::string& argument : arguments) out_ += argument + "\n";
    out_ +=
        name + " returning at walltime " + stop + ", cputime " + stop + " seconds in thread 0.\n";
    now_ += kCallNanoseconds;
  }

  // "int count=N" and "MPI_Datatype datatype=5 (MPI_BYTE)" (names given) for `bytes`.
  std::vector<std::string> sized(const Event& e, std::uint64_t bytes, const char* countName,
                                 const char* typeName) const {
    std::uint64_t count = bytes;
    std::string type = "5 (MPI_BYTE)";
    if (bytes > static_cast<std::uint64_t>(kIntMax)) {
      if (bytes % 8 != 0 || bytes / 8 > static_cast<std::uint64_t>(kIntMax))
        failAt(trace_.fileOf(e), e.line,
               "message of " + std::to_string(bytes) +
                   " bytes: DUMPI counts are ints (at most 2^31-1 bytes, or 2^31-1 doubles for "
                   "a multiple of 8 bytes)");
      count = bytes / 8;
      type = "14 (MPI_DOUBLE)";
    }
    return {std::string("int ") + countName + "=" + std::to_string(count),
            std::string("MPI_Datatype ") + typeName + "=" + type};
  }
  std::string tag(const Event& e, const char* name) const {
    if (e.tag == kAnyTag) return std::string("int ") + name + "=-1";  // DUMPI_ANY_TAG
    if (e.tag < 0 || e.tag > kIntMax)
      failAt(
          trace_.fileOf(e), e.line,
          "tag " + std::to_string(e.tag) + ": DUMPI tags are ints 0.." + std::to_string(kIntMax));
    return std::string("int ") + name + "=" + std::to_string(e.tag);
  }
  std::string request(const char* name, int id) const {
    return std::string("MPI_Request ") + name + "=[" + std::to_string(id) + "]";
  }

  void pointToPoint(const Event& e) {
    const bool send = e.kind == EventKind::Send || e.kind == EventKind::Isend;
    const bool blocking = e.kind == EventKind::Send || e.kind == EventKind::Recv;
    std::vector<std::string> arguments = sized(e, e.bytes, "count", "datatype");
    // DUMPI_ANY_SOURCE is -1.
    arguments.push_back(std::string("int ") + (send ? "dest=" : "source=") +
                        std::to_string(e.peer == kAnySource ? -1 : e.peer));
    arguments.push_back(tag(e, "tag"));
    arguments.push_back(world("comm"));
    if (!blocking) {
      if (live_.count(trace_.requestOf(e)))
        failAt(trace_.fileOf(e), e.line,
               "request " + trace_.requestOf(e) + " posted while still live");
      const int id = nextRequest_++;
      live_[trace_.requestOf(e)] = id;
      posted_.push_back(trace_.requestOf(e));
      arguments.push_back(request("request", id));
    } else if (!send) {
      arguments.push_back("MPI_Status status=<IGNORED>");
    }
    const char* name = e.kind == EventKind::Send    ? "MPI_Send"
                       : e.kind == EventKind::Recv  ? "MPI_Recv"
                       : e.kind == EventKind::Isend ? "MPI_Isend"
                                                    : "MPI_Irecv";
    call(name, arguments);
  }

  void collective(const Event& e) {
    std::vector<std::string> arguments;
    const auto add = [&arguments](std::vector<std::string> more) {
      arguments.insert(arguments.end(), more.begin(), more.end());
    };
    const std::size_t members = checkedMembers(e);
    switch (e.op) {
      case CollectiveOp::Bcast:
        add(sized(e, e.bytes, "count", "datatype"));
        break;
      case CollectiveOp::Reduce:
      case CollectiveOp::Allreduce:
      case CollectiveOp::Scan:
      case CollectiveOp::Exscan:
        add(sized(e, e.bytes, "count", "datatype"));
        arguments.push_back("MPI_Op op=3 (MPI_SUM)");
        break;
      case CollectiveOp::Allgather:
      case CollectiveOp::Alltoall:
      case CollectiveOp::Gather:
      case CollectiveOp::Scatter:
        if (e.op == CollectiveOp::Gather || e.op == CollectiveOp::Scatter)
          arguments.push_back("int commrank=" + std::to_string(commRank(e)));
        add(sized(e, e.bytes, "sendcount", "sendtype"));
        add(sized(e, e.bytes, "recvcount", "recvtype"));
        break;
      case CollectiveOp::ReduceScatter: {
        const std::vector<std::string> block = sized(e, e.bytes, "count", "datatype");
        const std::string count = block[0].substr(block[0].find('=') + 1);
        std::string counts;
        for (std::size_t i = 0; i < members; ++i) counts += (i ? ", " : "") + count;
        arguments.push_back("int commsize=" + std::to_string(members));
        arguments.push_back("int recvcounts[" + std::to_string(members) + "]=[" + counts + "]");
        arguments.push_back(block[1]);
        arguments.push_back("MPI_Op op=3 (MPI_SUM)");
        break;
      }
      case CollectiveOp::Barrier:
        break;
      case CollectiveOp::Gatherv:
      case CollectiveOp::Scatterv:
      case CollectiveOp::Allgatherv:
      case CollectiveOp::Alltoallv:
        throw std::logic_error("v-collectives are expanded before DUMPI is written");
    }
    if (rooted(e.op)) arguments.push_back("int root=" + std::to_string(e.root));
    arguments.push_back(comm("comm", trace_.commOf(e)));
    static const std::map<CollectiveOp, const char*> kNames = {
        {CollectiveOp::Bcast, "MPI_Bcast"},
        {CollectiveOp::Reduce, "MPI_Reduce"},
        {CollectiveOp::Allreduce, "MPI_Allreduce"},
        {CollectiveOp::Allgather, "MPI_Allgather"},
        {CollectiveOp::Alltoall, "MPI_Alltoall"},
        {CollectiveOp::Gather, "MPI_Gather"},
        {CollectiveOp::Scatter, "MPI_Scatter"},
        {CollectiveOp::ReduceScatter, "MPI_Reduce_scatter"},
        {CollectiveOp::Barrier, "MPI_Barrier"},
        {CollectiveOp::Scan, "MPI_Scan"},
        {CollectiveOp::Exscan, "MPI_Exscan"}};
    call(kNames.at(e.op), arguments);
  }
  // The size of a collective's communicator, checked as the expansion checks it (the same
  // messages): declared, holding this rank, the root inside it.
  std::size_t checkedMembers(const Event& e) const {
    const auto known = trace_.comms.find(trace_.commOf(e));
    if (e.comm != 0 && known == trace_.comms.end())
      failAt(trace_.fileOf(e), e.line,
             "communicator " + trace_.commOf(e) + " is not declared ('<rank> comm " +
                 trace_.commOf(e) + " <world ranks...>')");
    const std::size_t members =
        e.comm == 0 ? static_cast<std::size_t>(trace_.ranks) : known->second.size();
    if (commRank(e) >= static_cast<int>(members))
      failAt(trace_.fileOf(e), e.line,
             "rank " + std::to_string(rank_) + " is not in communicator " + trace_.commOf(e));
    if (rooted(e.op) && (e.root < 0 || e.root >= static_cast<int>(members)))
      failAt(trace_.fileOf(e), e.line,
             "root=" + std::to_string(e.root) + " is outside the communicator's 0.." +
                 std::to_string(members - 1));
    return members;
  }
  int commRank(const Event& e) const {
    if (e.comm == 0) return rank_;
    const std::vector<int>& members = trace_.comms.at(trace_.commOf(e));
    return static_cast<int>(std::find(members.begin(), members.end(), rank_) - members.begin());
  }

  void event(const Event& e) {
    switch (e.kind) {
      case EventKind::Send:
      case EventKind::Recv:
      case EventKind::Isend:
      case EventKind::Irecv:
        return pointToPoint(e);
      case EventKind::Wait: {
        const auto it = live_.find(trace_.requestOf(e));
        if (it == live_.end())
          failAt(trace_.fileOf(e), e.line,
                 "wait for request " + trace_.requestOf(e) + ", not pending");
        const int id = it->second;
        live_.erase(it);
        posted_.erase(std::find(posted_.begin(), posted_.end(), trace_.requestOf(e)));
        return call("MPI_Wait", {request("request", id), "MPI_Status status=<IGNORED>"});
      }
      case EventKind::Waitall: {
        // The live requests in the order they were posted.
        std::string ids;
        for (const std::string& name : posted_)
          ids += (ids.empty() ? "" : ", ") + std::to_string(live_.at(name));
        const std::string n = std::to_string(posted_.size());
        call("MPI_Waitall", {"int count=" + n, "MPI_Request requests[" + n + "]=[" + ids + "]",
                             "MPI_Status statuses[" + n + "]=<IGNORED>"});
        live_.clear();
        posted_.clear();
        return;
      }
      case EventKind::Waitany: {
        // Which request completed is not known (the trace came from SimGrid's TI format):
        // no index, which the reader takes for the same.
        std::string ids;
        for (const std::string& name : posted_)
          ids += (ids.empty() ? "" : ", ") + std::to_string(live_.at(name));
        const std::string n = std::to_string(posted_.size());
        return call("MPI_Waitany", {"int count=" + n,
                                    "MPI_Request requests[" + n + "]=[" + ids + "]",
                                    "MPI_Status status=<IGNORED>"});
      }
      case EventKind::Sendrecv: {
        std::vector<std::string> arguments = sized(e, e.bytes, "sendcount", "sendtype");
        arguments.push_back("int dest=" + std::to_string(e.peer));
        arguments.push_back(tag(e, "sendtag"));
        for (std::string& line : sized(e, e.bytes2, "recvcount", "recvtype"))
          arguments.push_back(line);
        arguments.push_back("int source=" + std::to_string(e.peer2 == kAnySource ? -1 : e.peer2));
        arguments.push_back(tag(e, "recvtag"));
        arguments.push_back(world("comm"));
        arguments.push_back("MPI_Status status=<IGNORED>");
        return call("MPI_Sendrecv", arguments);
      }
      case EventKind::Barrier:
        return call("MPI_Barrier", {world("comm")});
      case EventKind::Compute:  // local work: the time until the next call
        now_ += static_cast<std::int64_t>(std::llround(std::min(e.seconds, 1e9) * 1e9));
        return;
      case EventKind::Copy:
        return;  // no DUMPI call; it takes no part in CCSs
      case EventKind::Collective:
        return collective(e);
    }
  }

  const Trace& trace_;
  int rank_;
  const std::map<std::string, int>& handles_;
  std::map<std::string, int> live_;  // request name -> DUMPI request id
  std::vector<std::string> posted_;  // live request names, oldest first
  int nextRequest_ = kFirstRequest;
  std::int64_t now_ = 1000000000;  // nanoseconds; the first call at 1 s
  std::string out_;
};

// Negative tags (the steps of collectives tac3map expanded, here or in a native trace written
// before) renumbered one to one after the trace's largest tag: DUMPI tags are ints
// 0..2^31-1, and the matching of messages only needs distinct tags to stay distinct.
bool hasNegativeTags(const Trace& trace) {
  for (const auto& events : trace.events)
    for (const Event& e : events)
      if (e.kind != EventKind::Collective && e.tag < 0) return true;
  return false;
}

void renumberNegativeTags(Trace& trace) {
  std::set<std::int64_t> tags;
  for (const auto& events : trace.events)
    for (const Event& e : events)
      if (e.kind == EventKind::Send || e.kind == EventKind::Recv || e.kind == EventKind::Isend ||
          e.kind == EventKind::Irecv || e.kind == EventKind::Sendrecv)
        tags.insert(e.tag);
  // After the largest tag DUMPI can hold (a larger one is refused at its line when written).
  std::int64_t next = 0;
  for (std::int64_t tag : tags)
    if (tag >= 0 && tag <= kIntMax) next = tag + 1;
  std::map<std::int64_t, std::int64_t> renamed;
  for (auto it = tags.rbegin(); it != tags.rend(); ++it)
    if (*it < 0) {
      if (next > kIntMax)
        failIn(trace.source, "too many distinct tags for DUMPI (tags are ints 0..2147483647)");
      renamed[*it] = next++;
    }
  for (auto& events : trace.events)
    for (Event& e : events)
      if (e.kind != EventKind::Collective && renamed.count(e.tag)) e.tag = renamed[e.tag];
}

}  // namespace

std::vector<std::string> dumpiRankTexts(const Trace& input,
                                        const CollectiveAlgorithms& algorithms) {
  // SimGrid's v-collectives become their steps (their count lists are not written).
  bool variable = false;
  for (const auto& events : input.events)
    for (const Event& e : events)
      variable |= e.kind == EventKind::Collective && !kDumpiCollectives.count(e.op);
  Trace rewritten;
  const Trace* chosen = &input;
  if (variable || hasNegativeTags(input)) {
    rewritten = input;
    if (variable) expandCollectives(rewritten, algorithms, kDumpiCollectives);
    renumberNegativeTags(rewritten);
    chosen = &rewritten;
  }
  const Trace& trace = *chosen;
  std::map<std::string, int> handles;  // communicator id -> DUMPI handle
  for (const auto& entry : trace.comms)
    handles[entry.first] = kFirstUserComm + static_cast<int>(handles.size());
  std::vector<std::string> ranks;
  for (int rank = 0; rank < trace.ranks; ++rank)
    ranks.push_back(RankWriter(trace, rank, handles).write());
  return ranks;
}

std::string dumpiRankFile(const std::string& indexPath, int rank, int ranks) {
  const std::size_t digits =
      std::max<std::size_t>(4, std::to_string(std::max(ranks - 1, 0)).size());
  std::string number = std::to_string(rank);
  number.insert(0, digits - number.size(), '0');
  return std::filesystem::path(indexPath).filename().string() + "-" + number + ".txt";
}

void writeDumpi(const Trace& trace, const std::string& indexPath,
                const CollectiveAlgorithms& algorithms) {
  writeIndexedFiles(indexPath, dumpiRankTexts(trace, algorithms),
                    [&](int rank) { return dumpiRankFile(indexPath, rank, trace.ranks); });
}

}  // namespace tac3map
