#include "tac3map/search/incremental_compact.hpp"

#include <limits>
#include <type_traits>

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
constexpr std::uint64_t kMostMessagesPerCcs = std::numeric_limits<std::uint8_t>::max();
// Weighted loads stay below 2^15: the 16-bit pass compares signed lanes.
constexpr std::uint64_t kMostWeightedLoad = std::numeric_limits<std::int16_t>::max();

constexpr int kLongestRoute = 15;  // a row of 16 slots holds it and its length

// Several ranks per node: weighted loads on every link of the model; else counts on network
// links (the header says why).
bool weightedFor(const Model& model) {
  return model.ranksPerNode > 1;
}
// The most links a row holds, with the engine links when the loads are weighted.
int longestRow(const Network& router, const Model& model) {
  return weightedFor(model) ? ModelLinks(router, model).longestRoute() : router.longestRoute();
}
// Rows of 8 slots when routes have at most 7 links, else 16.
int rowSlotsFor(int longest) {
  return longest <= 7 ? 8 : 16;
}

std::uint32_t roundUp(std::uint32_t n, std::uint32_t to) {
  return (n + to - 1) / to * to;
}

}  // namespace

namespace {

// One pass for both load widths: SSE2's lane maximum and equality per width (it has a signed
// 16-bit maximum only: 16-bit loads stay below 2^15, fits()).
template <class T>
std::uint32_t largestOf(const T* loads, std::uint32_t count, std::uint32_t ceiling) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2);
#ifdef __SSE2__
  const auto max = [](__m128i x, __m128i y) {
    if constexpr (sizeof(T) == 1)
      return _mm_max_epu8(x, y);
    else
      return _mm_max_epi16(x, y);
  };
  const __m128i top = sizeof(T) == 1 ? _mm_set1_epi8(static_cast<char>(ceiling))
                                     : _mm_set1_epi16(static_cast<short>(ceiling));
  __m128i most = _mm_setzero_si128();
  for (std::uint32_t i = 0; i < count; i += 64 / sizeof(T)) {
    const auto* block = reinterpret_cast<const __m128i*>(loads + i);
    most = max(max(most, _mm_loadu_si128(block)),
               max(_mm_loadu_si128(block + 1),
                   max(_mm_loadu_si128(block + 2), _mm_loadu_si128(block + 3))));
    const __m128i atTop = sizeof(T) == 1 ? _mm_cmpeq_epi8(most, top) : _mm_cmpeq_epi16(most, top);
    if (_mm_movemask_epi8(atTop) != 0) return ceiling;
  }
  alignas(16) T lanes[16 / sizeof(T)];
  _mm_store_si128(reinterpret_cast<__m128i*>(lanes), most);
  return *std::max_element(lanes, lanes + 16 / sizeof(T));
#else
  T most = 0;
  for (std::uint32_t i = 0; i < count; ++i) most = std::max(most, loads[i]);
  return std::min<std::uint32_t>(most, ceiling);
#endif
}

}  // namespace

std::uint32_t largestLoad(const std::uint8_t* loads, std::uint32_t count, std::uint32_t ceiling) {
  return largestOf(loads, count, ceiling);
}

std::uint32_t largestLoad(const std::uint16_t* loads, std::uint32_t count, std::uint32_t ceiling) {
  return largestOf(loads, count, ceiling);
}

bool CompactTac3Objective::fits(const Problem& problem, const Network& router) {
  // No overlap unions (their copies load network links only, and a union's term is not a
  // maximum of its own loads).
  if (problem.model.overlap != Overlap::None || problem.ccsCount != problem.realCcsCount ||
      problem.realCommunications != problem.communicationCount())
    return false;
  const Model& model = problem.model;
  const ModelLinks modelLinks(router, model);
  const bool weighted = weightedFor(model);
  const int longest = longestRow(router, model);
  const std::size_t n = static_cast<std::size_t>(router.nodeCount());
  if (longest > kLongestRoute) return false;
  if (n * n * rowSlotsFor(longest) * sizeof(std::uint16_t) > kRouteTableBudget) return false;
  // Every link of a box starts at one of its nodes: a bound without listing them.
  const std::uint32_t ids =
      static_cast<std::uint32_t>(weighted ? modelLinks.limit() : router.linkIdLimit());
  const std::uint32_t bytesPerLoad = weighted ? 2 : 1;
  if (roundUp(ids * bytesPerLoad, 64) > kMostScannedBytes) return false;
  const std::uint64_t weight = weighted ? modelLinks.largestWeight() : 1;
  std::vector<std::uint64_t> messages(problem.ccsCount, 0), size(problem.ccsCount, 0);
  for (std::size_t c = 0; c < problem.communicationCount(); ++c) {
    const int t = problem.ccs[c];
    if (++messages[t] > kMostMessagesPerCcs || messages[t] * weight > kMostWeightedLoad)
      return false;
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
      weighted_(weightedFor(problem.model)),
      rowSlots_(rowSlotsFor(longestRow(router, problem.model))),
      linkWeight_(weighted_ ? 1 : problem.model.linkWeight) {
  // The links a message from p to q loads and their weights: with weighted loads the model's
  // (network, engine and memory links), else the network's, each counting 1.
  const ModelLinks model(router, problem.model);
  const auto forEachLink = [&](int p, int q, auto&& visit) {
    if (weighted_)
      model.forEachLink(p, q, visit);
    else
      router.forEachLink(p, q, [&](LinkId l) { visit(l, 1u); });
  };
  // Links get dense ids in the order routes first use them; links no route uses get none.
  std::vector<int> dense(weighted_ ? model.limit() : router.linkIdLimit(), -1);
  int links = 0;
  routes_.assign(static_cast<std::size_t>(nodes_) * nodes_ * rowSlots_, 0);
  for (int p = 0; p < nodes_; ++p)
    for (int q = 0; q < nodes_; ++q) {
      std::uint16_t* row = routes_.data() + (static_cast<std::size_t>(p) * nodes_ + q) * rowSlots_;
      std::uint16_t length = 0;
      forEachLink(p, q, [&](LinkId l, std::uint32_t w) {
        if (dense[l] < 0) {
          dense[l] = links++;
          weight_.push_back(static_cast<std::uint16_t>(w));
        }
        row[length++] = static_cast<std::uint16_t>(dense[l]);
      });
      row[rowSlots_ - 1] = length;
    }
  scanned_ = roundUp(static_cast<std::uint32_t>(links), weighted_ ? 32 : 64);
  weight_.resize(scanned_, 0);
  messageStart_.push_back(0);
  for (int task = 0; task < problem.tasks; ++task) {
    for (const int* c = placement_.incidentBegin(task); c != placement_.incidentEnd(task); ++c)
      messages_.push_back({problem.ccs[*c], problem.src[*c], problem.dst[*c],
                           problem.src[*c] == task ? problem.dst[*c] : problem.src[*c]});
    messageStart_.push_back(static_cast<std::uint32_t>(messages_.size()));
    now_.push_back(offsetsOf(placement_.nodeOf(task)));
  }
  after_ = now_;
  // A move re-routes the communications of its two tasks, each from its old route to its new
  // one; the last row copied may spill a whole row past the end of the list.
  links_.resize((4 * placement_.mostIncident() + 1) * static_cast<std::size_t>(rowSlots_));

  const int ccsCount = problem.ccsCount;
  if (weighted_)
    wideLoad_.assign(static_cast<std::size_t>(ccsCount) * scanned_, 0);
  else
    load_.assign(static_cast<std::size_t>(ccsCount) * scanned_, 0);
  maxLoad_.assign(ccsCount, 0);
  size_.assign(ccsCount, 0);
  nodeFloor_.assign(ccsCount, 0);
  const std::uint64_t pairWeight = std::uint64_t{linkWeight_} * linkWeight_;
  for (std::size_t c = 0; c < problem.communicationCount(); ++c) {
    const int t = problem.ccs[c];
    size_[t] = problem.bytes[c];
    const Ends e = endsNow(static_cast<int>(c));
    const auto add = [&](auto* load) {
      forEachLink(e.p, e.q, [&](LinkId l, std::uint32_t w) {
        const std::uint32_t before = load[dense[l]];
        load[dense[l]] = static_cast<std::remove_reference_t<decltype(*load)>>(before + w);
        sharedPairs_ += before * w * pairWeight * repeats_[t];
        maxLoad_[t] = std::max(maxLoad_[t], before + w);
      });
    };
    if (weighted_)
      add(loads<true>(t));
    else
      add(loads<false>(t));
  }
  if (!weighted_ && problem.model.nodeLinks()) {
    // Per CCS and rank the messages it sends and receives (a rank's messages are listed by
    // CCS); n of them load its node's engine link with n x nodeWeight and n(n-1)/2 pairs of
    // nodeWeight^2 each.
    const std::uint64_t w = problem.model.nodeWeight;
    const auto charge = [&](int t, std::uint64_t n) {
      nodeFloor_[t] = std::max(nodeFloor_[t], n * w);
      sharedPairs_ += repeats_[t] * w * w * (n * (n - 1) / 2);
    };
    for (int task = 0; task < problem.tasks; ++task) {
      const Message* m = messages_.data() + messageStart_[task];
      const Message* const end = messages_.data() + messageStart_[task + 1];
      while (m != end) {
        const int t = m->ccs;
        std::uint64_t sent = 0, received = 0;
        for (; m != end && m->ccs == t; ++m) ++(m->src == task ? sent : received);
        charge(t, sent);
        charge(t, received);
      }
    }
  }
  for (int t = 0; t < ccsCount; ++t) cost_[t] = costOf(t, maxLoad_[t]);
  sumCosts();
}

}  // namespace tac3map
