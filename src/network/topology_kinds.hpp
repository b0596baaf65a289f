// The registry of network kinds (topology.hpp): a machine file's "kind" names one of them.
// Adding a kind is its implementation file (a Topology and its read function) plus one line
// in topology_kinds.cpp; tests/network/topology_kinds_test.cpp then checks it on its example.
#pragma once

#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace tac3map {

struct Machine;
class Topology;

struct TopologyKind {
  const char* name;     // the machine file's "kind"
  const char* summary;  // one line for messages and docs
  // Reads the kind's own fields of the parsed file `doc` (text: the file's text, whose lines
  // errors may quote) into `machine` (axes and routing order, link figures) and returns the
  // topology; InputError names machine.source and the field.
  std::shared_ptr<const Topology> (*read)(const nlohmann::json& doc, const std::string& text,
                                          Machine& machine);
  // A small machine file of this kind, which the registry's test builds and checks.
  const char* example;
};

// Every kind, the default ("torus": a file without "kind") first.
const std::vector<TopologyKind>& topologyKinds();

}  // namespace tac3map
