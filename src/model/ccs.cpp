#include "tac3map/model/ccs.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <tuple>
#include <unordered_map>

#include "level_simulation.hpp"
#include "tac3map/io/error.hpp"

namespace tac3map {
namespace {

using levels::kNone;
using levels::Posted;

// One posted side of a communication: where it is in the trace.
struct Side {
  int rank;
  std::size_t event;
};

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
  if (levels::hasWildcards(trace)) {
    // Which send a wildcard receive takes depends on the order the ranks post in: matched
    // as the ranks run (level_simulation.hpp).
    const auto eager = [&options](std::uint64_t bytes) { return options.eagerSend(bytes); };
    result.barrierLevels = levels::runLevelsMatching(trace, comms, eager).barrierLevels;
  } else {
    std::vector<std::vector<Posted>> posted;
    comms = matchSides(trace, posted);
    for (Communication& c : comms) c.eager = options.eagerSend(c.bytes);
    result.barrierLevels = levels::runLevels(trace, posted, comms).barrierLevels;
  }
  result.barrierAlgorithm = options.collectives.of(CollectiveOp::Barrier, 0, trace.ranks);
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
