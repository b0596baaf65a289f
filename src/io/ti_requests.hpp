// The pending requests of one rank of a SimGrid time-independent trace, as the reader tracks
// them (simgrid_ti_reader.cpp; private to src/io). SMPI names a request in a `wait` line by
// (source, destination, tag), not by a handle, and writes only a count for `waitall`, so the
// reader finds which request each completion is about here:
//  - `wait src dst tag` takes the oldest pending request with that key (SMPI's replay does
//    the same); a request posted without a known source (MPI_ANY_SOURCE, or a persistent
//    receive started with `Start`) is taken by a wait that names its source, which the reader
//    then learns;
//  - a non-blocking collective's request (`ibcast`, ...) has no key: a wait that names no
//    pending point-to-point request takes the oldest of them;
//  - `waitall N` with fewer than all pending requests completes N of them: those that no
//    `wait` line right after it names (SMPI's trace of a Waitall on the sends alone, then
//    waits on the receives one by one), else the N posted last.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

namespace tac3map::reading {

class TiRequests {
 public:
  struct Live {
    long long src = 0, dst = 0, tag = 0;  // as the trace wrote them (-333: any source)
    int request = -1;                     // Trace::requests index; -1: a collective's
    std::size_t event = 0;                // index of the posting event in the rank's events
  };

  // A point-to-point request posted by the rank's event `event`.
  void post(long long src, long long dst, long long tag, int request, std::size_t event);
  // A non-blocking collective's request.
  void postCollective();
  // `wait src dst tag`: the request it completes (removed), or nothing.
  std::optional<Live> wait(long long src, long long dst, long long tag);
  // Older SimGrid's plain `wait`: the request posted last (removed), or nothing.
  std::optional<Live> takeLast();
  std::size_t size() const { return live_.size(); }
  // Every request completes (a waitall of all of them).
  void clear();

  // `waitall count` with more requests pending than `count`: remembered until the waits
  // after it say which it did not cover. Nothing may be posted while it is open.
  void startPartial(std::size_t count);
  bool partialOpen() const { return partial_.has_value(); }
  // Whether the waits since have named all but `count` of its requests: the rest it covered.
  bool partialSettled() const;
  // Ends the open partial waitall: the requests it covered, in posting order (removed).
  std::vector<Live> endPartial();

 private:
  using Key = std::tuple<long long, long long, long long>;
  bool alive(std::uint64_t seq) const { return live_.count(seq) != 0; }
  std::optional<Live> takeFrom(std::deque<std::uint64_t>& queue);
  void erase(std::uint64_t seq);

  std::map<std::uint64_t, Live> live_;  // by posting order
  std::map<Key, std::deque<std::uint64_t>> byKey_;
  std::deque<std::uint64_t> collectives_;
  std::uint64_t next_ = 0;
  std::optional<std::size_t> partial_;  // the open partial waitall's count
};

}  // namespace tac3map::reading
