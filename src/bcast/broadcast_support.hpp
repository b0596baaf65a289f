// What the broadcast files (bcast/broadcast.hpp's model, schedules and search) share. It
// includes nothing of bcast/: broadcast.cpp includes it, and modules must not loop.
#pragma once

#include <cmath>

namespace tac3map {

// Times are sums of latencies and quotients; compare them with a relative tolerance.
inline double tolerance(double t) {
  return 1e-12 + 1e-9 * std::abs(t);
}

}  // namespace tac3map
