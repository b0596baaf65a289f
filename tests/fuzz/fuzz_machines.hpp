// The two small machines the node table and mapping targets read against: a 4x3x2 torus
// (X and Z wrap, Y is a mesh) and a star of four compute nodes (a graph machine).
#pragma once

#include "tac3map/network/machine.hpp"

namespace tac3map::fuzz {

inline const Machine& torusMachine() {
  static const Machine machine = parseMachine(R"({
    "name": "fuzz-torus",
    "axes": [{"name": "X", "size": 4, "wrap": true}, {"name": "Y", "size": 3, "wrap": false},
             {"name": "Z", "size": 2, "wrap": true}],
    "routing_order": ["X", "Y", "Z"],
    "link_bandwidth": 1e9, "hop_latency": 1e-7})",
                                              "fuzz-torus.json");
  return machine;
}

inline const Machine& graphMachine() {
  static const Machine machine = parseMachine(R"({
    "name": "fuzz-star", "kind": "graph",
    "nodes": [{"name": "sw", "compute": false}, {"name": "c0"}, {"name": "c1"}, {"name": "c2"},
              {"name": "c3"}],
    "links": [{"between": ["c0", "sw"], "bandwidth": 1e8, "latency": 5e-5},
              {"between": ["c1", "sw"], "bandwidth": 1e8, "latency": 5e-5},
              {"between": ["c2", "sw"], "bandwidth": 1e8, "latency": 5e-5},
              {"between": ["c3", "sw"], "bandwidth": 1e8, "latency": 5e-5}]})",
                                              "fuzz-star.json");
  return machine;
}

}  // namespace tac3map::fuzz
