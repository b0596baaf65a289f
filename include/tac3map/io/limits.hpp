// tac3map's resource limits, in one place: every size a tiny input could blow up (ranks,
// nodes, axes, message bytes, communications) is checked against these before anything is
// allocated for it. docs/limits.md gives the reason for each; every limit has its own message.
#pragma once

#include <cstdint>
#include <limits>

namespace tac3map::limits {

// Nodes along one axis of a torus/mesh machine (Tofu's largest axis is 24; Blue Gene/Q's 16).
constexpr int kMaxAxisSize = 1024;

// Nodes of a torus/mesh machine: 2^22 = 4,194,304, 26 times Fugaku's 158,976. The router keeps
// per-node tables (coordinates, links: about 100 bytes a node), so this bounds a machine file
// of a few lines to a few hundred MB instead of the 99M nodes of 1024x1024x95.
constexpr long long kMaxMachineNodes = 1LL << 22;

// Ranks of a trace read without a box (ccs, convert, platform without a box): 2^20 =
// 1,048,576, about 7 times Fugaku's node count. The readers keep per-rank tables (tens of bytes
// each) before any event, so a rank id of 10^8 on one line would otherwise cost GBs.
constexpr int kMaxRanks = 1 << 20;

// Ranks of a job (a box, or a graph machine's nodes, times --ranks-per-node): the job's own
// capacity, and never more than 2^23 = 8,388,608 (Fugaku's 158,976 nodes x 48 cores is 7.6M).
constexpr int kMaxJobRanks = 1 << 23;

// Bytes of one message: below 2^62 (the readers refuse more), so that a message's bytes times
// a route weight or a collective's block count is checked with room to spare in 64 bits.
constexpr std::uint64_t kMaxMessageBytes = (std::uint64_t{1} << 62) - 1;

// Point-to-point communications after collectives are expanded: 2^24 = 16,777,216. Each costs
// about 430 bytes on its way to the search (events of both sides, the expanded copy of the
// trace, the matched communication, the Problem's arrays; measured: a 2,048-rank alltoall,
// 4.2M messages, scores in 1.8 GB), so the limit keeps a job under ~7 GB; an alltoall over N
// ranks is N(N-1) messages, so this is an alltoall over about 4,096 ranks.
constexpr std::uint64_t kMaxCommunications = std::uint64_t{1} << 24;

// Search settings read from the command line or a sweep spec. Chains and threads each hold a
// copy of the search state; more than 1024 is a typo, not a machine. Trials per temperature:
// 2^40 keeps the trial counters (trials x temperatures, summed over chains) far from 2^64.
constexpr int kMaxChains = 1024;
constexpr int kMaxThreads = 1024;
constexpr std::uint64_t kMaxTrials = std::uint64_t{1} << 40;

// Cores and sockets of one node (machine file, map --cores-per-node / --sockets-per-node), as
// written into rank files: far above any node built, small enough that core ids fit an int.
constexpr int kMaxCoresPerNode = 1 << 16;

static_assert(kMaxMachineNodes <= std::numeric_limits<int>::max() / 64,
              "node ids, link ids (nodes x 2 x axes) and slot ids stay within int");
static_assert(kMaxJobRanks <= std::numeric_limits<int>::max() / 2, "rank ids are int");
static_assert(kMaxRanks <= kMaxJobRanks, "a job holds at least what a trace alone may");

}  // namespace tac3map::limits
