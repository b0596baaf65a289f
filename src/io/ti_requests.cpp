#include "ti_requests.hpp"

#include <algorithm>

namespace tac3map::reading {

namespace {
constexpr long long kTiAnySource = -333;  // MPI_ANY_SOURCE in SimGrid's smpi.h
}

void TiRequests::post(long long src, long long dst, long long tag, int request,
                      std::size_t event) {
  const std::uint64_t seq = next_++;
  live_[seq] = {src, dst, tag, request, event};
  byKey_[{src, dst, tag}].push_back(seq);
}

void TiRequests::postCollective() {
  const std::uint64_t seq = next_++;
  live_[seq] = {};
  collectives_.push_back(seq);
}

void TiRequests::erase(std::uint64_t seq) {
  live_.erase(seq);
}

std::optional<TiRequests::Live> TiRequests::takeFrom(std::deque<std::uint64_t>& queue) {
  while (!queue.empty() && !alive(queue.front())) queue.pop_front();
  if (queue.empty()) return std::nullopt;
  const std::uint64_t seq = queue.front();
  queue.pop_front();
  Live found = live_.at(seq);
  erase(seq);
  return found;
}

std::optional<TiRequests::Live> TiRequests::wait(long long src, long long dst, long long tag) {
  for (const Key& key : {Key{src, dst, tag}, Key{kTiAnySource, dst, tag}}) {
    const auto it = byKey_.find(key);
    if (it == byKey_.end()) continue;
    std::optional<Live> found = takeFrom(it->second);
    if (it->second.empty()) byKey_.erase(it);
    if (found) return found;
  }
  return takeFrom(collectives_);
}

std::optional<TiRequests::Live> TiRequests::takeLast() {
  if (live_.empty()) return std::nullopt;
  const auto last = std::prev(live_.end());
  Live found = last->second;
  live_.erase(last);
  return found;
}

void TiRequests::clear() {
  live_.clear();
  byKey_.clear();
  collectives_.clear();
}

// While a partial waitall is open nothing new is posted (the reader ends it first), so the
// requests pending are its candidates.
void TiRequests::startPartial(std::size_t count) {
  partial_ = count;
}

bool TiRequests::partialSettled() const {
  return partial_ && live_.size() <= *partial_;
}

std::vector<TiRequests::Live> TiRequests::endPartial() {
  // Not named by a wait: covered. Beyond the count, the ones posted last.
  const std::size_t skip = live_.size() > *partial_ ? live_.size() - *partial_ : 0;
  std::vector<Live> covered;
  auto it = live_.begin();
  std::advance(it, static_cast<std::ptrdiff_t>(skip));
  for (; it != live_.end();) {
    covered.push_back(it->second);
    it = live_.erase(it);
  }
  partial_.reset();
  return covered;
}

}  // namespace tac3map::reading
