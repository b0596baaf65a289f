// The time bound of a search (map --time-limit, issue 23): one instant on the steady clock,
// set when the search phase begins (after the trace is read and routes are built), handed down
// to every phase of map — the starts and their hop-bytes searches, the chains, multilevel's
// levels, the tie-break — each of which gets a share of the time left and stops at its share's
// end, keeping the best mapping found so far. A share never ends after the deadline it was
// cut from, and time a phase leaves unused goes to the phases after it (their shares are cut
// from what is left when they begin). Without a limit nothing is ever cut, and no search reads
// the clock to decide anything: results then depend only on seed and inputs.
#pragma once

#include <algorithm>
#include <chrono>

namespace tac3map {

class Deadline {
 public:
  using Clock = std::chrono::steady_clock;

  // No limit: never expires, every share is unlimited.
  Deadline() = default;
  // `seconds` from `now`; 0 or less: no limit (as --time-limit 0).
  static Deadline after(double seconds, Clock::time_point now = Clock::now()) {
    Deadline d;
    if (seconds > 0) {
      d.limited_ = true;
      d.at_ = now + std::chrono::duration_cast<Clock::duration>(
                        std::chrono::duration<double>(std::min(seconds, kLongest)));
    }
    return d;
  }
  // The one that ends first.
  static Deadline earlier(const Deadline& a, const Deadline& b) {
    if (!a.limited_) return b;
    if (!b.limited_) return a;
    return a.at_ <= b.at_ ? a : b;
  }

  bool limited() const { return limited_; }
  Clock::time_point at() const { return at_; }
  // The instant, or the end of time without a limit (for clocks compared directly).
  Clock::time_point atOrNever() const { return limited_ ? at_ : Clock::time_point::max(); }
  bool expired(Clock::time_point now = Clock::now()) const { return limited_ && now >= at_; }
  // Seconds left (0 once expired); a very large number without a limit.
  double left(Clock::time_point now = Clock::now()) const {
    if (!limited_) return kLongest;
    return std::max(0.0, std::chrono::duration<double>(at_ - now).count());
  }

  // A phase's share: `fraction` (0..1) of the time left from `now`, ending no later than this
  // deadline. Unlimited stays unlimited.
  Deadline share(double fraction, Clock::time_point now = Clock::now()) const {
    if (!limited_) return *this;
    Deadline d = *this;
    const double f = std::clamp(fraction, 0.0, 1.0);
    d.at_ = std::min(at_, now + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(f * left(now))));
    return d;
  }
  // `seconds` earlier: what a phase must stop at so that a closing step of that length (scoring
  // its result) still ends by this deadline. Unlimited stays unlimited.
  Deadline reserve(double seconds) const {
    if (!limited_ || !(seconds > 0)) return *this;
    Deadline d = *this;
    d.at_ -= std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(std::min(seconds, kLongest)));
    return d;
  }
  // The first of `parts` phases that run one after another: an equal share of the time left
  // (the next one, cut when it begins, gets 1 / (parts - 1) of what is left then, and so on).
  Deadline split(int parts, Clock::time_point now = Clock::now()) const {
    return share(1.0 / std::max(1, parts), now);
  }

 private:
  static constexpr double kLongest = 1e9;  // seconds: about 32 years, "no limit"
  bool limited_ = false;
  Clock::time_point at_{};
};

// How map's search shares its time (docs/search.md): with --init auto the starts (building
// them and a hop-bytes search from each) get kStartsShare of the time left, the main search
// the rest; within a tac3 search with the tie-break the annealing gets kAnnealShare of its
// time and the tie-break the rest.
inline constexpr double kStartsShare = 1.0 / 3.0;
inline constexpr double kAnnealShare = 0.9;

}  // namespace tac3map
