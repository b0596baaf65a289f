// Scores the identity mapping of a trace on a box through tac3map's library, as
// `tac3map score ... identity` does: the smallest program an MPI launcher or runtime would
// write to ask tac3map about a placement. Usage: score-identity MACHINE.json SHAPE TRACE
#include <exception>
#include <iostream>

#include "tac3map/io/error.hpp"
#include "tac3map/io/number_text.hpp"
#include "tac3map/io/trace_formats.hpp"
#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/ccs.hpp"
#include "tac3map/model/model.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/model/problem.hpp"
#include "tac3map/network/machine.hpp"
#include "tac3map/network/network.hpp"
#include "tac3map/version.hpp"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: score-identity MACHINE.json SHAPE TRACE\n";
    return 2;
  }
  try {
    const tac3map::Machine machine = tac3map::loadMachine(argv[1]);
    const tac3map::Box box = tac3map::makeBox(machine, argv[2]);
    const tac3map::Model model = tac3map::makeModel(machine);  // the machine file's engines
    const tac3map::Trace trace =
        tac3map::readAnyTrace(argv[3], tac3map::parseTraceFormat("auto"), {});
    tac3map::CcsOptions options;
    options.engines = model.engines;
    const tac3map::CcsSet sets = tac3map::extractCcs(trace, options);
    const tac3map::Problem problem = tac3map::makeProblem(sets, model);
    const tac3map::Network router(machine, box);
    const tac3map::Mapping identity = tac3map::identityMapping(sets.tasks, box);
    const tac3map::Scores scores =
        tac3map::evaluate(problem, router, identity, machine.linkBandwidth);
    std::cout << "tac3map " << TAC3MAP_VERSION << ": identity of " << sets.tasks << " ranks\n"
              << "tac3 " << tac3map::exactNumber(scores.tac3) << "\n"
              << "tahb " << tac3map::exactNumber(scores.tahb) << "\n";
  } catch (const tac3map::InputError& e) {
    std::cerr << "score-identity: " << e.what() << "\n";
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "score-identity: " << e.what() << "\n";
    return 5;
  }
  return 0;
}
