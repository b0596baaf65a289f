// The launchers' own placements as starts: block (identity), round-robin, and Fujitsu's
// logical 3D torus order (tofu-default). What a user gets without tac3map, so --init auto
// tries them first: a search then never ends worse than the launcher's choice.
#include "tac3map/initial/initial_mapper.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/mapping/mapping_names.hpp"
#include "tac3map/network/tofu_view.hpp"

namespace tac3map {
namespace {

class BlockMapper : public InitialMapper {
 public:
  const char* name() const override { return "identity"; }
  const char* description() const override {
    return "block placement: ranks in order, K to a node";
  }
  std::string whyNot(const StartContext&) const override { return {}; }
  Mapping build(const StartContext& c) const override {
    return c.allocation.block(c.problem.tasks);
  }
};

class RoundRobinMapper : public InitialMapper {
 public:
  const char* name() const override { return "round-robin"; }
  const char* description() const override { return "ranks dealt over the nodes"; }
  std::string whyNot(const StartContext& c) const override {
    return c.allocation.slotsPerNode() > 1 ? "" : "one rank per node: the same as identity";
  }
  Mapping build(const StartContext& c) const override {
    return c.allocation.roundRobin(c.problem.tasks);
  }
};

class TofuDefaultMapper : public InitialMapper {
 public:
  const char* name() const override { return "tofu-default"; }
  const char* description() const override { return "the logical 3D torus of a Tofu box"; }
  std::string whyNot(const StartContext& c) const override {
    if (!c.allocation.isWholeBox()) return "the job is a node table, not a box";
    try {
      tofuLogicalTorus(c.machine, c.box);
    } catch (const InputError& e) {
      return e.message();  // its settings stay names in the message that quotes it
    }
    return {};
  }
  Mapping build(const StartContext& c) const override {
    return tofuDefaultMapping(c.problem.tasks, c.machine, c.box, c.allocation.slotsPerNode());
  }
};

}  // namespace

std::unique_ptr<InitialMapper> makeBlockMapper() {
  return std::make_unique<BlockMapper>();
}
std::unique_ptr<InitialMapper> makeRoundRobinMapper() {
  return std::make_unique<RoundRobinMapper>();
}
std::unique_ptr<InitialMapper> makeTofuDefaultMapper() {
  return std::make_unique<TofuDefaultMapper>();
}

}  // namespace tac3map
