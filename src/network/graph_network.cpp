// Reading machine files of kind "graph" (graph_network.hpp): nodes, links, and the route
// table, shortest (breadth-first search on Boost.Graph) or listed.
#include "tac3map/network/graph_network.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "tac3map/io/error.hpp"
#include "tac3map/io/json_input.hpp"

namespace tac3map {
namespace {

using json = nlohmann::json;

// Out-edges kept in insertion order (vecS), so a search takes a node's arcs in file order.
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                    boost::property<boost::edge_index_t, int>>;
using Edge = boost::graph_traits<Graph>::edge_descriptor;

double numberAt(const json& object, const char* key, const std::string& where,
                const std::string& source, bool positive) {
  const json& value = jsonField(object, key, where, source);
  if (!value.is_number() || !std::isfinite(value.get<double>()) ||
      (positive ? value.get<double>() <= 0 : value.get<double>() < 0))
    failIn(source, where + "." + key + ": expected a " + (positive ? "positive" : "non-negative") +
                       " number");
  return value.get<double>();
}

// The node named by `value` (a string), or an InputError at `where`.
int nodeAt(const GraphNetwork& net, const json& value, const std::string& where) {
  if (!value.is_string()) failIn(net.source, where + ": expected a node name");
  const int id = net.nodeId(value.get<std::string>());
  if (id < 0) failIn(net.source, where + ": unknown node '" + value.get<std::string>() + "'");
  return id;
}

void readNodes(const json& doc, GraphNetwork& net) {
  const json& nodes = jsonField(doc, "nodes", "top level", net.source);
  if (!nodes.is_array() || nodes.empty()) failIn(net.source, "nodes: expected a non-empty array");
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const std::string where = "nodes[" + std::to_string(i) + "]";
    if (!nodes[i].is_object()) failIn(net.source, where + ": expected an object");
    const json& name = jsonField(nodes[i], "name", where, net.source);
    if (!name.is_string() || name.get<std::string>().empty())
      failIn(net.source, where + ".name: expected a non-empty string");
    GraphNode node{name.get<std::string>(), true};
    if (nodes[i].contains("compute")) {
      if (!nodes[i]["compute"].is_boolean())
        failIn(net.source, where + ".compute: expected true or false");
      node.compute = nodes[i]["compute"].get<bool>();
    }
    if (!net.idOf.emplace(node.name, static_cast<int>(i)).second)
      failIn(net.source, where + ".name: node '" + node.name + "' twice");
    if (node.compute) net.compute.push_back(static_cast<int>(i));
    net.nodes.push_back(node);
  }
  if (net.compute.empty()) failIn(net.source, "nodes: no compute node");
  if (net.computeCount() > kMaxGraphComputeNodes)
    failIn(net.source, "nodes: " + std::to_string(net.computeCount()) + " compute nodes; at most " +
                           std::to_string(kMaxGraphComputeNodes));
}

void readLinks(const json& doc, GraphNetwork& net) {
  const json& links = jsonField(doc, "links", "top level", net.source);
  if (!links.is_array() || links.empty()) failIn(net.source, "links: expected a non-empty array");
  for (std::size_t i = 0; i < links.size(); ++i) {
    const std::string where = "links[" + std::to_string(i) + "]";
    const json& link = links[i];
    if (!link.is_object()) failIn(net.source, where + ": expected an object");
    const json& between = jsonField(link, "between", where, net.source);
    if (!between.is_array() || between.size() != 2)
      failIn(net.source, where + ".between: expected two node names");
    const int a = nodeAt(net, between[0], where + ".between[0]");
    const int b = nodeAt(net, between[1], where + ".between[1]");
    if (a == b) failIn(net.source, where + ".between: a link must join two different nodes");
    const double bandwidth = numberAt(link, "bandwidth", where, net.source, true);
    const double latency = numberAt(link, "latency", where, net.source, false);
    const double bandwidthBack = link.contains("bandwidth_back")
                                     ? numberAt(link, "bandwidth_back", where, net.source, true)
                                     : bandwidth;
    const double latencyBack = link.contains("latency_back")
                                   ? numberAt(link, "latency_back", where, net.source, false)
                                   : latency;
    std::string duplex = "full";
    if (link.contains("duplex")) {
      if (!link["duplex"].is_string() || (link["duplex"] != "full" && link["duplex"] != "half"))
        failIn(net.source, where + ".duplex: expected \"full\" or \"half\"");
      duplex = link["duplex"].get<std::string>();
    }
    // Half duplex: one capacity for both ways, the link's `bandwidth` (issue 13's rule).
    const int forward = net.capacities++;
    const int back = duplex == "half" ? forward : net.capacities++;
    net.arcs.push_back({a, b, bandwidth, latency, forward});
    net.arcs.push_back({b, a, duplex == "half" ? bandwidth : bandwidthBack, latencyBack, back});
  }
}

// Breadth-first search from `from`, taking each node's arcs in file order; the first arc
// that reaches a node is its parent, so routes are deterministic.
struct Recorder : boost::default_bfs_visitor {
  std::vector<Edge>* parent;
  std::vector<int>* depth;
  void tree_edge(Edge e, const Graph& graph) const {
    const auto to = boost::target(e, graph);
    (*parent)[to] = e;
    (*depth)[to] = (*depth)[boost::source(e, graph)] + 1;
  }
};

void shortestRoutes(GraphNetwork& net) {
  const int n = static_cast<int>(net.nodes.size()), c = net.computeCount();
  Graph g(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < net.arcs.size(); ++i)
    boost::add_edge(static_cast<std::size_t>(net.arcs[i].from),
                    static_cast<std::size_t>(net.arcs[i].to), static_cast<int>(i), g);
  const auto arcOf = boost::get(boost::edge_index, g);
  std::vector<Edge> parent(static_cast<std::size_t>(n));
  std::vector<int> depth(static_cast<std::size_t>(n));
  Recorder recorder;
  recorder.parent = &parent;
  recorder.depth = &depth;
  const auto search = [&](int from) {
    std::fill(depth.begin(), depth.end(), -1);
    depth[from] = 0;
    boost::breadth_first_search(g, static_cast<std::size_t>(from), boost::visitor(recorder));
  };
  // First the size of the table, from the depths alone: long paths between many compute nodes
  // (a chain of 4096) are refused before anything large is allocated.
  std::size_t total = 0;
  for (int i = 0; i < c; ++i) {
    search(net.compute[i]);
    for (int j = 0; j < c; ++j) {
      const int to = net.compute[j];
      if (depth[to] < 0)
        failIn(net.source, "links: no path from '" + net.nodes[net.compute[i]].name + "' to '" +
                               net.nodes[to].name + "'");
      total += static_cast<std::size_t>(depth[to]);
    }
    if (total > kMaxGraphRouteArcs)
      failIn(net.source, "links: the shortest routes would hold more than " +
                             std::to_string(kMaxGraphRouteArcs) +
                             " links in all (too many compute nodes on too long paths)");
  }
  net.routeStart.assign(static_cast<std::size_t>(c) * c + 1, 0);
  net.routeArcs.resize(total);
  std::size_t end = 0;
  for (int i = 0; i < c; ++i) {
    const int from = net.compute[i];
    search(from);
    for (int j = 0; j < c; ++j) {
      const int to = net.compute[j];
      end += static_cast<std::size_t>(depth[to]);
      std::size_t k = end;  // the path is written backwards from its last arc
      for (int v = to; v != from; v = static_cast<int>(boost::source(parent[v], g)))
        net.routeArcs[--k] = arcOf[parent[v]];
      net.routeStart[static_cast<std::size_t>(i) * c + j + 1] = end;
    }
  }
}

void tableRoutes(const json& doc, GraphNetwork& net) {
  const json& routes = jsonField(doc, "routes", "top level", net.source);
  if (!routes.is_array()) failIn(net.source, "routes: expected an array");
  const int c = net.computeCount();
  std::vector<int> indexOf(net.nodes.size(), -1);
  for (int i = 0; i < c; ++i) indexOf[net.compute[i]] = i;
  std::map<std::pair<int, int>, int> firstArc;  // the first link in file order per direction
  for (std::size_t a = net.arcs.size(); a-- > 0;)
    firstArc[{net.arcs[a].from, net.arcs[a].to}] = static_cast<int>(a);
  std::vector<std::vector<int>> table(static_cast<std::size_t>(c) * c);
  std::vector<bool> given(table.size(), false);
  for (std::size_t r = 0; r < routes.size(); ++r) {
    const std::string where = "routes[" + std::to_string(r) + "].path";
    const json& path =
        jsonField(routes[r], "path", "routes[" + std::to_string(r) + "]", net.source);
    if (!path.is_array() || path.size() < 2)
      failIn(net.source, where + ": expected at least two node names");
    std::vector<int> nodes;
    for (std::size_t k = 0; k < path.size(); ++k)
      nodes.push_back(nodeAt(net, path[k], where + "[" + std::to_string(k) + "]"));
    const int i = indexOf[nodes.front()], j = indexOf[nodes.back()];
    if (i < 0 || j < 0) failIn(net.source, where + ": a route must start and end at compute nodes");
    const std::size_t pair = static_cast<std::size_t>(i) * c + j;
    if (given[pair])
      failIn(net.source, where + ": a second route from '" + net.nodes[nodes.front()].name +
                             "' to '" + net.nodes[nodes.back()].name + "'");
    given[pair] = true;
    for (std::size_t k = 0; k + 1 < nodes.size(); ++k) {
      const auto found = firstArc.find({nodes[k], nodes[k + 1]});
      if (found == firstArc.end())
        failIn(net.source, where + "[" + std::to_string(k + 1) + "]: no link from '" +
                               net.nodes[nodes[k]].name + "' to '" + net.nodes[nodes[k + 1]].name +
                               "'");
      table[pair].push_back(found->second);
    }
  }
  net.routeStart.assign(table.size() + 1, 0);
  for (std::size_t pair = 0; pair < table.size(); ++pair) {
    const int i = static_cast<int>(pair / c), j = static_cast<int>(pair % c);
    if (i != j && !given[pair])
      failIn(net.source, "routes: no route from '" + net.nodes[net.compute[i]].name + "' to '" +
                             net.nodes[net.compute[j]].name + "' (\"table\" lists every pair)");
    net.routeArcs.insert(net.routeArcs.end(), table[pair].begin(), table[pair].end());
    net.routeStart[pair + 1] = net.routeArcs.size();
  }
}

}  // namespace

int GraphNetwork::nodeId(const std::string& wanted) const {
  const auto it = idOf.find(wanted);
  return it == idOf.end() ? -1 : it->second;
}

GraphNetwork parseGraphNetwork(const std::string& text, const std::string& source) {
  const json doc = parseJson(text, source);
  GraphNetwork net;
  net.source = source;
  if (!doc.is_object()) failIn(source, "top level: expected a JSON object");
  const json& kind = jsonField(doc, "kind", "top level", source);
  if (kind != "graph") failIn(source, "kind: expected \"graph\"");
  net.name =
      doc.contains("name") && doc["name"].is_string() ? doc["name"].get<std::string>() : source;
  readNodes(doc, net);
  readLinks(doc, net);
  std::string routing = "shortest";
  if (doc.contains("routing")) {
    if (doc["routing"] != "shortest" && doc["routing"] != "table")
      failIn(source, "routing: expected \"shortest\" or \"table\"");
    routing = doc["routing"].get<std::string>();
  }
  if (routing == "shortest") {
    shortestRoutes(net);
  } else {
    tableRoutes(doc, net);
  }
  return net;
}

GraphNetwork loadGraphNetwork(const std::string& path) {
  return parseGraphNetwork(readWholeFile(path), path);
}

}  // namespace tac3map
