// The SVG pictures: the layout places every node once, the document is well-formed XML, and
// each panel carries exactly the link loads of its CCS (or their per-link maximum). On graph
// machines (trees, fat-trees, dragonflies): compute nodes on the bottom row, every switch
// above, tree switches over their children.
#include "tac3map/output/viz.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

#include "tac3map/gen/cg_pattern.hpp"
#include "tac3map/gen/patterns.hpp"
#include "tac3map/gen/topologies.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/trace.hpp"
#include "tac3map/model/ccs.hpp"
#include "tac3map/model/link_loads.hpp"
#include "tac3map/network/graph_network.hpp"
#include "tac3map/output/graph_viz.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

// A small XML well-formedness check: tags nest and close, attributes are quoted, the only
// entities are the five predefined ones, one root element.
bool wellFormed(const std::string& xml, std::string& why) {
  std::vector<std::string> open;
  std::size_t i = 0, roots = 0;
  if (xml.rfind("<?xml", 0) == 0) i = xml.find("?>") + 2;
  while (i < xml.size()) {
    if (xml[i] == '&') {
      const std::size_t end = xml.find(';', i);
      const std::string entity = xml.substr(i, end == std::string::npos ? 1 : end - i + 1);
      if (!std::regex_match(entity, std::regex("&(amp|lt|gt|quot|apos);"))) {
        why = "bad entity " + entity;
        return false;
      }
      i = end + 1;
      continue;
    }
    if (xml[i] != '<') {
      if (open.empty() && !std::isspace(static_cast<unsigned char>(xml[i]))) {
        why = "text outside the root";
        return false;
      }
      ++i;
      continue;
    }
    const std::size_t end = xml.find('>', i);
    if (end == std::string::npos) {
      why = "unclosed tag";
      return false;
    }
    const std::string tag = xml.substr(i + 1, end - i - 1);
    i = end + 1;
    if (tag.empty()) {
      why = "empty tag";
      return false;
    }
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) {
        why = "</" + tag.substr(1) + "> does not close <" + (open.empty() ? "" : open.back()) + ">";
        return false;
      }
      open.pop_back();
      continue;
    }
    static const std::regex element(R"(([A-Za-z][\w-]*)(\s+[\w:-]+="[^"<]*")*\s*(/?))");
    std::smatch m;
    if (!std::regex_match(tag, m, element)) {
      why = "malformed tag <" + tag.substr(0, 60) + ">";
      return false;
    }
    if (open.empty()) ++roots;
    if (m[3].length() == 0) open.push_back(m[1]);
  }
  if (!open.empty()) why = "<" + open.back() + "> not closed";
  if (roots != 1) why = "expected one root element";
  return open.empty() && roots == 1;
}

struct Cg64 {
  Machine machine = testing::fx10();
  Box box = makeBox(machine, "2x2x2x2x3x2");
  Network router{machine, box};
  Problem problem = generateCgProblem(CgOptions{});  // 64 ranks
};

VizOptions titled(const std::string& title, bool aggregateOnly = false,
                  VizDetail detail = VizDetail::Auto) {
  VizOptions options;
  options.title = title;
  options.aggregateOnly = aggregateOnly;
  options.detail = detail;
  return options;
}

// The small multiples: the slice plane is the box's two largest axes (B across, then the
// first of the size-2 axes, X, down), one slice per combination of the others, every node in
// exactly one place; --plane picks the plane.
TEST(Viz, SliceLayoutPlacesEveryNodeOnceInThePlaneOfTheLargestAxes) {
  const Cg64 cg;
  const SliceLayout layout = sliceLayout(cg.machine, cg.box);
  EXPECT_EQ(layout.columnAxis, 4);  // B (3)
  EXPECT_EQ(layout.rowAxis, 0);     // X (2)
  EXPECT_EQ(layout.columns, 3);
  EXPECT_EQ(layout.rows, 2);
  EXPECT_EQ(layout.gridColumns * layout.gridRows, 16);  // Y, Z, A, C
  std::vector<int> others = layout.gridColumnAxes;
  others.insert(others.end(), layout.gridRowAxes.begin(), layout.gridRowAxes.end());
  std::sort(others.begin(), others.end());
  EXPECT_EQ(others, (std::vector<int>{1, 2, 3, 5}));
  std::set<std::tuple<int, int, int, int>> used;
  for (int node = 0; node < cg.box.nodeCount; ++node) {
    const SlicePlace& p = layout.place[node];
    const std::vector<int> c = cg.box.coordinatesOf(node);
    EXPECT_EQ(p.column, c[4]);
    EXPECT_EQ(p.row, c[0]);
    EXPECT_TRUE(p.gridColumn >= 0 && p.gridColumn < layout.gridColumns && p.gridRow >= 0 &&
                p.gridRow < layout.gridRows);
    used.insert({p.gridColumn, p.gridRow, p.column, p.row});
  }
  EXPECT_EQ(used.size(), static_cast<std::size_t>(cg.box.nodeCount));
  const SliceLayout xy = sliceLayout(cg.machine, cg.box, parsePlane(cg.machine, "X,Y"));
  EXPECT_EQ(xy.columnAxis, 0);
  EXPECT_EQ(xy.rowAxis, 1);
  EXPECT_EQ(xy.gridColumns * xy.gridRows, 24);
  EXPECT_THROW(parsePlane(cg.machine, "X"), InputError);
  EXPECT_THROW(parsePlane(cg.machine, "X,X"), InputError);
  EXPECT_THROW(parsePlane(cg.machine, "X,Q"), InputError);
  EXPECT_THROW(parseDetail("all"), InputError);
  EXPECT_EQ(resolveDetail(VizDetail::Auto, 256), VizDetail::Links);
  EXPECT_EQ(resolveDetail(VizDetail::Auto, 1152), VizDetail::Nodes);
  EXPECT_EQ(resolveDetail(VizDetail::Auto, 8193), VizDetail::Summary);
  EXPECT_EQ(resolveDetail(VizDetail::Links, 100000), VizDetail::Links);
}

TEST(Viz, SvgIsWellFormedAndCarriesEachCcsLoads) {
  const Cg64 cg;
  const std::vector<VizMapping> mappings = {{"random <7> & co", randomMapping(64, cg.box, 7)},
                                            {"identity", identityMapping(64, cg.box)}};
  const std::string svg =
      renderSvg(cg.machine, cg.box, cg.router, cg.problem, mappings, titled("t"));
  std::string why;
  ASSERT_TRUE(wellFormed(svg, why)) << why;

  // Loads the picture shows, per mapping and panel ("0".."3", "all").
  std::map<std::pair<std::string, std::string>, std::map<LinkId, int>> shown;
  std::map<std::string, std::map<int, int>> tasks;  // mapping -> node -> task (first panel)
  const std::regex panel(R"re(<g class="panel" data-mapping="(\d+)" data-ccs="(\w+)")re");
  const std::regex link(R"re(<path class="link" data-link="(\d+)" data-load="(\d+)")re");
  const std::regex node(R"re(<rect class="node" data-node="(\d+)" data-task="(-?\d+)")re");
  std::string mapping, ccs;
  std::istringstream lines(svg);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, panel)) mapping = m[1], ccs = m[2];
    if (std::regex_search(line, m, link)) shown[{mapping, ccs}][std::stoi(m[1])] = std::stoi(m[2]);
    if (std::regex_search(line, m, node) && ccs == "0")
      tasks[mapping][std::stoi(m[1])] = std::stoi(m[2]);
  }
  for (std::size_t k = 0; k < mappings.size(); ++k) {
    const std::string id = std::to_string(k);
    // Reference: every route walked with the router's plain route(), counted per CCS.
    std::vector<std::map<LinkId, int>> expected(cg.problem.ccsCount);
    std::map<LinkId, int> worst;
    const Mapping& m = mappings[k].mapping;
    for (std::size_t c = 0; c < cg.problem.communicationCount(); ++c)
      for (LinkId l :
           cg.router.route(m.nodeOfTask[cg.problem.src[c]], m.nodeOfTask[cg.problem.dst[c]]))
        ++expected[cg.problem.ccs[c]][l];
    for (int t = 0; t < cg.problem.ccsCount; ++t) {
      EXPECT_EQ((shown[{id, std::to_string(t)}]), expected[t]) << "mapping " << k << " ccs " << t;
      for (const auto& [l, n] : expected[t]) worst[l] = std::max(worst[l], n);
    }
    EXPECT_EQ((shown[{id, "all"}]), worst) << "mapping " << k;
    int busiest = 0;
    for (const auto& [l, n] : worst) busiest = std::max(busiest, n);
    EXPECT_EQ(busiest, evaluateExact(cg.problem, cg.router, m).maxLinkMessages);
    ASSERT_EQ(tasks[id].size(), static_cast<std::size_t>(cg.box.nodeCount));
    for (int task = 0; task < 64; ++task) EXPECT_EQ(tasks[id][m.nodeOfTask[task]], task);
  }
  EXPECT_NE(svg.find("random &lt;7&gt; &amp; co"), std::string::npos);
}

TEST(Viz, WellFormednessCheckCatchesBrokenDocuments) {
  std::string why;
  EXPECT_FALSE(wellFormed("<svg><g></svg>", why));
  EXPECT_FALSE(wellFormed("<svg><text>a & b</text></svg>", why));
  EXPECT_FALSE(wellFormed("<svg x=1></svg>", why));
  EXPECT_TRUE(wellFormed("<svg a=\"1\"><g/><text>&lt;</text></svg>", why)) << why;
}

// Several ranks per node: each node lists its ranks in slot order; free nodes say -1.
TEST(Viz, NodesListTheirRanksInSlotOrder) {
  const Cg64 cg;
  const Mapping block = randomMapping(64, cg.box, 3, 4);  // 64 ranks in 4 slots of 96 nodes
  const std::string svg =
      renderSvg(cg.machine, cg.box, cg.router, cg.problem, {{"k4", block}}, titled("t", true));
  std::string why;
  ASSERT_TRUE(wellFormed(svg, why)) << why;
  std::map<int, std::string> expected;
  for (int node = 0; node < cg.box.nodeCount; ++node) {
    std::vector<std::pair<int, int>> bySlot;  // slot, rank
    for (int task = 0; task < 64; ++task)
      if (block.nodeOfTask[task] == node) bySlot.emplace_back(block.slotOf(task), task);
    std::sort(bySlot.begin(), bySlot.end());
    std::string label;
    for (const auto& [slot, rank] : bySlot) {
      if (!label.empty()) label += ',';
      label += std::to_string(rank);
    }
    expected[node] = label.empty() ? "-1" : label;
  }
  const std::regex node(R"re(<rect class="node" data-node="(\d+)" data-task="([-0-9,]+)")re");
  int seen = 0;
  for (std::sregex_iterator it(svg.begin(), svg.end(), node), end; it != end; ++it, ++seen)
    EXPECT_EQ((*it)[2].str(), expected[std::stoi((*it)[1].str())]) << (*it)[0].str();
  EXPECT_EQ(seen, cg.box.nodeCount);  // one aggregate panel
}

// The heat scale: a colour bar from 1 to the picture's largest load, each link filled with
// the scale's colour of its load (viridis: its top yellow); no three-colour legend.
TEST(Viz, LinksAreColouredOnTheHeatScaleWithAColourBar) {
  const Cg64 cg;
  const Mapping identity = identityMapping(64, cg.box);
  const std::string svg =
      renderSvg(cg.machine, cg.box, cg.router, cg.problem, {{"identity", identity}}, titled("t"));
  const int largest = evaluateExact(cg.problem, cg.router, identity).maxLinkMessages;
  ASSERT_GE(largest, 2);
  EXPECT_NE(
      svg.find("class=\"colour-bar\" data-from=\"1\" data-to=\"" + std::to_string(largest) + "\""),
      std::string::npos);
  EXPECT_NE(svg.find("messages per link"), std::string::npos);
  EXPECT_EQ(svg.find("contention"), std::string::npos);
  const std::regex link(
      R"re(<path class="link" data-link="\d+" data-load="(\d+)" d="[^"]*" fill="(#[0-9a-f]{6})")re");
  std::map<int, std::set<std::string>> colours;
  for (std::sregex_iterator it(svg.begin(), svg.end(), link), end; it != end; ++it)
    colours[std::stoi((*it)[1].str())].insert((*it)[2].str());
  ASSERT_EQ(colours.count(1), 1u);
  EXPECT_EQ(colours[1], std::set<std::string>{"#440154"});        // the scale's bottom
  EXPECT_EQ(colours[largest], std::set<std::string>{"#fde725"});  // its top
  // One small panel per combination of Y, Z, A, C in each of the 5 panels, all labelled.
  const std::regex slice(R"re(<g class="slice" data-slice="(Y=\d Z=\d A=\d C=\d)">)re");
  std::map<std::string, int> slices;
  for (std::sregex_iterator it(svg.begin(), svg.end(), slice), end; it != end; ++it)
    ++slices[(*it)[1].str()];
  EXPECT_EQ(slices.size(), 16u);
  for (const auto& [label, count] : slices) EXPECT_EQ(count, cg.problem.realCcsCount + 1) << label;
}

// 1,152 nodes (K computer box 4x4x6x2x3x2, a 7-point stencil): by default each node is
// coloured by the busiest link leaving it, and per axis a histogram counts the loaded links
// by load; both from the model's loads (model/link_loads.hpp).
TEST(Viz, NodesLevelShowsEachNodesBusiestLinkAndPerAxisHistograms) {
  const Machine machine = loadMachine(testing::sourcePath("topologies/k-computer.json"));
  const Box box = makeBox(machine, "4x4x6x2x3x2");
  const Network router(machine, box);
  StencilOptions stencil;
  stencil.dims = {12, 12, 8};
  std::istringstream text(generateStencilTrace(stencil));
  const Problem problem = makeProblem(extractCcs(parseTrace(text, "stencil")));
  const Mapping mapping = randomMapping(1152, box, 5);
  const std::string svg =
      renderSvg(machine, box, router, problem, {{"random", mapping}}, titled("t", true));
  std::string why;
  ASSERT_TRUE(wellFormed(svg, why)) << why;
  // The model's loads: per link the largest over the CCSs.
  const LinkLoads model(problem, router, mapping);
  std::map<LinkId, int> largest;
  for (int t = 0; t < problem.realCcsCount; ++t)
    for (const auto& [link, load] : model.ofCcs(t))
      if (model.isNetwork(link))
        largest[link] = std::max(largest[link], static_cast<int>(load.messages));
  std::vector<int> busiest(box.nodeCount, 0);
  std::map<std::string, int> loadedOnAxis;
  for (const auto& [link, load] : largest) {
    busiest[router.linkSource(link)] = std::max(busiest[router.linkSource(link)], load);
    ++loadedOnAxis[machine.axes[router.linkAxis(link)].name];
  }
  const std::regex node(
      R"re(<rect class="node" data-node="(\d+)" data-task="[-0-9,]+" data-load="(\d+)")re");
  int seen = 0;
  for (std::sregex_iterator it(svg.begin(), svg.end(), node), end; it != end; ++it, ++seen)
    EXPECT_EQ(std::stoi((*it)[2].str()), busiest[std::stoi((*it)[1].str())]) << (*it)[0].str();
  EXPECT_EQ(seen, box.nodeCount);
  EXPECT_EQ(svg.find("<path class=\"link\""), std::string::npos);  // no single links
  const std::regex bar(R"re(<rect class="bar" data-axis="(\w+)" data-count="(\d+)")re");
  std::map<std::string, int> counted;
  for (std::sregex_iterator it(svg.begin(), svg.end(), bar), end; it != end; ++it)
    counted[(*it)[1].str()] += std::stoi((*it)[2].str());
  EXPECT_EQ(counted, loadedOnAxis);
  // The summary: the plane's cells hold the largest of the nodes' busiest links.
  VizOptions summaryOptions = titled("t", true, VizDetail::Summary);
  const std::string summary =
      renderSvg(machine, box, router, problem, {{"random", mapping}}, summaryOptions);
  ASSERT_TRUE(wellFormed(summary, why)) << why;
  const std::regex cell(R"re(<rect class="cell" data-load="(\d+)")re");
  int top = 0, cells = 0;
  for (std::sregex_iterator it(summary.begin(), summary.end(), cell), end; it != end; ++it, ++cells)
    top = std::max(top, std::stoi((*it)[1].str()));
  EXPECT_EQ(cells, 6 * 4);  // the Z x X plane
  EXPECT_EQ(top, *std::max_element(busiest.begin(), busiest.end()));
  EXPECT_EQ(summary.find("<rect class=\"node\""), std::string::npos);
}

// A graph machine running CG on `ranks` ranks (a power of two).
struct GraphCase {
  explicit GraphCase(const std::string& text, int ranks = 16)
      : machine(parseMachine(text, "graph.json")),
        box(makeBox(machine, machine.shapeText())),
        router(machine, box),
        problem(generateCgProblem(CgOptions{ranks})) {}
  Machine machine;
  Box box;
  Network router;
  Problem problem;
};

// The same machine file with its switches listed last and in reverse (compute nodes keep
// their order): a layout that followed file order would no longer draw a tree uncrossed.
std::string switchesReversed(const std::string& text) {
  nlohmann::json doc = nlohmann::json::parse(text), compute = nlohmann::json::array(),
                 switches = nlohmann::json::array();
  for (const auto& node : doc["nodes"])
    (node.value("compute", true) ? compute : switches).push_back(node);
  for (auto it = switches.rbegin(); it != switches.rend(); ++it) compute.push_back(*it);
  doc["nodes"] = compute;
  return doc.dump();
}

std::string xmlText(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else
      out += c;
  }
  return out;
}

// What a graph picture shows, read back from its text.
struct GraphPicture {
  using Panel = std::pair<std::string, std::string>;  // mapping, ccs
  std::map<Panel, std::map<LinkId, int>> loads;
  std::map<Panel, std::map<LinkId, std::string>> titles;  // of loaded links
  std::map<Panel, std::multiset<LinkId>> idle;
  std::map<Panel, std::multiset<int>> nodes;
  std::map<Panel, std::multiset<std::string>> switches;
  // In the first panel: centres of compute nodes (box ids) and switches (names).
  std::map<int, std::pair<double, double>> computeAt;
  std::map<std::string, std::pair<double, double>> switchAt;
};

GraphPicture readGraphPicture(const std::string& svg) {
  GraphPicture picture;
  const std::regex panel(R"re(<g class="panel" data-mapping="(\d+)" data-ccs="(\w+)")re");
  const std::regex link(
      R"re(<path class="link" data-link="(\d+)" data-load="(\d+)".*<title>(.*)</title>)re");
  const std::regex idle(R"re(<path class="idle" data-link="(\d+)")re");
  const std::regex node(
      R"re(<rect class="node" data-node="(\d+)" data-task="[-0-9,]+" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)")re");
  const std::regex sw(
      R"re(<circle class="switch" data-graph-node="\d+" data-name="([^"]+)" data-level="\d+" cx="([\d.]+)" cy="([\d.]+)")re");
  GraphPicture::Panel at;
  bool first = false;
  std::istringstream lines(svg);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, panel)) {
      first = picture.loads.empty() && picture.idle.empty() && picture.nodes.empty();
      at = {m[1], m[2]};
    }
    if (std::regex_search(line, m, link)) {
      picture.loads[at][std::stoi(m[1])] = std::stoi(m[2]);
      picture.titles[at][std::stoi(m[1])] = m[3];
    }
    if (std::regex_search(line, m, idle)) picture.idle[at].insert(std::stoi(m[1]));
    if (std::regex_search(line, m, node)) {
      picture.nodes[at].insert(std::stoi(m[1]));
      const double half = std::stod(m[4]) / 2;
      if (first)
        picture.computeAt[std::stoi(m[1])] = {std::stod(m[2]) + half, std::stod(m[3]) + half};
    }
    if (std::regex_search(line, m, sw)) {
      picture.switches[at].insert(m[1]);
      if (first) picture.switchAt[m[1]] = {std::stod(m[2]), std::stod(m[3])};
    }
  }
  return picture;
}

TEST(Viz, GraphLayoutLevelsAreHopsFromComputeNodesInBarycentreOrder) {
  const GraphNetwork tree = parseGraphNetwork(switchesReversed(treeMachine({2, 2, 4}, {{}})), "t");
  const GraphLayout layout = graphLayout(tree);
  ASSERT_EQ(layout.rows.size(), 4u);  // compute nodes, leaf switches, their parents, the root
  EXPECT_EQ(layout.rows[0], tree.compute);
  const auto names = [&](int level) {
    std::vector<std::string> out;
    for (int node : layout.rows[level]) out.push_back(tree.nodes[node].name);
    return out;
  };
  // Depth first: s0 has leaves s1 (c0-c3) and s2 (c4-c7); s3 has s4 and s5.
  EXPECT_EQ(names(1), (std::vector<std::string>{"s1", "s2", "s4", "s5"}));
  EXPECT_EQ(names(2), (std::vector<std::string>{"s0", "s3"}));
  EXPECT_EQ(names(3), (std::vector<std::string>{"root"}));
  for (std::size_t node = 0; node < tree.nodes.size(); ++node)
    EXPECT_EQ(layout.rows[layout.level[node]][layout.position[node]], static_cast<int>(node));
  // A dragonfly: every router has hosts, so all routers are one row above them.
  const GraphNetwork fly = parseGraphNetwork(dragonflyMachine(4, 2, 2, {}, {}), "d");
  const GraphLayout flat = graphLayout(fly);
  ASSERT_EQ(flat.rows.size(), 2u);
  EXPECT_EQ(flat.rows[1].size(), 8u);
}

TEST(Viz, GraphSvgCarriesEachCcsLoadsAndDrawsEveryNodeAndSwitch) {
  for (const std::string& text : {switchesReversed(fatTreeMachine(4, 2, {})),
                                  treeMachine({4, 4}, {{}}), dragonflyMachine(4, 2, 2, {}, {})}) {
    const GraphCase g(text);
    const GraphNetwork& graph = *g.machine.topology->graph();
    SCOPED_TRACE(graph.name);
    const std::vector<VizMapping> mappings = {{"random", randomMapping(16, g.box, 7)},
                                              {"identity", identityMapping(16, g.box)}};
    const std::string svg = renderSvg(g.machine, g.box, g.router, g.problem, mappings, titled("t"));
    std::string why;
    ASSERT_TRUE(wellFormed(svg, why)) << why;
    const GraphPicture picture = readGraphPicture(svg);
    std::multiset<int> allNodes;
    for (int i = 0; i < 16; ++i) allNodes.insert(i);
    std::multiset<std::string> allSwitches;
    for (const GraphNode& node : graph.nodes)
      if (!node.compute) allSwitches.insert(node.name);
    ASSERT_EQ(picture.nodes.size(), 2u * (g.problem.realCcsCount + 1));  // every panel drawn
    for (const auto& [panel, nodes] : picture.nodes) {
      EXPECT_EQ(nodes, allNodes) << panel.first << " " << panel.second;
      EXPECT_EQ(picture.switches.at(panel), allSwitches);
      // Every link once per panel: loaded or idle.
      std::multiset<LinkId> links =
          picture.idle.count(panel) ? picture.idle.at(panel) : std::multiset<LinkId>{};
      for (const auto& [link, load] : picture.loads.at(panel)) links.insert(link);
      EXPECT_EQ(links.size(), static_cast<std::size_t>(g.router.linkIdLimit()));
      EXPECT_EQ(std::set<LinkId>(links.begin(), links.end()).size(), links.size());
    }
    for (std::size_t k = 0; k < mappings.size(); ++k) {
      const std::string id = std::to_string(k);
      // Reference: every route walked with the network's plain route(), counted per CCS.
      std::vector<std::map<LinkId, int>> expected(g.problem.realCcsCount);
      std::map<LinkId, int> worst;
      const Mapping& m = mappings[k].mapping;
      for (std::size_t c = 0; c < g.problem.communicationCount(); ++c)
        for (LinkId l :
             g.router.route(m.nodeOfTask[g.problem.src[c]], m.nodeOfTask[g.problem.dst[c]]))
          ++expected[g.problem.ccs[c]][l];
      for (int t = 0; t < g.problem.realCcsCount; ++t) {
        const GraphPicture::Panel panel{id, std::to_string(t)};
        EXPECT_EQ(picture.loads.at(panel), expected[t]) << "mapping " << k << " ccs " << t;
        for (const auto& [l, n] : expected[t]) worst[l] = std::max(worst[l], n);
        for (const auto& [l, n] : expected[t])
          EXPECT_EQ(picture.titles.at(panel).at(l), xmlText(g.router.linkName(l)) + ": " +
                                                        std::to_string(n) +
                                                        (n == 1 ? " message" : " messages"));
      }
      EXPECT_EQ(picture.loads.at({id, "all"}), worst) << "mapping " << k;
    }
    // Compute nodes on the bottom row, below every switch.
    ASSERT_EQ(picture.computeAt.size(), 16u);
    ASSERT_EQ(picture.switchAt.size(), allSwitches.size());
    double lowestSwitch = 0;
    for (const auto& [name, at] : picture.switchAt)
      lowestSwitch = std::max(lowestSwitch, at.second);
    for (const auto& [node, at] : picture.computeAt) {
      EXPECT_GT(at.second, lowestSwitch) << node;
      EXPECT_EQ(at.second, picture.computeAt.at(0).second) << node;
    }
    // A leaf switch (next to compute nodes) lies over them: within their span.
    for (int s = 0; s < static_cast<int>(graph.nodes.size()); ++s) {
      if (graph.nodes[s].compute) continue;
      double low = 1e9, high = -1e9;
      for (const GraphArc& arc : graph.arcs)
        if (arc.from == s && graph.nodes[arc.to].compute) {
          const auto i = std::find(graph.compute.begin(), graph.compute.end(), arc.to);
          const double x = picture.computeAt.at(static_cast<int>(i - graph.compute.begin())).first;
          low = std::min(low, x), high = std::max(high, x);
        }
      if (low > high) continue;
      const double x = picture.switchAt.at(graph.nodes[s].name).first;
      EXPECT_TRUE(x >= low && x <= high) << graph.nodes[s].name << " at " << x;
    }
  }
}

// On a tree (switches listed out of order in the file), no two links between the same two
// rows cross: their lower ends and their upper ends come in the same left-to-right order.
TEST(Viz, GraphTreesDrawWithoutCrossings) {
  for (const std::vector<int>& arity :
       {std::vector<int>{4, 4}, std::vector<int>{2, 2, 4}, std::vector<int>{3, 2, 2}}) {
    const int ranks = arity[0] == 3 ? 8 : 16;  // 12 compute nodes: 8 ranks, some nodes free
    const GraphCase g(switchesReversed(treeMachine(arity, {{}})), ranks);
    const GraphNetwork& graph = *g.machine.topology->graph();
    const GraphPicture picture = readGraphPicture(
        renderSvg(g.machine, g.box, g.router, g.problem,
                  {{"identity", identityMapping(ranks, g.box)}}, titled("t", true)));
    ASSERT_EQ(picture.computeAt.size(), static_cast<std::size_t>(graph.computeCount()));
    const auto at = [&](int node) {
      if (!graph.nodes[node].compute) return picture.switchAt.at(graph.nodes[node].name);
      const auto i = std::find(graph.compute.begin(), graph.compute.end(), node);
      return picture.computeAt.at(static_cast<int>(i - graph.compute.begin()));
    };
    // Each link as (lower end, upper end): y grows downwards.
    std::vector<std::pair<std::pair<double, double>, std::pair<double, double>>> edges;
    for (std::size_t a = 0; a < graph.arcs.size(); a += 2) {
      auto lower = at(graph.arcs[a].from), upper = at(graph.arcs[a].to);
      if (lower.second < upper.second) std::swap(lower, upper);
      ASSERT_GT(lower.second, upper.second) << "a tree link joins two rows";
      edges.push_back({lower, upper});
    }
    int crossings = 0;
    for (const auto& [lower1, upper1] : edges)
      for (const auto& [lower2, upper2] : edges)
        if (lower1.second == lower2.second && upper1.second == upper2.second &&
            lower1.first < lower2.first && upper1.first > upper2.first)
          ++crossings;
    EXPECT_EQ(crossings, 0) << "tree " << arity.size() << " levels";
  }
}

}  // namespace
}  // namespace tac3map
