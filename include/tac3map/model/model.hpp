// The contention model that the annealer, score, predict and viz share (docs/model.md).
// A CCS's messages start together and share every directed network link and every node's
// injection engines. Per CCS t the cost is
//   max( max over network links l of load_t(l) x (largest message of t on l) / B,
//        max over nodes n of       load_t(n) x (largest message of t at n) / (E x B_inj) )
// where load_t(n) counts the messages of t leaving (or entering) node n. Messages between
// two ranks of one node use no link and no engine. With one engine per node and one rank per
// node the node term never exceeds the link term of the same message (the paper's CCSs have
// distinct senders and receivers), so the model is the paper's eq. (1) exactly; it is then
// switched off altogether (nodeLinks() false) to keep the paper's setting as fast as before.
//
// Everything is kept in exact integers: a message adds `linkWeight` to each network link of
// its route and `nodeWeight` to its source's injection and its destination's ejection link,
// with linkWeight / nodeWeight = E x B_inj / B, so a CCS's cost in "link bytes" is
// max over links of weighted load x largest message, divided by linkWeight.
#pragma once

#include <cstdint>
#include <string>

#include "tac3map/network/machine.hpp"
#include "tac3map/network/network.hpp"

namespace tac3map {

// Whether consecutive CCSs may be in flight together (docs/model.md): none (the paper: each
// CCS starts when the previous one has finished), adjacent (every two consecutive CCSs may
// overlap), auto (adjacent where no barrier separates them, else none).
enum class Overlap { None, Adjacent, Auto };
Overlap parseOverlap(const std::string& name);  // none | adjacent | auto
const char* overlapName(Overlap overlap);

struct Model {
  int engines = 1;       // injection engines per node (E)
  int ranksPerNode = 1;  // slots per node (K)
  std::uint32_t linkWeight = 1, nodeWeight = 1;
  double linkBandwidth = 0, injectionBandwidth = 0, intraNodeBandwidth = 0;
  Overlap overlap = Overlap::None;

  // The node term can matter: several engines, several ranks per node, or engines slower
  // than links. Otherwise it never changes a cost and is left out.
  bool nodeLinks() const {
    return engines > 1 || ranksPerNode > 1 || engines * injectionBandwidth < linkBandwidth;
  }
  bool isPaperSetting() const {
    return !nodeLinks() && ranksPerNode == 1 && overlap == Overlap::None;
  }
};

// The machine's model with command-line overrides: engines 0 = the machine file's value.
Model makeModel(const Machine& machine, int engines = 0, int ranksPerNode = 1,
                Overlap overlap = Overlap::None);

// The link ids of the model: the router's network links [0, networkLimit), then one injection
// link per node, then one ejection link per node (only when the model charges nodes).
class ModelLinks {
 public:
  ModelLinks(const Network& router, const Model& model)
      : router_(router),
        network_(router.linkIdLimit()),
        nodes_(router.nodeCount()),
        nodeLinks_(model.nodeLinks()),
        linkWeight_(model.linkWeight),
        nodeWeight_(model.nodeWeight) {}

  LinkId limit() const { return nodeLinks_ ? network_ + 2 * nodes_ : network_; }
  LinkId networkLimit() const { return network_; }
  bool isNetwork(LinkId l) const { return l < network_; }
  bool isInjection(LinkId l) const { return l >= network_ && l < network_ + nodes_; }
  int nodeOf(LinkId l) const { return (l - network_) % nodes_; }  // injection/ejection link
  std::uint32_t weight(LinkId l) const { return isNetwork(l) ? linkWeight_ : nodeWeight_; }
  std::uint32_t largestWeight() const {
    return nodeLinks_ && nodeWeight_ > linkWeight_ ? nodeWeight_ : linkWeight_;
  }
  // The most links one route has (network hops plus the two node links).
  int longestRoute() const { return router_.longestRoute() + (nodeLinks_ ? 2 : 0); }

  // Calls visit(link, weight) for each link a message from node p to node q loads: none when
  // p == q, else its network route and, when the model charges nodes and `withNodes`, p's
  // injection and q's ejection link.
  template <class Visit>
  [[gnu::always_inline]] inline void forEachLink(int p, int q, Visit&& visit,
                                                 bool withNodes = true) const {
    if (p == q) return;
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
  bool nodeLinks_;
  std::uint32_t linkWeight_, nodeWeight_;
};

}  // namespace tac3map
