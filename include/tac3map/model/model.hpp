// The contention model that the annealer, score, predict and viz share (docs/model.md).
// A CCS's messages start together and share every directed network link, every node's
// injection engines and, with several ranks per node, every node's memory. Per CCS t the cost is
//   max( max over network links l of load_t(l) x (largest message of t on l) / B,
//        max over nodes n of       load_t(n) x (largest message of t at n) / (E x B_inj),
//        max over nodes n of       mem_t(n)  x (largest message of t inside n) / B_intra )
// where load_t(n) counts the messages of t leaving (or entering) node n and mem_t(n) the
// messages of t between two ranks of n. Messages inside a node use no network link and no
// engine; they share the node's memory (one "memory" link per node), charged only when the
// model has several ranks per node and an intra-node bandwidth (else they are free). With one
// engine per node and one rank per node the node term never exceeds the link term of the same
// message (the paper's CCSs have distinct senders and receivers), so the model is the paper's
// eq. (1) exactly; it is then switched off altogether (nodeLinks() false) to keep the paper's
// setting as fast as before.
//
// Everything is kept in exact integers: a message adds `linkWeight` to each network link of
// its route, `nodeWeight` to its source's injection and its destination's ejection link, and
// `memoryWeight` to its node's memory link when it stays inside one, with
// linkWeight : nodeWeight : memoryWeight = 1 : B / (E x B_inj) : B / B_intra, so a CCS's cost
// in "link bytes" is max over links of weighted load x largest message, divided by linkWeight.
#pragma once

#include <cstdint>
#include <string>

#include "tac3map/io/enum_names.hpp"
#include "tac3map/network/machine.hpp"
#include "tac3map/network/network.hpp"

namespace tac3map {

// Whether consecutive CCSs may be in flight together (docs/model.md): none (the paper: each
// CCS starts when the previous one has finished), adjacent (every two consecutive CCSs may
// overlap), auto (adjacent where no barrier separates them, else none).
enum class Overlap { None, Adjacent, Auto };
// The names of overlap values (enum_names.hpp): parse, name, --help and choice checks.
const EnumNames<Overlap>& overlapNames();
Overlap parseOverlap(const std::string& name);
const char* overlapName(Overlap overlap);

struct Model {
  int engines = 1;       // injection engines per node (E)
  int ranksPerNode = 1;  // slots per node (K)
  std::uint32_t linkWeight = 1, nodeWeight = 1, memoryWeight = 1;
  double linkBandwidth = 0, injectionBandwidth = 0, intraNodeBandwidth = 0;
  // The machine file's latencies (seconds): per hop, and per message at its start (software
  // and end points). Mapping-independent per CCS, so tac3 leaves them out; predict uses them
  // (docs/predict.md).
  double hopLatency = 0, messageLatency = 0;
  // The MPI's software cost per message (MpiProfile::messageOverhead, LogP's o): a rank's
  // messages leave one o after another; the flow model charges it, tac3 leaves it out.
  double messageOverhead = 0;
  // How messages in flight share a link (the machine's "link_sharing"): the flow model's rule.
  LinkSharing linkSharing = LinkSharing::Equal;
  Overlap overlap = Overlap::None;

  // The node term can matter: several engines, several ranks per node, or engines slower
  // than links. Otherwise it never changes a cost and is left out.
  bool nodeLinks() const {
    return engines > 1 || ranksPerNode > 1 || engines * injectionBandwidth < linkBandwidth;
  }
  // Messages inside a node load the node's memory link: several ranks per node and a known
  // intra-node bandwidth (0: in-node messages are free, as before machine files gave one).
  // Implies nodeLinks().
  bool memoryLinks() const { return ranksPerNode > 1 && intraNodeBandwidth > 0; }
  bool isPaperSetting() const {
    return !nodeLinks() && ranksPerNode == 1 && overlap == Overlap::None;
  }
};

// The machine's model with command-line overrides: engines 0 = the machine file's value.
Model makeModel(const Machine& machine, int engines = 0, int ranksPerNode = 1,
                Overlap overlap = Overlap::None);

// The link ids of the model: the router's network links [0, networkLimit), then one injection
// link per node, then one ejection link per node (only when the model charges nodes), then one
// memory link per node (only when it charges messages inside a node, Model::memoryLinks()).
class ModelLinks {
 public:
  ModelLinks(const Network& router, const Model& model)
      : router_(router),
        network_(router.linkIdLimit()),
        nodes_(router.nodeCount()),
        nodeLinks_(model.nodeLinks()),
        memoryLinks_(model.memoryLinks()),
        linkWeight_(model.linkWeight),
        nodeWeight_(model.nodeWeight),
        memoryWeight_(model.memoryWeight) {}

  LinkId limit() const {
    return network_ + (nodeLinks_ ? 2 * nodes_ : 0) + (memoryLinks_ ? nodes_ : 0);
  }
  LinkId networkLimit() const { return network_; }
  bool isNetwork(LinkId l) const { return l < network_; }
  bool isInjection(LinkId l) const { return l >= network_ && l < network_ + nodes_; }
  bool isMemory(LinkId l) const { return memoryLinks_ && l >= network_ + 2 * nodes_; }
  int nodeOf(LinkId l) const { return (l - network_) % nodes_; }  // injection/ejection/memory
  std::uint32_t weight(LinkId l) const {
    return isNetwork(l) ? linkWeight_ : isMemory(l) ? memoryWeight_ : nodeWeight_;
  }
  std::uint32_t largestWeight() const {
    std::uint32_t w = linkWeight_;
    if (nodeLinks_ && nodeWeight_ > w) w = nodeWeight_;
    if (memoryLinks_ && memoryWeight_ > w) w = memoryWeight_;
    return w;
  }
  // The most links one route has (network hops plus the two node links; a message inside a
  // node loads one memory link, never more than that).
  int longestRoute() const {
    const int longest = router_.longestRoute() + (nodeLinks_ ? 2 : 0);
    return memoryLinks_ && longest < 1 ? 1 : longest;
  }

  // Calls visit(link, weight) for each link a message from node p to node q loads. p == q:
  // p's memory link when the model charges messages inside a node and `withNodes`, else
  // none. p != q: its network route and, when the model charges nodes and `withNodes`, p's
  // injection and q's ejection link. (`withNodes` false: phase-overlap unions, which load
  // network links only, objective.hpp.)
  template <class Visit>
  [[gnu::always_inline]] inline void forEachLink(int p, int q, Visit&& visit,
                                                 bool withNodes = true) const {
    if (p == q) {
      if (memoryLinks_ && withNodes) visit(network_ + 2 * nodes_ + p, memoryWeight_);
      return;
    }
    const std::uint32_t w = linkWeight_;
    router_.forEachLink(p, q, [&](LinkId l) { visit(l, w); });
    if (nodeLinks_ && withNodes) {
      visit(network_ + p, nodeWeight_);
      visit(network_ + nodes_ + q, nodeWeight_);
    }
  }

 private:
  const Network& router_;
  LinkId network_;
  int nodes_;
  bool nodeLinks_, memoryLinks_;
  std::uint32_t linkWeight_, nodeWeight_, memoryWeight_;
};

}  // namespace tac3map
