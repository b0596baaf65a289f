#include "tac3map/output/platform.hpp"

#include <charconv>
#include <vector>

#include "tac3map/io/error.hpp"
#include "tac3map/io/number_text.hpp"

namespace tac3map {
namespace {

// Machine and axis names come from a JSON file: keep them safe inside XML attributes and
// comments (no quotes, angle brackets, ampersands or double dashes).
std::string xmlSafe(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '<' || c == '>' || c == '&')
      out += '_';
    else if (c == '-' && !out.empty() && out.back() == '-')
      out += '_';
    else
      out += c;
  }
  return out;
}

struct Writer {
  std::string xml;

  void link(const std::string& id, double bandwidth, double latency, const char* sharing) {
    xml += "    <link id=\"";
    xml += id;
    xml += "\" bandwidth=\"";
    xml += exactNumber(bandwidth);
    xml += "Bps\" latency=\"";
    xml += exactNumber(latency);
    xml += "s\" sharing_policy=\"";
    xml += sharing;
    xml += "\"/>\n";
  }
  void linkRef(const std::string& id) {
    xml += "<link_ctn id=\"";
    xml += id;
    xml += "\"/>";
  }
};

}  // namespace

std::string platformHostName(const Machine& machine, const Box& box, int node) {
  return xmlSafe(machine.nodeName(box, node));
}

namespace {

// The MPI's figures as SimGrid configuration, which `smpirun -platform` reads (a --cfg given to
// smpirun still wins). The network model cannot be set here: smpirun passes its own
// network/model on the command line, so kPlatformSmpiFlags must be given to it.
std::string configXml(const MpiProfile& mpi) {
  const std::string overhead = "0:" + exactNumber(mpi.messageOverhead) + ":0";
  const std::pair<const char*, std::string> props[] = {
      {"smpi/async-small-thresh", "0"},
      {"smpi/send-is-detached-thresh", std::to_string(mpi.eagerLimit)},
      {"smpi/os", overhead},
      {"smpi/ois", overhead},
      {"smpi/or", overhead},
      {"smpi/coll-selector", xmlSafe(mpi.simgridSelector)}};
  std::string xml = "  <!-- The MPI: " + xmlSafe(mpi.name) + " (" + xmlSafe(mpi.source) +
                    "): eager below " + std::to_string(mpi.eagerLimit) + " bytes, " +
                    exactNumber(mpi.messageOverhead) +
                    " s of software a message (smpi/os, smpi/or), SimGrid's " +
                    xmlSafe(mpi.simgridSelector) + " collective selector. -->\n  <config>\n";
  for (const auto& [id, value] : props)
    xml += std::string("    <prop id=\"") + id + "\" value=\"" + value + "\"/>\n";
  return xml + "  </config>\n";
}

}  // namespace

std::string platformXml(const Machine& machine, const Box& box, const Network& router,
                        const MpiProfile* mpi, std::size_t maxRoutes) {
  const int nodes = box.nodeCount;
  const std::size_t routes = static_cast<std::size_t>(nodes) * static_cast<std::size_t>(nodes);
  if (routes > maxRoutes) {
    std::size_t largest = 0;  // the most nodes whose routes fit
    while ((largest + 1) * (largest + 1) <= maxRoutes) ++largest;
    failIn(machine.source, "box " + box.shapeText() + " has " + std::to_string(nodes) +
                               " nodes: a SimGrid platform with Full routing needs " +
                               std::to_string(routes) +
                               " routes (one per ordered pair of hosts), "
                               "more than the limit of " +
                               std::to_string(maxRoutes) + " (boxes of up to " +
                               std::to_string(largest) + " nodes; docs/validation.md)");
  }
  if (machine.injectionEngines < 1)
    failIn(machine.source,
           "injection engines must be at least 1, not " + std::to_string(machine.injectionEngines));
  const double linkBandwidth = machine.linkBandwidth;
  const double engineBandwidth =
      machine.injectionBandwidth > 0 ? machine.injectionBandwidth : linkBandwidth;
  const double injectionBandwidth = machine.injectionEngines * engineBandwidth;
  const bool capEngines = engineBandwidth < linkBandwidth;
  const bool freeIntraNode = machine.intraNodeBandwidth <= 0;
  const bool equalSharing = machine.linkSharing == LinkSharing::Equal;
  const double loopBandwidth = freeIntraNode ? kFreeIntraNodeBandwidth : machine.intraNodeBandwidth;

  std::vector<std::string> host(nodes);
  for (int node = 0; node < nodes; ++node) host[node] = platformHostName(machine, box, node);
  const int axes = router.axisCount();
  std::vector<std::string> axisName(axes);
  for (int a = 0; a < axes; ++a) axisName[a] = xmlSafe(machine.axes[a].name);
  // Every network link's name (empty: no such link), bandwidth and latency, by link id.
  std::vector<std::string> linkName(router.linkIdLimit());
  for (LinkId link = 0; link < router.linkIdLimit(); ++link)
    if (router.linkExists(link)) linkName[link] = xmlSafe(router.linkName(link));

  Writer w;
  w.xml.reserve(routes * 64 * static_cast<std::size_t>(router.longestRoute() + 3) / 2 + 4096);
  w.xml +=
      "<?xml version='1.0'?>\n"
      "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      "<platform version=\"4.1\">\n";
  if (mpi) w.xml += configXml(*mpi);
  w.xml += "  <!-- tac3map platform: machine " + xmlSafe(machine.name) + ", box " +
           box.shapeText() + " at offset " + box.offsetText() + ", " + std::to_string(nodes) +
           " nodes.\n";
  w.xml += router.platformNote(axisName);
  w.xml +=
      "       <src>:inj, " + (capEngines ? std::string("engine-cap, ") : std::string()) +
      "the network links in order, <dst>:ej.\n"
      "       Injection engines: " +
      std::to_string(machine.injectionEngines) + " x " + exactNumber(engineBandwidth) +
      " B/s: the SHARED <host>:inj and <host>:ej links carry " + exactNumber(injectionBandwidth) +
      " B/s" +
      (capEngines ? ", and the FATPIPE engine-cap link keeps each message at most one "
                    "engine's " +
                        exactNumber(engineBandwidth) + " B/s"
                  : std::string(" (one engine is not slower than a link: no per-message cap)")) +
      ".\n"
      "       Ranks on one node talk through its SHARED <host>:loop link of " +
      exactNumber(loopBandwidth) + " B/s" +
      (freeIntraNode ? " (the machine gives no intra_node_bandwidth: taken as very fast, "
                       "never the bottleneck)"
                     : std::string(" (intra_node_bandwidth)")) +
      ".\n       Per-message start-up latency (message_latency) " +
      exactNumber(machine.messageLatency) +
      " s: the latency of every <host>:inj and <host>:loop link, once per route.\n" +
      (equalSharing ? "       Links shared equally (link_sharing \"equal\"): SimGrid's CM02 "
                      "shares a link in inverse proportion to its flows' route latencies, so "
                      "the network links carry none (hop_latency " +
                          exactNumber(machine.hopLatency) +
                          " s is left out) and every route has the same latency.\n"
                    : std::string("       Links shared in inverse proportion to the route "
                                  "latencies (link_sharing \"latency-weighted\", as CM02 does); "
                                  "each network link has its hop latency.\n")) +
      "  -->\n";
  w.xml += "  <zone id=\"tac3map-box\" routing=\"Full\">\n";
  for (int node = 0; node < nodes; ++node) {
    w.xml += "    <host id=\"" + host[node] + "\" speed=\"1Gf\"/>\n";
  }
  // The per-message start-up latency once per route: on the link every route starts with
  // (a route's latency is the sum of its links').
  const double start = machine.messageLatency;
  for (int node = 0; node < nodes; ++node) {
    w.link(host[node] + ":inj", injectionBandwidth, start, "SHARED");
    w.link(host[node] + ":ej", injectionBandwidth, 0, "SHARED");
    w.link(host[node] + ":loop", loopBandwidth, start, "SHARED");
  }
  for (std::size_t link = 0; link < linkName.size(); ++link)
    if (!linkName[link].empty())
      w.link(linkName[link], router.bandwidthOf(link), equalSharing ? 0 : router.latencyOf(link),
             "SHARED");
  if (capEngines) w.link("engine-cap", engineBandwidth, 0, "FATPIPE");
  for (int p = 0; p < nodes; ++p)
    for (int q = 0; q < nodes; ++q) {
      w.xml += "    <route src=\"" + host[p] + "\" dst=\"" + host[q] + "\" symmetrical=\"NO\">";
      if (p == q) {
        w.linkRef(host[p] + ":loop");
      } else {
        w.linkRef(host[p] + ":inj");
        if (capEngines) w.linkRef("engine-cap");
        router.forEachLink(p, q, [&](LinkId link) { w.linkRef(linkName[link]); });
        w.linkRef(host[q] + ":ej");
      }
      w.xml += "</route>\n";
    }
  w.xml += "  </zone>\n</platform>\n";
  return w.xml;
}

std::string smpiHostfile(const Machine& machine, const Box& box, const Mapping& mapping) {
  std::string text;
  for (int task = 0; task < mapping.tasks(); ++task) {
    const int node = mapping.nodeOfTask[task];
    if (node < 0 || node >= box.nodeCount)
      throw InputError("rank " + std::to_string(task) + " is on node " + std::to_string(node) +
                       ", outside the box " + box.shapeText());
    text += platformHostName(machine, box, node);
    text += '\n';
  }
  return text;
}

}  // namespace tac3map
