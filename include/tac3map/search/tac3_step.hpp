// The step both tac3 engines take per CCS when they evaluate a move: the move's old routes go
// out of the CCS's link loads, then its new routes go in, and the step keeps the change of
// sharing pairs (the tie-break term) and the largest load a new route reaches. Out first, so
// that while the new routes go in loads only rise: a load above the old maximum is then a
// rise of the CCS's cost that no later message can undo (what early rejection relies on), and
// when the largest new load is at or above the old maximum it is the new maximum. Below it,
// the engine finds the maximum its own way (the compact one scans its bytes, the general one
// its histogram). The engines differ in how they store loads (bytes on dense links, or
// weighted 32-bit loads with histograms) and in what they record to undo a step; that is the
// `Record` callback, called with each link's load before the change.
#pragma once

#include <algorithm>
#include <cstdint>

namespace tac3map {

template <class Load>
struct Tac3Step {
  Load* load;                  // the CCS's loads, indexed by the engine's link ids
  std::int64_t pairs = 0;      // change of sum over links of w^2 C(n, 2) (weighted pairs)
  std::uint32_t addedTop = 0;  // the largest load a new route has reached

  // A message of weight w leaves link l: from n to n - w, each of the n - w others loses a
  // pair with it (w pairs each: weights count as w unit messages).
  template <class Record>
  [[gnu::always_inline]] inline void out(std::uint32_t l, std::uint32_t w, Record&& record) {
    const std::uint32_t before = load[l];
    record(l, before);
    load[l] = static_cast<Load>(before - w);
    pairs -= static_cast<std::int64_t>(before - w) * w;
  }
  // A message of weight w joins link l: it shares it with the `before` already there.
  template <class Record>
  [[gnu::always_inline]] inline void in(std::uint32_t l, std::uint32_t w, Record&& record) {
    const std::uint32_t before = load[l];
    record(l, before);
    load[l] = static_cast<Load>(before + w);
    pairs += static_cast<std::int64_t>(before) * w;
    addedTop = std::max(addedTop, before + w);
  }
  // The CCS's new largest load: addedTop when it reaches the old maximum (no other link is
  // above it), else what `below(addedTop)` finds among the links the step did not raise.
  template <class Below>
  std::uint32_t newMax(std::uint32_t oldMax, Below&& below) const {
    return addedTop >= oldMax ? addedTop : below(addedTop);
  }
};

}  // namespace tac3map
