#include "level_simulation.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <queue>
#include <set>

#include "matching.hpp"
#include "tac3map/io/error.hpp"

namespace tac3map::levels {
namespace {

std::string peerText(int peer) {
  return peer == kAnySource ? std::string("any") : std::to_string(peer);
}
std::string tagText(std::int64_t tag) {
  return tag == kAnyTag ? std::string("any") : std::to_string(tag);
}

// A rank's floor is one more than the highest level it has completed at a blocking point; a
// communication's level is the larger floor of the two ranks when they posted its sides.
class LevelSimulation {
 public:
  // Static: `posted` filled. Dynamic (`matcher` given): `posted` sized and empty, `comms`
  // empty; both filled as the ranks post.
  LevelSimulation(const Trace& trace, std::vector<std::vector<Posted>>& posted,
                  std::vector<Communication>& comms, matching::Matcher* matcher,
                  std::function<bool(std::uint64_t)> eager)
      : trace_(trace),
        posted_(posted),
        comms_(comms),
        matcher_(matcher),
        eager_(std::move(eager)),
        namePlaces_(namePlaces(trace.requests)) {
    ranks_.assign(trace.ranks, RankState{ByName{&namePlaces_}});
    sidesPosted_.assign(comms.size(), 0);
    waiters_.resize(comms.size());
    queued_.assign(trace.ranks, 0);
  }

  std::vector<int> barrierLevels() const {
    std::vector<int> levels;
    for (const Barrier& b : barriers_)
      if (b.released) levels.push_back(b.floor);
    std::sort(levels.begin(), levels.end());
    levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
    return levels;
  }

  void run() {
    for (int rank = 0; rank < trace_.ranks; ++rank) wake(rank);
    while (!fifo_.empty() || !byFloor_.empty()) {
      int rank;
      if (matcher_) {
        rank = byFloor_.top().rank;
        byFloor_.pop();
      } else {
        rank = fifo_.front();
        fifo_.pop_front();
      }
      queued_[rank] = 0;
      advance(rank);
    }
    if (matcher_) reportUnmatched();
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
    std::set<int> doneByAny;              // requests a waitany completed (a later wait is a no-op)
  };
  struct Queued {
    int floor;
    std::uint64_t order;
    int rank;
    bool operator<(const Queued& other) const {  // std::priority_queue is a max-heap
      return floor != other.floor ? floor > other.floor : order > other.order;
    }
  };

  void wake(int rank) {
    if (queued_[rank]) return;
    queued_[rank] = 1;
    if (matcher_)
      byFloor_.push({ranks_[rank].floor, order_++, rank});
    else
      fifo_.push_back(rank);
  }

  std::string blockedReason(int rank, const Event& e) const {
    if (e.kind == EventKind::Barrier)
      return " (not every rank reaches barrier " + std::to_string(ranks_[rank].barriers + 1) + ")";
    if (e.kind == EventKind::Waitany) return " (none of its requests can complete)";
    for (int c : blockingSet(rank, e))
      if (sidesPosted_[c] < 2) {
        const Communication& m = comms_[c];
        if (m.src == kAnySource) return " (no message it matches has been sent)";
        const int other = m.src == rank ? m.dst : m.src;
        return " (waits for rank " + std::to_string(other) + ", line " +
               std::to_string(m.src == rank ? m.recvLine : m.sendLine) + ")";
      }
    return "";
  }

  // Dynamic matching: a side left alone once no rank can go on.
  void reportUnmatched() const {
    for (int pass = 0; pass < 2; ++pass)  // sends without a receive first, as static matching
      for (std::size_t c = 0; c < comms_.size(); ++c) {
        if (sidesPosted_[c] == 2) continue;
        const Communication& m = comms_[c];
        const bool sendOnly = m.src != kAnySource;
        if (sendOnly != (pass == 0)) continue;
        if (sendOnly)
          failAt(trace_.fileAt(m.sendFile), m.sendLine,
                 "rank " + std::to_string(m.src) + " sends to rank " + std::to_string(m.dst) +
                     " (tag " + std::to_string(m.tag) + ") but rank " + std::to_string(m.dst) +
                     " has no matching receive");
        const Side& r = recvSides_[c];
        const Event& e = trace_.events[r.rank][r.event];
        const int from = e.kind == EventKind::Sendrecv ? e.peer2 : e.peer;
        failAt(trace_.fileOf(e), e.line,
               "rank " + std::to_string(m.dst) + " receives from " +
                   (from == kAnySource ? std::string("any rank") : "rank " + std::to_string(from)) +
                   " (tag " + tagText(e.tag) + ") but " +
                   (from == kAnySource ? std::string("no rank sends it a message that matches")
                                       : "rank " + std::to_string(from) + " has no matching send"));
      }
  }

  void post(int comm, int floor) {
    Communication& c = comms_[comm];
    c.level = std::max(c.level, floor);
    if (++sidesPosted_[comm] == 2) {
      for (int waiter : waiters_[comm]) wake(waiter);
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
      // Dynamic matching: ranks go in the order of their floors, so that messages reach the
      // matcher about in the order they would travel.
      if (matcher_ && !s.postedNext && !byFloor_.empty() && byFloor_.top().floor < s.floor) {
        wake(rank);
        return;
      }
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
      if (e.kind == EventKind::Waitany) {
        if (!waitAny(rank)) return;
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

  // Waitany: the live request matched first (lowest level, then name order) completes; one
  // that holds nothing (an eager isend) only when nothing else is live. False: the rank waits.
  bool waitAny(int rank) {
    RankState& s = ranks_[rank];
    auto chosen = s.requests.end();
    bool holding = false;
    for (auto it = s.requests.begin(); it != s.requests.end(); ++it) {
      if (goesOn(rank, it->second)) continue;
      holding = true;
      if (sidesPosted_[it->second] == 2 &&
          (chosen == s.requests.end() || comms_[it->second].level < comms_[chosen->second].level))
        chosen = it;
    }
    if (!holding) {
      if (!s.requests.empty()) {
        s.doneByAny.insert(s.requests.begin()->first);
        s.requests.erase(s.requests.begin());
      }
      return true;
    }
    if (chosen == s.requests.end()) {
      for (const auto& [request, c] : s.requests)
        if (!goesOn(rank, c)) waiters_[c].push_back(rank);
      return false;
    }
    s.floor = std::max(s.floor, comms_[chosen->second].level + 1);
    s.doneByAny.insert(chosen->first);
    s.requests.erase(chosen);
    return true;
  }

  // A new communication with its first side, for dynamic matching.
  int newCommunication(Communication c) {
    const int id = static_cast<int>(comms_.size());
    comms_.push_back(c);
    sidesPosted_.push_back(0);
    waiters_.emplace_back();
    recvSides_.push_back({-1, 0});
    return id;
  }

  // Dynamic matching: the send side of rank's event to `dst` (bytes, tag); its communication.
  int matchSend(int rank, const Event& e, int dst, std::uint64_t bytes) {
    const int id = static_cast<int>(comms_.size());
    const int receive = matcher_->send(rank, dst, e.tag, id);
    Communication* c;
    int comm = receive;
    if (receive < 0) {
      comm = newCommunication({rank, dst, bytes, e.tag, e.line, 0, 0, e.file});
      c = &comms_[comm];
    } else {
      c = &comms_[comm];
      c->src = rank;
      c->bytes = bytes;
      c->tag = e.tag;
      c->sendLine = e.line;
      c->sendFile = e.file;
      checkTruncation(comm);
    }
    c->eager = eager_(bytes);
    return comm;
  }

  int matchRecv(int rank, const Event& e, int src, std::uint64_t bytes) {
    const int id = static_cast<int>(comms_.size());
    const int message = matcher_->recv(rank, src, e.tag, id);
    const Side side{rank, ranks_[rank].next};
    if (message < 0) {
      const int comm = newCommunication({kAnySource, rank, 0, e.tag, 0, e.line, 0, 0});
      recvSides_[comm] = side;
      recvBytes_.resize(comms_.size(), 0);
      recvBytes_[comm] = bytes;
      return comm;
    }
    comms_[message].recvLine = e.line;
    recvSides_[message] = side;
    recvBytes_.resize(comms_.size(), 0);
    recvBytes_[message] = bytes;
    checkTruncation(message);
    return message;
  }

  void checkTruncation(int comm) const {
    const Communication& c = comms_[comm];
    if (recvBytes_[comm] >= c.bytes) return;
    const Side& r = recvSides_[comm];
    const Event& re = trace_.events[r.rank][r.event];
    failAt(trace_.fileOf(re), re.line,
           "rank " + std::to_string(c.dst) + " receives at most " +
               std::to_string(recvBytes_[comm]) + " bytes from rank " + std::to_string(c.src) +
               " but line " + std::to_string(c.sendLine) + " sends " + std::to_string(c.bytes) +
               " (message truncated)");
  }

  void postSides(int rank, const Event& e) {
    RankState& s = ranks_[rank];
    Posted& p = posted_[rank][s.next];
    if (matcher_) {
      switch (e.kind) {
        case EventKind::Send:
        case EventKind::Isend:
          p.send = matchSend(rank, e, e.peer, e.bytes);
          break;
        case EventKind::Recv:
        case EventKind::Irecv:
          p.recv = matchRecv(rank, e, e.peer, e.bytes);
          break;
        case EventKind::Sendrecv:
          p.send = matchSend(rank, e, e.peer, e.bytes);
          p.recv = matchRecv(rank, e, e.peer2, e.bytes2);
          break;
        default:
          break;
      }
    }
    if (p.send != kNone) post(p.send, s.floor);
    if (p.recv != kNone) post(p.recv, s.floor);
    if (e.kind == EventKind::Isend || e.kind == EventKind::Irecv) {
      if (s.requests.count(e.request))
        failAt(trace_.fileOf(e), e.line,
               "rank " + std::to_string(rank) + " reuses request '" + trace_.requestOf(e) +
                   "' before waiting for it");
      s.doneByAny.erase(e.request);
      s.requests[e.request] = e.kind == EventKind::Isend ? p.send : p.recv;
    }
    if (e.kind == EventKind::Wait && !s.requests.count(e.request) &&
        !s.doneByAny.count(e.request))
      failAt(trace_.fileOf(e), e.line,
             "rank " + std::to_string(rank) + " waits for request '" + trace_.requestOf(e) +
                 "' that it has not posted (or already completed)");
  }

  void retireRequests(int rank, const Event& e) {
    RankState& s = ranks_[rank];
    if (e.kind == EventKind::Wait) {
      s.requests.erase(e.request);
      s.doneByAny.erase(e.request);
    }
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
      if (other != rank) {
        ranks_[other].floor = std::max(ranks_[other].floor, b.floor);
        wake(other);
      }
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
  struct Side {
    int rank;
    std::size_t event;
  };

  const Trace& trace_;
  std::vector<std::vector<Posted>>& posted_;
  std::vector<Communication>& comms_;
  matching::Matcher* matcher_;
  std::function<bool(std::uint64_t)> eager_;
  const std::vector<int> namePlaces_;  // ByName
  std::vector<RankState> ranks_;
  std::vector<int> sidesPosted_;
  std::vector<std::vector<int>> waiters_;
  std::vector<Side> recvSides_;              // dynamic: each communication's receive side
  std::vector<std::uint64_t> recvBytes_;     // dynamic: the bytes its receive takes
  std::vector<Barrier> barriers_;
  std::deque<int> fifo_;                     // static: runnable ranks
  std::priority_queue<Queued> byFloor_;      // dynamic: runnable ranks, lowest floor first
  std::uint64_t order_ = 0;
  std::vector<std::uint8_t> queued_;
};

}  // namespace

std::string describe(const Trace& trace, const Event& e) {
  std::string text = eventName(e.kind);
  switch (e.kind) {
    case EventKind::Send:
    case EventKind::Recv:
      return text + " " + peerText(e.peer) + " " + std::to_string(e.bytes) + " " + tagText(e.tag);
    case EventKind::Isend:
    case EventKind::Irecv:
      return text + " " + peerText(e.peer) + " " + std::to_string(e.bytes) + " " + tagText(e.tag) +
             " " + trace.requestOf(e);
    case EventKind::Wait:
      return text + " " + trace.requestOf(e);
    case EventKind::Sendrecv:
      return text + " " + peerText(e.peer) + " " + std::to_string(e.bytes) + " " +
             peerText(e.peer2) + " " + std::to_string(e.bytes2) + " " + tagText(e.tag);
    default:
      return text;
  }
}

bool hasWildcards(const Trace& trace) {
  for (const auto& events : trace.events)
    for (const Event& e : events) {
      const bool receives = e.kind == EventKind::Recv || e.kind == EventKind::Irecv;
      if (receives && (e.peer == kAnySource || e.tag == kAnyTag)) return true;
      if (e.kind == EventKind::Sendrecv && (e.peer2 == kAnySource || e.tag == kAnyTag))
        return true;
    }
  return false;
}

LevelResult runLevels(const Trace& trace, std::vector<std::vector<Posted>>& posted,
                      std::vector<Communication>& comms) {
  LevelSimulation simulation(trace, posted, comms, nullptr, [](std::uint64_t) { return false; });
  simulation.run();
  return {simulation.barrierLevels()};
}

LevelResult runLevelsMatching(const Trace& trace, std::vector<Communication>& comms,
                              const std::function<bool(std::uint64_t)>& eager,
                              std::vector<std::vector<Posted>>* postedOut) {
  std::vector<bool> wildcards(static_cast<std::size_t>(trace.ranks), false);
  std::vector<std::vector<Posted>> posted(static_cast<std::size_t>(trace.ranks));
  for (int rank = 0; rank < trace.ranks; ++rank) {
    posted[rank].resize(trace.events[rank].size());
    for (const Event& e : trace.events[rank]) {
      const int source = e.kind == EventKind::Sendrecv ? e.peer2 : e.peer;
      const bool receives = e.kind == EventKind::Recv || e.kind == EventKind::Irecv ||
                            e.kind == EventKind::Sendrecv;
      if (receives && (source == kAnySource || e.tag == kAnyTag)) wildcards[rank] = true;
    }
  }
  comms.clear();
  matching::Matcher matcher(trace.ranks, std::move(wildcards));
  LevelSimulation simulation(trace, posted, comms, &matcher, eager);
  simulation.run();
  if (postedOut) *postedOut = std::move(posted);
  return {simulation.barrierLevels()};
}

}  // namespace tac3map::levels
