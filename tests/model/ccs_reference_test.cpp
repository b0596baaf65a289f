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
#include "random_program.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

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
        case EventKind::Waitany:
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
    const std::string text = testing::randomProgram(ranks, 1 + static_cast<int>(rng.below(6)), rng);
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
