// map's progress line: on a terminal only, at most four updates a second, rewritten in place.
// It names map's phase (Progress::phase: reading, starts, search, tie-break); in the search,
// the temperature, best value, trial rate and time left.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "tac3map/search/annealer.hpp"
#include "tac3map/search/deadline.hpp"

namespace tac3map::cli {

class ProgressLine {
 public:
  // `unit`: what the objective's value means; nothing is drawn unless `enabled`.
  ProgressLine(const Progress& progress, std::uint64_t plannedTrials, const char* unit,
               bool enabled);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  // The search phase's deadline (--time-limit), once it is set: the time left is at most its.
  void bound(const Deadline& deadline);
  // The search's planned trials, once the job is read (its size may change the schedule).
  void plan(std::uint64_t trials) { planned_.store(trials, std::memory_order_relaxed); }

 private:
  void loop();

  const Progress& progress_;
  std::atomic<std::uint64_t> planned_;
  const char* unit_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  Deadline deadline_;
  std::thread thread_;
};

}  // namespace tac3map::cli
