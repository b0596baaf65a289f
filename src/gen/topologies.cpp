// Machine files from a few parameters (gen/topologies.hpp).
#include "tac3map/gen/topologies.hpp"

#include <nlohmann/json.hpp>

#include "tac3map/io/error.hpp"
#include "tac3map/network/graph_network.hpp"

namespace tac3map {
namespace {

using json = nlohmann::json;

json link(const std::string& a, const std::string& b, const LinkSpec& spec) {
  return {{"between", {a, b}}, {"bandwidth", spec.bandwidth}, {"latency", spec.latency}};
}

// prefix + number (built with +=: g++ 12 warns falsely, -Wrestrict, on "c" + to_string).
std::string named(const char* prefix, long long number) {
  std::string name = prefix;
  name += std::to_string(number);
  return name;
}

void checkLink(const LinkSpec& spec, const std::string& what) {
  if (!(spec.bandwidth > 0) || !(spec.latency >= 0))
    throw InputError(what + ": bandwidth must be positive and latency non-negative");
}

// Compute nodes a graph machine file may have (the route table holds every pair).
constexpr long long kMaxComputeNodes = kMaxGraphComputeNodes;

void checkCount(long long computeNodes, const std::string& what) {
  if (computeNodes < 2 || computeNodes > kMaxComputeNodes)
    throw InputError(what + ": " + std::to_string(computeNodes) + " compute nodes; from 2 to " +
                     std::to_string(kMaxComputeNodes));
}

}  // namespace

std::string torusMachine(const std::vector<int>& extents, bool wrap, const LinkSpec& spec) {
  checkLink(spec, "topology torus");
  if (extents.empty())
    throw InputError("topology torus: " + settingName("sizes") + " needs at least one extent");
  json axes = json::array(), order = json::array();
  for (std::size_t a = 0; a < extents.size(); ++a) {
    if (extents[a] < 1 || extents[a] > 1024)
      throw InputError("topology torus: extents from 1 to 1024");
    const std::string name = named("A", a);
    axes.push_back({{"name", name}, {"size", extents[a]}, {"wrap", wrap}});
    order.push_back(name);
  }
  const json machine = {{"name", wrap ? "torus" : "mesh"},
                        {"axes", axes},
                        {"routing_order", order},
                        {"link_bandwidth", spec.bandwidth},
                        {"hop_latency", spec.latency}};
  return machine.dump(1) + "\n";
}

std::string treeMachine(const std::vector<int>& arity, const std::vector<LinkSpec>& links) {
  if (arity.empty() || links.empty())
    throw InputError("topology tree: " + settingName("arity") +
                     " and the link parameters need at least one level");
  long long leaves = 1;
  for (int a : arity) {
    if (a < 1) throw InputError("topology tree: every arity must be at least 1");
    leaves *= a;
    checkCount(std::min(leaves, kMaxComputeNodes + 1), "topology tree");
  }
  checkCount(leaves, "topology tree");
  for (const LinkSpec& l : links) checkLink(l, "topology tree");
  json nodes = json::array(), edges = json::array();
  int switches = 0, compute = 0;
  // Depth first, so that a subtree's compute nodes are numbered together.
  const auto grow = [&](const auto& self, const std::string& parent, std::size_t level) -> void {
    const LinkSpec& spec = links[std::min(level, links.size() - 1)];
    for (int child = 0; child < arity[level]; ++child) {
      const bool last = level + 1 == arity.size();
      const std::string name = last ? named("c", compute++) : named("s", switches++);
      nodes.push_back({{"name", name}, {"compute", last}});
      edges.push_back(link(parent, name, spec));
      if (!last) self(self, name, level + 1);
    }
  };
  nodes.push_back({{"name", "root"}, {"compute", false}});
  grow(grow, "root", 0);
  const json machine = {{"name", "tree"},
                        {"kind", "graph"},
                        {"nodes", nodes},
                        {"links", edges},
                        {"routing", "shortest"}};
  return machine.dump(1) + "\n";
}

std::string fatTreeMachine(int k, int levels, const LinkSpec& spec) {
  checkLink(spec, "topology fat-tree");
  if (k < 2 || levels < 1)
    throw InputError("topology fat-tree: " + settingName("k") + " >= 2 and " +
                     settingName("levels") + " >= 1");
  long long nodesCount = 1;
  for (int l = 0; l < levels && nodesCount <= kMaxComputeNodes; ++l) nodesCount *= k;
  checkCount(nodesCount, "topology fat-tree");
  const int n = levels, computeNodes = static_cast<int>(nodesCount),
            perLevel = computeNodes / k;  // k^(n-1) switches per level
  // A switch's label w has n - 1 base-k digits; switch (l, w) links up to (l + 1, w with
  // digit l replaced); compute node p hangs on leaf switch p / k (its digits 1 .. n-1).
  const auto switchName = [](int level, int w) {
    std::string name = named("s", level);
    name += '.';
    name += std::to_string(w);
    return name;
  };
  std::vector<int> power(n + 1, 1);
  for (int i = 1; i <= n; ++i) power[i] = power[i - 1] * k;
  const auto withDigit = [&](int w, int position, int digit) {
    return w - ((w / power[position]) % k) * power[position] + digit * power[position];
  };
  json nodes = json::array(), edges = json::array();
  for (int p = 0; p < computeNodes; ++p) nodes.push_back({{"name", named("c", p)}});
  for (int l = 0; l < n; ++l)
    for (int w = 0; w < perLevel; ++w)
      nodes.push_back({{"name", switchName(l, w)}, {"compute", false}});
  for (int p = 0; p < computeNodes; ++p)
    edges.push_back(link(named("c", p), switchName(0, p / k), spec));
  for (int l = 0; l + 1 < n; ++l)
    for (int w = 0; w < perLevel; ++w)
      for (int j = 0; j < k; ++j)
        edges.push_back(link(switchName(l, w), switchName(l + 1, withDigit(w, l, j)), spec));
  // d-mod-k: up to the level of the highest digit where source and destination differ, taking
  // at level l the up-port given by the destination's digit l (floor(d / k^l) mod k); then
  // down, where each switch is forced (its digit l becomes the destination's digit l + 1).
  // So every down link from the top serves one destination only.
  json routes = json::array();
  for (int s = 0; s < computeNodes; ++s)
    for (int d = 0; d < computeNodes; ++d) {
      if (s == d) continue;
      int top = 0;
      for (int i = 0; i < n; ++i)
        if ((s / power[i]) % k != (d / power[i]) % k) top = i;
      std::vector<std::string> path{named("c", s)};
      std::vector<int> up{s / k};
      for (int l = 0; l < top; ++l) up.push_back(withDigit(up.back(), l, (d / power[l]) % k));
      for (int l = 0; l <= top; ++l) path.push_back(switchName(l, up[l]));
      int w = up[top];
      for (int l = top - 1; l >= 0; --l) {
        w = withDigit(w, l, (d / power[l + 1]) % k);
        path.push_back(switchName(l, w));
      }
      path.push_back(named("c", d));
      routes.push_back({{"path", path}});
    }
  const json machine = {{"name", "fat-tree"}, {"kind", "graph"},    {"nodes", nodes},
                        {"links", edges},     {"routing", "table"}, {"routes", routes}};
  return machine.dump(1) + "\n";
}

std::string dragonflyMachine(int groups, int routers, int hosts, const LinkSpec& local,
                             const LinkSpec& global) {
  checkLink(local, "topology dragonfly");
  checkLink(global, "topology dragonfly");
  if (groups < 1 || routers < 1 || hosts < 1)
    throw InputError("topology dragonfly: " + settingName("groups") + ", " +
                     settingName("routers") + " and " + settingName("hosts") +
                     " must be at least 1");
  checkCount(static_cast<long long>(groups) * routers * hosts, "topology dragonfly");
  const auto router = [](int g, int r) { return named("g", g) + named("r", r); };
  json nodes = json::array(), edges = json::array();
  int c = 0;
  for (int g = 0; g < groups; ++g)
    for (int r = 0; r < routers; ++r) {
      nodes.push_back({{"name", router(g, r)}, {"compute", false}});
      for (int h = 0; h < hosts; ++h) {
        const std::string host = named("c", c++);
        nodes.push_back({{"name", host}});
        edges.push_back(link(host, router(g, r), local));
      }
    }
  for (int g = 0; g < groups; ++g)
    for (int a = 0; a < routers; ++a)
      for (int b = a + 1; b < routers; ++b)
        edges.push_back(link(router(g, a), router(g, b), local));
  std::vector<int> next(groups, 0);  // the router of each group that takes its next global link
  for (int g = 0; g < groups; ++g)
    for (int h = g + 1; h < groups; ++h)
      edges.push_back(link(router(g, next[g]++ % routers), router(h, next[h]++ % routers), global));
  const json machine = {{"name", "dragonfly"},
                        {"kind", "graph"},
                        {"nodes", nodes},
                        {"links", edges},
                        {"routing", "shortest"}};
  return machine.dump(1) + "\n";
}

}  // namespace tac3map
