// The level simulation in ccs.cpp against a plain implementation of the definition in
// docs/trace-format.md: build the precedence graph edge by edge, take longest paths in
// topological order. Random deadlock-free programs mix every MPI idiom, late waits and
// barriers.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

#include "tac3map/base/random.hpp"
#include "tac3map/model/ccs.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

// Writes a random program: phases of disjoint pairs exchanging (or sending one way) with a
// random idiom; some isends are waited for one phase late; some phases end in a barrier.
std::string randomProgram(int ranks, int phases, Rng& rng) {
  std::vector<std::vector<std::string>> lines(ranks);
  std::vector<std::vector<std::string>> lateWaits(ranks);
  int request = 0;
  auto newRequest = [&request] {
    std::string name = "q";
    name += std::to_string(request++);
    return name;
  };
  for (int phase = 0; phase < phases; ++phase) {
    std::vector<int> order(ranks);
    for (int i = 0; i < ranks; ++i) order[i] = i;
    for (int i = ranks - 1; i > 0; --i) std::swap(order[i], order[rng.below(i + 1)]);
    std::vector<std::vector<std::string>> late(ranks);
    for (int k = 0; k + 1 < ranks; k += 2) {
      if (rng.below(5) == 0) continue;
      const int a = order[k], b = order[k + 1];
      const std::string bytes = std::to_string(1 + rng.below(3) * 1000);
      const std::string tag = std::to_string(rng.below(2));
      auto& la = lines[a];
      auto& lb = lines[b];
      switch (rng.below(5)) {
        case 0:  // sendrecv exchange
          la.push_back("sendrecv " + std::to_string(b) + " " + bytes + " " + std::to_string(b) +
                       " " + bytes + " " + tag);
          lb.push_back("sendrecv " + std::to_string(a) + " " + bytes + " " + std::to_string(a) +
                       " " + bytes + " " + tag);
          break;
        case 1:  // irecv + send + wait on both sides
          for (auto [self, peer] : {std::pair{a, b}, std::pair{b, a}}) {
            const std::string r = newRequest();
            lines[self].push_back("irecv " + std::to_string(peer) + " " + bytes + " " + tag + " " +
                                  r);
            lines[self].push_back("send " + std::to_string(peer) + " " + bytes + " " + tag);
            lines[self].push_back("wait " + r);
          }
          break;
        case 2:  // irecv + isend + waitall
          for (auto [self, peer] : {std::pair{a, b}, std::pair{b, a}}) {
            const std::string r = newRequest();
            const std::string s = newRequest();
            lines[self].push_back("irecv " + std::to_string(peer) + " " + bytes + " " + tag + " " +
                                  r);
            lines[self].push_back("isend " + std::to_string(peer) + " " + bytes + " " + tag + " " +
                                  s);
            // A waitall would also complete a request this rank waits for later.
            if (lateWaits[self].empty()) {
              lines[self].push_back("waitall");
            } else {
              lines[self].push_back("wait " + r);
              lines[self].push_back("wait " + s);
            }
          }
          break;
        case 3:  // one-way blocking send, received blocking
          la.push_back("send " + std::to_string(b) + " " + bytes + " " + tag);
          lb.push_back("recv " + std::to_string(a) + " " + bytes + " " + tag);
          break;
        default: {  // isend waited one phase later, received blocking
          const std::string r = newRequest();
          la.push_back("isend " + std::to_string(b) + " " + bytes + " " + tag + " " + r);
          late[a].push_back("wait " + r);
          lb.push_back("recv " + std::to_string(a) + " " + bytes + " " + tag);
        }
      }
    }
    for (int r = 0; r < ranks; ++r) {
      for (const auto& w : lateWaits[r]) lines[r].push_back(w);
      lateWaits[r] = late[r];
    }
    if (rng.below(4) == 0)
      for (auto& l : lines) l.push_back("barrier");
  }
  for (int r = 0; r < ranks; ++r)
    for (const auto& w : lateWaits[r]) lines[r].push_back(w);
  std::ostringstream out;
  out << "tac3map-trace 1\nranks " << ranks << "\n";
  for (int r = 0; r < ranks; ++r)
    for (const auto& l : lines[r]) out << r << " " << l << "\n";
  return out.str();
}

// Plain reference: levels straight from the definition, keyed by the send's line.
std::map<std::size_t, int> referenceLevels(const Trace& trace, bool eager, std::uint64_t limit) {
  // Match sides in order per (src, dst, tag).
  std::map<std::tuple<int, int, std::int64_t>, std::vector<std::size_t>> sendLines, recvLines;
  for (int r = 0; r < trace.ranks; ++r)
    for (const Event& e : trace.events[r]) {
      if (e.kind == EventKind::Send || e.kind == EventKind::Isend || e.kind == EventKind::Sendrecv)
        sendLines[{r, e.peer, e.tag}].push_back(e.line);
      if (e.kind == EventKind::Recv || e.kind == EventKind::Irecv)
        recvLines[{e.peer, r, e.tag}].push_back(e.line);
      if (e.kind == EventKind::Sendrecv) recvLines[{e.peer2, r, e.tag}].push_back(e.line);
    }
  // Communication id = (key, k); its send line identifies it.
  std::map<std::pair<std::tuple<int, int, std::int64_t>, std::size_t>, int> id;
  std::vector<std::size_t> sendLineOf;
  for (const auto& [key, list] : sendLines)
    for (std::size_t k = 0; k < list.size(); ++k) {
      id[{key, k}] = static_cast<int>(sendLineOf.size());
      sendLineOf.push_back(list[k]);
    }
  const int n = static_cast<int>(sendLineOf.size());
  std::vector<std::vector<int>> preds(n);
  // Per rank: walk events; "completed" = comms completed at blocking points so far.
  std::vector<std::vector<std::vector<int>>> completedBeforeBarrier(trace.ranks);
  std::vector<std::vector<std::vector<int>>> postedAfterBarrier(trace.ranks);
  for (int r = 0; r < trace.ranks; ++r) {
    std::map<std::tuple<int, int, std::int64_t>, std::size_t> sendCount, recvCount;
    std::vector<int> completed;
    std::map<std::string, int> live;
    std::set<std::string> eagerRequests;
    std::vector<int> sinceBarrierCompleted, sinceBarrierPosted;
    auto post = [&](int c) {
      for (int p : completed) preds[c].push_back(p);
      sinceBarrierPosted.push_back(c);
    };
    auto complete = [&](int c) {
      completed.push_back(c);
      sinceBarrierCompleted.push_back(c);
    };
    for (const Event& e : trace.events[r]) {
      int sendComm = -1, recvComm = -1;
      if (e.kind == EventKind::Send || e.kind == EventKind::Isend ||
          e.kind == EventKind::Sendrecv) {
        const auto key = std::tuple{r, e.peer, e.tag};
        sendComm = id.at({key, sendCount[key]++});
      }
      if (e.kind == EventKind::Recv || e.kind == EventKind::Irecv ||
          e.kind == EventKind::Sendrecv) {
        const auto key = std::tuple{e.kind == EventKind::Sendrecv ? e.peer2 : e.peer, r, e.tag};
        recvComm = id.at({key, recvCount[key]++});
      }
      if (sendComm >= 0) post(sendComm);
      if (recvComm >= 0) post(recvComm);
      switch (e.kind) {
        case EventKind::Send:
          if (!eager && e.bytes >= limit) complete(sendComm);
          break;
        case EventKind::Recv:
          complete(recvComm);
          break;
        case EventKind::Sendrecv:
          if (!eager && e.bytes >= limit) complete(sendComm);
          complete(recvComm);
          break;
        case EventKind::Isend:
          // An eager isend's wait completes at once: the request holds nothing.
          if (!eager && e.bytes >= limit)
            live[trace.requestOf(e)] = sendComm;
          else
            eagerRequests.insert(trace.requestOf(e));
          break;
        case EventKind::Irecv:
          live[trace.requestOf(e)] = recvComm;
          break;
        case EventKind::Wait:
          if (eagerRequests.erase(trace.requestOf(e)) == 0) {
            complete(live.at(trace.requestOf(e)));
            live.erase(trace.requestOf(e));
          }
          break;
        case EventKind::Waitall:
          for (const auto& [req, c] : live) complete(c);
          live.clear();
          eagerRequests.clear();
          break;
        case EventKind::Barrier:
          completedBeforeBarrier[r].push_back(completed);
          postedAfterBarrier[r].push_back({});
          break;
        case EventKind::Compute:
        case EventKind::Copy:
        case EventKind::Collective:  // randomProgram writes none
          break;
      }
      if (!postedAfterBarrier[r].empty() && (sendComm >= 0 || recvComm >= 0)) {
        if (sendComm >= 0) postedAfterBarrier[r].back().push_back(sendComm);
        if (recvComm >= 0) postedAfterBarrier[r].back().push_back(recvComm);
      }
    }
  }
  // Barrier k: everything completed by any rank before it precedes everything posted after
  // it by any rank (after = after barrier k, so also after later barriers).
  const std::size_t barriers =
      completedBeforeBarrier.empty() ? 0 : completedBeforeBarrier[0].size();
  for (std::size_t k = 0; k < barriers; ++k)
    for (int r = 0; r < trace.ranks; ++r)
      for (std::size_t k2 = k; k2 < barriers; ++k2)
        for (int c : postedAfterBarrier[r][k2])
          for (int q = 0; q < trace.ranks; ++q)
            for (int p : completedBeforeBarrier[q][k]) preds[c].push_back(p);
  // Longest path by repeated relaxation (the graph is acyclic and small).
  std::vector<int> level(n, 0);
  for (bool changed = true; changed;) {
    changed = false;
    for (int c = 0; c < n; ++c)
      for (int p : preds[c])
        if (level[p] + 1 > level[c]) {
          level[c] = level[p] + 1;
          changed = true;
        }
  }
  std::map<std::size_t, int> byLine;
  for (int c = 0; c < n; ++c) byLine[sendLineOf[c]] = level[c];
  return byLine;
}

TEST(CcsReference, LevelsEqualTheDefinitionOnRandomPrograms) {
  Rng rng(2024);
  for (int program = 0; program < 300; ++program) {
    const int ranks = 2 + static_cast<int>(rng.below(9));
    const bool eager = rng.below(3) == 0;
    // Sizes are 1, 1001 and 2001 bytes: a limit of 1500 makes some blocking sends eager.
    const std::uint64_t limit = rng.below(3) == 0 ? 1500 : 0;
    const std::string text = randomProgram(ranks, 1 + static_cast<int>(rng.below(6)), rng);
    const Trace trace = testing::traceFromText(text);
    CcsOptions options;
    options.eagerSends = eager;
    options.eagerLimit = limit;
    const CcsSet sets = extractCcs(trace, options);
    const auto expected = referenceLevels(trace, eager, limit);
    std::size_t seen = 0;
    for (const auto& set : sets.sets)
      for (const Communication& c : set) {
        ASSERT_EQ(c.level, expected.at(c.sendLine)) << "line " << c.sendLine << "\n" << text;
        ++seen;
      }
    ASSERT_EQ(seen, expected.size());
  }
}

}  // namespace
}  // namespace tac3map
