// The job's box as a SimGrid platform (XML, SimGrid 4.1 DTD), so that an SMPI replay of the
// program runs on the very network tac3map scores against: one host per box node, one link
// per directed link of the box (per capacity of a graph machine, with its own bandwidth and
// latency), and one explicit route per ordered pair of hosts taken from tac3map's own Network
// (so SimGrid routes exactly as tac3map does). Each node's injection
// engines are one shared injection and one shared ejection link at the ends of its routes.
// This is how issue 11 checks that a lower score means a faster run (docs/validation.md).
#pragma once

#include <cstddef>
#include <string>

#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/mpi_profile.hpp"
#include "tac3map/network/machine.hpp"
#include "tac3map/network/network.hpp"

namespace tac3map {

// SimGrid's Full routing keeps one route per ordered pair of hosts (N^2, each as long as its
// hops): above this many routes the XML and SimGrid's start-up grow out of reach, and
// `platformXml` refuses. 1,048,576 routes = boxes of up to 1,024 nodes. Measured: the whole
// FX10 (768 nodes, 589,824 routes) is a 181 MB file that smpirun loads in 6 s and 167 MB.
constexpr std::size_t kMaxPlatformRoutes = std::size_t{1} << 20;

// Used for messages between two ranks of one node when the machine file gives no
// intra_node_bandwidth (0 = "free" for predict): fast enough never to be the bottleneck.
constexpr double kFreeIntraNodeBandwidth = 1e12;

// What smpirun needs beside the platform to run tac3map's network: CM02 without TCP
// cross-traffic (not SMPI's own model, whose bandwidth and latency factors are a fit to one
// Ethernet cluster, not a property of the machine). smpirun sets the network model on its
// command line, so a platform file cannot.
inline constexpr const char* kPlatformSmpiFlags = "--cfg=network/model:CM02 --cfg=network/crosstraffic:0";

// "n0-0-1-0-2-1": the node's box-relative coordinates, one per machine axis; on a graph
// machine the node's name.
std::string platformHostName(const Machine& machine, const Box& box, int node);

// The platform of the box. `machine.injectionEngines` and `injectionBandwidth` give the
// engines (a caller overriding them sets them first). With equal sharing (the machine's
// link_sharing) the network links carry no latency, so that SimGrid's CM02, which weighs a
// flow by its route latency, shares them equally; latency-weighted, each its hop latency.
// With `mpi`, a <config> section carries the MPI's eager limit, software cost per message and
// collective selector. Throws InputError (naming
// the machine file) when the box needs more than `maxRoutes` routes.
std::string platformXml(const Machine& machine, const Box& box, const Network& router,
                        const MpiProfile* mpi = nullptr,
                        std::size_t maxRoutes = kMaxPlatformRoutes);

// SMPI host file: line r is the host of rank r's node (a node holding several ranks appears
// once per rank).
std::string smpiHostfile(const Machine& machine, const Box& box, const Mapping& mapping);

}  // namespace tac3map
