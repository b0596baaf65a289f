#include "topology_kinds.hpp"

namespace tac3map {

// Each kind's entry (name, summary, reader, example), defined beside its Topology.
extern const TopologyKind kMeshTorusKind;  // torus_topology.cpp
extern const TopologyKind kGraphKind;      // graph_topology.cpp

const std::vector<TopologyKind>& topologyKinds() {
  static const std::vector<TopologyKind> kinds = {kMeshTorusKind, kGraphKind};
  return kinds;
}

}  // namespace tac3map
