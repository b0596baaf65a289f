#include "tac3map/model/collectives.hpp"

#include <algorithm>

#include "collective_steps.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/limits.hpp"

namespace tac3map {
namespace {

// expandCollectives from `source` into `target` (the same trace, or one with every member of
// `source` but its events): each rank's events replaced by their expansion, made in one vector
// of the exact size, one rank at a time.
void expandInto(const Trace& source, Trace& target, const CollectiveAlgorithms& algorithms,
                const std::set<CollectiveOp>& keep);

}  // namespace

bool hasCollectives(const Trace& trace) {
  for (const auto& events : trace.events)
    for (const Event& e : events)
      if (e.kind == EventKind::Collective) return true;
  return false;
}

const Trace& withCollectivesExpanded(const Trace& trace, const CollectiveAlgorithms& algorithms,
                                     Trace& storage) {
  if (!hasCollectives(trace)) return trace;
  // Every member but the events (trace.hpp), which expandInto makes from the trace's: no copy
  // of the events before they are expanded.
  storage = Trace{};
  storage.source = trace.source;
  storage.files = trace.files;
  storage.ranks = trace.ranks;
  storage.ranksLine = trace.ranksLine;
  storage.comms = trace.comms;
  storage.commLines = trace.commLines;
  storage.blocks = trace.blocks;
  storage.requests = trace.requests;
  storage.commIds = trace.commIds;
  storage.events.resize(trace.events.size());
  expandInto(trace, storage, algorithms, {});
  return storage;
}

void expandCollectives(Trace& trace, const CollectiveAlgorithms& algorithms,
                       const std::set<CollectiveOp>& keep) {
  expandInto(trace, trace, algorithms, keep);
}

namespace {

void expandInto(const Trace& trace, Trace& target, const CollectiveAlgorithms& algorithms,
                const std::set<CollectiveOp>& keep) {
  // With collectives kept, the expanded ones' tags come after every tag the kept ones can get
  // when they are expanded in turn (communicator numbers up to the trace's count).
  const std::int64_t tagCommOffset =
      keep.empty() ? 0 : static_cast<std::int64_t>(trace.comms.size()) + 1;
  std::vector<int> world(trace.ranks);
  for (int r = 0; r < trace.ranks; ++r) world[r] = r;
  // Communicators numbered for tags: 0 is all ranks, then the declared ones in id order.
  std::map<std::string, std::int64_t> commNumber{{"", 0}};
  for (const auto& [id, members] : trace.comms)
    commNumber.emplace(id, static_cast<std::int64_t>(commNumber.size()));
  // A collective's communicator (its world ranks) and `rank`'s place in it, checked.
  const auto place = [&](int rank, const Event& e) -> std::pair<const std::vector<int>*, int> {
    const std::string& id = trace.commOf(e);
    const auto known = trace.comms.find(id);
    if (e.comm != 0 && known == trace.comms.end())
      failAt(trace.fileOf(e), e.line,
             "communicator " + id + " is not declared ('<rank> comm " + id + " <world ranks...>')");
    const std::vector<int>& members = e.comm == 0 ? world : known->second;
    const auto me = std::find(members.begin(), members.end(), rank);
    if (me == members.end())
      failAt(trace.fileOf(e), e.line,
             "rank " + std::to_string(rank) + " is not in communicator " + id);
    if (e.root < 0 || e.root >= static_cast<int>(members.size()))
      failAt(trace.fileOf(e), e.line,
             "root=" + std::to_string(e.root) + " is outside the communicator's 0.." +
                 std::to_string(members.size() - 1));
    const int n = static_cast<int>(members.size());
    checkStepBytes(trace, e, n, algorithmOf(algorithms, e, n, nullptr));
    return {&members, static_cast<int>(me - members.begin())};
  };
  // The v-collectives' blocks: every member's own block of each call, found by numbering a
  // communicator's collectives in program order (the k-th call of every member is one call,
  // as MPI requires). Their sum must stay a message size (limits.hpp): binomial steps carry
  // sums of blocks.
  std::map<std::pair<int, std::int64_t>, std::vector<std::uint64_t>> own;
  std::map<std::pair<int, std::int64_t>, std::uint64_t> sums;
  std::map<std::pair<int, std::int64_t>, const Event*> firstOf;
  for (int rank = 0; rank < trace.ranks; ++rank) {
    std::map<int, std::int64_t> calls;
    for (const Event& e : trace.events[rank]) {
      if (e.kind != EventKind::Collective) continue;
      const auto key = std::make_pair(e.comm, calls[e.comm]++);
      const auto [first, inserted] = firstOf.emplace(key, &e);
      const bool variable = isVariable(e.op) || isVariable(first->second->op);
      if (variable && !inserted && first->second->op != e.op)
        failAt(trace.fileOf(e), e.line,
               std::string(collectiveName(e.op)) + " here, but the same call is a " +
                   collectiveName(first->second->op) + " at " + trace.fileOf(*first->second) + ":" +
                   std::to_string(first->second->line) +
                   ": every rank must call a communicator's collectives in the same order");
      if (!isVariable(e.op)) continue;
      const auto [members, v] = place(rank, e);
      auto& blocks = own[key];
      blocks.resize(members->size());
      blocks[v] = e.bytes;
      // Each block is below 2^62 and the running sum at most 2^62: the sum cannot wrap.
      std::uint64_t& sum = sums[key];
      sum += e.bytes;
      if (sum > limits::kMaxMessageBytes)
        failLimit(trace.fileOf(e), e.line,
                  std::string(collectiveName(e.op)) +
                      ": its blocks add up to more than tac3map's limit of " +
                      std::to_string(limits::kMaxMessageBytes) +
                      " bytes a message (docs/limits.md)");
    }
  }
  const auto blocksOf = [&](const Event& e, std::int64_t call) {
    return isVariable(e.op) ? &own.at({e.comm, call}) : nullptr;
  };
  // First the size: an alltoall over N ranks is N(N-1) messages, so a few lines can ask for
  // billions. Counted without expanding, and refused at the collective whose messages pass
  // the limit, before any event is made.
  std::uint64_t sends = 0;
  std::vector<std::size_t> sizes(trace.ranks);  // each rank's events once expanded
  for (int rank = 0; rank < trace.ranks; ++rank) {
    std::map<int, std::int64_t> calls;
    for (const Event& e : trace.events[rank]) {
      if (e.kind != EventKind::Collective || keep.count(e.op)) {
        sends += e.kind == EventKind::Send || e.kind == EventKind::Isend ||
                 e.kind == EventKind::Sendrecv;
        if (e.kind == EventKind::Collective) ++calls[e.comm];
        ++sizes[rank];
        continue;
      }
      const auto [members, v] = place(rank, e);
      sizes[rank] += expandOne(nullptr, &sends, trace, e, v, *members, 0, algorithms, nullptr,
                               blocksOf(e, calls[e.comm]++));
      if (sends > limits::kMaxCommunications) {
        std::string message = collectiveName(e.op);
        message += " over ";
        message += std::to_string(members->size());
        message += " ranks: the trace's collectives expand to more than ";
        message += std::to_string(limits::kMaxCommunications);
        message += " point-to-point messages (tac3map's limit, docs/limits.md)";
        failLimit(trace.fileOf(e), e.line, message);
      }
    }
  }
  CallRequests requests(target.requests);
  for (int rank = 0; rank < trace.ranks; ++rank) {
    std::vector<Event> expanded;
    expanded.reserve(sizes[rank]);
    std::map<int, std::int64_t> calls;  // per communicator: collectives so far
    for (const Event& e : trace.events[rank]) {
      if (e.kind != EventKind::Collective || keep.count(e.op)) {
        if (e.kind == EventKind::Collective) ++calls[e.comm];
        expanded.push_back(e);
        continue;
      }
      const auto [members, v] = place(rank, e);
      const std::int64_t call = calls[e.comm]++;
      const std::int64_t tag =
          -1 - ((commNumber.at(trace.commOf(e)) + tagCommOffset) * 1000000000 + call);
      expandOne(&expanded, &sends, trace, e, v, *members, tag, algorithms, &requests,
                blocksOf(e, call));
    }
    target.events[rank] = std::move(expanded);  // in place: the rank's events are read
  }
}

}  // namespace

}  // namespace tac3map
