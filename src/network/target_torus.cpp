#include "tac3map/network/target_torus.hpp"

#include "tac3map/network/topology.hpp"

namespace tac3map {

// Each kind of network says what a start maps onto (torus_topology.cpp, graph_topology.cpp).
TargetTorus targetTorusOf(const Machine& machine, const Box& box) {
  return machine.topology->targetTorus(machine, box);
}

std::optional<DistanceTorus> Topology::distanceTorus(const Box& /*box*/, int /*maxAxes*/) const {
  return std::nullopt;
}

std::optional<DistanceTorus> distanceTorusOf(const Machine& machine, const Box& box, int maxAxes) {
  return machine.topology->distanceTorus(box, maxAxes);
}

}  // namespace tac3map
