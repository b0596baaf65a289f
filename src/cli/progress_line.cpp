#include "progress_line.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

#include "report.hpp"

namespace tac3map::cli {

ProgressLine::ProgressLine(const Progress& progress, std::uint64_t plannedTrials, const char* unit,
                           bool enabled)
    : progress_(progress), planned_(plannedTrials), unit_(unit) {
  if (enabled) thread_ = std::thread([this] { loop(); });
}

ProgressLine::~ProgressLine() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  wake_.notify_one();
  thread_.join();
  std::fputs("\r\033[K", stderr);  // leave the terminal clean for the summary
}

void ProgressLine::bound(const Deadline& deadline) {
  std::lock_guard<std::mutex> lock(mutex_);
  deadline_ = deadline;
}

void ProgressLine::loop() {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  std::optional<Clock::time_point> searchBegan;  // the trial rate is over the search's time
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, std::chrono::milliseconds(250), [this] { return done_; })) {
    const auto now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - start).count();
    const Phase phase = progress_.phase.load(std::memory_order_relaxed);
    std::string line = std::string("\r") + phaseName(phase) + ": ";
    if (phase == Phase::Starts)
      line += std::to_string(progress_.startStep.load(std::memory_order_relaxed)) + " of " +
              std::to_string(progress_.startSteps.load(std::memory_order_relaxed)) +
              " starts tried  ";
    double left = -1;  // unknown
    if ((phase == Phase::Search || phase == Phase::TieBreak) &&
        progress_.started.load(std::memory_order_relaxed)) {
      if (!searchBegan) searchBegan = now;
      const double searching = std::chrono::duration<double>(now - *searchBegan).count();
      const double trials = static_cast<double>(progress_.trials.load(std::memory_order_relaxed));
      const double rate = searching > 0 ? trials / searching : 0.0;
      if (phase == Phase::Search) {
        line += format("T %.3g  ", progress_.temperature.load(std::memory_order_relaxed));
        if (rate > 0)
          left = std::max(
              0.0, (static_cast<double>(planned_.load(std::memory_order_relaxed)) - trials) / rate);
      }
      line += format("best %.6g ", progress_.bestEnergy.load(std::memory_order_relaxed)) + unit_ +
              "  " + format("%.3g trials/s  ", rate);
    }
    line += format("%.1f s elapsed", elapsed);
    if (deadline_.limited())
      left = left < 0 ? deadline_.left(now) : std::min(left, deadline_.left(now));
    if (left >= 0) line += format("  ~%.1f s left (at most)", left);
    line += "\033[K";
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
  }
}

}  // namespace tac3map::cli
