// Collectives as point-to-point steps. The paper treats a collective by decomposing it into
// its algorithm's steps, each step a CCS; expandCollectives replaces every collective event
// of a trace by the sends and receives of the chosen algorithm (docs/trace-format.md lists
// them and the defaults), on the collective's communicator, before CCSs are extracted.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "tac3map/io/trace.hpp"
#include "tac3map/model/collective_algorithms.hpp"

namespace tac3map {

bool hasCollectives(const Trace& trace);
// Replaces collective events by point-to-point events (sendrecv, send, recv). Their tags are
// negative and unique per communicator and call, so they never match the program's own
// messages. Errors (unknown communicator, a rank outside it, a bad root) name the line.
// Collectives whose op is in `keep` stay collectives (a trace writer's format expresses them);
// the expanded ones' tags then lie beyond any the kept ones get when expanded later.
void expandCollectives(Trace& trace, const CollectiveAlgorithms& algorithms,
                       const std::set<CollectiveOp>& keep = {});
// `trace` with its collectives expanded: the trace itself when it has none, else a copy
// expanded into `storage` (the caller's trace stays as read).
const Trace& withCollectivesExpanded(const Trace& trace, const CollectiveAlgorithms& algorithms,
                                     Trace& storage);

}  // namespace tac3map
