// The link loads a mapping puts on the network under the model (model.hpp): per CCS and link,
// the weighted load, the messages and the largest message. The one place where score (the
// reference evaluator), predict and viz compute loads, so that all three see the same model.
// Cold path: plain containers, clarity first; the annealer's engines keep their own flat
// arrays and are checked against evaluateExact, which is built on this.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/model.hpp"
#include "tac3map/model/problem.hpp"
#include "tac3map/network/network.hpp"

namespace tac3map {

struct LinkLoad {
  std::uint64_t weighted = 0;  // sum of the weights of the messages on it
  std::uint64_t messages = 0;
  std::uint64_t largest = 0;  // bytes of its largest message
  std::uint32_t weight = 1;   // of one message on this link
};

class LinkLoads {
 public:
  LinkLoads(const Problem& problem, const Network& router, const Mapping& mapping);

  // The links communication c loads (network route, then its nodes' engine links; inside a
  // node its node's memory link, or none), and the loads of CCS t on each of its links.
  const std::vector<LinkId>& links(std::size_t c) const { return links_[c]; }
  const std::map<LinkId, LinkLoad>& ofCcs(int t) const { return perCcs_[t]; }
  bool isNetwork(LinkId l) const { return l < networkLimit_; }
  // Network hops of c (0 inside a node).
  int hops(std::size_t c) const { return hops_[c]; }
  // Two distinct nodes are always at least one network link apart.
  bool insideNode(std::size_t c) const { return hops_[c] == 0; }
  // How many messages' worth of time c's busiest link costs it: the largest weighted load on
  // its links over the link weight (whole numbers on network links; engines may give
  // fractions, e.g. 6 messages on 4 engines = 1.5). Inside a node: its memory link's load in
  // the same units (B / B_intra per message), 0 when the model has no memory links.
  double contention(std::size_t c) const;
  // Inside a node: the messages of c's CCS on its node's memory link (c among them), 0 when
  // the model has no memory links or c crosses the network.
  int memoryMessages(std::size_t c) const;
  // Network messages of c's busiest network link.
  int linkMessages(std::size_t c) const;
  // CCS t's cost in weighted link bytes: max over its links of weighted load x largest message.
  std::uint64_t cost(int t) const;

 private:
  const Problem& problem_;
  LinkId networkLimit_;
  std::uint32_t linkWeight_;
  std::vector<std::vector<LinkId>> links_;
  std::vector<int> hops_;
  std::vector<std::map<LinkId, LinkLoad>> perCcs_;
};

}  // namespace tac3map
