// Where a search starts. An InitialMapper builds a complete mapping for a job from its
// pattern and its box (no search); `--init NAME` picks one, `--init auto` scores every one
// that applies (initial_mapping.hpp). A new start is one file in src/initial/ with its
// factory, a line in initialMappers(), and its test.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tac3map/mapping/allocation.hpp"
#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/problem.hpp"
#include "tac3map/network/machine.hpp"
#include "tac3map/network/network.hpp"

namespace tac3map {

// What a start may look at: the job's pattern, its box and its allocation.
struct StartContext {
  const Machine& machine;
  const Box& box;
  const Problem& problem;
  const Network& router;
  const Allocation& allocation;
  // The ranks' process grid when the user gives it (--grid 48x46x72); empty: detect it.
  std::vector<int> grid;
};

class InitialMapper {
 public:
  virtual ~InitialMapper() = default;
  virtual const char* name() const = 0;
  // What it does, in a few words, for --init's help ("" if the name says it all).
  virtual const char* description() const = 0;
  // Empty when this start can place the job, else why not (for --init NAME's error and
  // --init auto's report).
  virtual std::string whyNot(const StartContext& context) const = 0;
  // A valid mapping on the allocation's slots; only called when whyNot() is empty.
  virtual Mapping build(const StartContext& context) const = 0;
};

// Every start, in the order --init auto tries them (the first wins a tie): identity (block
// placement), round-robin, tofu-default, geometric, node-fold (K > 1: blocks of K grid cells
// folded onto the box, src/initial/node_fold.cpp), layer-fold (K > 1: a layer of ranks per
// slot, each along its own order of the box's axes, src/initial/layer_fold.cpp), graph (Scotch).
const std::vector<std::unique_ptr<InitialMapper>>& initialMappers();
// nullptr when no start has this name.
const InitialMapper* findInitialMapper(const std::string& name);

std::unique_ptr<InitialMapper> makeBlockMapper();
std::unique_ptr<InitialMapper> makeRoundRobinMapper();
std::unique_ptr<InitialMapper> makeTofuDefaultMapper();
std::unique_ptr<InitialMapper> makeGeometricMapper();
std::unique_ptr<InitialMapper> makeNodeFoldMapper();
std::unique_ptr<InitialMapper> makeLayerFoldMapper();
std::unique_ptr<InitialMapper> makeGraphMapper();

}  // namespace tac3map
