#include "tac3map/model/ccs.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <tuple>
#include <unordered_map>

#include "tac3map/io/error.hpp"

namespace tac3map {
namespace {

constexpr int kNone = -1;

// One posted side of a communication: where it is in the trace.
struct Side {
  int rank;
  std::size_t event;
};

// Per event, the communications it posts (up to two for sendrecv).
struct Posted {
  int send = kNone;  // communication whose send side this event posts
  int recv = kNone;  // communication whose receive side this event posts
};

std::string describe(const Trace& trace, const Event& e) {
  std::string text = eventName(e.kind);
  switch (e.kind) {
    case EventKind::Send:
    case EventKind::Recv:
      return text + " " + std::to_string(e.peer) + " " + std::to_string(e.bytes) + " " +
             std::to_string(e.tag);
    case EventKind::Isend:
    case EventKind::Irecv:
      return text + " " + std::to_string(e.peer) + " " + std::to_string(e.bytes) + " " +
             std::to_string(e.tag) + " " + trace.requestOf(e);
    case EventKind::Wait:
      return text + " " + trace.requestOf(e);
    case EventKind::Sendrecv:
      return text + " " + std::to_string(e.peer) + " " + std::to_string(e.bytes) + " " +
             std::to_string(e.peer2) + " " + std::to_string(e.bytes2) + " " + std::to_string(e.tag);
    default:
      return text;
  }
}

// Step 1: pair the k-th send from a to b with tag t with the k-th receive at b from a with
// tag t (MPI's non-overtaking rule).
// One posted side with the key it is matched on; sorted by key, each key's sides stay in
// program order (they all come from one rank: the sender for sends, the receiver for recvs).
struct KeyedSide {
  int src, dst;
  std::int64_t tag;
  Side side;
};

bool keyLess(const KeyedSide& a, const KeyedSide& b) {
  return std::tie(a.src, a.dst, a.tag) < std::tie(b.src, b.dst, b.tag);
}

// [first, end of first's key) in a sorted side list.
std::size_t keyEnd(const std::vector<KeyedSide>& sides, std::size_t first) {
  std::size_t last = first + 1;
  while (last < sides.size() && !keyLess(sides[first], sides[last])) ++last;
  return last;
}

std::vector<Communication> matchSides(const Trace& trace,
                                      std::vector<std::vector<Posted>>& posted) {
  // Flat sorted lists rather than a map of queues: a whole-machine trace has millions of keys.
  std::vector<KeyedSide> sends, recvs;
  std::size_t sendCount = 0, recvCount = 0;  // reserved exactly: no slack on large traces
  for (const auto& events : trace.events)
    for (const Event& e : events) {
      sendCount +=
          e.kind == EventKind::Send || e.kind == EventKind::Isend || e.kind == EventKind::Sendrecv;
      recvCount +=
          e.kind == EventKind::Recv || e.kind == EventKind::Irecv || e.kind == EventKind::Sendrecv;
    }
  sends.reserve(sendCount);
  recvs.reserve(recvCount);
  posted.assign(trace.ranks, {});
  for (int rank = 0; rank < trace.ranks; ++rank) {
    const auto& events = trace.events[rank];
    posted[rank].resize(events.size());
    for (std::size_t i = 0; i < events.size(); ++i) {
      const Event& e = events[i];
      switch (e.kind) {
        case EventKind::Send:
        case EventKind::Isend:
          sends.push_back({rank, e.peer, e.tag, {rank, i}});
          break;
        case EventKind::Recv:
        case EventKind::Irecv:
          recvs.push_back({e.peer, rank, e.tag, {rank, i}});
          break;
        case EventKind::Sendrecv:
          sends.push_back({rank, e.peer, e.tag, {rank, i}});
          recvs.push_back({e.peer2, rank, e.tag, {rank, i}});
          break;
        default:
          break;
      }
    }
  }
  std::stable_sort(sends.begin(), sends.end(), keyLess);
  std::stable_sort(recvs.begin(), recvs.end(), keyLess);
  // A receive without a send is reported only after every send found its receive, for the
  // smallest such key, so the message does not depend on which list ran out first.
  const KeyedSide* unmatchedRecv = nullptr;
  std::vector<Communication> comms;
  comms.reserve(std::min(sends.size(), recvs.size()));
  std::size_t j = 0;
  for (std::size_t i = 0; i < sends.size();) {
    const std::size_t sendEnd = keyEnd(sends, i);
    for (; j < recvs.size() && keyLess(recvs[j], sends[i]); j = keyEnd(recvs, j))
      if (!unmatchedRecv) unmatchedRecv = &recvs[j];
    const bool sameKey = j < recvs.size() && !keyLess(sends[i], recvs[j]);
    const std::size_t recvEnd = sameKey ? keyEnd(recvs, j) : j;
    const std::size_t pairs = std::min(sendEnd - i, recvEnd - j);
    const int src = sends[i].src, dst = sends[i].dst;
    const std::int64_t tag = sends[i].tag;
    for (std::size_t k = 0; k < pairs; ++k) {
      const Side s = sends[i + k].side, r = recvs[j + k].side;
      const Event& se = trace.events[s.rank][s.event];
      const Event& re = trace.events[r.rank][r.event];
      const std::uint64_t received = re.kind == EventKind::Sendrecv ? re.bytes2 : re.bytes;
      if (received < se.bytes)
        failAt(trace.fileOf(re), re.line,
               "rank " + std::to_string(dst) + " receives at most " + std::to_string(received) +
                   " bytes from rank " + std::to_string(src) + " but line " +
                   std::to_string(se.line) + " sends " + std::to_string(se.bytes) +
                   " (message truncated)");
      const int id = static_cast<int>(comms.size());
      comms.push_back({src, dst, se.bytes, tag, se.line, re.line, 0, se.file});
      posted[s.rank][s.event].send = id;
      posted[r.rank][r.event].recv = id;
    }
    if (sendEnd - i > pairs) {
      const Side s = sends[i + pairs].side;
      failAt(trace.fileOf(trace.events[s.rank][s.event]), trace.events[s.rank][s.event].line,
             "rank " + std::to_string(src) + " sends to rank " + std::to_string(dst) + " (tag " +
                 std::to_string(tag) + ") but rank " + std::to_string(dst) +
                 " has no matching receive");
    }
    if (recvEnd - j > pairs && !unmatchedRecv) unmatchedRecv = &recvs[j + pairs];
    i = sendEnd;
    j = recvEnd;
  }
  if (j < recvs.size() && !unmatchedRecv) unmatchedRecv = &recvs[j];
  if (unmatchedRecv) {
    const Side r = unmatchedRecv->side;
    failAt(trace.fileOf(trace.events[r.rank][r.event]), trace.events[r.rank][r.event].line,
           "rank " + std::to_string(unmatchedRecv->dst) + " receives from rank " +
               std::to_string(unmatchedRecv->src) + " (tag " + std::to_string(unmatchedRecv->tag) +
               ") but rank " + std::to_string(unmatchedRecv->src) + " has no matching send");
  }
  return comms;
}

// Step 2: levels. Runs the ranks forward as far as the rendezvous semantics allow (an eager
// send, Communication::eager, never holds its sender). A rank's
// floor is one more than the highest level it has completed at a blocking point; a
// communication's level is the larger floor of the two ranks when they posted its sides.
class LevelSimulation {
 public:
  LevelSimulation(const Trace& trace, const std::vector<std::vector<Posted>>& posted,
                  std::vector<Communication>& comms)
      : trace_(trace), posted_(posted), comms_(comms), namePlaces_(namePlaces(trace.requests)) {
    ranks_.assign(trace.ranks, RankState{ByName{&namePlaces_}});
    sidesPosted_.assign(comms.size(), 0);
    waiters_.resize(comms.size());
  }

  // The floors of the barriers that were released (ascending).
  std::vector<int> barrierLevels() const {
    std::vector<int> levels;
    for (const Barrier& b : barriers_)
      if (b.released) levels.push_back(b.floor);
    std::sort(levels.begin(), levels.end());
    levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
    return levels;
  }

  void run() {
    for (int rank = 0; rank < trace_.ranks; ++rank) runnable_.push_back(rank);
    while (!runnable_.empty()) {
      const int rank = runnable_.front();
      runnable_.pop_front();
      advance(rank);
    }
    for (int rank = 0; rank < trace_.ranks; ++rank) {
      const RankState& s = ranks_[rank];
      if (s.next < trace_.events[rank].size()) {
        const Event& e = trace_.events[rank][s.next];
        failAt(trace_.fileOf(e), e.line,
               "deadlock: rank " + std::to_string(rank) + " blocks forever in '" +
                   describe(trace_, e) + "'" + blockedReason(rank, e));
      }
    }
  }

 private:
  // Requests (Event::request) in the order of their names, as waitall completes them: by
  // each name's place among the trace's names, sorted once.
  struct ByName {
    const std::vector<int>* place;
    bool operator()(int a, int b) const { return (*place)[a] < (*place)[b]; }
  };
  static std::vector<int> namePlaces(const NameTable& names) {
    std::vector<int> order(names.size()), place(names.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return names[a] < names[b]; });
    for (std::size_t i = 0; i < order.size(); ++i) place[order[i]] = static_cast<int>(i);
    return place;
  }
  struct RankState {
    explicit RankState(ByName order) : requests(order) {}
    std::size_t next = 0;                 // next event to run
    bool postedNext = false;              // its sides are already posted (rank blocked on it)
    int floor = 0;                        // level of anything it posts now
    int barriers = 0;                     // barriers passed
    std::map<int, int, ByName> requests;  // live request -> communication
  };

  std::string blockedReason(int rank, const Event& e) const {
    if (e.kind == EventKind::Barrier)
      return " (not every rank reaches barrier " + std::to_string(ranks_[rank].barriers + 1) + ")";
    for (int c : blockingSet(rank, e))
      if (sidesPosted_[c] < 2) {
        const Communication& m = comms_[c];
        const int other = m.src == rank ? m.dst : m.src;
        return " (waits for rank " + std::to_string(other) + ", line " +
               std::to_string(m.src == rank ? m.recvLine : m.sendLine) + ")";
      }
    return "";
  }

  void post(int comm, int floor) {
    Communication& c = comms_[comm];
    c.level = std::max(c.level, floor);
    if (++sidesPosted_[comm] == 2) {
      for (int waiter : waiters_[comm]) runnable_.push_back(waiter);
      waiters_[comm].clear();
    }
  }

  // Whether `rank`'s request for `comm` is an eager isend: its wait does not hold the rank.
  bool goesOn(int rank, int comm) const {
    const Communication& c = comms_[comm];
    return c.eager && c.src == rank && c.dst != rank;
  }

  // Communications that the event completes on this rank (it blocks until all are matched).
  std::vector<int> blockingSet(int rank, const Event& e) const {
    const RankState& s = ranks_[rank];
    const Posted& p = posted_[rank][s.next];
    std::vector<int> set;
    switch (e.kind) {
      case EventKind::Send:
        if (!comms_[p.send].eager) set.push_back(p.send);
        break;
      case EventKind::Recv:
        set.push_back(p.recv);
        break;
      case EventKind::Sendrecv:
        if (!comms_[p.send].eager) set.push_back(p.send);
        set.push_back(p.recv);
        break;
      case EventKind::Wait: {
        auto it = s.requests.find(e.request);
        if (it != s.requests.end() && !goesOn(rank, it->second)) set.push_back(it->second);
        break;
      }
      case EventKind::Waitall:
        for (const auto& [request, c] : s.requests)
          if (!goesOn(rank, c)) set.push_back(c);
        break;
      default:
        break;
    }
    return set;
  }

  void advance(int rank) {
    RankState& s = ranks_[rank];
    const auto& events = trace_.events[rank];
    while (s.next < events.size()) {
      const Event& e = events[s.next];
      if (e.kind == EventKind::Barrier) {
        if (!enterBarrier(rank)) return;
        ++s.next;
        continue;
      }
      if (e.kind == EventKind::Compute || e.kind == EventKind::Copy) {  // local work only
        ++s.next;
        continue;
      }
      if (!s.postedNext) {
        postSides(rank, e);
        s.postedNext = true;
      }
      const std::vector<int> set = blockingSet(rank, e);
      for (int c : set)
        if (sidesPosted_[c] < 2) {
          waiters_[c].push_back(rank);
          return;
        }
      for (int c : set) s.floor = std::max(s.floor, comms_[c].level + 1);
      retireRequests(rank, e);
      s.postedNext = false;
      ++s.next;
    }
  }

  void postSides(int rank, const Event& e) {
    RankState& s = ranks_[rank];
    const Posted& p = posted_[rank][s.next];
    if (p.send != kNone) post(p.send, s.floor);
    if (p.recv != kNone) post(p.recv, s.floor);
    if (e.kind == EventKind::Isend || e.kind == EventKind::Irecv) {
      if (s.requests.count(e.request))
        failAt(trace_.fileOf(e), e.line,
               "rank " + std::to_string(rank) + " reuses request '" + trace_.requestOf(e) +
                   "' before waiting for it");
      s.requests[e.request] = e.kind == EventKind::Isend ? p.send : p.recv;
    }
    if (e.kind == EventKind::Wait && !s.requests.count(e.request))
      failAt(trace_.fileOf(e), e.line,
             "rank " + std::to_string(rank) + " waits for request '" + trace_.requestOf(e) +
                 "' that it has not posted (or already completed)");
  }

  void retireRequests(int rank, const Event& e) {
    RankState& s = ranks_[rank];
    if (e.kind == EventKind::Wait) s.requests.erase(e.request);
    if (e.kind == EventKind::Waitall) s.requests.clear();
  }

  // Returns true when the barrier is complete and the rank may go on.
  bool enterBarrier(int rank) {
    RankState& s = ranks_[rank];
    const std::size_t index = static_cast<std::size_t>(s.barriers);
    if (barriers_.size() <= index) barriers_.push_back({});
    Barrier& b = barriers_[index];
    if (b.released) {
      s.floor = std::max(s.floor, b.floor);
      ++s.barriers;
      return true;
    }
    if (!s.postedNext) {
      s.postedNext = true;
      b.floor = std::max(b.floor, s.floor);
      b.waiting.push_back(rank);
    }
    if (static_cast<int>(b.waiting.size()) < trace_.ranks) return false;
    b.released = true;
    for (int other : b.waiting) {
      ranks_[other].postedNext = false;
      if (other != rank) runnable_.push_back(other);
    }
    s.floor = std::max(s.floor, b.floor);
    ++s.barriers;
    return true;
  }

  struct Barrier {
    int floor = 0;
    bool released = false;
    std::vector<int> waiting;
  };

  const Trace& trace_;
  const std::vector<std::vector<Posted>>& posted_;
  std::vector<Communication>& comms_;
  const std::vector<int> namePlaces_;  // ByName
  std::vector<RankState> ranks_;
  std::vector<int> sidesPosted_;
  std::vector<std::vector<int>> waiters_;
  std::vector<Barrier> barriers_;
  std::deque<int> runnable_;
};

// Step 3: within a level, first fit in posting order (sender rank, then its line) into sets
// where each rank sends and receives at most `perRank` messages (the paper: 1); with
// `perRank` 0, one set per level.
std::vector<std::vector<Communication>> splitLevels(std::vector<Communication> comms, int perRank) {
  const bool wholeLevels = perRank == 0;
  std::stable_sort(comms.begin(), comms.end(), [](const Communication& a, const Communication& b) {
    return std::tie(a.level, a.src, a.sendLine) < std::tie(b.level, b.src, b.sendLine);
  });
  std::vector<std::vector<Communication>> sets;
  struct Open {
    std::unordered_map<int, int> sources, destinations;  // messages per rank
  };
  std::vector<Open> open;  // the CCSs of the current level
  std::size_t levelStart = 0;
  int level = -1;
  for (const Communication& c : comms) {
    if (c.level != level) {
      level = c.level;
      levelStart = sets.size();
      open.clear();
    }
    std::size_t k = 0;
    const auto full = [&](const std::unordered_map<int, int>& counts, int rank) {
      const auto it = counts.find(rank);
      return it != counts.end() && it->second >= perRank;
    };
    while (!wholeLevels && k < open.size() &&
           (full(open[k].sources, c.src) || full(open[k].destinations, c.dst)))
      ++k;
    if (k == open.size()) {
      open.emplace_back();
      sets.emplace_back();
    }
    ++open[k].sources[c.src];
    ++open[k].destinations[c.dst];
    sets[levelStart + k].push_back(c);
  }
  return sets;
}

}  // namespace

bool CcsSet::barrierBetween(std::size_t t) const {
  if (t + 1 >= sets.size() || sets[t].empty() || sets[t + 1].empty()) return false;
  const int before = sets[t].front().level, after = sets[t + 1].front().level;
  const auto f = std::upper_bound(barrierLevels.begin(), barrierLevels.end(), before);
  return f != barrierLevels.end() && *f <= after;
}

std::size_t CcsSet::communicationCount() const {
  std::size_t count = 0;
  for (const auto& set : sets) count += set.size();
  return count;
}

namespace {

// The CCSs of a trace whose collectives are expanded already. With `release` (the trace
// itself, no longer needed), its events are released once the levels are known, before the
// communications are split into sets.
CcsSet extractExpanded(const Trace& trace, const CcsOptions& options, Trace* release = nullptr) {
  CcsSet result;
  result.tasks = trace.ranks;
  std::vector<Communication> comms;
  {
    std::vector<std::vector<Posted>> posted;
    comms = matchSides(trace, posted);
    for (Communication& c : comms) c.eager = options.eagerSend(c.bytes);
    LevelSimulation levels(trace, posted, comms);
    levels.run();
    result.barrierLevels = levels.barrierLevels();
  }
  result.barrierAlgorithm = options.collectives.of(CollectiveOp::Barrier);
  if (release)
    for (std::vector<Event>& events : release->events) std::vector<Event>().swap(events);
  const int perRank = options.engines <= 1 ? 1 : options.splitBeyondEngines ? options.engines : 0;
  result.sets = splitLevels(std::move(comms), perRank);
  return result;
}

}  // namespace

CcsSet extractCcs(const Trace& trace, const CcsOptions& options) {
  // Collectives become their algorithms' point-to-point steps first.
  Trace expanded;
  return extractExpanded(withCollectivesExpanded(trace, options.collectives, expanded), options);
}

CcsSet extractCcs(Trace&& trace, const CcsOptions& options) {
  if (hasCollectives(trace)) expandCollectives(trace, options.collectives);
  return extractExpanded(trace, options, &trace);
}

}  // namespace tac3map
