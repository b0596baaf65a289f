#include "tac3map/search/incremental_compact.hpp"

#include <limits>
#include <map>
#include <utility>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace tac3map {
namespace {

// Beyond these the route table stops fitting the caches and the pass that finds a fallen
// maximum gets long, so larger boxes go to Tac3Objective. Set, not tuned at the edge: the
// paper's boxes are far inside them.
constexpr std::size_t kRouteTableBudget = std::size_t{16} << 20;
constexpr std::uint32_t kMostScannedBytes = 4096;
constexpr int kMostMessagesPerCcs = std::numeric_limits<std::uint8_t>::max();

constexpr int kLongestRoute = 15;  // a row of 16 slots holds it and its length

// Rows of 8 slots when routes have at most 7 hops, else 16.
int rowSlotsFor(const Network& router) {
  return router.longestRoute() <= 7 ? 8 : 16;
}

std::uint32_t roundUp(std::uint32_t n, std::uint32_t to) {
  return (n + to - 1) / to * to;
}

}  // namespace

std::uint32_t largestByte(const std::uint8_t* bytes, std::uint32_t count, std::uint32_t ceiling) {
#ifdef __SSE2__
  const __m128i top = _mm_set1_epi8(static_cast<char>(ceiling));
  __m128i most = _mm_setzero_si128();
  for (std::uint32_t i = 0; i < count; i += 64) {
    const auto* block = reinterpret_cast<const __m128i*>(bytes + i);
    most = _mm_max_epu8(
        _mm_max_epu8(most, _mm_loadu_si128(block)),
        _mm_max_epu8(_mm_loadu_si128(block + 1),
                     _mm_max_epu8(_mm_loadu_si128(block + 2), _mm_loadu_si128(block + 3))));
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(most, top)) != 0) return ceiling;
  }
  alignas(16) std::uint8_t lanes[16];
  _mm_store_si128(reinterpret_cast<__m128i*>(lanes), most);
  return *std::max_element(lanes, lanes + 16);
#else
  std::uint8_t most = 0;
  for (std::uint32_t i = 0; i < count; ++i) most = std::max(most, bytes[i]);
  return std::min<std::uint32_t>(most, ceiling);
#endif
}

bool CompactTac3Objective::fits(const Problem& problem, const Network& router) {
  // One rank per node (its engine links' loads do not depend on the mapping, see the header)
  // and no overlap unions (whose copies load network links only).
  if (problem.model.ranksPerNode != 1 || problem.model.overlap != Overlap::None) return false;
  if (problem.ccsCount != problem.realCcsCount ||
      problem.realCommunications != problem.communicationCount())
    return false;
  const std::size_t n = static_cast<std::size_t>(router.nodeCount());
  if (router.longestRoute() > kLongestRoute) return false;
  if (n * n * rowSlotsFor(router) * sizeof(std::uint16_t) > kRouteTableBudget) return false;
  // Every link of a box starts at one of its nodes: a bound without listing them.
  if (roundUp(static_cast<std::uint32_t>(router.linkIdLimit()), 64) > kMostScannedBytes)
    return false;
  std::vector<int> messages(problem.ccsCount, 0);
  std::vector<std::uint64_t> size(problem.ccsCount, 0);
  for (std::size_t c = 0; c < problem.communicationCount(); ++c) {
    const int t = problem.ccs[c];
    if (++messages[t] > kMostMessagesPerCcs) return false;
    if (messages[t] > 1 && size[t] != problem.bytes[c]) return false;
    size[t] = problem.bytes[c];
  }
  return true;
}

CompactTac3Objective::CompactTac3Objective(const Problem& problem, const Network& router,
                                           const Mapping& mapping)
    : IncrementalObjective(problem, router, mapping),
      Tac3Totals(problem),
      nodes_(router.nodeCount()),
      rowSlots_(rowSlotsFor(router)),
      linkWeight_(problem.model.linkWeight) {
  // Links get dense ids in the order routes first use them; links no route uses get none.
  std::vector<int> dense(router.linkIdLimit(), -1);
  int links = 0;
  routes_.assign(static_cast<std::size_t>(nodes_) * nodes_ * rowSlots_, 0);
  for (int p = 0; p < nodes_; ++p)
    for (int q = 0; q < nodes_; ++q) {
      std::uint16_t* row = routes_.data() + (static_cast<std::size_t>(p) * nodes_ + q) * rowSlots_;
      std::uint16_t hops = 0;
      router.forEachLink(p, q, [&](LinkId l) {
        if (dense[l] < 0) dense[l] = links++;
        row[hops++] = static_cast<std::uint16_t>(dense[l]);
      });
      row[rowSlots_ - 1] = hops;
    }
  scanned_ = roundUp(static_cast<std::uint32_t>(links), 64);
  messageStart_.push_back(0);
  for (int task = 0; task < problem.tasks; ++task) {
    for (const int* c = placement_.incidentBegin(task); c != placement_.incidentEnd(task); ++c)
      messages_.push_back({problem.ccs[*c], problem.src[*c], problem.dst[*c],
                           problem.src[*c] == task ? problem.dst[*c] : problem.src[*c]});
    messageStart_.push_back(static_cast<std::uint32_t>(messages_.size()));
    now_.push_back(offsetsOf(mapping.nodeOfTask[task]));
  }
  after_ = now_;
  // A move re-routes the communications of its two tasks, each from its old route to its new
  // one; the last row copied may spill a whole row past the end of the list.
  links_.resize((4 * placement_.mostIncident() + 1) * static_cast<std::size_t>(rowSlots_));

  const int ccsCount = problem.ccsCount;
  load_.assign(static_cast<std::size_t>(ccsCount) * scanned_, 0);
  maxLoad_.assign(ccsCount, 0);
  size_.assign(ccsCount, 0);
  nodeFloor_.assign(ccsCount, 0);
  const std::uint64_t pairWeight = std::uint64_t{linkWeight_} * linkWeight_;
  for (std::size_t c = 0; c < problem.communicationCount(); ++c) {
    const int t = problem.ccs[c];
    size_[t] = problem.bytes[c];
    const Ends e = endsNow(static_cast<int>(c));
    std::uint8_t* load = loads(t);
    router.forEachLink(e.p, e.q, [&](LinkId l) {
      const std::uint32_t before = load[dense[l]]++;
      sharedPairs_ += before * pairWeight * repeats_[t];
      maxLoad_[t] = std::max(maxLoad_[t], before + 1);
    });
  }
  if (problem.model.nodeLinks()) {
    // Per CCS and rank the messages it sends and receives; a rank with n of them loads its
    // node's engine link with n x nodeWeight and n(n-1)/2 pairs of nodeWeight^2 each.
    const std::uint64_t w = problem.model.nodeWeight;
    std::map<std::pair<int, int>, std::uint64_t> sent, received;
    for (std::size_t c = 0; c < problem.communicationCount(); ++c) {
      ++sent[{problem.ccs[c], problem.src[c]}];
      ++received[{problem.ccs[c], problem.dst[c]}];
    }
    for (const auto* side : {&sent, &received})
      for (const auto& [key, n] : *side) {
        nodeFloor_[key.first] = std::max(nodeFloor_[key.first], n * w);
        sharedPairs_ += repeats_[key.first] * w * w * (n * (n - 1) / 2);
      }
  }
  for (int t = 0; t < ccsCount; ++t) cost_[t] = costOf(t, maxLoad_[t]);
  sumCosts();
}

}  // namespace tac3map
